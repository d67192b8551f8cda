// Several codes in one basket through Stripe (issue 21): `metadata.promo_codes` (comma-separated)
// names a stack, which the webhook captures, releases and refunds as one, all or none, under the
// PaymentIntent's id, as POST /v1/captures with `codes` does. Real events, signed as Stripe signs.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, captureReq, eur, workerForFile } from "./harness.mjs";
import {
  STRIPE_TEST_SECRET, chargeRefunded, paymentIntentCanceled, paymentIntentPaymentFailed, paymentIntentSucceeded,
  postStripe, stripeId,
} from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } }, async () => {
  for (const definition of [
    // A product code and an order code that combine: on the basket below, 2.50 and 2.00 off.
    { code: "SMUG", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 100 } },
    { code: "SORDER", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 100 } },
    { code: "SLONE", discount: { kind: "fixed", amount: eur("1.00") } },
    { code: "SLAST", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    // Each with one use: a stack held under the PaymentIntent's id holds their last uses.
    { code: "ONEA", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 1 } },
    { code: "ONEB", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    { code: "SFINAL", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"] },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
});

const base = () => worker.base;
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")], shipping: eur("4.90") };
// 76.40 less SMUG's 2.50 and SORDER's 2.00.
const PAYABLE = 7190;
const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
/** The use and hold counts (without `discounted`, which a capped code shows too). */
const counts = async (code) => (({ total, held }) => ({ total, held }))(await usage(code));
const records = async (code) =>
  (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;
const metadata = (codes, extra = {}) => ({ promo_codes: codes, customer: "alice", promo_basket: JSON.stringify(basket), ...extra });
const holdStack = (key, codes) => call(base(), "POST", "/v1/holds",
  { body: { codes, ...basket, customer: "alice", ttl_seconds: 600 }, headers: { ...capturer, "idempotency-key": key } });

test("payment_intent.succeeded with two codes captures both; redeliveries capture nothing more; a refund gives both back", async () => {
  const [mugBefore, orderBefore] = [await usage("SMUG"), await usage("SORDER")];
  const pi = stripeId("pi");
  const event = paymentIntentSucceeded({ id: pi, metadata: metadata("SORDER, smug"), amount: PAYABLE });
  const paid = await postStripe(base(), event);
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.action, "captured", paid.text);
  // One receipt per code, in the order they apply, each under the PaymentIntent's id.
  assert.deepEqual(paid.json.receipts.map((r) => [r.quote.code, r.key, r.state, r.quote.discount.amount]),
    [["SMUG", pi, "captured", "2.50"], ["SORDER", pi, "captured", "2.00"]]);
  assert.equal(paid.json.receipts[1].quote.payable.amount, "71.90", "SORDER's part is what the stack charges");
  assert.equal((await usage("SMUG")).total, mugBefore.total + 1);
  assert.equal((await usage("SORDER")).total, orderBefore.total + 1);

  // The same event again, once and then ten copies at once: replayed, nothing counted twice.
  const again = await postStripe(base(), event);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.action, "replayed", again.text);
  assert.deepEqual(again.json.receipts.map((r) => [r.quote.code, r.replayed]), [["SMUG", true], ["SORDER", true]]);
  const storm = await Promise.all(Array.from({ length: 10 }, () => postStripe(base(), event)));
  assert.ok(storm.every((r) => r.status === 200 && r.json.action === "replayed"), JSON.stringify(storm.map((r) => r.json)));
  assert.equal((await usage("SMUG")).total, mugBefore.total + 1);
  assert.equal((await usage("SORDER")).total, orderBefore.total + 1);

  // A full refund whose charge carries no metadata: the payment index names the stack.
  const refund = chargeRefunded({ paymentIntent: pi, amount: PAYABLE, metadata: {} });
  const refunded = await postStripe(base(), refund);
  assert.equal(refunded.status, 200, refunded.text);
  assert.equal(refunded.json.action, "released", refunded.text);
  assert.deepEqual(refunded.json.releases.map((r) => [r.code, r.action, r.release.was]),
    [["SMUG", "released", "captured"], ["SORDER", "released", "captured"]]);
  assert.deepEqual([(await usage("SMUG")).total, (await usage("SORDER")).total], [mugBefore.total, orderBefore.total]);
  for (const code of ["SMUG", "SORDER"]) {
    assert.equal((await records(code)).find((r) => r.idempotency_key === pi).state, "released", code);
  }
  // Refunds are final: the refund again, and the success again, change nothing.
  const refundAgain = await postStripe(base(), refund);
  assert.deepEqual(refundAgain.json.releases.map((r) => [r.code, r.release.replayed]), [["SMUG", true], ["SORDER", true]]);
  const late = await postStripe(base(), event);
  assert.equal(late.status, 200, late.text);
  assert.equal(late.json.action, "released", late.text);
  assert.equal(late.json.replayed, true);
  assert.deepEqual([(await usage("SMUG")).total, (await usage("SORDER")).total], [mugBefore.total, orderBefore.total]);
});

