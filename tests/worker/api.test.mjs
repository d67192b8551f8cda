// The HTTP API v1 against the real Worker in workerd: routes, auth, bad input, receipts.
import assert from "node:assert/strict";
import { test, testShards, putCode, call, captureReq, admin, capturer, eur, ADMIN_TOKEN, CAPTURE_TOKEN, workerForFile } from "./harness.mjs";

const worker = workerForFile({ demo: true }, async () => {
  const put = await putCode(worker.base, {
    code: "SAVE10", discount: { kind: "percent", percent: "10", max: eur("20.00") },
    limits: { total: 100, per_customer: 1 }, minimum: eur("20.00"),
  });
  assert.equal(put.status, 201, put.text);
});

const base = () => worker.base;
// Reads the live view (a token bypasses the public lookup's 5 s edge cache); `anonymous` is a buyer's lookup.
const get = (code) => call(base(), "GET", `/v1/codes/${code}`, { headers: admin });
const anonymous = (code) => call(base(), "GET", `/v1/codes/${code}`);
async function snapshot() {
  const def = await get("SAVE10");
  const list = await call(base(), "GET", "/v1/codes/SAVE10/redemptions?limit=1000", { headers: admin });
  return { usage: def.json.usage, redemptions: list.json.redemptions.length };
}
const basket = (extra = {}) => ({ code: "SAVE10", total: eur("80.00"), customer: "alice", ...extra });

test("PUT creates (201) then replaces (200); GET shows the public view with usage", async () => {
  const def = { code: "VIP", discount: { kind: "fixed", amount: eur("10.00") }, limits: { total: 5 }, audience: ["dora", "erin"] };
  const created = await putCode(base(), def);
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json.audience, ["dora", "erin"], "the admin sees the whole definition");
  const replaced = await putCode(base(), { ...def, limits: { total: 7 } });
  assert.equal(replaced.status, 200, replaced.text);
  const view = await anonymous("vip");
  assert.equal(view.status, 200);
  assert.equal(view.json.code, "VIP");
  assert.equal(view.json.assigned, true);
  assert.equal(view.json.audience, undefined, "customers are personal data");
  assert.ok(!view.text.includes("dora"));
  assert.deepEqual(view.json.usage, {
    total: 0, held: 0, discounted: { amount: "0.00", currency: "EUR" }, held_discounted: { amount: "0.00", currency: "EUR" },
  });
  assert.equal(view.json.remaining, 7);
  const unknown = await get("NOPE");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.type, "/problems/unknown_code");
  assert.equal(unknown.headers.get("content-type"), "application/problem+json");
});

test("quotes: 200 with the quote, 422 with the rejection; no counter moves", async () => {
  const before = await snapshot();
  // A quote for a named customer needs a server's token (hardening.test.mjs tests its refusal).
  const ok = await call(base(), "POST", "/v1/quotes", { body: basket(), headers: capturer });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.discount.amount, "8.00");
  assert.equal(ok.json.payable.amount, "72.00");
  const small = await call(base(), "POST", "/v1/quotes", { body: basket({ total: eur("10.00") }), headers: capturer });
  assert.equal(small.status, 422);
  assert.equal(small.json.type, "/problems/rejected");
  assert.equal(small.json.rejection, "below_minimum");
  assert.equal(small.json.detail, "this code needs a basket of at least EUR 20.00");
  const anon = await call(base(), "POST", "/v1/quotes", { body: { code: "SAVE10", total: eur("80.00") } });
  assert.equal(anon.json.rejection, "customer_required");
  const unknown = await call(base(), "POST", "/v1/quotes", { body: basket({ code: "GHOST" }), headers: capturer });
  assert.equal(unknown.status, 404);
  assert.deepEqual(await snapshot(), before);
});

test("capture: 201 receipt, 200 replay, 422 for a reused key, 422 with the stale quote", async () => {
  const first = await captureReq(base(), "evt-1", basket({ customer: "frank" }));
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.replayed, false);
  assert.equal(first.json.quote.payable.amount, "72.00");
  assert.equal(first.json.usage.per_customer, 1);
  const again = await captureReq(base(), "evt-1", basket({ customer: "frank" }));
  assert.equal(again.status, 200);
  assert.deepEqual(again.json, { ...first.json, replayed: true });
  const mid = await snapshot();
  for (const other of [basket({ customer: "gina" }), basket({ customer: "frank", total: eur("90.00") })]) {
    const reused = await captureReq(base(), "evt-1", other);
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.json.type, "/problems/idempotency_key_reused");
  }
  const twice = await captureReq(base(), "evt-2", basket({ customer: "frank" }));
  assert.equal(twice.status, 422);
  assert.equal(twice.json.rejection, "customer_limit_reached");
  assert.equal(twice.json.quote.payable.amount, "72.00");
  assert.deepEqual(await snapshot(), mid, "refusals record nothing");
});

