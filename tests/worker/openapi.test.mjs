// The OpenAPI description (docs/openapi.json) against the real Worker in workerd and its source:
// it is served as it is, it is a valid OpenAPI 3.1 document whose schemas compile, it has a path
// with the right methods and `Allow` for every route of worker/src/lib.rs's routing table, the
// README lists its problem types, and the check the harness runs on every answer catches drift.
// (Every answer of every Worker test is checked against it: harness.mjs, openapi-check.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { putCode, call, eur, ROOT, workerForFile } from "./harness.mjs";
import { checkAnswer, doc, DESCRIPTION } from "./openapi-check.mjs";

const worker = workerForFile();

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

test("GET /v1/openapi.json serves docs/openapi.json as it is, as JSON; HEAD too; other methods are 405", async () => {
  const served = await call(worker.base, "GET", "/v1/openapi.json");
  assert.equal(served.status, 200);
  assert.equal(served.headers.get("content-type"), "application/json");
  assert.equal(served.text, readFileSync(DESCRIPTION, "utf8"), "the served document is the file the Worker was built with");
  assert.equal(served.headers.get("access-control-allow-origin"), null);
  const head = await fetch(`${worker.base}/v1/openapi.json`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const post = await call(worker.base, "POST", "/v1/openapi.json");
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
});

test("it is a valid OpenAPI 3.1 document in the JSON Schema 2020-12 dialect", async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  assert.deepEqual(result, { valid: true });
  assert.equal(validator.version, "3.1");
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(doc.jsonSchemaDialect, "https://json-schema.org/draft/2020-12/schema");
});

test("every schema in it compiles with ajv's strict mode (no unknown keyword, no dangling $ref)", () => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  ajv.addVocabulary(Object.keys(doc));
  const id = "https://promocodes.invalid/compile.json";
  ajv.addSchema({ ...doc, $id: id });
  const pointers = Object.keys(doc.components.schemas).map((name) => `/components/schemas/${name}`);
  const walk = (node, pointer) => {
    for (const [key, value] of Object.entries(node ?? {})) {
      if (!value || typeof value !== "object") continue;
      const here = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (key === "schema") pointers.push(here);
      else walk(value, here);
    }
  };
  walk(doc.paths, "/paths");
  walk(doc.components.responses, "/components/responses");
  walk(doc.components.headers, "/components/headers");
  walk(doc.components.parameters, "/components/parameters");
  assert.ok(pointers.length > 100, `${pointers.length} schemas`);
  for (const pointer of pointers) {
    assert.doesNotThrow(() => ajv.compile({ $ref: `${id}#${pointer.split("/").map(encodeURIComponent).join("/")}` }), pointer);
  }
});

/** The routing table of worker/src/lib.rs: each route's path template, the methods it handles and its `Allow`. */
function routingTable() {
  const source = readFileSync(path.join(ROOT, "worker/src/lib.rs"), "utf8");
  const constants = Object.fromEntries([...source.matchAll(/^const (\w+): &str = "([^"]*)";$/gm)].map((m) => [m[1], m[2]]));
  const of = source.slice(source.indexOf("fn of(path"), source.indexOf("fn is_public"));
  const routes = new Map(); // "Code" or "Demo(DemoStep::Quote)" -> { template, variant, methods, allow }
  for (const [, segments, variant, arg] of of.matchAll(/^\s*\[([^\]]*)\](?:\s*if\s+\w+)?\s*=>\s*Route::(\w+)(?:\(([^)]*)\))?,$/gm)) {
    const parts = segments.split(",").map((s) => s.trim());
    if (parts.includes("..")) continue; // the catch-all NotFound
    const template = `/${parts.map((p) => (p.startsWith('"') ? JSON.parse(p) : `{${p}}`)).join("/")}`;
    const key = arg && !/^[a-z_]+$/.test(arg) ? `${variant}(${arg})` : variant;
    routes.set(key, { template, variant, methods: new Set(), allow: undefined });
  }
  const dispatch = source.slice(source.indexOf("async fn dispatch("), source.indexOf("fn openapi()"));
  for (const [, names, methods, answer] of dispatch.matchAll(/^\s*\((Route::[^,]+),\s*(_|Method::[\w :|]+)\)\s*=>\s*(.*)$/gm)) {
    const variants = names.split("|").map((n) => n.trim().replace(/^Route::/, "").replace(/\(.*\)$/, ""));
    for (const route of routes.values()) {
      if (!variants.includes(route.variant)) continue;
      if (methods === "_") {
        route.allow = constants[answer.match(/not_allowed\((\w+)\)/)?.[1]];
      } else {
        for (const m of methods.split("|")) route.methods.add(m.trim().replace("Method::", "").toLowerCase());
      }
    }
  }
  return [...routes.values()];
}

