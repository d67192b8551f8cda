/**
 * A typed client of the promocodes HTTP API for shop servers.
 *
 * Every type is generated from `docs/openapi.json` into `./schema.ts` (`npm run generate`); the
 * requests go through openapi-fetch. The lifecycle calls (`quote`, `hold`, `capture`, `release`)
 * answer one of three outcomes, as the API does: a receipt, a rejection (for the buyer) or a
 * conflict (for the operator: retry with the same key after `retryAfter` seconds). Anything else
 * that is not a success throws a {@link PromocodesError} with the HTTP status and the RFC 9457
 * problem document. Money stays a decimal string throughout: no amount passes through a `Number`.
 *
 * @example
 * ```ts
 * import { createClient } from "promocodes-client";
 * const pc = createClient({ baseUrl: "https://promo.example", token: process.env.CAPTURE_TOKEN! });
 * const r = await pc.capture(
 *   { code: "SAVE10", total: { amount: "80.00", currency: "EUR" }, customer: "c1" },
 *   { idempotencyKey: "pi_1" },
 * );
 * if (r.outcome === "receipt") console.log(r.receipt.quote.discount);
 * else if (r.outcome === "rejection") console.log(r.rejection.rejection, r.rejection.detail);
 * else setTimeout(retry, r.retryAfter * 1000);
 * ```
 */
import createFetchClient from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** Every schema of `docs/openapi.json`, by name (`Schemas["Receipt"]`). */
export type Schemas = components["schemas"];
/** An RFC 9457 problem document, as the API answers every error. */
export type Problem = Schemas["Problem"];
/** A `/problems/rejected` problem: `rejection` names the rule that refused (a stack adds `rejections`). */
export type Rejection = Problem & { rejection: Schemas["RejectionCode"] };

/** The request body of an operation. */
type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer B } };
} ? B : never;
/** What an operation answers on success (200 or 201), as JSON. */
type Success<Op extends keyof operations> = {
  [S in keyof operations[Op]["responses"]]: S extends 200 | 201
    ? operations[Op]["responses"][S] extends { content: { "application/json": infer B } } ? B : never
    : never;
}[keyof operations[Op]["responses"]];
/** The query parameters of an operation. */
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
/** One of an operation's success answers, by schema (`never` if the operation has no such answer). */
type Answer<Op extends keyof operations, Name extends keyof Schemas> = Extract<Success<Op>, Schemas[Name]>;
/** A request body naming one code (`code`), or a stack of codes (`codes`). */
type One<B> = Extract<B, { code: unknown }>;
type Many<B> = Extract<B, { codes: unknown }>;

/**
 * What a lifecycle call answers: exactly one of three.
 * - `receipt`: the API's success body (`status` 200 for a replay or a quote, 201 for a new write);
 * - `rejection`: a rule refused (422 `/problems/rejected`): tell the buyer (`rejection.detail`);
 * - `conflict`: every compare-and-set attempt lost (409): retry with the same idempotency key after
 *   `retryAfter` seconds; `problem` is the API's document.
 */
export type Outcome<T> =
  | { outcome: "receipt"; status: number; receipt: T }
  | { outcome: "rejection"; status: 422; rejection: Rejection }
  | { outcome: "conflict"; status: 409; retryAfter: number; problem: Problem };

/** An answer that is neither a success nor one of the three outcomes: bad input, auth, unknown code... */
export class PromocodesError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The RFC 9457 problem document, when the answer was one (`undefined` for, say, a proxy's page). */
  readonly problem: Problem | undefined;
  constructor(status: number, problem: Problem | undefined, text?: string) {
    super(problem ? `${status} ${problem.type}: ${problem.detail}` : `${status}${text ? `: ${text}` : ""}`);
    this.name = "PromocodesError";
    this.status = status;
    this.problem = problem;
  }
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The Worker's origin, e.g. `https://promo.example` (no trailing `/v1`). */
  baseUrl: string;
  /** `CAPTURE_TOKEN` for the lifecycle calls, `ADMIN_TOKEN` for codes and campaigns (it may do both). */
  token?: string;
  /** A `fetch` of your own (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** The `Idempotency-Key` of a hold, a capture or a campaign's codes: use a fact of the payment (its id). */
export interface Keyed {
  idempotencyKey: string;
}
/** Conditions of a definition's write: the `ETag` it was read with, or `*` for "only if new". */
export interface Conditions {
  ifMatch?: string;
  ifNoneMatch?: "*";
}

interface Reply {
  data?: unknown;
  error?: unknown;
  response: Response;
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === "object" && body !== null && typeof (body as Problem).type === "string";

function fail(status: number, error: unknown): never {
  throw new PromocodesError(status, isProblem(error) ? error : undefined, typeof error === "string" ? error : undefined);
}

/** The `ETag` each answer of a definition carried, by the body it answered (see `PromocodesClient.etag`). */
const etags = new WeakMap<object, string>();

/** A typed body, or a thrown {@link PromocodesError}. */
async function body<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) fail(response.status, error);
  const etag = response.headers.get("etag");
  if (etag !== null && typeof data === "object" && data !== null) etags.set(data, etag);
  return data as T;
}

