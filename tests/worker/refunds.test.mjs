// A full refund of a PaymentIntent is final for that PaymentIntent (issue 32, item 2), whether the
// refund's charge names the codes, the PaymentIntent named them earlier, or neither has been seen
// yet: a `payment_intent.succeeded` after it (or racing it) captures nothing, in any order and
// under concurrent delivery. And a campaign's history is its codes' whole history (item 3): refused
// payment captures and refunds recorded before their payment are listed, with the campaign's counts.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";
import {
  STRIPE_TEST_SECRET, chargeRefunded, paymentIntentCanceled, paymentIntentSucceeded, postStripe, stripeId,
} from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } }, async () => {
  for (const code of ["RHOLD", "RCANCEL", "RRACE", "RMANY"]) {
    const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 1000 } });
    assert.equal(put.status, 201, put.text);
  }
  for (const definition of [
    { code: "RMUG", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 100 } },
    { code: "RORDER", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 100 } },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
});

const base = () => worker.base;
const basket80 = { total: eur("80.00") };
const counts = async (code) =>
  (({ total, held }) => ({ total, held }))((await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage);
const records = async (code) =>
  (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;
const hold = (code, key) => call(base(), "POST", "/v1/holds", {
  body: { code, total: eur("80.00"), customer: "buyer" }, headers: { ...capturer, "idempotency-key": key } });
const succeeded = (code, pi) => paymentIntentSucceeded({ id: pi, code, customer: "buyer", basket: basket80, amount: 7200 });
const refundedBare = (pi) => chargeRefunded({ paymentIntent: pi, metadata: {} });
const cancelled = (code, pi) => paymentIntentCanceled({ id: pi, code, customer: "buyer", basket: basket80 });
/** What a code's history holds under a payment's keys (its own id and `<id>:paid`), by state. */
const statesOf = (history, pi) =>
  history.filter((r) => r.idempotency_key === pi || r.idempotency_key === `${pi}:paid`).map((r) => r.state);
/** A success that found its payment refunded: 200, nothing recorded (released replayed, or ignored). */
const capturesNothing = (answer) =>
  answer.status === 200 && ((answer.json.action === "released" && answer.json.replayed === true) || answer.json.action === "ignored");

test("a hold, a full refund whose charge has no metadata, then the success: nothing is captured, the hold is given back", async () => {
  const pi = stripeId("pi");
  assert.equal((await hold("RHOLD", pi)).status, 201);
  assert.deepEqual(await counts("RHOLD"), { total: 1, held: 1 });
  const refund = await postStripe(base(), refundedBare(pi));
  assert.equal(refund.status, 200, refund.text);
  assert.notEqual(refund.json.action, "ignored", `the refund is recorded as final: ${refund.text}`);
  const paid = await postStripe(base(), succeeded("RHOLD", pi));
  assert.ok(capturesNothing(paid), `the success after the refund captures nothing: ${paid.text}`);
  assert.ok(!statesOf(await records("RHOLD"), pi).includes("captured"), JSON.stringify(await records("RHOLD")));
  assert.deepEqual(await counts("RHOLD"), { total: 0, held: 0 }, "the hold of the refunded payment is given back");
  // Redelivered, in either order: nothing changes.
  const again = await postStripe(base(), succeeded("RHOLD", pi));
  assert.ok(capturesNothing(again), again.text);
  assert.equal((await postStripe(base(), refundedBare(pi))).status, 200);
  assert.deepEqual(await counts("RHOLD"), { total: 0, held: 0 });
});

test("a hold, the payment cancelled, a bare full refund, then the success: nothing is captured under either key", async () => {
  const pi = stripeId("pi");
  assert.equal((await hold("RCANCEL", pi)).status, 201);
  const cancel = await postStripe(base(), cancelled("RCANCEL", pi));
  assert.equal(cancel.json.action, "released", cancel.text);
  assert.equal((await postStripe(base(), refundedBare(pi))).status, 200);
  const paid = await postStripe(base(), succeeded("RCANCEL", pi));
  assert.ok(capturesNothing(paid), `the success after the refund captures nothing: ${paid.text}`);
  const states = statesOf(await records("RCANCEL"), pi);
  assert.ok(!states.includes("captured"), `nothing captured under ${pi} or ${pi}:paid: ${states}`);
  assert.deepEqual(await counts("RCANCEL"), { total: 0, held: 0 });
});

test("a success and a bare full refund delivered at the same moment (10 rounds): the payment ends refunded", async () => {
  const wrong = [];
  for (let round = 0; round < 10; round++) {
    const pi = stripeId("pi");
    const [paid, refund] = await Promise.all([postStripe(base(), succeeded("RRACE", pi)), postStripe(base(), refundedBare(pi))]);
    assert.equal(paid.status, 200, paid.text);
    assert.equal(refund.status, 200, refund.text);
    const states = statesOf(await records("RRACE"), pi);
    if (states.includes("captured")) wrong.push({ round, states, paid: paid.json.action, refund: refund.json });
    // A redelivery of the success finds the refund.
    const late = await postStripe(base(), succeeded("RRACE", pi));
    assert.ok(capturesNothing(late), `round ${round}: ${late.text}`);
  }
  assert.deepEqual(wrong, [], "every round ends with nothing captured");
  assert.deepEqual(await counts("RRACE"), { total: 0, held: 0 });
});

test("50 orders refunded in full without metadata, in mixed orders and at once: none ends captured", async () => {
  const scenario = async (i) => {
    const pi = stripeId("pi");
    const paid = () => postStripe(base(), succeeded("RMANY", pi));
    const refund = () => postStripe(base(), refundedBare(pi));
    if (i % 2 === 1) assert.equal((await hold("RMANY", pi)).status, 201);
    switch (Math.floor(i / 2) % 5) {
      case 0: await refund(); await paid(); break;
      case 1: await paid(); await refund(); break;
      case 2: await Promise.all([paid(), refund()]); break;
      case 3: await refund(); await Promise.all([paid(), paid()]); break;
      default: await postStripe(base(), cancelled("RMANY", pi)); await Promise.all([refund(), paid()]); break;
    }
    return pi;
  };
  const payments = [];
  for (let batch = 0; batch < 5; batch++) {
    payments.push(...await Promise.all(Array.from({ length: 10 }, (_, j) => scenario(batch * 10 + j))));
  }
  const history = await records("RMANY");
  const wrong = payments.map((pi, i) => ({ i, states: statesOf(history, pi) }))
    .filter(({ states }) => states.includes("captured") || states.includes("held"));
  assert.deepEqual(wrong, [], `${wrong.length} of 50 orders end held or captured`);
  assert.deepEqual(await counts("RMANY"), { total: 0, held: 0 });
  // And each payment's success redelivered now captures nothing.
  for (const pi of payments) {
    const late = await postStripe(base(), succeeded("RMANY", pi));
    assert.ok(capturesNothing(late), late.text);
  }
  assert.deepEqual(await counts("RMANY"), { total: 0, held: 0 });
});

test("a bare full refund before a stack's success: neither code is captured", async () => {
  const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
  const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")], shipping: eur("4.90") };
  const pi = stripeId("pi");
  const refund = await postStripe(base(), chargeRefunded({ paymentIntent: pi, amount: 7190, metadata: {} }));
  assert.equal(refund.status, 200, refund.text);
  const metadata = { promo_codes: "RMUG,RORDER", customer: "alice", promo_basket: JSON.stringify(basket) };
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi, metadata, amount: 7190 }));
  assert.ok(capturesNothing(paid), `the stack's success after the refund captures nothing: ${paid.text}`);
  for (const code of ["RMUG", "RORDER"]) {
    assert.ok(!statesOf(await records(code), pi).includes("captured"), code);
    assert.deepEqual(await counts(code), { total: 0, held: 0 }, code);
  }
});

