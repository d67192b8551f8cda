// The checkout page's pure parts: the basket from the quantities typed (public/checkout/basket.js)
// and the buyer's sentences (public/checkout/sentences.js). Run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { priceBasket } from "../../public/checkout/basket.js";
import {
  appliedSentence, automaticSentence, codesOf, describeDiscount, describeScope, isAre, malformedSentence, nextTierSentence,
  partSentence, payLabel, problemSentence, refusalSentence, spendMoreSentence, typedName, unknownSentence, withoutSentence,
} from "../../public/checkout/sentences.js";
import { formatMoney } from "../../public/lib/money.js";

const LINES = [
  { sku: "MUG-01", category: "mugs", price: "12.90", name: "Enamel mug" },
  { sku: "COF-01", category: "coffee", price: "0.10", name: "Coffee sample" },
];
const basket = (quantities, shipping = "4.90", currency = "EUR", digits = 2, lines = LINES) =>
  priceBasket({ lines: lines.map((line, i) => ({ ...line, quantity: quantities[i] })), shipping, currency, digits });

test("the basket sums lines and shipping in minor units: 3 × 0.10 + 0 is 0.30", () => {
  const b = basket(["0", "3"], null);
  assert.equal(b.subtotal.amount, "0.30");
  assert.equal(b.total.amount, "0.30");
  assert.equal(b.shipping, null);
  assert.equal(b.request.shipping, undefined);
  assert.deepEqual(b.request.lines, [{ sku: "COF-01", quantity: 3, unit_price: { amount: "0.10", currency: "EUR" }, categories: ["coffee"] }]);
  assert.deepEqual(b.amounts.map((m) => m.amount), ["0.00", "0.30"]);
  assert.equal(b.empty, false);
  assert.equal(b.error, null);
});

test("the basket with shipping: quantity 0 is left out of the request but counts as a line amount", () => {
  const b = basket(["2", " 0 "]);
  assert.equal(b.subtotal.amount, "25.80");
  assert.deepEqual(b.shipping, { amount: "4.90", currency: "EUR" });
  assert.deepEqual(b.request.shipping, { amount: "4.90", currency: "EUR" });
  assert.equal(b.total.amount, "30.70");
  assert.equal(b.request.lines.length, 1);
});

test("an empty basket: every quantity 0", () => {
  const b = basket(["0", "0"]);
  assert.equal(b.empty, true);
  assert.equal(b.total.amount, "4.90");
});

test("a quantity that is not a whole number from 0 to 99 is named, the first one only", () => {
  for (const bad of ["100", "-1", "1.5", "", "two", "1e1"]) {
    const b = basket([bad, "x"]);
    assert.equal(b.error, "Enter a quantity from 0 to 99 for the enamel mug.", bad);
    assert.equal(b.amounts[0], null);
  }
  assert.equal(basket(["99", "99"]).subtotal.amount, "1287.00");
});

test("a currency without minor units (JPY) and amounts beyond 2^53 minor units", () => {
  const yen = basket(["3"], "500", "JPY", 0, [{ sku: "TEA", category: "tea", price: "1200", name: "Tea" }]);
  assert.equal(yen.subtotal.amount, "3600");
  assert.equal(yen.total.amount, "4100");
  const big = basket(["99"], null, "EUR", 2, [{ sku: "GOLD", category: "gold", price: "999999999999999.99", name: "Gold" }]);
  assert.equal(big.total.amount, "98999999999999999.01");
});

const shop = { currency: "EUR", skuName: (sku) => ({ "MUG-01": "enamel mug" })[sku] ?? sku };
const eur = (amount) => ({ amount, currency: "EUR" });

test("a discount in words, with its scope and cap", () => {
  assert.equal(describeDiscount({ discount: { kind: "percent", percent: "10" } }, shop), "10% off");
  assert.equal(
    describeDiscount({ discount: { kind: "percent", percent: "20", max: eur("5.00") }, applies_to: { categories: ["mugs"], skus: ["MUG-01"] } }, shop),
    `20% off mugs or enamel mug (at most ${formatMoney(eur("5.00"))})`,
  );
  assert.equal(describeDiscount({ discount: { kind: "fixed", amount: eur("3.20") } }, shop), `${formatMoney(eur("3.20"))} off`);
  assert.equal(describeDiscount({ discount: { kind: "free_shipping" }, applies_to: { categories: ["mugs"] } }, shop), "free shipping");
  assert.equal(describeScope(undefined, shop), "");
  assert.equal(describeScope({ skus: ["UNKNOWN"] }, shop), "UNKNOWN");
});

