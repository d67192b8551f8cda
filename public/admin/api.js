// The admin API as the console calls it: the token, requests, errors as sentences, paths, and the
// catalog's paging over codes and campaigns. No DOM: `explain` and `mergePages` are tested under
// `node --test tests/js/`.

export const TOKEN_KEY = "promocodes.admin-token";

/** The admin token of this tab (sessionStorage only; it goes only in the Authorization header). */
export const token = () => sessionStorage.getItem(TOKEN_KEY);

/** An API error as a sentence for the operator, with what to do. */
export class ApiError extends Error {
  constructor(status, problem, sentence) {
    super(sentence);
    this.status = status;
    this.problem = problem;
  }
}

/** The sentence for an API error: what happened and what to do. */
export function explain(status, problem, what = "") {
  const detail = problem?.detail ? ` (${problem.detail})` : "";
  switch (status) {
    case 0: return "The server could not be reached. Check your connection, then try again.";
    case 400: return `The server refused this${what ? ` ${what}` : ""}: ${problem?.detail ?? "bad input"}. Correct it and try again.`;
    case 401: return "The admin token was not accepted. Sign in again with the current token.";
    case 404: return problem?.type === "/problems/unknown_code"
      ? `This ${what.startsWith("campaign") ? "campaign" : "code"} does not exist or is archived${detail}. Check its name, or show archived codes in the list.`
      : problem?.type === "/problems/unknown_webhook" ? `This webhook endpoint does not exist${detail}. Reload the list of endpoints.`
      : problem?.type === "/problems/unknown_delivery" ? `This event was never sent to this endpoint${detail}, so it cannot be sent again.`
      : `Not found${detail}. Go back to the list of codes and try again.`;
    case 409: return problem?.type === "/problems/webhook_limit"
      ? "There are 16 webhook endpoints already, the most there may be. Delete one you no longer use, then add this one."
      : `The request failed (error 409${problem?.detail ? `: ${problem.detail}` : ""}). Reload the page and try again.`;
    case 412: return "Someone changed this code since you opened it. Compare both versions, then save again.";
    case 413: return `This is too large to send${detail}. Shorten it (for example, a smaller audience) and save again.`;
    case 429: return "Too many requests for now. Wait a few seconds, then try again.";
    default:
      if (status >= 500) return `The server failed to answer (error ${status}${problem?.detail ? `: ${problem.detail}` : ""}). Try again in a minute; if it keeps failing, check the Worker's logs.`;
      return `The request failed (error ${status}${problem?.detail ? `: ${problem.detail}` : ""}). Reload the page and try again.`;
  }
}

// What the console does when the current token is refused (sign out, say why): set by admin.js.
let onUnauthorized = (_error) => {};

/** Sets what a 401 to the current token does (called with the ApiError). */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

/** Calls the admin API; resolves to { status, json, etag } for a 2xx, throws an ApiError otherwise. */
export async function api(method, path, { body, headers = {}, what, auth = token() } = {}) {
  const init = { method, headers: { ...headers }, cache: "no-store" };
  if (auth) init.headers.authorization = `Bearer ${auth}`;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, null, explain(0));
  }
  const text = await res.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  if (res.ok) return { status: res.status, json, etag: res.headers.get("etag") };
  const error = new ApiError(res.status, json, explain(res.status, json, what));
  error.etag = res.headers.get("etag");
  if (res.status === 401 && auth && auth === token()) onUnauthorized(error);
  throw error;
}

/** The X-Change-Note header of a definition's write: the operator's note, percent-encoded ({} without one). */
export const changeNote = (text) => (text?.trim() ? { "x-change-note": encodeURIComponent(text.trim()) } : {});

/**
 * Every item of a paged admin list at `path` (`/redemptions`, `/changes`, ...), read 1,000 a page
 * through `next`, up to `max`: the answer's `field` array.
 */
export async function readAllPages(path, field, { max, what }) {
  const all = [];
  let after = "";
  for (;;) {
    const query = new URLSearchParams({ limit: "1000" });
    if (after) query.set("after", after);
    const { json } = await api("GET", `${path}?${query}`, { what });
    all.push(...json[field]);
    if (!json.next || all.length >= max) return all;
    after = json.next;
  }
}

export const codePath = (code) => `/v1/codes/${encodeURIComponent(code)}`;
export const campaignPath = (id) => `/v1/campaigns/${encodeURIComponent(id)}`;

/** What differs between a code and a campaign, for the catalog's rows and the pages that watch them. */
export const KINDS = {
  code: {
    path: codePath,
    nameOf: (summary) => summary.code,
    page: (name) => `#/code/${encodeURIComponent(name)}`,
    reach: (name) => name,
  },
  campaign: {
    path: campaignPath,
    nameOf: (summary) => summary.id,
    page: (name) => `#/campaign/${encodeURIComponent(name)}`,
    reach: (name) => `every code of ${name}`,
  },
};

/**
 * One page of several lists, each a page in name order with the cursor of its next page (`next`, or
 * null at its end): their rows in name order, `limit` of them (more when names tie at the end), and
 * the name the next page of every list starts after (null when all are done). Each list is known only
 * up to its cursor, so the rows after the smallest cursor wait for the next page.
 */
export function mergePages(lists, limit) {
  const cursors = lists.map((list) => list.next).filter((next) => next != null).sort();
  const bound = cursors[0] ?? null;
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const known = lists
    .flatMap(({ kind, items }) => items.map((summary) => ({ kind, name: KINDS[kind].nameOf(summary), summary })))
    .filter((row) => bound === null || row.name <= bound)
    .sort(byName);
  if (known.length <= limit) return { rows: known, next: bound };
  let end = limit;
  while (end < known.length && known[end].name === known[limit - 1].name) end += 1;
  return { rows: known.slice(0, end), next: end < known.length || bound !== null ? known[end - 1].name : null };
}

/**
 * A definition (the core's shape) from a lookup or a summary of a code or a campaign: without usage,
 * remaining, archived, assigned, defined_at, and a campaign's id and codes.
 */
export function definitionOf(view) {
  const { usage, remaining, archived, assigned, remaining_budget: _rb, id: _id, codes: _codes, defined_at: _at, ...definition } = view;
  return definition;
}
