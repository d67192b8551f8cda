// The Worker's request surface against the real Worker in workerd (issue 32, item 6): a body that
// is not JSON by its Content-Type is a 415 that records nothing (a cross-site form cannot drive the
// demo routes), listing queries are read strictly (400 naming the parameter), the demo's `attempt`
// is a real id, and the campaign's CSV export neutralises cells a spreadsheet would run.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";
import { STRIPE_TEST_SECRET, paymentIntentSucceeded, stripeRequest, STRIPE_WEBHOOK_ROUTE } from "./stripe.mjs";

const worker = workerForFile({ demo: true, vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } }, async () => {
  for (const code of ["SURF", "SURFOK", "SURFDEMO"]) {
    const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" } });
    assert.equal(put.status, 201, put.text);
  }
  const campaign = await call(worker.base, "PUT", "/v1/campaigns/SURFCAMP",
    { body: { discount: { kind: "percent", percent: "10" } }, headers: admin });
  assert.equal(campaign.status, 201, campaign.text);
});

const base = () => worker.base;
const basket = { total: eur("80.00") };
const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
const records = async (code) =>
  (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;

// Bodies a browser's form (or a script without a preflight) can send cross-site, and none at all.
// `null` sends no Content-Type: the body goes as bytes, which fetch() does not label.
const NOT_JSON = [
  ["text/plain", "text/plain;charset=UTF-8"],
  ["a form", "application/x-www-form-urlencoded"],
  ["multipart", "multipart/form-data; boundary=----x"],
  ["no type", null],
  ["json-ish text", "text/json"],
  ["a +json suffix in a parameter only", "text/plain; x=application/json"],
];

function send(method, route, json, type, headers = {}) {
  const text = JSON.stringify(json);
  if (type === null) return call(base(), method, route, { raw: new TextEncoder().encode(text), headers: { ...headers, "content-type": null } });
  return call(base(), method, route, { raw: text, headers: { ...headers, "content-type": type } });
}

test("a body that is not JSON by its Content-Type is a 415 on every route that reads JSON, and records nothing", async () => {
  const routes = [
    ["PUT", "/v1/codes/SURFNEW", { code: "SURFNEW", discount: { kind: "percent", percent: "5" } }, admin],
    ["PATCH", "/v1/codes/SURF", { active: false }, admin],
    ["PUT", "/v1/campaigns/SURFNEWCAMP", { discount: { kind: "percent", percent: "5" } }, admin],
    ["PATCH", "/v1/campaigns/SURFCAMP", { active: false }, admin],
    ["POST", "/v1/campaigns/SURFCAMP/codes", { codes: ["SURF-IMPORTED"] }, { ...admin, "idempotency-key": "import-415" }],
    ["POST", "/v1/quotes", { code: "SURF", ...basket }, {}],
    ["POST", "/v1/holds", { code: "SURF", ...basket }, { ...capturer, "idempotency-key": "hold-415" }],
    ["POST", "/v1/captures", { code: "SURF", ...basket }, { ...capturer, "idempotency-key": "capture-415" }],
    ["POST", "/v1/releases", { code: "SURF", key: "capture-415" }, capturer],
    ["POST", "/demo/quote", { code: "SURFDEMO", ...basket }, {}],
    ["POST", "/demo/hold", { code: "SURFDEMO", ...basket, attempt: "form-1" }, {}],
    ["POST", "/demo/pay", { code: "SURFDEMO", ...basket, attempt: "form-2" }, {}],
    ["POST", "/demo/cancel", { code: "SURFDEMO", attempt: "form-1" }, {}],
  ];
  const failures = [];
  for (const [method, route, json, headers] of routes) {
    for (const [what, type] of NOT_JSON) {
      const r = await send(method, route, json, type, headers);
      if (r.status !== 415 || r.json?.type !== "/problems/unsupported_media_type") {
        failures.push(`${method} ${route} with ${what}: ${r.status} ${r.text.slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(failures, [], `every non-JSON body is refused:\n${failures.join("\n")}`);
  // Nothing was recorded: no code or campaign defined, no switch flipped, no code imported, no use.
  assert.equal((await call(base(), "GET", "/v1/codes/SURFNEW", { headers: admin })).status, 404);
  assert.equal((await call(base(), "GET", "/v1/campaigns/SURFNEWCAMP", { headers: admin })).status, 404);
  const campaign = await call(base(), "GET", "/v1/campaigns/SURFCAMP", { headers: admin });
  assert.equal(campaign.json.active, true);
  assert.deepEqual(campaign.json.codes, { count: 0, used: 0 });
  assert.equal((await call(base(), "GET", "/v1/codes/SURF", { headers: admin })).json.active, true);
  for (const code of ["SURF", "SURFDEMO"]) {
    assert.deepEqual(await usage(code), { total: 0, held: 0 }, code);
    assert.deepEqual(await records(code), [], code);
  }
});

test("JSON is application/json or a +json type, any case, with parameters; a GET or DELETE without a body is not checked", async () => {
  for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8",
    "application/merge-patch+json", "application/vnd.promocodes+json ; v=1", " application/json "]) {
    const r = await send("POST", "/v1/quotes", { code: "SURFOK", ...basket }, type);
    assert.equal(r.status, 200, `${type}: ${r.text}`);
  }
  const archived = await putCode(base(), { code: "SURFGONE", discount: { kind: "percent", percent: "5" } });
  assert.equal(archived.status, 201, archived.text);
  const del = await fetch(`${base()}/v1/codes/SURFGONE`, { method: "DELETE", headers: admin });
  assert.equal(del.status, 200, await del.text());
  const get = await fetch(`${base()}/v1/codes/SURFOK`);
  assert.equal(get.status, 200);
});

test("the Stripe webhook still reads the raw body it verifies, whatever its Content-Type", async () => {
  const event = paymentIntentSucceeded({ code: "SURFOK", customer: "webhook-type", basket, amount: 7200 });
  const { body, headers } = stripeRequest(event);
  const r = await call(base(), "POST", STRIPE_WEBHOOK_ROUTE, { raw: body, headers: { ...headers, "content-type": "text/plain" } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.action, "captured", r.text);
});

test("listing queries are read strictly: a bad limit, after or prefix is a 400 naming it", async () => {
  const listings = ["/v1/codes", "/v1/campaigns", "/v1/codes/SURF/redemptions", "/v1/campaigns/SURFCAMP/codes",
    "/v1/campaigns/SURFCAMP/redemptions"];
  const bad = [
    ["limit", ""], ["limit", "abc"], ["limit", "0"], ["limit", "1001"], ["limit", "1.5"], ["limit", "-1"], ["limit", "%ZZ"],
    ["after", "%FF"], ["after", "%E0%A4"], ["after", "%"], ["after", ""],
  ];
  const catalogBad = [["prefix", "%FF"], ["prefix", "%C3"], ["prefix", "%G1"], ["prefix", "A".repeat(65)], ["prefix", ""],
    ["archived", ""], ["archived", "yes"]];
  const failures = [];
  for (const route of listings) {
    const cases = route === "/v1/codes" || route === "/v1/campaigns" ? [...bad, ...catalogBad] : bad;
    for (const [name, value] of cases) {
      const r = await call(base(), "GET", `${route}?${name}=${value}`, { headers: admin });
      const named = r.json?.detail?.includes(name);
      if (r.status !== 400 || r.json?.type !== "/problems/invalid_request" || !named) {
        failures.push(`${route}?${name}=${value.slice(0, 12)}: ${r.status} ${r.text.slice(0, 100)}`);
      }
    }
  }
  assert.deepEqual(failures, [], `every bad parameter is a 400 naming it:\n${failures.join("\n")}`);
  // What is right still lists: a prefix as long as a code, in any case; a limit in range.
  for (const route of ["/v1/codes?prefix=surf&limit=5", `/v1/codes?prefix=${"A".repeat(64)}`, "/v1/campaigns?prefix=Surf%43",
    "/v1/codes/SURF/redemptions?limit=1000", "/v1/campaigns/SURFCAMP/codes?limit=1", "/v1/campaigns/SURFCAMP/redemptions?limit=1"]) {
    const r = await call(base(), "GET", route, { headers: admin });
    assert.equal(r.status, 200, `${route}: ${r.text}`);
  }
  const prefixed = await call(base(), "GET", "/v1/campaigns?prefix=surf%43", { headers: admin });
  assert.deepEqual(prefixed.json.campaigns.map((c) => c.id), ["SURFCAMP"]);
});

test("/demo/* refuses an empty or over-long attempt and records nothing", async () => {
  for (const step of ["hold", "pay", "cancel"]) {
    for (const attempt of ["", "   ", "a".repeat(65)]) {
      const body = step === "cancel" ? { code: "SURFDEMO", attempt } : { code: "SURFDEMO", ...basket, attempt };
      const r = await call(base(), "POST", `/demo/${step}`, { body });
      assert.equal(r.status, 400, `${step} ${JSON.stringify(attempt)}: ${r.text}`);
      assert.match(r.json.detail, /attempt/, r.text);
    }
  }
  assert.deepEqual(await usage("SURFDEMO"), { total: 0, held: 0 });
  assert.deepEqual(await records("SURFDEMO"), []);
  const ok = await call(base(), "POST", "/demo/hold", { body: { code: "SURFDEMO", ...basket, attempt: "b".repeat(64) } });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.json.key, `demo-${"b".repeat(64)}`);
});

test("the campaign's CSV export neutralises a code a spreadsheet would run as a formula", async () => {
  // A code may start with `-` (A-Z, 0-9, `_` and `-`): `-1+1` is no code, but `-A1` and `-2-3` are.
  const imported = await call(base(), "POST", "/v1/campaigns/SURFCAMP/codes",
    { body: { codes: ["-A1", "-2-3", "PLAIN-1"] }, headers: { ...admin, "idempotency-key": "import-csv" } });
  assert.equal(imported.status, 201, imported.text);
  const res = await fetch(`${base()}/v1/campaigns/SURFCAMP/codes`, { headers: { ...admin, accept: "text/csv" } });
  assert.equal(res.status, 200);
  const lines = (await res.text()).trimEnd().split("\n");
  assert.equal(lines[0], "code,uses,held");
  assert.deepEqual(lines.slice(1).sort(), ["\"'-2-3\",0,0", "\"'-A1\",0,0", "PLAIN-1,0,0"]);
  // What a spreadsheet would run: no cell starts with =, +, -, @, a tab or a carriage return.
  for (const line of lines) {
    for (const cell of line.split(",")) assert.doesNotMatch(cell.replace(/^"/, ""), /^[=+\-@\t\r]/, line);
  }
});