test("refusals in the buyer's words", () => {
  const definition = { discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] }, minimum: eur("20.00"), limits: { per_customer: 3 } };
  assert.equal(refusalSentence("not_combinable", "A", definition, { other: "B" }), "A cannot be combined with B.");
  assert.equal(refusalSentence("not_assigned", "A", definition, { customer: "c1" }), "A is not available to c1.");
  assert.equal(refusalSentence("exhausted", "A", definition, { usage: { held: 1 } }),
    "Every use of A is taken or reserved by someone paying right now. A use comes back if they cancel.");
  assert.equal(refusalSentence("exhausted", "A", definition, { usage: { held: 0 } }), "A has been used up.");
  assert.equal(refusalSentence("customer_limit_reached", "A", definition), "You have already used A 3 times, as often as it allows.");
  assert.equal(refusalSentence("currency_mismatch", "A", definition, shop), "A cannot be used for a payment in EUR.");
  assert.equal(refusalSentence("no_eligible_items", "A", definition), "A applies only to mugs: add some to your basket.");
  assert.equal(refusalSentence("below_minimum", "A", definition), `A needs at least ${formatMoney(eur("20.00"))} of mugs.`);
  // The core's money in its detail is written in the page's one style.
  assert.equal(refusalSentence("budget_exhausted", "A", definition, { detail: "only EUR 1.00 is left in this promotion's budget" }),
    `Only ${formatMoney(eur("1.00"))} is left in this promotion's budget, less than A would take off this basket.`);
  assert.equal(refusalSentence("budget_exhausted", "A", definition), "The budget of A is used up.");
  assert.equal(refusalSentence("something_new", "A", definition, { detail: "the core said so." }), "The core said so.");
  assert.equal(refusalSentence("something_new", "A", definition, { detail: "needs EUR 5.00" }), `Needs ${formatMoney(eur("5.00"))}.`);
  assert.equal(refusalSentence("something_new", "A", definition), "A cannot be used.");
});

test("why a text is not a code", () => {
  assert.equal(malformedSentence({ kind: "code_character", character: " ", position: 4 }),
    "A promo code has only letters, digits, - and _: its fifth character is a space.");
  assert.equal(malformedSentence({ kind: "code_character", character: "!", position: 0 }),
    "A promo code has only letters, digits, - and _: its first character is “!”.");
  assert.equal(malformedSentence(null), "This is too long for a promo code.");
});

test("a quote and a stack's part in words; a budget's clip in the page's money style", () => {
  const definition = { discount: { kind: "percent", percent: "10" } };
  assert.equal(appliedSentence({ code: "SAVE10", note: "the cap applied" }, definition, shop), "SAVE10 applied: 10% off. The cap applied.");
  assert.equal(
    appliedSentence({ code: "B", budget_clipped: true, discount: eur("1.50"), desired: eur("4.00") }, definition, shop),
    `B applied: 10% off. ${formatMoney(eur("1.50"))} left in this promotion's budget: you save ${formatMoney(eur("1.50"))} instead of ${formatMoney(eur("4.00"))}.`,
  );
  assert.equal(partSentence({ code: "M", discount: eur("0.00") }, definition, shop), "M takes nothing off this basket (10% off).");
  assert.equal(partSentence({ code: "M", discount: eur("2.00") }, definition, shop), `M: −${formatMoney(eur("2.00"))}, 10% off.`);
  assert.equal(partSentence(undefined, definition, shop), "");
  assert.equal(
    partSentence({ code: "B", budget_clipped: true, discount: eur("1.50"), desired: eur("4.00") }, definition, shop),
    `B: −${formatMoney(eur("1.50"))}, 10% off. ${formatMoney(eur("1.50"))} left in this promotion's budget, instead of ${formatMoney(eur("4.00"))}.`,
  );
});

test("buy X get Y and tiers in words, and what the next tier needs", () => {
  const eur = (amount) => ({ amount, currency: "EUR" });
  const mugs = { categories: ["mugs"] };
  const deal = { code: "B2G1", discount: { kind: "buy_x_get_y", buy: { quantity: 2, applies_to: mugs }, get: { quantity: 1, percent: "100" } } };
  assert.equal(describeDiscount(deal), "buy 2 mugs, get 1 free");
  const spend = { code: "S", discount: { kind: "buy_x_get_y", buy: { amount: eur("30.00"), applies_to: mugs }, get: { quantity: 1, applies_to: { categories: ["coffee"] }, percent: "50" } } };
  assert.equal(describeDiscount(spend), `spend ${formatMoney(eur("30.00"))} on mugs, get 1 coffee at 50% off`);
  const tiers = { code: "T", discount: { kind: "tiered", by: "subtotal", tiers: [
    { from: eur("50.00"), discount: { kind: "percent", percent: "10" } },
    { from: eur("100.00"), discount: { kind: "percent", percent: "15" } }] } };
  assert.equal(describeDiscount(tiers), `10% off from ${formatMoney(eur("50.00"))} and 15% off from ${formatMoney(eur("100.00"))}`);
  const quote = { code: "T", next_tier: { index: 1, from: eur("100.00"), missing: eur("20.00") } };
  assert.equal(nextTierSentence(quote, tiers), `Spend ${formatMoney(eur("20.00"))} more for 15% off.`);
  assert.match(appliedSentence(quote, tiers), /applied: .* Spend .* more for 15% off\.$/);
  const units = { code: "U", discount: { kind: "tiered", by: "quantity", tiers: [
    { from: 3, discount: { kind: "percent", percent: "10" } }, { from: 5, discount: { kind: "fixed", amount: eur("10.00") } }] } };
  assert.equal(nextTierSentence({ next_tier: { index: 1, from: 5, missing: 2 } }, units), `Add 2 more items for ${formatMoney(eur("10.00"))} off.`);
  assert.equal(nextTierSentence({}, units), "");
});