test("a recorded key still replays after the definition changed currency", async () => {
  const def = (currency) => ({ code: "SWITCH", discount: { kind: "fixed", amount: { amount: "5.00", currency } } });
  assert.equal((await putCode(base(), def("EUR"))).status, 201);
  const first = await captureReq(base(), "switch-1", { code: "SWITCH", total: eur("30.00") });
  assert.equal(first.status, 201, first.text);
  assert.equal((await putCode(base(), def("USD"))).status, 200);
  const again = await captureReq(base(), "switch-1", { code: "SWITCH", total: eur("30.00") });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.json, { ...first.json, replayed: true });
  const fresh = await captureReq(base(), "switch-2", { code: "SWITCH", total: eur("30.00") });
  assert.equal(fresh.status, 422);
  assert.equal(fresh.json.rejection, "currency_mismatch");
  assert.equal((await get("SWITCH")).json.usage.total, 1);
});

test("the admin list pages through receipts oldest first", async () => {
  await putCode(base(), { code: "PAGES", discount: { kind: "percent", percent: "50" } });
  for (let i = 1; i <= 5; i++) {
    const r = await captureReq(base(), `page-${i}`, { code: "PAGES", total: eur(`${i}0.00`) });
    assert.equal(r.status, 201, r.text);
  }
  const seen = [];
  let route = "/v1/codes/PAGES/redemptions?limit=2";
  for (let pages = 0; ; pages++) {
    const page = await call(base(), "GET", route, { headers: admin });
    assert.equal(page.status, 200, page.text);
    seen.push(...page.json.redemptions);
    if (page.json.next === null) { assert.equal(pages, 2); break; }
    route = `/v1/codes/PAGES/redemptions?limit=2&after=${page.json.next}`;
  }
  assert.deepEqual(seen.map((r) => r.idempotency_key), ["page-1", "page-2", "page-3", "page-4", "page-5"]);
  // A sharded code's receipt counts the shard that decided it (its own uses), not the code's.
  if (testShards === 1) assert.deepEqual(seen.map((r) => r.usage.total), [1, 2, 3, 4, 5]);
  assert.equal(seen[2].quote.payable.amount, "15.00");
});

test("auth: admin and capture routes refuse a missing or wrong token, and record nothing", async () => {
  const before = await snapshot();
  const def = { code: "SAVE10", discount: { kind: "percent", percent: "99" } };
  const tokens = [undefined, "Bearer wrong", `Bearer ${ADMIN_TOKEN}x`, `Basic ${ADMIN_TOKEN}`, "Bearer", ADMIN_TOKEN];
  for (const auth of tokens) {
    const headers = auth === undefined ? {} : { authorization: auth };
    const put = await call(base(), "PUT", "/v1/codes/SAVE10", { body: def, headers });
    assert.equal(put.status, 401, `PUT with ${auth}`);
    assert.equal(put.json.type, "/problems/unauthorized");
    assert.equal(put.headers.get("www-authenticate"), "Bearer");
    const list = await call(base(), "GET", "/v1/codes/SAVE10/redemptions", { headers });
    assert.equal(list.status, 401, `list with ${auth}`);
    const cap = await call(base(), "POST", "/v1/captures",
      { body: basket({ customer: "hank" }), headers: { ...headers, "idempotency-key": `auth-${auth}` } });
    assert.equal(cap.status, 401, `capture with ${auth}`);
  }
  // Each token opens only its own routes.
  const capWithAdmin = await captureReq(base(), "auth-x", basket({ customer: "hank" }));
  assert.equal(capWithAdmin.status, 201, "control: the capture token works");
  const adminWithCapture = await call(base(), "PUT", "/v1/codes/SAVE10", { body: def, headers: capturer });
  assert.equal(adminWithCapture.status, 401);
  const captureWithAdmin = await call(base(), "POST", "/v1/captures",
    { body: basket({ customer: "ivan" }), headers: { ...admin, "idempotency-key": "auth-y" } });
  assert.equal(captureWithAdmin.status, 401);
  const after = await snapshot();
  assert.equal(after.usage.total, before.usage.total + 1, "only the control capture counted");
  assert.equal((await get("SAVE10")).json.discount.percent, "10", "the definition was not replaced");
  assert.ok(CAPTURE_TOKEN !== ADMIN_TOKEN);
});