test("a cancel or a failure releases both holds; the retry that pays captures both afresh", async () => {
  const pi = stripeId("pi");
  assert.equal((await holdStack(pi, ["SMUG", "SORDER"])).status, 201);
  const [mug, order] = [await usage("SMUG"), await usage("SORDER")];
  const cancelled = await postStripe(base(), paymentIntentCanceled({ id: pi, metadata: metadata("SMUG,SORDER") }));
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.action, "released", cancelled.text);
  assert.deepEqual(cancelled.json.releases.map((r) => [r.code, r.release.was]), [["SMUG", "held"], ["SORDER", "held"]]);
  assert.deepEqual(await counts("SMUG"), { total: mug.total - 1, held: mug.held - 1 });
  assert.deepEqual(await counts("SORDER"), { total: order.total - 1, held: order.held - 1 });

  const pi2 = stripeId("pi");
  assert.equal((await holdStack(pi2, ["SORDER", "SMUG"])).status, 201);
  const failed = await postStripe(base(), paymentIntentPaymentFailed({ id: pi2, metadata: metadata("SORDER,SMUG") }));
  assert.equal(failed.json.action, "released", failed.text);
  assert.deepEqual(failed.json.releases.map((r) => [r.code, r.release.was]), [["SORDER", "held"], ["SMUG", "held"]]);
  assert.deepEqual([(await usage("SMUG")).total, (await usage("SORDER")).total], [mug.total - 1, order.total - 1]);
  // The buyer retries and pays: each code is captured afresh under the second key, as one code is.
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi2, metadata: metadata("SORDER,SMUG"), amount: PAYABLE }));
  assert.equal(paid.json.action, "captured", paid.text);
  assert.deepEqual(paid.json.receipts.map((r) => [r.quote.code, r.key]), [["SMUG", `${pi2}:paid`], ["SORDER", `${pi2}:paid`]]);
  // A cancel or failure arriving late releases no capture.
  const late = await postStripe(base(), paymentIntentPaymentFailed({ id: pi2, metadata: metadata("SORDER,SMUG") }));
  assert.equal(late.json.action, "ignored", late.text);
  assert.deepEqual([(await usage("SMUG")).total, (await usage("SORDER")).total], [mug.total, order.total]);
  // A payment with nothing held releases nothing.
  const nothing = await postStripe(base(), paymentIntentCanceled({ metadata: metadata("SMUG,SORDER") }));
  assert.equal(nothing.json.action, "ignored", nothing.text);
  assert.deepEqual(nothing.json.releases.map((r) => r.action), ["ignored", "ignored"]);
});

test("a hold under the PaymentIntent's id is converted: the stack's success captures what was held", async () => {
  const pi = stripeId("pi");
  const held = await holdStack(pi, ["SMUG", "SORDER"]);
  assert.equal(held.status, 201, held.text);
  const [mug, order] = [await usage("SMUG"), await usage("SORDER")];
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi, metadata: metadata("SMUG,SORDER"), amount: PAYABLE }));
  assert.equal(paid.json.action, "captured", paid.text);
  assert.deepEqual(paid.json.receipts.map((r) => r.quote), held.json.holds.map((h) => h.quote));
  assert.deepEqual(await counts("SMUG"), { total: mug.total, held: mug.held - 1 });
  assert.deepEqual(await counts("SORDER"), { total: order.total, held: order.held - 1 });
  // Holding a code's last use: the success converts it (the stack is priced without its own holds).
  const last = stripeId("pi");
  assert.equal((await holdStack(last, ["ONEB", "ONEA"])).status, 201);
  const converted = await postStripe(base(), paymentIntentSucceeded({ id: last, metadata: metadata("ONEB,ONEA"), amount: PAYABLE }));
  assert.equal(converted.json.action, "captured", converted.text);
  for (const code of ["ONEA", "ONEB"]) assert.deepEqual(await counts(code), { total: 1, held: 0 }, code);
  // Another payment for the same codes is refused: their one use is spent.
  const other = await postStripe(base(), paymentIntentSucceeded({ metadata: metadata("ONEB,ONEA"), amount: PAYABLE }));
  assert.equal(other.json.action, "refused", other.text);
  assert.equal(other.json.rejection, "exhausted");
});

