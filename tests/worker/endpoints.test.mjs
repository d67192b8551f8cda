// The shop's webhook endpoints (issue 36): defined, listed, read, rotated and deleted with the
// admin token in the catalog; https:// only but for WEBHOOK_ALLOW_HTTP; at most 16; and the
// Stripe webhook keeps its path (`stripe` is never an endpoint's id).
import assert from "node:assert/strict";
import { test, call, admin, capturer, workerForFile } from "./harness.mjs";

const worker = workerForFile({ vars: { WEBHOOK_ALLOW_HTTP: "127.0.0.1" } });
const put = (id, body, headers = admin) => call(worker.base, "PUT", `/v1/webhooks/${id}`, { body, headers });
const get = (path) => call(worker.base, "GET", path, { headers: admin });
const hook = (url = "https://shop.example/hooks", events = ["redemption.captured"]) => ({ url, events });

test("a new endpoint shows its secret once; a replacement keeps it", async () => {
  const created = await put("shop", { ...hook(), events: ["code.exhausted", "redemption.captured"], description: "orders" });
  assert.equal(created.status, 201, created.text);
  assert.match(created.json.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.deepEqual(created.json.events, ["redemption.captured", "code.exhausted"], "each once, in the documented order");
  assert.equal(created.json.disabled, null);
  const read = await get("/v1/webhooks/shop");
  assert.equal(read.status, 200, read.text);
  assert.equal(read.json.secret, undefined, "never shown again");
  assert.equal(read.json.description, "orders");
  const replaced = await put("shop", hook("https://shop.example/v2", ["budget.threshold"]));
  assert.equal(replaced.status, 200, replaced.text);
  assert.equal(replaced.json.secret, undefined);
  assert.equal(replaced.json.url, "https://shop.example/v2");
  assert.equal(replaced.json.created_at, created.json.created_at);
  const list = await get("/v1/webhooks");
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.webhooks.map((w) => w.id), ["shop"]);
});

test("a rotation shows a new secret and keeps the old one signing for 24 hours", async () => {
  const created = await put("rotating", hook());
  assert.equal(created.status, 201, created.text);
  const rotated = await call(worker.base, "POST", "/v1/webhooks/rotating/rotate", { headers: admin });
  assert.equal(rotated.status, 200, rotated.text);
  assert.notEqual(rotated.json.secret, created.json.secret);
  const until = Date.parse(rotated.json.previous_secret_until) - Date.now();
  assert.ok(until > 23.9 * 3600e3 && until <= 24 * 3600e3, `${until} ms`);
  const unknown = await call(worker.base, "POST", "/v1/webhooks/nobody/rotate", { headers: admin });
  assert.equal(unknown.status, 404, unknown.text);
  assert.equal(unknown.json.type, "/problems/unknown_webhook");
});

test("bad endpoints are refused and write nothing", async () => {
  const refused = async (id, body, field) => {
    const r = await put(id, body);
    assert.equal(r.status, 400, `${id}: ${r.text}`);
    assert.equal(r.json.type, "/problems/invalid_request");
    assert.match(r.json.detail, new RegExp(field), r.json.detail);
  };
  await refused("plain", hook("http://shop.example/hooks"), "url");
  await refused("plain", hook("not a url"), "url");
  await refused("plain", hook("https://shop.example/", []), "events");
  await refused("plain", hook("https://shop.example/", ["code.deleted"]), "events");
  await refused("plain", { ...hook(), secret: "whsec_mine" }, "secret");
  await refused("a.b", hook(), "id");
  assert.equal((await get("/v1/webhooks/plain")).status, 404);
  const local = await put("local", hook("http://127.0.0.1:9/hooks"));
  assert.equal(local.status, 201, "a host in WEBHOOK_ALLOW_HTTP may be http://");
  assert.equal((await put("nobody", hook(), capturer)).status, 401);
});

test("stripe is Stripe's webhook, never an endpoint", async () => {
  const r = await put("stripe", hook());
  assert.equal(r.status, 405, r.text);
  assert.equal(r.headers.get("allow"), "POST");
  assert.equal((await get("/v1/webhooks/stripe")).status, 405);
  const posted = await call(worker.base, "POST", "/v1/webhooks/stripe", { body: {}, headers: { "stripe-signature": "t=1,v1=00" } });
  assert.notEqual(posted.status, 404, "the Stripe webhook still answers");
  assert.notEqual(posted.status, 405, "the Stripe webhook still answers");
});

test("at most 16 endpoints; a deleted one frees its place", async () => {
  const before = (await get("/v1/webhooks")).json.webhooks.length;
  for (let i = before; i < 16; i++) assert.equal((await put(`fill-${i}`, hook())).status, 201);
  const full = await put("one-more", hook());
  assert.equal(full.status, 409, full.text);
  assert.equal(full.json.type, "/problems/webhook_limit");
  assert.equal((await put("shop", hook())).status, 200, "a replacement is not a new one");
  const gone = await call(worker.base, "DELETE", "/v1/webhooks/shop", { headers: admin });
  assert.equal(gone.status, 204, gone.text);
  assert.equal((await call(worker.base, "DELETE", "/v1/webhooks/shop", { headers: admin })).status, 404);
  assert.equal((await put("one-more", hook())).status, 201);
});