const long = "A".repeat(65);
const cap = (body, extraHeaders = {}) => ({
  method: "POST", path: "/v1/captures", body, headers: { ...capturer, "idempotency-key": "bad-1", ...extraHeaders },
});
const BAD = [
  ["malformed JSON", { ...cap(), raw: '{"code": "SAVE10",' }, 400, "invalid_request"],
  ["JSON of the wrong shape", { ...cap(), raw: "[1, 2, 3]" }, 400, "invalid_request"],
  ["amount as a number", cap(basket({ total: { amount: 80, currency: "EUR" } })), 400, "invalid_request"],
  ["customer as a number", cap(basket({ customer: 7 })), 400, "invalid_request"],
  ["unknown field in a capture", cap(basket({ coupon: "x" })), 400, "invalid_request"],
  ["missing total", cap({ code: "SAVE10", customer: "alice" }), 400, "invalid_request"],
  ["unknown currency", cap(basket({ total: { amount: "80.00", currency: "XYZ" } })), 400, "invalid_request"],
  ["negative amount", cap(basket({ total: eur("-80.00") })), 400, "invalid_request"],
  ["non-numeric amount", cap(basket({ total: eur("eighty") })), 400, "invalid_request"],
  ["exponent amount", cap(basket({ total: eur("8e1") })), 400, "invalid_request"],
  ["absurdly large amount", cap(basket({ total: eur("1".padEnd(40, "0")) })), 400, "invalid_request"],
  ["too many decimal places", cap(basket({ total: eur("80.001") })), 400, "invalid_request"],
  ["empty code", cap(basket({ code: "" })), 400, "invalid_request"],
  ["code over 64 characters", cap(basket({ code: long })), 400, "invalid_request"],
  ["code with a space", cap(basket({ code: "SAVE 10" })), 400, "invalid_request"],
  ["code with non-ASCII", cap(basket({ code: "SAVÉ10" })), 400, "invalid_request"],
  ["empty customer", cap(basket({ customer: "" })), 400, "invalid_request"],
  ["missing idempotency key", { method: "POST", path: "/v1/captures", body: basket(), headers: capturer }, 400, "missing_idempotency_key"],
  ["idempotency key with a space", cap(basket(), { "idempotency-key": "a b" }), 400, "invalid_request"],
  ["idempotency key of 256 characters", cap(basket(), { "idempotency-key": "k".repeat(256) }), 400, "invalid_request"],
  ["capture body over 64 KiB", { ...cap(), raw: JSON.stringify(basket()).padEnd(64 * 1024 + 1) }, 413, "payload_too_large"],
  ["capture of an unknown code", cap(basket({ code: "GHOST" })), 404, "unknown_code"],
  ["quote: malformed JSON", { method: "POST", path: "/v1/quotes", raw: "{" }, 400, "invalid_request"],
  ["quote: unknown field", { method: "POST", path: "/v1/quotes", body: basket({ extra: 1 }) }, 400, "invalid_request"],
  ["quote: body over 64 KiB", { method: "POST", path: "/v1/quotes", raw: " ".repeat(64 * 1024 + 1) }, 413, "payload_too_large"],
  ["quote: body not UTF-8", { method: "POST", path: "/v1/quotes", raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }, 400, "invalid_request"],
  ["definition: unknown field", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "SAVE10", discount: { kind: "percent", percent: "1" }, bonus: true } }, 400, "invalid_request"],
  ["definition: unknown field in discount", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "SAVE10", discount: { kind: "percent", percent: "1", extra: 1 } } }, 400, "invalid_request"],
  ["definition: percent over 100", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "SAVE10", discount: { kind: "percent", percent: "101" } } }, 400, "invalid_request"],
  ["definition: zero cap", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "SAVE10", discount: { kind: "percent", percent: "1" }, limits: { total: 0 } } }, 400, "invalid_request"],
  ["definition: body code differs from the path", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "OTHER", discount: { kind: "percent", percent: "1" } } }, 400, "code_mismatch"],
  ["definition: over 1 MiB", { method: "PUT", path: "/v1/codes/SAVE10", headers: admin,
    body: { code: "SAVE10", discount: { kind: "percent", percent: "1" }, audience: Array.from({ length: 80_000 }, (_, i) => `customer-${i}`) } },
    413, "payload_too_large"],
  ["path: code over 64 characters", { method: "GET", path: `/v1/codes/${long}` }, 400, "invalid_request"],
  ["path: code with a percent escape", { method: "GET", path: "/v1/codes/SAVE%2010" }, 400, "invalid_request"],
  ["path: empty code", { method: "GET", path: "/v1/codes/" }, 400, "invalid_request"],
  ["list: bad limit", { method: "GET", path: "/v1/codes/SAVE10/redemptions?limit=0", headers: admin }, 400, "invalid_request"],
  ["list: bad cursor", { method: "GET", path: "/v1/codes/SAVE10/redemptions?after=abc", headers: admin }, 400, "invalid_request"],
  ["unknown route", { method: "GET", path: "/v1/nope" }, 404, "not_found"],
  ["unknown nested route", { method: "GET", path: "/v1/codes/SAVE10/redemptions/1" }, 404, "not_found"],
  ["unknown demo route", { method: "GET", path: "/demo/nope" }, 404, "not_found"],
  ["POST a code", { method: "POST", path: "/v1/codes/SAVE10", headers: admin }, 405, "method_not_allowed", "DELETE, GET, HEAD, OPTIONS, PATCH, PUT"],
  ["GET captures", { method: "GET", path: "/v1/captures" }, 405, "method_not_allowed", "POST"],
  ["PUT quotes", { method: "PUT", path: "/v1/quotes", body: basket() }, 405, "method_not_allowed", "OPTIONS, POST"],
  ["POST the redemption list", { method: "POST", path: "/v1/codes/SAVE10/redemptions", headers: admin }, 405, "method_not_allowed", "GET, HEAD"],
  ["GET the demo pay route", { method: "GET", path: "/demo/pay" }, 405, "method_not_allowed", "POST"],
  ["demo pay: no attempt", { method: "POST", path: "/demo/pay", body: basket() }, 400, "invalid_request"],
  ["demo pay: unknown field", { method: "POST", path: "/demo/pay", body: basket({ attempt: "a", token: "x" }) }, 400, "invalid_request"],
];

