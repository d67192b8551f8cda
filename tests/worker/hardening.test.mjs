// The Worker's front against the real Worker in workerd (wrangler dev): per-route body limits (a
// chunked body over the limit: chunked.test.mjs), trimmed tokens and keys, HEAD, percent-decoded
// path codes, quotes for a named customer only with a server's token (and /demo/quote for the demo
// page), CORS on the public routes only.
import assert from "node:assert/strict";
import { test, putCode, call, captureReq, admin, capturer, eur, ADMIN_TOKEN, CAPTURE_TOKEN, workerForFile } from "./harness.mjs";

const SHOP = "https://shop.example";
const OTHER_SHOP = "https://www.shop.example";
const worker = workerForFile({ demo: true, vars: { ALLOWED_ORIGINS: `${SHOP}, ${OTHER_SHOP}` } }, async () => {
  const put = await putCode(worker.base, {
    code: "HARD10", discount: { kind: "percent", percent: "10" },
  });
  assert.equal(put.status, 201, put.text);
  const vip = await putCode(worker.base, { code: "VIPONLY", discount: { kind: "percent", percent: "20" }, audience: ["alice"] });
  assert.equal(vip.status, 201, vip.text);
});

const base = () => worker.base;
const KiB = 1024;

test("body limits per route: 1 MiB definitions, 64 KiB baskets, 16 KiB elsewhere", async () => {
  const audience = Array.from({ length: 10_000 }, (_, i) => `customer-${String(i).padStart(5, "0")}`);
  const definition = { code: "CROWD", discount: { kind: "percent", percent: "5" }, audience };
  const put = await putCode(base(), definition);
  assert.equal(put.status, 201, put.text.slice(0, 300));
  assert.equal(put.json.audience.length, 10_000);
  const tooBig = await call(base(), "PUT", "/v1/codes/CROWD",
    { raw: JSON.stringify(definition).padEnd(1024 * KiB + 1), headers: { ...admin, "content-type": "application/json" } });
  assert.equal(tooBig.status, 413);
  assert.match(tooBig.json.detail, /at most 1048576 bytes/);

  // A basket just under 64 KiB (whitespace pads it) passes; one byte over does not.
  const basket = JSON.stringify({ code: "HARD10", total: eur("80.00") });
  const quote = await call(base(), "POST", "/v1/quotes", { raw: basket.padEnd(64 * KiB), headers: { "content-type": "application/json" } });
  assert.equal(quote.status, 200, quote.text);
  const over = await call(base(), "POST", "/v1/quotes", { raw: basket.padEnd(64 * KiB + 1) });
  assert.equal(over.status, 413);
  assert.match(over.json.detail, /at most 65536 bytes/);
  const capture = await call(base(), "POST", "/v1/captures", {
    raw: JSON.stringify({ code: "HARD10", total: eur("80.00"), customer: "cap-size" }).padEnd(64 * KiB),
    headers: { ...capturer, "idempotency-key": "size-1" },
  });
  assert.equal(capture.status, 201, capture.text);
  const demo = await call(base(), "POST", "/demo/quote", { raw: basket.padEnd(64 * KiB + 1) });
  assert.equal(demo.status, 413);
});

test("Idempotency-Key and bearer tokens lose surrounding spaces and tabs", async () => {
  const body = { code: "HARD10", total: eur("80.00"), customer: "trim" };
  const first = await call(base(), "POST", "/v1/captures",
    { body, headers: { authorization: `Bearer ${CAPTURE_TOKEN} `, "idempotency-key": "trim-1 " } });
  assert.equal(first.status, 201, first.text);
  const replay = await call(base(), "POST", "/v1/captures",
    { body, headers: { authorization: `\tBearer \t${CAPTURE_TOKEN}\t`, "idempotency-key": "\t trim-1\t" } });
  assert.equal(replay.status, 200, replay.text);
  assert.equal(replay.json.replayed, true);
  const list = await call(base(), "GET", "/v1/codes/HARD10/redemptions", { headers: { authorization: `Bearer  ${ADMIN_TOKEN} ` } });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.redemptions.filter((r) => r.customer === "trim").map((r) => r.idempotency_key), ["trim-1"]);
  // Inside the value a space still counts, and a blank key is no key.
  const inner = await captureReq(base(), "trim 2", body);
  assert.equal(inner.status, 400);
  assert.equal(inner.json.type, "/problems/invalid_request");
  const blank = await captureReq(base(), " \t ", body);
  assert.equal(blank.status, 400);
  const wrong = await call(base(), "POST", "/v1/captures",
    { body, headers: { authorization: `Bearer ${CAPTURE_TOKEN}x `, "idempotency-key": "trim-3" } });
  assert.equal(wrong.status, 401);
});

