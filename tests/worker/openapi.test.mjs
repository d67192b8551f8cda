// The OpenAPI description (docs/openapi.json) against the real Worker in workerd and its source:
// it is served as it is, it is a valid OpenAPI 3.1 document whose schemas compile, it has a path
// with the right methods and `Allow` for every route the Worker serves (worker/src/routes.rs), the
// docs/http-api.md lists its problem types, and the check the harness runs on every answer catches drift.
// (Every answer of every Worker test is checked against it: harness.mjs, openapi-check.mjs.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { test, putCode, call, eur, ROOT, workerForFile } from "./harness.mjs";
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

test("every described path answers its methods and, for any other, 405 with the Allow the description gives", async () => {
  // The route table itself (worker/src/routes.rs) is checked against the description by a unit
  // test there; this checks the running Worker.
  let checked = 0;
  for (const [template, item] of Object.entries(doc.paths)) {
    if (item["x-planned"] || item["x-static-asset"] || item["x-demo-only"]) continue;
    const route = template.replace("{code}", "OPENAPIPROBE");
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      const r = await fetch(`${worker.base}${route}`, { method: method.toUpperCase() });
      await r.arrayBuffer();
      if (item[method]) {
        assert.notEqual(r.status, 405, `${method.toUpperCase()} ${template} is described`);
      } else {
        assert.equal(r.status, 405, `${method.toUpperCase()} ${template} is not described`);
        assert.equal(r.headers.get("allow"), item["x-allow"], `${template}: the Allow of its 405`);
      }
      checked += 1;
    }
  }
  assert.ok(checked >= 50, `${checked} answers checked`);
});

test("docs/http-api.md lists every problem type of the description", () => {
  const readme = readFileSync(path.join(ROOT, "docs", "http-api.md"), "utf8");
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
