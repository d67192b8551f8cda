// Checks an answer of the Worker against docs/openapi.json: the path (matched to its template),
// the method, the status, the described headers and the body's schema for its content type, with
// ajv (JSON Schema 2020-12) and ajv-formats. harness.mjs runs it on every answer the Worker tests
// receive, so the description cannot drift from the code.
//
// The rules beyond plain OpenAPI, all written in the description itself:
// - a method a path does not list must answer 405 `method_not_allowed` with `Allow` equal to the
//   path's `x-allow`;
// - any other path under `/v1/` or `/demo/` (and an `x-demo-only` path on a Worker without DEMO)
//   must answer as `x-other-paths` says (404 `not_found`);
// - a 2xx answer to a request with a JSON body means the Worker accepted that body, so the body
//   must match the operation's described request body (a description stricter than the Worker
//   fails here);
// - a problem's `status` is the answer's status;
// - `HEAD` answers are checked for status and headers only.
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const DESCRIPTION = path.resolve(import.meta.dirname, "../../docs/openapi.json");
export const doc = JSON.parse(readFileSync(DESCRIPTION, "utf8"));

const ID = "https://promocodes.invalid/openapi.json";
// Strict about keywords (a typo in a schema is an error), not about style: a schema like
// `{"$ref": ..., "properties": ...}` need not repeat `"type"`, nor `not: {required: [...]}` its properties.
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
addFormats(ajv);
// The description's own fields are not schema keywords: declare them, so strict mode still
// refuses an unknown keyword inside a schema.
ajv.addVocabulary(Object.keys(doc));
ajv.addSchema({ ...doc, $id: ID });