test("HEAD answers as GET does, without a body", async () => {
  for (const [route, headers] of [["/v1/codes/HARD10", {}], ["/v1/codes/NOPE", {}], ["/v1/codes/HARD10/redemptions", admin],
    ["/v1/codes/HARD10/redemptions", {}]]) {
    const get = await fetch(base() + route, { headers });
    const getBody = await get.text();
    const head = await fetch(base() + route, { method: "HEAD", headers });
    assert.equal(await head.text(), "", route);
    assert.ok(getBody.length > 0, route);
    assert.equal(head.status, get.status, route);
    // Content-Length is the runtime's: here (workerd behind wrangler dev) a HEAD answer has none.
    for (const name of ["content-type", "vary", "www-authenticate", "allow", "retry-after"]) {
      assert.equal(head.headers.get(name), get.headers.get(name), `${route}: ${name}`);
    }
  }
  const post = await fetch(`${base()}/v1/codes/HARD10`, { method: "POST", headers: admin });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "DELETE, GET, HEAD, OPTIONS, PATCH, PUT");
});

test("a code in the path is percent-decoded before it is parsed", async () => {
  const spaced = await call(base(), "GET", "/v1/codes/SAVE%2010");
  assert.equal(spaced.status, 400);
  assert.equal(spaced.json.type, "/problems/invalid_request");
  assert.match(spaced.json.detail, /contains . . at position 4/, spaced.json.detail);
  assert.doesNotMatch(spaced.json.detail, /%/);
  const escaped = await call(base(), "GET", "/v1/codes/%48ARD%310");
  assert.equal(escaped.status, 200, escaped.text);
  assert.equal(escaped.json.code, "HARD10");
  for (const bad of ["/v1/codes/HARD%", "/v1/codes/HARD%1", "/v1/codes/HARD%zz10", "/v1/codes/%FF"]) {
    const r = await call(base(), "GET", bad);
    assert.equal(r.status, 400, bad);
    assert.equal(r.json.type, "/problems/invalid_request", bad);
  }
  const list = await call(base(), "GET", "/v1/codes/HARD%310/redemptions", { headers: admin });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.json.code, "HARD10");
});

test("a quote for a named customer needs a server's token; anonymous quotes stay public", async () => {
  const named = { code: "VIPONLY", total: eur("50.00"), customer: "alice" };
  for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: `Basic ${CAPTURE_TOKEN}` }]) {
    for (const body of [named, { ...named, customer: "mallory" }, { ...named, code: "GHOST" }]) {
      const r = await call(base(), "POST", "/v1/quotes", { body, headers });
      assert.equal(r.status, 401, `${JSON.stringify(headers)} ${JSON.stringify(body)}`);
      assert.equal(r.json.type, "/problems/unauthorized");
      assert.equal(r.headers.get("content-type"), "application/problem+json");
      assert.deepEqual(Object.keys(r.json).sort(), ["detail", "status", "title", "type"], "nothing else revealed");
      assert.ok(!r.text.includes("alice") && !r.text.includes("mallory") && !r.text.includes("VIPONLY"));
    }
  }
  for (const token of [CAPTURE_TOKEN, ADMIN_TOKEN]) {
    const ok = await call(base(), "POST", "/v1/quotes", { body: named, headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.payable.amount, "40.00");
    const not = await call(base(), "POST", "/v1/quotes",
      { body: { ...named, customer: "mallory" }, headers: { authorization: `Bearer ${token}` } });
    assert.equal(not.status, 422);
    assert.equal(not.json.rejection, "not_assigned");
  }
  const anonymous = await call(base(), "POST", "/v1/quotes", { body: { code: "HARD10", total: eur("80.00") } });
  assert.equal(anonymous.status, 200, anonymous.text);
  const anonymousVip = await call(base(), "POST", "/v1/quotes", { body: { code: "VIPONLY", total: eur("50.00") } });
  assert.equal(anonymousVip.status, 422, "an anonymous quote of an assigned code says only that it needs a customer");
  assert.ok(!anonymousVip.text.includes("alice"));
});

