// The redemption lifecycle against the real Worker in workerd: holds while the buyer pays,
// captures that convert them or are pinned to the quote shown, releases on cancel or refund.
import assert from "node:assert/strict";
import { test, putCode, call, captureReq, admin, capturer, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile();

const base = () => worker.base;
const holdReq = (key, body) => call(base(), "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": key } });
const releaseReq = (body) => call(base(), "POST", "/v1/releases", { body, headers: capturer });
const lookup = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json;
const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function records(code) {
  const page = await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin });
  assert.equal(page.status, 200, page.text);
  return page.json.redemptions;
}

test("a hold answers with its key, state, expiry, quote and usage, and replays under its key", async () => {
  assert.equal((await putCode(base(), { code: "HOLD1", discount: { kind: "percent", percent: "10" }, limits: { total: 5, per_customer: 1 } })).status, 201);
  const body = { code: "HOLD1", total: eur("80.00"), customer: "ann", ttl_seconds: 600 };
  const started = Date.now();
  const first = await holdReq("pi_hold1", body);
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.key, "pi_hold1");
  assert.equal(first.json.state, "held");
  assert.equal(first.json.replayed, false);
  assert.equal(first.json.quote.payable.amount, "72.00");
  assert.deepEqual(first.json.usage, { total: 1, per_customer: 1, discounted: eur("8.00") }, "money, in the quote's currency");
  const expires = Date.parse(first.json.expires_at);
  assert.ok(Math.abs(expires - (started + 600_000)) < 5_000, first.json.expires_at);
  const again = await holdReq("pi_hold1", body);
  assert.equal(again.status, 200);
  assert.deepEqual(again.json, { ...first.json, replayed: true });
  const view = await lookup("HOLD1");
  assert.deepEqual(view.usage, { total: 1, held: 1 });
  assert.equal(view.remaining, 4);
  const [record] = await records("HOLD1");
  assert.equal(record.state, "held");
  assert.equal(record.expires_at, first.json.expires_at);
  // Bad input records nothing.
  for (const ttl of [0, 3601, -1, 1.5, "60"]) {
    const bad = await holdReq(`pi_bad_${ttl}`, { ...body, customer: "zed", ttl_seconds: ttl });
    assert.equal(bad.status, 400, `ttl ${ttl}: ${bad.text}`);
    assert.equal(bad.json.type, "/problems/invalid_request");
  }
  const noKey = await call(base(), "POST", "/v1/holds", { body, headers: capturer });
  assert.equal(noKey.status, 400);
  assert.equal(noKey.json.type, "/problems/missing_idempotency_key");
  const noToken = await call(base(), "POST", "/v1/holds", { body, headers: { "idempotency-key": "x" } });
  assert.equal(noToken.status, 401);
  assert.deepEqual((await lookup("HOLD1")).usage, { total: 1, held: 1 });
});

test("200 racing holds on a cap of 50 give exactly 50", async () => {
  assert.equal((await putCode(base(), { code: "HOLD50", discount: { kind: "percent", percent: "10" }, limits: { total: 50 } })).status, 201);
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    holdReq(`hold50-${i}`, { code: "HOLD50", total: eur("30.00"), customer: `buyer-${i}` })));
  assert.deepEqual(tally(results), { 201: 50, 422: 150 });
  assert.ok(results.filter((r) => r.status === 422).every((r) => r.json.rejection === "exhausted"));
  assert.deepEqual((await lookup("HOLD50")).usage, { total: 50, held: 50 });
  const held = (await records("HOLD50")).filter((r) => r.state === "held");
  assert.equal(held.length, 50);
});

test("holds with a 2 s ttl stop counting at expiry, new holds then succeed, and the alarm marks them expired", async () => {
  assert.equal((await putCode(base(), { code: "BRIEF", discount: { kind: "percent", percent: "10" }, limits: { total: 3 } })).status, 201);
  for (let i = 0; i < 3; i++) {
    const r = await holdReq(`brief-${i}`, { code: "BRIEF", total: eur("30.00"), ttl_seconds: 2 });
    assert.equal(r.status, 201, r.text);
  }
  const full = await holdReq("brief-3", { code: "BRIEF", total: eur("30.00"), ttl_seconds: 2 });
  assert.equal(full.status, 422);
  assert.equal(full.json.rejection, "exhausted");
  await sleep(2_300);
  assert.deepEqual((await lookup("BRIEF")).usage, { total: 0, held: 0 }, "expired holds no longer count");
  for (let i = 4; i < 7; i++) {
    const r = await holdReq(`brief-${i}`, { code: "BRIEF", total: eur("30.00"), ttl_seconds: 60 });
    assert.equal(r.status, 201, r.text);
  }
  // The alarm fires within moments of the expiry and marks the stored holds.
  let expired = [];
  for (let i = 0; i < 40 && expired.length < 3; i++) {
    expired = (await records("BRIEF")).filter((r) => r.state === "expired");
    if (expired.length < 3) await sleep(250);
  }
  assert.equal(expired.length, 3, "the alarm marked the three expired holds");
  const stats = await call(base(), "GET", "/v1/codes/BRIEF/stats", { headers: admin });
  assert.equal(stats.json.total.expired, 3);
  // A capture under an expired hold's key is a fresh capture at the counts of the moment: the cap is full.
  const late = await captureReq(base(), "brief-0", { code: "BRIEF", total: eur("30.00") });
  assert.equal(late.status, 422, late.text);
  assert.equal(late.json.rejection, "exhausted");
});