const compiled = new Map();
/** The validator of the schema at `pointer` (a JSON pointer into the description). */
function validatorAt(pointer) {
  let validate = compiled.get(pointer);
  if (!validate) {
    const fragment = pointer.split("/").map((s) => encodeURIComponent(s)).join("/");
    validate = ajv.compile({ $ref: `${ID}#${fragment}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

const escape = (segment) => String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
const pointerOf = (...segments) => segments.map((s) => `/${escape(s)}`).join("");

/** Follows a `$ref` inside the description: the object and its pointer. */
function resolve(value, pointer) {
  while (value && typeof value.$ref === "string") {
    if (!value.$ref.startsWith("#/")) throw new Error(`the description refers outside itself: ${value.$ref}`);
    pointer = value.$ref.slice(1);
    value = pointer.split("/").slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node, key) => node?.[key], doc);
  }
  if (value === undefined) throw new Error(`the description has nothing at ${pointer}`);
  return { value, pointer };
}

// Path templates, literal ones first: `/v1/codes/{code}` matches one segment (possibly empty).
const templates = Object.keys(doc.paths)
  .map((template) => {
    const source = template.split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "([^/]*)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return { template, re: new RegExp(`^${source}$`), literal: !template.includes("{") };
  })
  .sort((a, b) => Number(b.literal) - Number(a.literal));

function matchPath(pathname) {
  return templates.find(({ re }) => re.test(pathname))?.template;
}

const errorText = (errors) => (errors ?? [])
  .map((e) => `  ${e.instancePath || "(root)"} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""} [${e.schemaPath}]`)
  .join("\n");

function headerOf(headers, name) {
  if (typeof headers?.get === "function") return headers.get(name);
  const value = headers?.[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value ?? null;
}

/** The JSON of a request body as sent (an object, or a string), or undefined when it is not JSON. */
function requestJson(request) {
  if (request === undefined || request === null) return undefined;
  if (typeof request !== "string") return request instanceof Uint8Array ? undefined : request;
  try { return JSON.parse(request); } catch { return undefined; }
}

/**
 * What is wrong with one answer, as sentences (none when it matches the description).
 * `answer`: { method, url (path and query), status, headers (Headers or a plain object), text,
 * request (the JSON body sent: an object or a string), demo (whether the Worker has DEMO set) }.
 */
export function checkAnswer({ method, url, status, headers, text, request, demo = false }) {
  const errors = [];
  const verb = method.toUpperCase();
  const pathname = new URL(url, "http://worker.invalid").pathname;
  let template = matchPath(pathname);
  if (template && doc.paths[template]["x-demo-only"] && !demo) template = undefined;

  let response;
  let where;
  let expected;
  if (!template) {
    const other = doc["x-other-paths"];
    if (!other.prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
      return [`no path of the description matches ${pathname}`];
    }
    ({ value: response, pointer: where } = resolve(other.response, "/x-other-paths/response"));
    expected = 404;
  } else {
    const item = doc.paths[template];
    const operation = item[verb.toLowerCase()];
    if (!operation) {
      ({ value: response, pointer: where } = resolve(doc.components.responses.MethodNotAllowed, "/components/responses/MethodNotAllowed"));
      expected = 405;
      const allow = headerOf(headers, "allow");
      if (status === 405 && allow !== item["x-allow"]) {
        errors.push(`Allow is ${JSON.stringify(allow)}, the path's x-allow ${JSON.stringify(item["x-allow"])}`);
      }
    } else {
      const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => operation.responses[k]);
      if (!key) {
        return [`${verb} ${template} describes no status ${status} (it describes ${Object.keys(operation.responses).join(", ")})`];
      }
      ({ value: response, pointer: where } = resolve(operation.responses[key], pointerOf("paths", template, verb.toLowerCase(), "responses", key)));
      const sent = requestJson(request);
      const media = operation.requestBody?.content?.["application/json"];
      if (status >= 200 && status < 300 && sent !== undefined && media?.schema) {
        const validate = validatorAt(pointerOf("paths", template, verb.toLowerCase(), "requestBody", "content", "application/json", "schema"));
        if (!validate(sent)) {
          errors.push(`the Worker accepted a request body the description refuses:\n${errorText(validate.errors)}`);
        }
      }
    }
  }
  if (expected !== undefined && status !== expected) {
    errors.push(`expected ${expected} (${where}), got ${status}`);
    return errors;
  }

  for (const [name, raw] of Object.entries(response.headers ?? {})) {
    const { value: header, pointer } = resolve(raw, `${where}/headers/${escape(name)}`);
    const value = headerOf(headers, name);
    if (value === null || value === undefined) {
      if (header.required) errors.push(`header ${name} is missing`);
      continue;
    }
    if (header.schema) {
      const validate = validatorAt(`${pointer}/schema`);
      if (!validate(value)) errors.push(`header ${name}: ${JSON.stringify(value)}\n${errorText(validate.errors)}`);
    }
  }

  if (verb === "HEAD") return errors;
  if (!response.content) {
    if (text) errors.push(`a body the description does not describe: ${text.slice(0, 200)}`);
    return errors;
  }
  const type = (headerOf(headers, "content-type") ?? "").split(";")[0].trim().toLowerCase();
  const media = response.content[type];
  if (!media) {
    errors.push(`content type ${JSON.stringify(type)} is not described (${Object.keys(response.content).join(", ")})`);
    return errors;
  }
  if (media.schema) {
    let value = text;
    if (type === "application/json" || type.endsWith("+json")) {
      try { value = JSON.parse(text); } catch { errors.push(`the body is not JSON: ${text.slice(0, 200)}`); return errors; }
    }
    const validate = validatorAt(`${where}/content/${escape(type)}/schema`);
    if (!validate(value)) errors.push(`the body does not match ${where}:\n${errorText(validate.errors)}`);
    if (type === "application/problem+json" && value?.status !== status) {
      errors.push(`the problem says status ${value?.status}, the answer is ${status}`);
    }
  }
  return errors;
}

/** Every answer that did not match, over this test file: the harness fails the file on any. */
export const failures = [];

/** Checks `answer`; on a mismatch records it and returns an Error naming the request, the status and what is wrong. */
export function mismatch(answer) {
  const errors = checkAnswer(answer);
  if (errors.length === 0) return undefined;
  const message = `the answer to ${answer.method} ${answer.url} (${answer.status}) does not match docs/openapi.json:\n`
    + `${errors.join("\n")}\n  body: ${(answer.text ?? "").slice(0, 500)}`;
  failures.push(message);
  return new Error(message);
}