test("bad input: the right status and problem type, never a 500, nothing recorded", async (t) => {
  const before = await snapshot();
  for (const [name, req, status, type, allowHeader] of BAD) {
    await t.test(name, async () => {
      const r = await call(base(), req.method, req.path, { body: req.body, raw: req.raw, headers: req.headers ?? {} });
      assert.equal(r.status, status, `${name}: ${r.text.slice(0, 300)}`);
      assert.equal(r.headers.get("content-type"), "application/problem+json");
      assert.equal(r.json.type, `/problems/${type}`);
      assert.equal(r.json.status, status);
      assert.equal(typeof r.json.title, "string");
      assert.equal(typeof r.json.detail, "string");
      if (allowHeader) assert.equal(r.headers.get("allow"), allowHeader);
    });
  }
  assert.deepEqual(await snapshot(), before, "no bad request recorded anything");
  assert.equal((await get("SAVE10")).json.discount.percent, "10", "no bad PUT replaced the definition");
});

test("demo pay captures server-side, keyed by the checkout attempt", async () => {
  const pay = { code: "SAVE10", total: eur("80.00"), customer: "judy", attempt: "checkout-42" };
  const first = await call(base(), "POST", "/demo/pay", { body: pay });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.quote.payable.amount, "72.00");
  const click2 = await call(base(), "POST", "/demo/pay", { body: pay });
  assert.equal(click2.status, 200);
  assert.deepEqual(click2.json, { ...first.json, replayed: true });
  const list = await call(base(), "GET", "/v1/codes/SAVE10/redemptions?limit=1000", { headers: admin });
  assert.equal(list.json.redemptions.filter((r) => r.customer === "judy").length, 1);
  assert.equal(list.json.redemptions.find((r) => r.customer === "judy").idempotency_key, "demo-checkout-42");
});

test("the checkout page is served at /", async () => {
  const r = await call(base(), "GET", "/");
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type"), /text\/html/);
});

test("the SQLite store passes the core's conformance suite inside workerd", { skip: process.env.PROMOCODES_CONFORMANCE !== "1" && "worker built without the conformance feature" }, async () => {
  const r = await call(base(), "POST", "/v1/__conformance", { headers: admin });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json, { conformance: "passed", store: "sqlite", failed_transaction_rolled_back: true });
});