test("a held key captures while every other use is held by others, and carries the hold's quote", async () => {
  assert.equal((await putCode(base(), { code: "LAST2", discount: { kind: "percent", percent: "10" }, limits: { total: 2 } })).status, 201);
  const mine = await holdReq("pi_mine", { code: "LAST2", total: eur("80.00"), customer: "mia" });
  assert.equal(mine.status, 201);
  assert.equal((await holdReq("pi_other", { code: "LAST2", total: eur("20.00"), customer: "ola" })).status, 201);
  const stranger = await captureReq(base(), "pi_stranger", { code: "LAST2", total: eur("80.00"), customer: "pat" });
  assert.equal(stranger.status, 422);
  assert.equal(stranger.json.rejection, "exhausted");
  // The admin redefines the code at 50% while mia pays: her capture keeps the price she was shown.
  assert.equal((await putCode(base(), { code: "LAST2", discount: { kind: "percent", percent: "50" }, limits: { total: 2 } })).status, 200);
  const paid = await call(base(), "POST", "/v1/captures", {
    body: { code: "LAST2", total: eur("80.00"), customer: "mia", quote: mine.json.quote },
    headers: { ...capturer, "idempotency-key": "pi_mine" },
  });
  assert.equal(paid.status, 201, paid.text);
  assert.equal(paid.json.state, "captured");
  assert.deepEqual(paid.json.quote, mine.json.quote);
  assert.equal(paid.json.quote.payable.amount, "72.00");
  assert.deepEqual((await lookup("LAST2")).usage, { total: 2, held: 1 });
  const replay = await captureReq(base(), "pi_mine", { code: "LAST2", total: eur("80.00"), customer: "mia" });
  assert.equal(replay.status, 200);
  assert.equal(replay.json.replayed, true);
});

test("a definition PUT between quote and capture gives quote_changed and records nothing", async () => {
  assert.equal((await putCode(base(), { code: "PRICE", discount: { kind: "percent", percent: "10" } })).status, 201);
  const shown = await call(base(), "POST", "/v1/quotes", { body: { code: "PRICE", total: eur("80.00") } });
  assert.equal(shown.status, 200);
  assert.equal(shown.json.payable.amount, "72.00");
  assert.equal((await putCode(base(), { code: "PRICE", discount: { kind: "percent", percent: "50" } })).status, 200);
  const refused = await call(base(), "POST", "/v1/captures", {
    body: { code: "PRICE", total: eur("80.00"), quote: shown.json },
    headers: { ...capturer, "idempotency-key": "evt_price" },
  });
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.json.type, "/problems/rejected");
  assert.equal(refused.json.rejection, "quote_changed");
  assert.deepEqual(refused.json.quote, shown.json, "the stale quote is the one shown");
  assert.equal(refused.json.current.payable.amount, "40.00");
  assert.match(refused.json.detail, /EUR 72\.00.*EUR 40\.00/);
  assert.deepEqual((await lookup("PRICE")).usage, { total: 0, held: 0 });
  assert.equal((await records("PRICE")).length, 0);
  // A quote that is not a quote is bad input.
  const forged = await call(base(), "POST", "/v1/captures", {
    body: { code: "PRICE", total: eur("80.00"), quote: { ...shown.json, payable: eur("1.00") } },
    headers: { ...capturer, "idempotency-key": "evt_forged" },
  });
  assert.equal(forged.status, 400, forged.text);
  assert.equal((await records("PRICE")).length, 0, "bad input records nothing");
  assert.deepEqual((await lookup("PRICE")).usage, { total: 0, held: 0 });
});