/** Sorts an answer into the three outcomes; anything else throws. */
async function outcome<T>(call: Promise<Reply>): Promise<Outcome<T>> {
  const { data, error, response } = await call;
  if (response.ok) return { outcome: "receipt", status: response.status, receipt: data as T };
  if (response.status === 422 && isProblem(error) && error.type === "/problems/rejected" && error.rejection) {
    return { outcome: "rejection", status: 422, rejection: error as Rejection };
  }
  if (response.status === 409 && isProblem(error) && error.type === "/problems/conflict") {
    const seconds = Number.parseInt(response.headers.get("retry-after") ?? "", 10);
    return { outcome: "conflict", status: 409, retryAfter: Number.isFinite(seconds) ? seconds : 1, problem: error };
  }
  return fail(response.status, error);
}

const conditions = (c: Conditions = {}) => ({
  ...(c.ifMatch !== undefined ? { "If-Match": c.ifMatch } : {}),
  ...(c.ifNoneMatch !== undefined ? { "If-None-Match": c.ifNoneMatch } : {}),
});

/** The client's calls; see {@link createClient}. */
export interface PromocodesClient {
  /** `POST /v1/quotes`: prices a basket; counts nothing. */
  quote(body: One<RequestBody<"postQuote">>): Promise<Outcome<Answer<"postQuote", "Quote">>>;
  quote(body: Many<RequestBody<"postQuote">>): Promise<Outcome<Answer<"postQuote", "StackQuote">>>;
  /** `POST /v1/holds`: reserves a use while the buyer pays (201; a replay 200). */
  hold(body: One<RequestBody<"postHold">>, key: Keyed): Promise<Outcome<Answer<"postHold", "Hold">>>;
  hold(body: Many<RequestBody<"postHold">>, key: Keyed): Promise<Outcome<Answer<"postHold", "StackHolds">>>;
  /** `POST /v1/captures`: spends a use once paid, converting the key's hold if any (201; a replay 200). */
  capture(body: One<RequestBody<"postCapture">>, key: Keyed): Promise<Outcome<Answer<"postCapture", "Receipt">>>;
  capture(body: Many<RequestBody<"postCapture">>, key: Keyed): Promise<Outcome<Answer<"postCapture", "StackReceipts">>>;
  /** `POST /v1/releases`: gives a hold or a capture back; an unknown key throws (404 `unknown_key`). */
  release(body: One<RequestBody<"postRelease">>): Promise<Outcome<Answer<"postRelease", "Released">>>;
  release(body: Many<RequestBody<"postRelease">>): Promise<Outcome<Answer<"postRelease", "StackReleases">>>;
  /**
   * The `ETag` the answer that gave `body` carried (a code's or a campaign's definition, read or
   * written with a token), for `ifMatch` on the next write: a write over a definition changed since
   * throws 412 `precondition_failed` and writes nothing. `undefined` when the answer had none.
   */
  etag(body: object): string | undefined;
  /** Codes (`ADMIN_TOKEN`). */
  codes: {
    /** `PUT /v1/codes/{code}`: defines or replaces a code. */
    put(code: string, definition: RequestBody<"putCode">, conditions?: Conditions): Promise<Success<"putCode">>;
    /** `GET /v1/codes/{code}`: the definition with its live usage. */
    get(code: string): Promise<Success<"getCode">>;
    /** `GET /v1/codes`: a page of the catalog. */
    list(query?: Query<"getCodes">): Promise<Success<"getCodes">>;
    /** `PATCH /v1/codes/{code}`: the kill switch. */
    patch(code: string, patch: RequestBody<"patchCode">, conditions?: Conditions): Promise<Success<"patchCode">>;
    /** `DELETE /v1/codes/{code}`: archives the code (its history stays). */
    archive(code: string): Promise<Success<"deleteCode">>;
  };
  /** Campaigns of many codes (`ADMIN_TOKEN`). */
  campaigns: {
    /** `PUT /v1/campaigns/{id}`: defines or replaces a campaign. */
    put(id: string, campaign: RequestBody<"putCampaign">, conditions?: Conditions): Promise<Success<"putCampaign">>;
    /** `GET /v1/campaigns/{id}`: the campaign, its usage and its codes' counts. */
    get(id: string): Promise<Success<"getCampaign">>;
    /** `POST /v1/campaigns/{id}/codes`: generates or imports codes; a retry with the key answers the same. */
    generate(id: string, request: RequestBody<"addCampaignCodes">, key: Keyed): Promise<Success<"addCampaignCodes">>;
    /** `GET /v1/campaigns/{id}/codes`: a page of the campaign's codes. */
    codes(id: string, query?: Query<"listCampaignCodes">): Promise<Success<"listCampaignCodes">>;
    /** `GET /v1/campaigns/{id}/codes` as CSV (`code,uses,held`, a header row): the whole campaign, streamed. */
    csv(id: string): Promise<ReadableStream<Uint8Array>>;
  };
}

