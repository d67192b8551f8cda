// A money budget on a code, against the real Worker in workerd: the lookup's `usage.discounted` and
// `remaining_budget`, racing holds that never reserve more than the budget, a release that gives
// the money back, a partial budget that clips a capture's discount (`budget_clipped`, `desired`),
// and a refused one that answers 422 `budget_exhausted` and records nothing.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, workerForFile } from "./harness.mjs";

const worker = workerForFile();
const base = () => worker.base;
const eur = (amount) => ({ amount, currency: "EUR" });
const budgeted = (code, budget, when_budget_short) => ({
  code,
  discount: { kind: "percent", percent: "10" },
  limits: { budget: eur(budget), ...(when_budget_short ? { when_budget_short } : {}) },
});
const lookup = async (code) => {
  const r = await call(base(), "GET", `/v1/codes/${code}`, { headers: capturer });
  assert.equal(r.status, 200, r.text);
  return r.json;
};
const post = (route, body, key) =>
  call(base(), "POST", route, { body, headers: { ...capturer, ...(key ? { "idempotency-key": key } : {}) } });

test("a budgeted code shows what it gave away and what is left", async () => {
  const created = await putCode(base(), budgeted("SHOWBUDGET", "20.00"));
  assert.equal(created.status, 201, created.text);
  let view = await lookup("SHOWBUDGET");
  assert.deepEqual(view.limits.budget, eur("20.00"));
  assert.equal(view.limits.when_budget_short, "refuse");
  assert.deepEqual(view.usage.discounted, eur("0.00"));
  assert.deepEqual(view.remaining_budget, eur("20.00"));
  const capture = await post("/v1/captures", { code: "SHOWBUDGET", total: eur("80.00") }, "show-1");
  assert.equal(capture.status, 201, capture.text);
  assert.deepEqual(capture.json.usage.discounted, eur("8.00"), "a capture's usage shows the money counted, as the lookup does");
  view = await lookup("SHOWBUDGET");
  assert.deepEqual(view.usage.discounted, eur("8.00"));
  assert.deepEqual(view.remaining_budget, eur("12.00"));
});

test("remaining counts a fixed discount's budget in full-size uses, rounded as the budget's mode gives", async () => {
  for (const [mode, before, after] of [["refuse", 2, 1], ["partial", 3, 2]]) {
    const code = `SEVEN${mode.toUpperCase()}`;
    const definition = { code, discount: { kind: "fixed", amount: eur("7.00") }, limits: { total: 10, budget: eur("20.00"), when_budget_short: mode } };
    assert.equal((await putCode(base(), definition)).status, 201);
    assert.equal((await lookup(code)).remaining, before, mode); // 20.00 / 7.00
    const capture = await post("/v1/captures", { code, total: eur("80.00") }, `seven-${mode}`);
    assert.equal(capture.status, 201, capture.text);
    const view = await lookup(code);
    assert.equal(view.remaining, after, mode); // 13.00 / 7.00, though the total cap leaves 9
    assert.deepEqual(view.remaining_budget, eur("13.00"));
  }
  // A percent has no full size: the budget does not bound `remaining` until it is spent.
  assert.equal((await putCode(base(), budgeted("TENBUDGET", "8.00"))).status, 201);
  assert.equal((await lookup("TENBUDGET")).remaining, undefined);
  assert.equal((await post("/v1/captures", { code: "TENBUDGET", total: eur("80.00") }, "ten-budget")).status, 201);
  assert.equal((await lookup("TENBUDGET")).remaining, 0);
});

test("bad budgets are refused with 400 and nothing is defined", async () => {
  for (const limits of [
    { budget: eur("0.00") },
    { budget: eur("-1.00") },
    { budget: eur("5.00"), when_budget_short: "sometimes" },
    { when_budget_short: "partial" },
  ]) {
    const r = await putCode(base(), { code: "BADBUDGET", discount: { kind: "percent", percent: "10" }, limits });
    assert.equal(r.status, 400, `${JSON.stringify(limits)}: ${r.text}`);
  }
  const fixed = { code: "BADBUDGET", discount: { kind: "fixed", amount: eur("5.00") }, limits: { budget: { amount: "9.00", currency: "USD" } } };
  assert.equal((await putCode(base(), fixed)).status, 400);
  assert.equal((await call(base(), "GET", "/v1/codes/BADBUDGET", { headers: capturer })).status, 404);
});

test("racing holds never reserve more than the budget; a release gives the money back", async () => {
  assert.equal((await putCode(base(), budgeted("RACEBUDGET", "50.00"))).status, 201);
  // 30 holds of EUR 8.00 each at once: 6 fit in EUR 50.00.
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      post("/v1/holds", { code: "RACEBUDGET", total: eur("80.00") }, `race-hold-${i}`)),
  );
  const held = answers.filter((r) => r.status === 201);
  const refused = answers.filter((r) => r.status === 422);
  assert.equal(held.length, 6, answers.map((r) => r.status).join(","));
  for (const r of refused) assert.equal(r.json.rejection, "budget_exhausted", r.text);
  assert.equal(held.length + refused.length + answers.filter((r) => r.status === 409).length, 30);
  let view = await lookup("RACEBUDGET");
  assert.deepEqual(view.usage.discounted, eur("48.00"));
  assert.equal(view.usage.held, 6);
  assert.deepEqual(view.remaining_budget, eur("2.00"));

  const key = held[0].json.key;
  const released = await post("/v1/releases", { code: "RACEBUDGET", key, reason: "canceled" });
  assert.equal(released.status, 200, released.text);
  view = await lookup("RACEBUDGET");
  assert.deepEqual(view.usage.discounted, eur("40.00"));
  assert.deepEqual(view.remaining_budget, eur("10.00"));
  const again = await post("/v1/holds", { code: "RACEBUDGET", total: eur("80.00") }, "race-hold-again");
  assert.equal(again.status, 201, again.text);
});