test("releases: a hold, then a capture; again replays; an unknown key is 404", async () => {
  assert.equal((await putCode(base(), { code: "GIVE", discount: { kind: "percent", percent: "10" }, limits: { total: 10, per_customer: 1 } })).status, 201);
  assert.equal((await holdReq("pi_cancel", { code: "GIVE", total: eur("80.00"), customer: "quinn" })).status, 201);
  const cancelled = await releaseReq({ code: "GIVE", key: "pi_cancel", reason: "checkout abandoned" });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.key, "pi_cancel");
  assert.equal(cancelled.json.state, "released");
  assert.equal(cancelled.json.was, "held");
  assert.equal(cancelled.json.reason, "checkout abandoned");
  assert.equal(cancelled.json.replayed, false);
  assert.deepEqual(cancelled.json.usage, { total: 0, per_customer: 0, discounted: eur("0.00") });
  assert.ok(Date.parse(cancelled.json.released_at) > 0);
  const twice = await releaseReq({ code: "GIVE", key: "pi_cancel", reason: "again" });
  assert.equal(twice.status, 200);
  assert.deepEqual(twice.json, { ...cancelled.json, replayed: true });
  // A capture retried under the released key replays it as released: no second use.
  const late = await captureReq(base(), "pi_cancel", { code: "GIVE", total: eur("80.00"), customer: "quinn" });
  assert.equal(late.status, 200, late.text);
  assert.equal(late.json.state, "released");
  assert.equal(late.json.replayed, true);
  // quinn's one use is hers again; a refund gives it back again.
  assert.equal((await captureReq(base(), "pi_order", { code: "GIVE", total: eur("80.00"), customer: "quinn" })).status, 201);
  const refunded = await releaseReq({ code: "GIVE", key: "pi_order", reason: "refunded" });
  assert.equal(refunded.json.was, "captured");
  assert.deepEqual((await lookup("GIVE")).usage, { total: 0, held: 0 });
  const list = await records("GIVE");
  assert.deepEqual(list.map((r) => [r.idempotency_key, r.state, r.reason]),
    [["pi_cancel", "released", "checkout abandoned"], ["pi_order", "released", "refunded"]]);
  assert.ok(list.every((r) => r.released_at));

  const unknown = await releaseReq({ code: "GIVE", key: "pi_never" });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("content-type"), "application/problem+json");
  assert.equal(unknown.json.type, "/problems/unknown_key");
  const longReason = await releaseReq({ code: "GIVE", key: "pi_order", reason: "x".repeat(201) });
  assert.equal(longReason.status, 400);
  const unknownCode = await releaseReq({ code: "NOSUCH", key: "pi_order" });
  assert.equal(unknownCode.status, 404);
  assert.equal(unknownCode.json.type, "/problems/unknown_code");
  const noToken = await call(base(), "POST", "/v1/releases", { body: { code: "GIVE", key: "pi_order" } });
  assert.equal(noToken.status, 401);
});

test("50 identical releases at once decrement once", async () => {
  assert.equal((await putCode(base(), { code: "ONCEBACK", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } })).status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await captureReq(base(), `ob-${i}`, { code: "ONCEBACK", total: eur("10.00") })).status, 201);
  const results = await Promise.all(Array.from({ length: 50 }, () => releaseReq({ code: "ONCEBACK", key: "ob-1", reason: "refund" })));
  assert.ok(results.every((r) => r.status === 200), JSON.stringify(tally(results)));
  assert.equal(results.filter((r) => !r.json.replayed).length, 1, "exactly one release did the work");
  assert.deepEqual((await lookup("ONCEBACK")).usage, { total: 2, held: 0 });
});

test("holds, captures and releases racing on one code leave counts that match the records", async () => {
  assert.equal((await putCode(base(), { code: "CHURN", discount: { kind: "percent", percent: "10" }, limits: { total: 30, per_customer: 2 } })).status, 201);
  const ops = Array.from({ length: 240 }, (_, i) => {
    const key = `churn-${i % 80}`;
    const body = { code: "CHURN", total: eur("25.00"), customer: `c${i % 13}` };
    switch (i % 4) {
      case 0: return holdReq(key, body);
      case 3: return releaseReq({ code: "CHURN", key });
      default: return captureReq(base(), key, body);
    }
  });
  const results = await Promise.all(ops);
  assert.ok(results.every((r) => [200, 201, 404, 422].includes(r.status)), JSON.stringify(tally(results)));
  const list = await records("CHURN");
  const counting = list.filter((r) => r.state === "held" || r.state === "captured");
  const view = await lookup("CHURN");
  assert.equal(view.usage.total, counting.length);
  assert.equal(view.usage.held, counting.filter((r) => r.state === "held").length);
  assert.ok(counting.length <= 30);
  assert.ok(results.some((r) => r.status === 201), "some writes went through");
  const perCustomer = {};
  for (const r of counting) perCustomer[r.customer] = (perCustomer[r.customer] ?? 0) + 1;
  assert.ok(Object.values(perCustomer).every((n) => n <= 2), JSON.stringify(perCustomer));
});