test("every route of the Worker's routing table has its path, methods and Allow in the description, and no other", () => {
  const table = routingTable();
  assert.ok(table.length >= 14, `found ${table.length} routes in worker/src/lib.rs`);
  for (const route of table) {
    const item = doc.paths[route.template];
    assert.ok(item, `docs/openapi.json has no path ${route.template}`);
    assert.ok(route.methods.size > 0 && route.allow, `${route.template}: parsed ${[...route.methods]} / ${route.allow}`);
    const described = METHODS.filter((m) => item[m]);
    assert.deepEqual(described.sort(), [...route.methods].sort(), `${route.template}: the methods the Worker handles`);
    assert.equal(item["x-allow"], route.allow, `${route.template}: the Allow of its 405`);
    assert.equal(Boolean(item["x-planned"]), false, `${route.template} is served: it is not planned`);
  }
  const served = new Set(table.map((r) => r.template));
  for (const [template, item] of Object.entries(doc.paths)) {
    if (item["x-planned"] || item["x-static-asset"]) continue;
    assert.ok(served.has(template), `${template} is in the description but not in the routing table`);
  }
});

test("the README lists every problem type of the description", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const listed = [...readme.matchAll(/^\| `(\/problems\/\w+)` \| (\d{3}) \|/gm)];
  assert.deepEqual([...new Set(listed.map((m) => m[1]))].sort(), [...doc.components.schemas.ProblemType.enum].sort());
  // A type may have more than one status (conflict: 409, and 503 on the Stripe webhook); each row has its schema.
  for (const [, type, status] of listed) {
    const schema = Object.values(doc.components.schemas)
      .find((s) => s.properties?.type?.const === type && s.properties?.status?.const === Number(status));
    assert.ok(schema, `${type} ${status} has a schema`);
  }
  assert.match(readme, /docs\/openapi\.json/);
  assert.match(readme, /GET \/v1\/openapi\.json/);
});

test("the answer check catches drift: an extra field, a missing header, an undescribed status or path", async () => {
  assert.equal((await putCode(worker.base, { code: "DRIFT", discount: { kind: "percent", percent: "10" } })).status, 201);
  const quote = await call(worker.base, "POST", "/v1/quotes", { body: { code: "DRIFT", total: eur("80.00") } });
  assert.equal(quote.status, 200, quote.text);
  const answer = { method: "POST", url: "/v1/quotes", status: 200, headers: quote.headers, text: quote.text, request: { code: "DRIFT", total: eur("80.00") } };
  assert.deepEqual(checkAnswer(answer), [], "the real answer matches");
  const drifted = [
    [{ text: JSON.stringify({ ...quote.json, surprise: true }) }, /additional properties/],
    [{ text: JSON.stringify({ ...quote.json, payable: 72 }) }, /payable must be object/],
    [{ text: JSON.stringify({ ...quote.json, total: { amount: "80.00", currency: "XXX" } }) }, /currency must be equal to one of the allowed values/],
    [{ headers: new Headers({ "content-type": "application/json" }) }, /header Vary is missing/],
    [{ headers: new Headers({ "content-type": "text/plain", vary: "Origin" }) }, /content type "text\/plain" is not described/],
    [{ status: 202 }, /describes no status 202/],
    [{ method: "PUT", status: 200 }, /expected 405/],
    [{ url: "/v2/quotes", status: 404 }, /no path of the description matches/],
    [{ url: "/v1/quotes/x", status: 200 }, /expected 404/],
    [{ request: { code: "DRIFT", total: eur("80.00"), coupon: "x" } }, /accepted a request body the description refuses/],
  ];
  for (const [change, message] of drifted) {
    const errors = checkAnswer({ ...answer, ...change });
    assert.match(errors.join("\n"), message, JSON.stringify(change));
  }
  const problem = await call(worker.base, "POST", "/v1/quotes", { body: { code: "NOPE", total: eur("80.00") } });
  assert.equal(problem.status, 404);
  const wrongType = { ...problem.json, type: "/problems/not_found", title: "No such route" };
  assert.match(checkAnswer({ method: "POST", url: "/v1/quotes", status: 404, headers: problem.headers, text: JSON.stringify(wrongType) }).join("\n"),
    /type must be equal to one of the allowed values/, "a problem type the route cannot answer");
  const wrongTitle = { ...problem.json, title: "Unknown code" };
  assert.match(checkAnswer({ method: "POST", url: "/v1/quotes", status: 404, headers: problem.headers, text: JSON.stringify(wrongTitle) }).join("\n"),
    /title must be equal to constant/, "a title that is not the type's");
  const wrongAllow = new Headers({ "content-type": "application/problem+json", allow: "POST" });
  const notAllowed = await call(worker.base, "PUT", "/v1/quotes");
  assert.match(checkAnswer({ method: "PUT", url: "/v1/quotes", status: 405, headers: wrongAllow, text: notAllowed.text }).join("\n"),
    /Allow is "POST", the path's x-allow "OPTIONS, POST"/);
});