test("an event with a refused stack records nothing and is answered 200 refused, with every code's rejection", async () => {
  const single = await captureReq(base(), "slast-single", { code: "SLAST", total: eur("10.00") });
  assert.equal(single.status, 201, single.text);
  const before = { SMUG: await counts("SMUG"), SORDER: await counts("SORDER"), SLONE: await counts("SLONE"), SLAST: await counts("SLAST") };
  const cases = [
    ["SMUG,SLONE", PAYABLE, "not_combinable", [["SLONE", "not_combinable"]]],
    ["SLAST,SMUG", PAYABLE, "exhausted", [["SLAST", "exhausted"]]],
    ["SMUG,SORDER", PAYABLE + 100, "quote_changed", []],
  ];
  const pis = [];
  for (const [codes, amount, rejection, rejections] of cases) {
    const pi = stripeId("pi");
    pis.push(pi);
    const r = await postStripe(base(), paymentIntentSucceeded({ id: pi, metadata: metadata(codes), amount }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, "refused", r.text);
    assert.equal(r.json.rejection, rejection, r.text);
    assert.deepEqual(r.json.rejections.map((x) => [x.code, x.rejection]), rejections);
  }
  const noBasket = await postStripe(base(), paymentIntentSucceeded({ metadata: { promo_codes: "SMUG,SORDER" }, amount: PAYABLE }));
  assert.equal(noBasket.json.action, "refused", noBasket.text);
  assert.match(noBasket.json.detail, /promo_basket/);
  for (const [code, was] of Object.entries(before)) {
    assert.deepEqual(await counts(code), was, `${code}: nothing counted`);
    const mine = (await records(code)).filter((r) => pis.includes(r.idempotency_key));
    assert.deepEqual(mine, [], `${code}: nothing recorded`);
  }
});

test("malformed promo_codes, or promo_code and promo_codes together, are ignored with the reason and record nothing", async () => {
  const before = [await usage("SMUG"), await usage("SORDER")];
  const cases = [
    [{ promo_codes: "SMUG,,SORDER" }, /has an empty item/],
    [{ promo_codes: "SMUG,smug" }, /lists SMUG twice/],
    [{ promo_codes: "SMUG,SORDER,A,B,C,D" }, /names 6 codes; a basket takes at most 5/],
    [{ promo_code: "SMUG", promo_codes: "SMUG,SORDER" }, /both promo_code and promo_codes/],
  ];
  for (const [meta, why] of cases) {
    const event = paymentIntentSucceeded({ metadata: { ...meta, promo_basket: JSON.stringify(basket) }, amount: PAYABLE });
    const r = await postStripe(base(), event);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, "ignored", r.text);
    assert.match(r.json.why, why);
  }
  // A list of one is one code: the one-code flow, one receipt.
  const one = await postStripe(base(), paymentIntentSucceeded({
    metadata: { promo_codes: "SORDER", promo_basket: JSON.stringify({ total: eur("80.00") }) }, amount: 7800 }));
  assert.equal(one.json.action, "captured", one.text);
  assert.equal(one.json.receipt.quote.code, "SORDER");
  assert.deepEqual([await usage("SMUG"), (await usage("SORDER")).total], [before[0], before[1].total + 1]);
});

test("a code refused at its write gives every other code's use back, for good", async () => {
  // SLAST's refusal under this PaymentIntent is on record (a one-code event when it was used up);
  // then its use is freed, so the stack prices fine, but SLAST's write replays its refusal.
  const pi = stripeId("pi");
  const refusedOne = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "SLAST",
    basket: { total: eur("80.00") }, amount: 7800 }));
  assert.equal(refusedOne.json.action, "refused", refusedOne.text);
  const freed = await call(base(), "POST", "/v1/releases", { body: { code: "SLAST", key: "slast-single" }, headers: capturer });
  assert.equal(freed.status, 200, freed.text);
  const before = await usage("SFINAL");
  const event = paymentIntentSucceeded({ id: pi, metadata: metadata("SLAST,SFINAL"), amount: PAYABLE });
  const r = await postStripe(base(), event);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.action, "refused", r.text);
  assert.equal(r.json.code, "SLAST");
  assert.equal(r.json.rejection, "exhausted");
  assert.deepEqual(r.json.rejections.map((x) => [x.code, x.rejection]), [["SLAST", "exhausted"]]);
  assert.deepEqual(r.json.releases.map((x) => [x.code, x.action, x.release.was]), [["SFINAL", "released", "captured"]]);
  assert.deepEqual(await counts("SFINAL"), before, "SFINAL's capture was given back");
  assert.equal((await usage("SLAST")).total, 0);
  // A redelivery captures nothing: SFINAL's release is final for the payment.
  const again = await postStripe(base(), event);
  assert.equal(again.status, 200, again.text);
  assert.ok(["refused", "released"].includes(again.json.action), again.text);
  assert.deepEqual(await counts("SFINAL"), before);
  assert.equal((await usage("SLAST")).total, 0);
});