test("problems and lists of codes", () => {
  assert.equal(problemSentence(0, {}), "The shop could not be reached. Check your connection and try again.");
  assert.equal(problemSentence(503, { detail: "down" }), "The shop answered 503 (down).");
  assert.equal(problemSentence(422, { detail: "EUR 2.00 left" }), `The shop answered 422 (${formatMoney(eur("2.00"))} left).`);
  assert.equal(codesOf({ codes: ["A", "B"] }), "A and B");
  assert.equal(isAre({ codes: ["A"] }), "is");
  assert.equal(isAre({ codes: ["A", "B"] }), "are");
});

test("automatic promotions in words: applied, and what a basket below a minimum lacks", () => {
  const eur = (amount) => ({ amount, currency: "EUR" });
  const ship = { code: "SHIP50", discount: { kind: "free_shipping" }, minimum: eur("50.00"), automatic: true };
  const auto10 = { code: "AUTO10", discount: { kind: "percent", percent: "10" }, automatic: true };
  assert.equal(automaticSentence({ code: "SHIP50", discount: eur("4.90") }, ship), "Free shipping applied automatically.");
  assert.equal(automaticSentence({ code: "AUTO10", discount: eur("3.79") }, auto10),
    `AUTO10 applied automatically: −${formatMoney(eur("3.79"))}, 10% off.`);
  // Lines of 37.90 less AUTO10's 3.79 leave 34.11 toward the 50.00 minimum: 15.89 more.
  const quote = {
    total: eur("44.90"), discount: eur("3.79"), payable: eur("41.11"),
    lines: [{ sku: "MUG-01", amount: eur("37.90"), discount: eur("3.79") }, { sku: "COF-01", amount: eur("0.00"), discount: eur("0.00") }],
    shipping: { amount: eur("4.90"), discount: eur("0.00") },
  };
  const below = { code: "SHIP50", rejection: "below_minimum", detail: "this code needs a basket of at least EUR 50.00" };
  assert.equal(spendMoreSentence(below, ship, quote), `Spend ${formatMoney(eur("15.89"))} more for free shipping.`);
  // A basket of one total: what is left to pay, less the shipping still charged.
  const total = { total: eur("42.00"), discount: eur("0.00"), payable: eur("42.00") };
  assert.equal(spendMoreSentence(below, ship, total), `Spend ${formatMoney(eur("8.00"))} more for free shipping.`);
  // Skipped for another reason, a minimum over some products, or nothing missing: no hint.
  assert.equal(spendMoreSentence({ ...below, rejection: "not_combinable" }, ship, quote), null);
  assert.equal(spendMoreSentence(below, { ...ship, applies_to: { categories: ["mugs"] } }, quote), null);
  assert.equal(spendMoreSentence(below, ship, { ...total, payable: eur("60.00") }), null);
});

test("a code left out: its sentence, Pay's label and how a text that is not a code is named", () => {
  assert.equal(unknownSentence("SAVE11"), "There is no code SAVE11: check the spelling.");
  assert.equal(withoutSentence(eur("84.90"), 1), `You can pay ${formatMoney(eur("84.90"))} without it.`);
  assert.equal(withoutSentence(eur("84.90"), 2), `You can pay ${formatMoney(eur("84.90"))} without them.`);
  assert.equal(payLabel(eur("76.90")), `Pay ${formatMoney(eur("76.90"))}`);
  assert.equal(payLabel(eur("76.90"), []), `Pay ${formatMoney(eur("76.90"))}`);
  assert.equal(payLabel(eur("84.90"), ["LONER"]), `Pay ${formatMoney(eur("84.90"))} without LONER`);
  assert.equal(payLabel(eur("84.90"), ["A", "B", "C"]), `Pay ${formatMoney(eur("84.90"))} without A, B and C`);
  assert.equal(typedName(" SAVE 10 "), "“SAVE 10”");
  assert.equal(typedName("A-VERY-LONG-TEXT-TYPED"), "“A-VERY-LONG-TEX…”");
});
