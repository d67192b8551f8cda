// The console's counts in words (public/admin/counts.js). Run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

const { budgetInParts, budgetOf, campaignInWords, codeInWords, usesInWords, usesOf } = await import("../../public/admin/counts.js");
const { formatMoney } = await import("../../public/lib/money.js");

const eur = (amount) => ({ amount, currency: "EUR" });
const m = (amount) => formatMoney(eur(amount));

test("used is the captured uses, apart from the holds; held left out when none", () => {
  assert.equal(usesInWords({ usage: { total: 3, held: 1 } }), "2 used · 1 held");
  assert.equal(usesInWords({ usage: { total: 3, held: 0 } }), "3 used");
  assert.equal(usesInWords({ usage: { total: 3, held: 1 }, remaining: 97, limits: { total: 100 } }), "2 used · 1 held · 97 left: the limit of 100 uses");
});

test("the limit that binds: the total cap, the budget, a campaign's codes", () => {
  const budgeted = { usage: { total: 3, held: 1 }, limits: { total: 150, budget: eur("300.00") }, remaining: 17 };
  assert.deepEqual(usesOf(budgeted).limit, { kind: "budget", words: `the ${m("300.00")} budget` });
  assert.deepEqual(usesOf({ ...budgeted, remaining: 147 }).limit.kind, "total", "equal to the cap's rest: the cap");
  assert.equal(usesOf({ usage: { total: 0, held: 0 }, limits: { budget: eur("300.00") }, remaining: 20 }).limit.words, `the ${m("300.00")} budget`);
  const campaign = { usage: { total: 3, held: 1 }, codes: { count: 100, used: 3 }, uses_per_code: 1 };
  assert.equal(usesInWords(campaign), "2 used · 1 held · 97 left: its 100 codes");
  assert.equal(usesInWords({ ...campaign, uses_per_code: 2 }), "2 used · 1 held · 197 left: its 100 codes");
  assert.equal(usesInWords({ ...campaign, remaining: 17, limits: { budget: eur("300.00") } }), `2 used · 1 held · 17 left: the ${m("300.00")} budget`);
  assert.equal(usesInWords({ usage: { total: 0, held: 0 }, codes: { count: 0, used: 0 } }), "0 used · 0 left: no codes yet");
});

test("the budget's parts: spent, held and left, exact, with their shares in tenths of a percent", () => {
  const parts = budgetOf({
    limits: { budget: eur("300.00") }, usage: { total: 3, held: 1, discounted: eur("45.00"), held_discounted: eur("15.00") },
    remaining_budget: eur("255.00"),
  });
  assert.deepEqual(parts.spent, eur("30.00"));
  assert.deepEqual(parts.held, eur("15.00"));
  assert.deepEqual(parts.left, eur("255.00"));
  assert.deepEqual(parts.shares, { spent: 100, held: 50 });
  assert.deepEqual(budgetInParts(parts), [`${m("30.00")} spent`, `${m("15.00")} held`, `${m("255.00")} left of ${m("300.00")}`]);
  // Beyond 2^53 minor units, still exact.
  const big = budgetOf({ limits: { budget: eur("90071992547409.93") }, usage: { discounted: eur("90071992547409.92"), held_discounted: eur("0.01") }, remaining_budget: eur("0.01") });
  assert.equal(big.spent.amount, "90071992547409.91");
  assert.equal(budgetOf({ limits: {} }), null);
});

test("a campaign and a code in one sentence, without repeats", () => {
  const campaign = { active: true, usage: { total: 3, held: 1 }, codes: { count: 100, used: 3 }, uses_per_code: 1 };
  assert.equal(campaignInWords(campaign, "20% off", "Always"), "Active: 20% off, always, 100 codes of 1 use each; 2 used · 1 held · 97 left: its 100 codes.");
  assert.equal(codeInWords({ active: false, usage: { total: 1, held: 0 } }, "10% off", "Always"), "10% off. Valid: Always. 1 used. Switched off.");
});