/**
 * A client of the promocodes API at `baseUrl`, sending `token` as the bearer token.
 *
 * # Errors
 * Every call rejects with a {@link PromocodesError} on an answer that is not a success (nor, for the
 * lifecycle calls, a rejection or a conflict), and with `fetch`'s own error when the network fails.
 */
export function createClient(options: ClientOptions): PromocodesClient {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const path = (code: string) => ({ path: { code } });
  return {
    quote: ((b: RequestBody<"postQuote">) => outcome(api.POST("/v1/quotes", { body: b }))) as PromocodesClient["quote"],
    hold: ((b: RequestBody<"postHold">, k: Keyed) =>
      outcome(api.POST("/v1/holds", { body: b, params: { header: { "Idempotency-Key": k.idempotencyKey } } }))) as PromocodesClient["hold"],
    capture: ((b: RequestBody<"postCapture">, k: Keyed) =>
      outcome(api.POST("/v1/captures", { body: b, params: { header: { "Idempotency-Key": k.idempotencyKey } } }))) as PromocodesClient["capture"],
    release: ((b: RequestBody<"postRelease">) => outcome(api.POST("/v1/releases", { body: b }))) as PromocodesClient["release"],
    etag: (answer) => etags.get(answer),
    codes: {
      put: (code, definition, c) =>
        body(api.PUT("/v1/codes/{code}", { body: definition, params: { ...path(code), header: conditions(c) } })),
      get: (code) => body(api.GET("/v1/codes/{code}", { params: path(code) })),
      list: (query) => body(api.GET("/v1/codes", { params: { query } })),
      patch: (code, patch, c) =>
        body(api.PATCH("/v1/codes/{code}", { body: patch, params: { ...path(code), header: conditions(c) } })),
      archive: (code) => body(api.DELETE("/v1/codes/{code}", { params: path(code) })),
    },
    campaigns: {
      put: (id, campaign, c) =>
        body(api.PUT("/v1/campaigns/{code}", { body: campaign, params: { ...path(id), header: conditions(c) } })),
      get: (id) => body(api.GET("/v1/campaigns/{code}", { params: path(id) })),
      generate: (id, request, k) =>
        body(api.POST("/v1/campaigns/{code}/codes", {
          body: request,
          params: { ...path(id), header: { "Idempotency-Key": k.idempotencyKey } },
        })),
      codes: (id, query) =>
        body(api.GET("/v1/campaigns/{code}/codes", { params: { ...path(id), query } })) as Promise<Success<"listCampaignCodes">>,
      csv: async (id) => {
        const { data, error, response } = await api.GET("/v1/campaigns/{code}/codes", {
          params: path(id),
          headers: { accept: "text/csv" },
          parseAs: "stream",
        });
        if (!response.ok || !data) fail(response.status, error);
        return data as ReadableStream<Uint8Array>;
      },
    },
  };
}