test("a campaign's history lists its codes' refused payment captures and early refunds, with the campaign's counts", async () => {
  const put = await call(base(), "PUT", "/v1/campaigns/RHIST", {
    body: { discount: { kind: "percent", percent: "10" }, limits: { total: 10 } }, headers: admin });
  assert.equal(put.status, 201, put.text);
  const added = await call(base(), "POST", "/v1/campaigns/RHIST/codes", {
    body: { codes: ["RHIST-ONE", "RHIST-TWO"] }, headers: { ...admin, "idempotency-key": "rhist-codes" } });
  assert.equal(added.status, 201, added.text);
  // One use of the campaign, through its first code.
  const used = stripeId("pi");
  assert.equal((await postStripe(base(), succeeded("RHIST-ONE", used))).json.action, "captured");
  // A payment the second code refuses after the money moved (its basket does not read).
  const refusedPi = stripeId("pi");
  const refused = await postStripe(base(), paymentIntentSucceeded({
    id: refusedPi, metadata: { promo_code: "RHIST-TWO", promo_basket: "not a basket" }, amount: 7200 }));
  assert.equal(refused.json.action, "refused", refused.text);
  // A full refund naming the second code, before anything was recorded for its payment.
  const earlyPi = stripeId("pi");
  const early = await postStripe(base(), chargeRefunded({ paymentIntent: earlyPi, code: "RHIST-TWO" }));
  assert.equal(early.json.action, "released", early.text);
  const own = await records("RHIST-TWO");
  assert.deepEqual(own.map((r) => [r.idempotency_key, r.state]), [[refusedPi, "refused"], [earlyPi, "released"]]);

  const listed = await call(base(), "GET", "/v1/campaigns/RHIST/redemptions?limit=1000", { headers: admin });
  assert.equal(listed.status, 200, listed.text);
  const rows = listed.json.redemptions;
  assert.deepEqual(rows.map((r) => [r.code, r.idempotency_key, r.state]),
    [["RHIST-ONE", used, "captured"], ["RHIST-TWO", refusedPi, "refused"], ["RHIST-TWO", earlyPi, "released"]],
    "every record of every code of the campaign, in order");
  const marker = rows.find((r) => r.idempotency_key === earlyPi);
  assert.equal(marker.usage.total, 1, `the campaign's counts when it was recorded: ${JSON.stringify(marker.usage)}`);
  assert.equal(marker.usage.per_code, 0, "the second code's own uses");
  assert.deepEqual(marker.usage, own.find((r) => r.idempotency_key === earlyPi).usage, "the same record in both lists");
});
