// Automatic promotions against the real Worker in workerd (issue 34, item 4): GET /v1/automatic
// (the active ones by priority then code, edge cached and purged by any change of an automatic
// definition), quotes, holds, captures and releases with `"automatic": true` (typed codes first,
// the others skipped with a reason), a retried capture that replays what it recorded whatever
// changed since, a capture of holds that decides them afresh, and 20 buyers racing for an automatic
// promotion capped at 5 uses: exactly 5.
//
// The automatic promotions are the Worker's, shared by every test here: the tests run in order and
// switch them as they need.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";

const SHIP50 = { code: "SHIP50", discount: { kind: "free_shipping" }, automatic: true, priority: 10,
  minimum: eur("50.00"), combines_with: ["product", "order"] };
const AUTO10 = { code: "AUTO10", discount: { kind: "percent", percent: "10" }, automatic: true, priority: 20,
  combines_with: ["shipping"] };
const MUGS10 = { code: "MUGS10", discount: { kind: "percent", percent: "10" }, automatic: true, priority: 30,
  applies_to: { categories: ["mugs"] }, combines_with: ["order", "shipping"] };

const worker = workerForFile({}, async () => {
  for (const definition of [
    SHIP50, AUTO10, MUGS10,
    { code: "SAVE10", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"] },
    { code: "LONER", discount: { kind: "percent", percent: "20" } },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
});

const base = () => worker.base;
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")], shipping: eur("4.90") };
const quote = (body, headers) => call(base(), "POST", "/v1/quotes", { body, headers });
const keyed = (route, key, body) => call(base(), "POST", route, { body, headers: { ...capturer, "idempotency-key": key } });
const automatic = (headers) => call(base(), "GET", "/v1/automatic", { headers });
const patch = (code, active) => call(base(), "PATCH", `/v1/codes/${code}`, { body: { active }, headers: admin });
const parts = (answer) => answer.codes.map((p) => [p.code, p.discount.amount, p.automatic === true]);
const skipped = (answer) => (answer.skipped ?? []).map((s) => [s.code, s.rejection]);
const usageOf = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage.total;

test("GET /v1/automatic lists the active ones by priority, from the edge cache until one changes", async () => {
  const first = await automatic();
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.json.promotions.map((p) => [p.code, p.priority]), [["SHIP50", 10], ["AUTO10", 20], ["MUGS10", 30]]);
  assert.equal(first.json.promotions[0].assigned, false, "public definitions: no audience, only `assigned`");
  assert.equal(first.json.promotions[0].automatic, true);
  assert.equal(first.headers.get("x-promocodes-cache"), "miss");
  assert.equal((await automatic()).headers.get("x-promocodes-cache"), "hit");

  // A new automatic promotion, switched off: the copy is purged, and it is not listed.
  const put = await putCode(base(), { code: "EARLY", discount: { kind: "percent", percent: "1" }, automatic: true,
    priority: 5, active: false });
  assert.equal(put.status, 201, put.text);
  const off = await automatic();
  assert.equal(off.headers.get("x-promocodes-cache"), "miss");
  assert.deepEqual(off.json.promotions.map((p) => p.code), ["SHIP50", "AUTO10", "MUGS10"]);
  // Switched on: listed first. Archived: gone.
  assert.equal((await patch("EARLY", true)).status, 200);
  assert.deepEqual((await automatic()).json.promotions.map((p) => p.code), ["EARLY", "SHIP50", "AUTO10", "MUGS10"]);
  assert.equal((await call(base(), "DELETE", "/v1/codes/EARLY", { headers: admin })).status, 200);
  const gone = await automatic();
  assert.equal(gone.headers.get("x-promocodes-cache"), "miss");
  assert.deepEqual(gone.json.promotions.map((p) => p.code), ["SHIP50", "AUTO10", "MUGS10"]);
  // A code that is not (and was not) automatic leaves the copy alone.
  assert.equal((await automatic()).headers.get("x-promocodes-cache"), "hit");
  assert.equal((await putCode(base(), { code: "PLAIN", discount: { kind: "percent", percent: "3" } })).status, 201);
  assert.equal((await automatic()).headers.get("x-promocodes-cache"), "hit");
  // Turning an automatic code into a plain one purges it.
  assert.equal((await putCode(base(), { code: "TURNS", discount: { kind: "percent", percent: "3" }, automatic: true, priority: 99 })).status, 201);
  assert.deepEqual((await automatic()).json.promotions.map((p) => p.code), ["SHIP50", "AUTO10", "MUGS10", "TURNS"]);
  assert.equal((await putCode(base(), { code: "TURNS", discount: { kind: "percent", percent: "3" } })).status, 200);
  assert.deepEqual((await automatic()).json.promotions.map((p) => p.code), ["SHIP50", "AUTO10", "MUGS10"]);
  // With a token: live, never cached.
  const live = await automatic(admin);
  assert.equal(live.headers.get("cache-control"), "no-store");
});

test("a campaign cannot be automatic, and a priority is bounded: 400 naming the field", async () => {
  const campaign = await call(base(), "PUT", "/v1/campaigns/AUTOCAMP", {
    body: { discount: { kind: "percent", percent: "10" }, automatic: true }, headers: admin });
  assert.equal(campaign.status, 400, campaign.text);
  assert.match(campaign.json.detail, /^automatic: a campaign cannot be automatic/);
  const high = await putCode(base(), { code: "HIGH", discount: { kind: "free_shipping" }, automatic: true, priority: 1000001 });
  assert.equal(high.status, 400, high.text);
  assert.match(high.json.detail, /^priority: /);
});

test("quotes take the typed codes first, then each automatic promotion that combines", async () => {
  // Alone: AUTO10 (order) and SHIP50 (shipping) join; MUGS10 does not combine with AUTO10.
  const alone = await quote({ automatic: true, ...basket });
  assert.equal(alone.status, 200, alone.text);
  assert.deepEqual(parts(alone.json), [["AUTO10", "7.15", true], ["SHIP50", "4.90", true]]);
  assert.deepEqual(skipped(alone.json), [["MUGS10", "not_combinable"]]);
  assert.equal(alone.json.skipped[0].detail, "this code cannot be combined with AUTO10");
  assert.equal(alone.json.payable.amount, "64.35");

  // With SAVE10 typed: AUTO10 cannot join it; MUGS10 and SHIP50 can, and apply in class order.
  const typed = await quote({ codes: ["SAVE10"], automatic: true, ...basket });
  assert.equal(typed.status, 200, typed.text);
  assert.deepEqual(parts(typed.json), [["MUGS10", "2.50", true], ["SAVE10", "6.90", false], ["SHIP50", "4.90", true]]);
  assert.deepEqual(skipped(typed.json), [["AUTO10", "not_combinable"]]);
  // `code` with `automatic` is a stack of one typed code.
  const one = await quote({ code: "save10", automatic: true, ...basket });
  assert.deepEqual(parts(one.json), parts(typed.json));

  // A typed code is never dropped: LONER combines with nothing, every automatic one is skipped.
  const loner = await quote({ code: "LONER", automatic: true, ...basket });
  assert.deepEqual(parts(loner.json), [["LONER", "14.30", false]]);
  assert.deepEqual(skipped(loner.json), [["SHIP50", "not_combinable"], ["AUTO10", "not_combinable"], ["MUGS10", "not_combinable"]]);

  // Below a minimum: skipped with the rule's own sentence, never an error.
  const small = await quote({ automatic: true, lines: [line("GRINDER", 1, "30.00")], shipping: eur("4.90") });
  assert.equal(small.status, 200, small.text);
  assert.deepEqual(parts(small.json), [["AUTO10", "3.00", true]]);
  assert.deepEqual(skipped(small.json), [["SHIP50", "below_minimum"], ["MUGS10", "not_combinable"]]);
  assert.equal(small.json.skipped[0].detail, "this code needs a basket of at least EUR 50.00");

  // Bad input names the field; without `automatic`, nothing changes.
  const bad = await quote({ automatic: "yes", ...basket });
  assert.equal(bad.status, 400, bad.text);
  assert.match(bad.json.detail, /^automatic: /);
  const plain = await quote({ code: "SAVE10", ...basket });
  assert.equal(plain.json.discount.amount, "7.15");
  assert.equal(plain.json.skipped, undefined);
});

test("holds, captures and releases take the automatic ones all or none with the typed codes", async () => {
  const body = { codes: ["SAVE10"], automatic: true, ...basket };
  const held = await keyed("/v1/holds", "auto-h1", body);
  assert.equal(held.status, 201, held.text);
  assert.deepEqual(held.json.holds.map((h) => [h.quote.code, h.quote.discount.amount]),
    [["MUGS10", "2.50"], ["SAVE10", "6.90"], ["SHIP50", "4.90"]]);
  assert.deepEqual(skipped(held.json), [["AUTO10", "not_combinable"]]);
  const again = await keyed("/v1/holds", "auto-h1", body);
  assert.equal(again.status, 200, again.text);
  assert.ok(again.json.holds.every((h) => h.replayed));
  const captured = await keyed("/v1/captures", "auto-h1", body);
  assert.ok([200, 201].includes(captured.status), captured.text);
  assert.deepEqual(captured.json.receipts.map((r) => [r.quote.code, r.state]),
    [["MUGS10", "captured"], ["SAVE10", "captured"], ["SHIP50", "captured"]]);
  assert.equal(await usageOf("MUGS10"), 1);

  // The release gives every code's use under the key back, the automatic ones found by the key.
  const released = await call(base(), "POST", "/v1/releases", {
    body: { codes: ["SAVE10"], automatic: true, key: "auto-h1", reason: "order cancelled" }, headers: capturer });
  assert.equal(released.status, 200, released.text);
  assert.deepEqual(released.json.releases.map((r) => r.state), ["released", "released", "released"]);
  assert.equal(await usageOf("MUGS10"), 0);
  assert.equal(await usageOf("SHIP50"), 0);
});

test("a retried capture replays what it recorded, whatever changed in the automatic set", async () => {
  const body = { automatic: true, ...basket };
  const first = await keyed("/v1/captures", "auto-c1", body);
  assert.equal(first.status, 201, first.text);
  assert.deepEqual(first.json.receipts.map((r) => [r.quote.code, r.quote.discount.amount]), [["AUTO10", "7.15"], ["SHIP50", "4.90"]]);
  // Since then: AUTO10 combines with product codes (MUGS10 would now join, before it), and SHIP50
  // is switched off.
  assert.equal((await putCode(base(), { ...AUTO10, combines_with: ["product", "shipping"] })).status, 200);
  assert.equal((await patch("SHIP50", false)).status, 200);
  const retry = await keyed("/v1/captures", "auto-c1", body);
  assert.equal(retry.status, 200, retry.text);
  assert.deepEqual(retry.json.receipts.map((r) => [r.quote.code, r.quote.discount.amount, r.replayed]),
    [["AUTO10", "7.15", true], ["SHIP50", "4.90", true]]);
  assert.equal(await usageOf("MUGS10"), 0, "no new use under a key tried before");
  // A fresh request decides afresh: MUGS10 joins, SHIP50 is off.
  const fresh = await quote(body);
  assert.deepEqual(parts(fresh.json), [["MUGS10", "2.50", true], ["AUTO10", "6.90", true]]);
  assert.deepEqual(skipped(fresh.json), []);
  assert.equal((await putCode(base(), AUTO10)).status, 200);
});

test("a capture of holds decides the automatic ones afresh at payment time", async () => {
  // SHIP50 is off: the hold takes AUTO10 alone.
  const body = { automatic: true, ...basket };
  const held = await keyed("/v1/holds", "auto-h2", body);
  assert.equal(held.status, 201, held.text);
  assert.deepEqual(held.json.holds.map((h) => h.quote.code), ["AUTO10"]);
  const shown = (await quote(body)).json;
  const before = await usageOf("SHIP50");
  assert.equal((await patch("SHIP50", true)).status, 200);
  // Pinned to the quote shown at the hold: free shipping joined since, so the price changed.
  const pinned = await keyed("/v1/captures", "auto-h2", { ...body, quote: shown });
  assert.equal(pinned.status, 422, pinned.text);
  assert.equal(pinned.json.rejection, "quote_changed");
  assert.equal(await usageOf("SHIP50"), before);
  // Not pinned: the hold converts as held, and SHIP50 is captured with it.
  const captured = await keyed("/v1/captures", "auto-h2", body);
  assert.equal(captured.status, 201, captured.text);
  assert.deepEqual(captured.json.receipts.map((r) => [r.quote.code, r.quote.discount.amount]), [["AUTO10", "7.15"], ["SHIP50", "4.90"]]);
  assert.equal(await usageOf("SHIP50"), before + 1);
});

test("20 buyers racing for an automatic promotion capped at 5: exactly 5 get it", async () => {
  for (const code of ["SHIP50", "AUTO10", "MUGS10"]) assert.equal((await patch(code, false)).status, 200);
  const put = await putCode(base(), { code: "FIRST5", discount: { kind: "fixed", amount: eur("1.00") }, automatic: true,
    priority: 0, limits: { total: 5 } });
  assert.equal(put.status, 201, put.text);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    keyed("/v1/captures", `race-${i}`, { automatic: true, total: eur("20.00") })));
  const got = [];
  answers.forEach((a, i) => {
    assert.ok([200, 201, 422].includes(a.status), a.text);
    if (a.status === 422) assert.equal(a.json.rejection, "exhausted", a.text);
    if (a.status !== 422 && a.json.receipts.some((r) => r.quote.code === "FIRST5")) got.push(i);
    if (a.status !== 422 && a.json.receipts.length === 0) assert.deepEqual(skipped(a.json), [["FIRST5", "exhausted"]]);
  });
  assert.equal(got.length, 5, JSON.stringify(answers.map((a) => a.status)));
  assert.equal(await usageOf("FIRST5"), 5);
  // An automatic promotion's release alone, by its key.
  const released = await call(base(), "POST", "/v1/releases", { body: { automatic: true, key: `race-${got[0]}` }, headers: capturer });
  assert.equal(released.status, 200, released.text);
  assert.deepEqual(released.json.releases.map((r) => r.state), ["released"]);
  assert.equal(await usageOf("FIRST5"), 4);
});