test("a partial budget clips the discount to what is left; a refusing one records nothing", async () => {
  assert.equal((await putCode(base(), budgeted("CLIPPED", "10.00", "partial"))).status, 201);
  assert.equal((await post("/v1/captures", { code: "CLIPPED", total: eur("80.00") }, "clip-1")).status, 201);
  const quote = await post("/v1/quotes", { code: "CLIPPED", total: eur("80.00") });
  assert.equal(quote.status, 200, quote.text);
  assert.deepEqual(quote.json.discount, eur("2.00"));
  assert.equal(quote.json.budget_clipped, true);
  assert.deepEqual(quote.json.desired, eur("8.00"));
  // A capture pinned to a quote from before the others spent the budget is quote_changed.
  const stale = { code: "CLIPPED", total: eur("80.00"), discount: eur("8.00"), payable: eur("72.00"), quoted_at: "2026-01-01T00:00:00Z" };
  const pinned = await post("/v1/captures", { code: "CLIPPED", total: eur("80.00"), quote: stale }, "clip-pinned");
  assert.equal(pinned.status, 422, pinned.text);
  assert.equal(pinned.json.rejection, "quote_changed");
  const capture = await post("/v1/captures", { code: "CLIPPED", total: eur("80.00") }, "clip-2");
  assert.equal(capture.status, 201, capture.text);
  assert.deepEqual(capture.json.quote.discount, eur("2.00"));
  assert.equal(capture.json.quote.budget_clipped, true);
  const spent = await post("/v1/captures", { code: "CLIPPED", total: eur("80.00") }, "clip-3");
  assert.equal(spent.status, 422, spent.text);
  assert.equal(spent.json.rejection, "budget_exhausted");

  assert.equal((await putCode(base(), budgeted("REFUSING", "10.00"))).status, 201);
  assert.equal((await post("/v1/captures", { code: "REFUSING", total: eur("80.00") }, "refuse-1")).status, 201);
  const refused = await post("/v1/captures", { code: "REFUSING", total: eur("80.00") }, "refuse-2");
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.json.rejection, "budget_exhausted");
  assert.match(refused.json.detail, /only EUR 2\.00 is left in this promotion's budget/);
  const view = await lookup("REFUSING");
  assert.equal(view.usage.total, 1, "nothing recorded");
  assert.deepEqual(view.remaining_budget, eur("2.00"));
});

test("the figures count the money given away and given back, in the code's currency", async () => {
  assert.equal((await putCode(base(), budgeted("SPENT", "100.00"))).status, 201);
  for (const [key, total] of [["spent-1", "80.00"], ["spent-2", "50.00"]]) {
    assert.equal((await post("/v1/captures", { code: "SPENT", total: eur(total) }, key)).status, 201);
  }
  const released = await post("/v1/releases", { code: "SPENT", key: "spent-2", reason: "refund" });
  assert.equal(released.status, 200, released.text);
  const stats = await call(base(), "GET", "/v1/codes/SPENT/stats", { headers: admin });
  assert.equal(stats.status, 200, stats.text);
  assert.deepEqual(stats.json.total.discounted, eur("13.00"), "8.00 + 5.00 given away");
  assert.deepEqual(stats.json.total.returned, eur("5.00"), "5.00 given back");
  const minutes = stats.json.by_minute;
  const given = minutes.reduce((sum, m) => sum + Number(m.figures.discounted.amount.replace(".", "")), 0);
  assert.equal(given, 1300, "the minutes add up to the total (in cents)");
  // A code without a currency of its own shows no money figures.
  assert.equal((await putCode(base(), { code: "NOCURRENCY", discount: { kind: "percent", percent: "10" } })).status, 201);
  const plain = await call(base(), "GET", "/v1/codes/NOCURRENCY/stats", { headers: admin });
  assert.equal(plain.json.total.discounted, undefined);
});

test("a capture of a hold with another basket must fit the budget less every other use", async () => {
  for (const mode of ["refuse", "partial"]) {
    const code = `REBASKET${mode.toUpperCase()}`;
    assert.equal((await putCode(base(), budgeted(code, "20.00", mode))).status, 201);
    const held = await post("/v1/holds", { code, total: eur("80.00"), ttl_seconds: 600 }, `${code}-hold`);
    assert.equal(held.status, 201, held.text); // reserves 8.00
    assert.equal((await post("/v1/captures", { code, total: eur("80.00") }, `${code}-other`)).status, 201); // 8.00
    // The buyer's basket grew to 200.00: 20.00 off, where the budget less the other use leaves 12.00.
    const grown = await post("/v1/captures", { code, total: eur("200.00") }, `${code}-hold`);
    if (mode === "refuse") {
      assert.equal(grown.status, 422, grown.text);
      assert.equal(grown.json.rejection, "budget_exhausted");
      const view = await lookup(code);
      assert.deepEqual(view.usage.discounted, eur("16.00"), "the hold still reserves its 8.00; nothing was converted");
      assert.deepEqual(view.usage, { total: 2, held: 1, discounted: eur("16.00"), held_discounted: eur("8.00") });
    } else {
      assert.equal(grown.status, 201, grown.text);
      assert.deepEqual(grown.json.quote.discount, eur("12.00"), "clipped to what the other use leaves");
      assert.equal(grown.json.quote.budget_clipped, true);
      assert.deepEqual(grown.json.quote.desired, eur("20.00"));
      const view = await lookup(code);
      assert.deepEqual(view.usage, { total: 2, held: 0, discounted: eur("20.00"), held_discounted: eur("0.00") });
      assert.deepEqual(view.remaining_budget, eur("0.00"));
    }
  }
});