test("POST /demo/quote quotes with a customer on the server side", async () => {
  const named = { code: "VIPONLY", total: eur("50.00"), customer: "alice" };
  const ok = await call(base(), "POST", "/demo/quote", { body: named });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.payable.amount, "40.00");
  const not = await call(base(), "POST", "/demo/quote", { body: { ...named, customer: "mallory" } });
  assert.equal(not.status, 422);
  assert.equal(not.json.rejection, "not_assigned");
  const bad = await call(base(), "POST", "/demo/quote", { body: { ...named, extra: 1 } });
  assert.equal(bad.status, 400);
  const get = await call(base(), "GET", "/demo/quote");
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
});

test("CORS: public routes answer allowed origins; capture and admin routes never do", async () => {
  // Preflights on the public routes.
  for (const [route, method] of [["/v1/codes/HARD10", "GET"], ["/v1/quotes", "POST"]]) {
    for (const origin of [SHOP, OTHER_SHOP]) {
      const pre = await fetch(base() + route, { method: "OPTIONS",
        headers: { origin, "access-control-request-method": method, "access-control-request-headers": "content-type" } });
      assert.equal(pre.status, 204, route);
      assert.equal(pre.headers.get("access-control-allow-origin"), origin);
      assert.match(pre.headers.get("access-control-allow-methods"), new RegExp(method));
      assert.equal(pre.headers.get("access-control-allow-headers"), "content-type");
      assert.equal(pre.headers.get("access-control-max-age"), "600");
      assert.match(pre.headers.get("vary"), /Origin/);
    }
    const stranger = await fetch(base() + route, { method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": method } });
    assert.equal(stranger.status, 204);
    assert.equal(stranger.headers.get("access-control-allow-origin"), null);
    assert.equal(stranger.headers.get("access-control-allow-methods"), null);
    assert.match(stranger.headers.get("vary"), /Origin/);
  }
  // The actual requests, answers and problems alike.
  const lookup = await call(base(), "GET", "/v1/codes/HARD10", { headers: { origin: SHOP } });
  assert.equal(lookup.status, 200);
  assert.equal(lookup.headers.get("access-control-allow-origin"), SHOP);
  assert.match(lookup.headers.get("vary"), /Origin/);
  const unknown = await call(base(), "GET", "/v1/codes/NOPE", { headers: { origin: OTHER_SHOP } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("access-control-allow-origin"), OTHER_SHOP);
  const quote = await call(base(), "POST", "/v1/quotes", { body: { code: "HARD10", total: eur("80.00") }, headers: { origin: SHOP } });
  assert.equal(quote.status, 200);
  assert.equal(quote.headers.get("access-control-allow-origin"), SHOP);
  for (const origin of ["https://evil.example", undefined]) {
    const r = await call(base(), "GET", "/v1/codes/HARD10", { headers: origin ? { origin } : {} });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), null);
    assert.match(r.headers.get("vary"), /Origin/, "Vary: Origin on every public answer");
  }
  // Server-to-server routes: no CORS at all, OPTIONS is a 405.
  for (const route of ["/v1/captures", "/v1/codes/HARD10/redemptions", "/demo/pay", "/demo/quote"]) {
    const pre = await fetch(base() + route, { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } });
    assert.equal(pre.status, 405, route);
    assert.equal(pre.headers.get("access-control-allow-origin"), null, route);
    await pre.arrayBuffer();
  }
  const cap = await call(base(), "POST", "/v1/captures",
    { body: { code: "HARD10", total: eur("80.00"), customer: "cors" }, headers: { ...capturer, origin: SHOP, "idempotency-key": "cors-1" } });
  assert.equal(cap.status, 201, cap.text);
  assert.equal(cap.headers.get("access-control-allow-origin"), null);
  const put = await call(base(), "PUT", "/v1/codes/HARD10",
    { body: { code: "HARD10", discount: { kind: "percent", percent: "10" } }, headers: { ...admin, origin: SHOP } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.headers.get("access-control-allow-origin"), null, "the admin PUT on a public path answers no CORS");
  const list = await call(base(), "GET", "/v1/codes/HARD10/redemptions", { headers: { ...admin, origin: SHOP } });
  assert.equal(list.status, 200);
  assert.equal(list.headers.get("access-control-allow-origin"), null);
});
