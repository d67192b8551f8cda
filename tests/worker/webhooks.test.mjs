// Stripe's webhooks against the real Worker in workerd: real events, signed in the test with
// node:crypto, shaped as Stripe documents them. Redelivery storms, bad signatures, refunds, a hold
// released by a failed payment, refused captures after the money moved, and amounts in EUR, JPY, KWD.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";
import {
  STRIPE_TEST_SECRET, STRIPE_WEBHOOK_ROUTE, chargePartiallyRefunded, chargeRefunded, nowSeconds, paymentIntentCanceled,
  paymentIntentPaymentFailed, paymentIntentSucceeded, postStripe, signStripe, stripeId, stripeRequest,
} from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } }, async () => {
  const defs = [
    { code: "SAVE10", discount: { kind: "percent", percent: "10" }, limits: { total: 100, per_customer: 1 } },
    { code: "STORM", discount: { kind: "percent", percent: "10" }, limits: { total: 100 } },
    { code: "YEN", discount: { kind: "percent", percent: "10" } },
    { code: "DINAR", discount: { kind: "fixed", amount: { amount: "1.250", currency: "KWD" } } },
    { code: "LAST", discount: { kind: "percent", percent: "10" }, limits: { total: 1 } },
    { code: "RETRY", discount: { kind: "percent", percent: "10" }, limits: { total: 10, per_customer: 1 } },
    { code: "RETRYANON", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } },
  ];
  for (const def of defs) assert.equal((await putCode(worker.base, def)).status, 201);
});

const base = () => worker.base;
const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
const records = async (code) => (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;
const basket80 = { total: eur("80.00") };

test("a redelivery storm of one event (50 copies at once) spends one use", async () => {
  const event = paymentIntentSucceeded({ code: "STORM", customer: "alice", basket: basket80, amount: 7200 });
  const results = await Promise.all(Array.from({ length: 50 }, () => postStripe(base(), event)));
  assert.ok(results.every((r) => r.status === 200), JSON.stringify(results.map((r) => r.status)));
  assert.equal(results.filter((r) => r.json.action === "captured").length, 1);
  assert.equal(results.filter((r) => r.json.action === "replayed").length, 49);
  const captured = results.find((r) => r.json.action === "captured").json.receipt;
  assert.equal(captured.key, event.data.object.id, "captured under the PaymentIntent id");
  assert.equal(captured.quote.payable.amount, "72.00");
  assert.deepEqual(await usage("STORM"), { total: 1, held: 0 });
});

test("a bad signature, an old timestamp and a body changed after signing are refused; nothing is recorded", async () => {
  const before = await usage("SAVE10");
  const event = paymentIntentSucceeded({ code: "SAVE10", customer: "bob", basket: basket80, amount: 7200 });
  const { body } = stripeRequest(event);
  const cases = [
    ["no signature", { header: null }],
    ["another secret", { secret: "whsec_not_the_one" }],
    ["garbage header", { header: "v1=abc" }],
    // Well past the 300 s tolerance: the test's clock and the Worker's are read at different
    // moments and in whole seconds (the exact boundary is a unit test in worker/src/payments/signature.rs).
    ["old timestamp", { t: nowSeconds() - 310 }],
    ["future timestamp", { t: nowSeconds() + 310 }],
  ];
  for (const [name, options] of cases) {
    const r = await postStripe(base(), event, options);
    assert.equal(r.status, 400, `${name}: ${r.text}`);
    assert.equal(r.headers.get("content-type"), "application/problem+json");
    assert.equal(r.json.type, "/problems/invalid_signature", name);
  }
  const signed = signStripe(body, STRIPE_TEST_SECRET);
  const changed = body.replace('"amount_received": 7200', '"amount_received": 100');
  assert.notEqual(changed, body);
  const tampered = await call(base(), "POST", STRIPE_WEBHOOK_ROUTE, { raw: changed, headers: { "stripe-signature": signed, "content-type": "application/json" } });
  assert.equal(tampered.status, 400);
  assert.equal(tampered.json.type, "/problems/invalid_signature");
  const big = await call(base(), "POST", STRIPE_WEBHOOK_ROUTE, { raw: " ".repeat(64 * 1024 + 1), headers: { "stripe-signature": signed } });
  assert.equal(big.status, 413);
  assert.deepEqual(await usage("SAVE10"), before);
  assert.equal((await records("SAVE10")).length, 0);
  // Several v1 signatures (a secret being rolled): one matching is enough.
  const rolled = await postStripe(base(), event, { secret: "whsec_old_one", also: [STRIPE_TEST_SECRET] });
  assert.equal(rolled.status, 200, rolled.text);
  assert.equal(rolled.json.action, "captured");
});

test("succeeded, then a full refund, gives the use back; a partial refund releases nothing", async () => {
  const pi = stripeId("pi");
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "SAVE10", customer: "carol", basket: basket80, amount: 7200 }));
  assert.equal(paid.json.action, "captured", paid.text);
  const partial = await postStripe(base(), chargePartiallyRefunded({ paymentIntent: pi, code: "SAVE10", customer: "carol" }));
  assert.equal(partial.status, 200);
  assert.equal(partial.json.action, "ignored");
  assert.match(partial.json.why, /partial refund/);
  assert.equal((await records("SAVE10")).find((r) => r.idempotency_key === pi).state, "captured");
  // The full refund's charge carries no metadata: the Worker finds the code by the PaymentIntent.
  const refunded = await postStripe(base(), chargeRefunded({ paymentIntent: pi, metadata: {} }));
  assert.equal(refunded.status, 200, refunded.text);
  assert.equal(refunded.json.action, "released");
  assert.equal(refunded.json.release.was, "captured");
  const record = (await records("SAVE10")).find((r) => r.idempotency_key === pi);
  assert.equal(record.state, "released");
  assert.match(record.reason, /charge\.refunded/);
  // The payment redelivered after its full refund captures nothing, and answers the release as it was.
  const late = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "SAVE10", customer: "carol", basket: basket80, amount: 7200 }));
  assert.equal(late.json.action, "released", late.text);
  assert.equal(late.json.replayed, true);
  assert.deepEqual({ ...late.json.release, replayed: false }, refunded.json.release, "the same answer, usage included");
  assert.equal(refunded.json.release.usage.discounted.currency, "EUR", "money, as every release answers it");
  // A charge whose metadata names another code (copied at confirmation, changed since): the payment's
  // own code is released, and the other code is not touched.
  const stalePi = stripeId("pi");
  assert.equal((await postStripe(base(), paymentIntentSucceeded({ id: stalePi, code: "SAVE10", customer: "stale", basket: basket80, amount: 7200 }))).json.action, "captured");
  const yenBefore = await usage("YEN");
  const staleRefund = await postStripe(base(), chargeRefunded({ paymentIntent: stalePi, code: "YEN", customer: "stale" }));
  assert.equal(staleRefund.json.action, "released", staleRefund.text);
  assert.equal((await records("SAVE10")).find((r) => r.idempotency_key === stalePi).state, "released");
  assert.deepEqual(await usage("YEN"), yenBefore);
  // carol's one use is hers again.
  const again = await postStripe(base(), paymentIntentSucceeded({ code: "SAVE10", customer: "carol", basket: basket80, amount: 7200 }));
  assert.equal(again.json.action, "captured", again.text);
});

test("a hold under the PaymentIntent id: payment_failed releases it; succeeded converts it", async () => {
  const pi = stripeId("pi");
  const hold = (id) => call(base(), "POST", "/v1/holds", {
    body: { code: "LAST", total: eur("80.00"), customer: "dave" }, headers: { ...capturer, "idempotency-key": id } });
  assert.equal((await hold(pi)).status, 201);
  assert.deepEqual(await usage("LAST"), { total: 1, held: 1 });
  const failed = await postStripe(base(), paymentIntentPaymentFailed({ id: pi, code: "LAST", customer: "dave", basket: basket80 }));
  assert.equal(failed.status, 200, failed.text);
  assert.equal(failed.json.action, "released");
  assert.equal(failed.json.release.was, "held");
  assert.deepEqual(await usage("LAST"), { total: 0, held: 0 });
  // A cancel for a PaymentIntent with nothing recorded is answered and ignored.
  const cancel = await postStripe(base(), paymentIntentCanceled({ code: "LAST", customer: "erin" }));
  assert.equal(cancel.status, 200);
  assert.equal(cancel.json.action, "ignored");
  // A new hold, then the payment succeeds without a basket in the metadata: the hold is converted.
  const pi2 = stripeId("pi");
  const held = await hold(pi2);
  assert.equal(held.status, 201);
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi2, code: "LAST", customer: "dave", amount: 7200 }));
  assert.equal(paid.json.action, "captured", paid.text);
  assert.deepEqual(paid.json.receipt.quote, held.json.quote);
  assert.deepEqual(await usage("LAST"), { total: 1, held: 0 });
});

test("payment_failed releases the hold; the retry that pays spends the use again; a refund then gives it back", async () => {
  const pi = stripeId("pi");
  const held = await call(base(), "POST", "/v1/holds", {
    body: { code: "RETRY", total: eur("80.00"), customer: "hana" }, headers: { ...capturer, "idempotency-key": pi } });
  assert.equal(held.status, 201, held.text);
  const failed = await postStripe(base(), paymentIntentPaymentFailed({ id: pi, code: "RETRY", customer: "hana", basket: basket80 }));
  assert.equal(failed.json.action, "released", failed.text);
  assert.deepEqual(await usage("RETRY"), { total: 0, held: 0 });
  // The buyer retries with another card and the same PaymentIntent succeeds: the money moved with
  // the discount, so the use is spent (not replayed as released).
  const paid = paymentIntentSucceeded({ id: pi, code: "RETRY", customer: "hana", amount: 7200 });
  const captured = await postStripe(base(), paid);
  assert.equal(captured.json.action, "captured", captured.text);
  assert.equal(captured.json.receipt.key, `${pi}:paid`);
  assert.equal(captured.json.receipt.quote.payable.amount, "72.00", "the basket is the released hold's");
  assert.deepEqual(await usage("RETRY"), { total: 1, held: 0 });
  const redelivered = await postStripe(base(), paid);
  assert.equal(redelivered.json.action, "replayed", redelivered.text);
  // A late copy of the failure releases nothing that was paid.
  const late = await postStripe(base(), paymentIntentPaymentFailed({ id: pi, code: "RETRY", customer: "hana", basket: basket80 }));
  assert.equal(late.status, 200, late.text);
  assert.equal(late.json.action, "ignored");
  assert.match(late.json.why, /releases only a hold/);
  assert.deepEqual(await usage("RETRY"), { total: 1, held: 0 });
  // A full refund releases the capture that paid.
  const refunded = await postStripe(base(), chargeRefunded({ paymentIntent: pi, metadata: {} }));
  assert.equal(refunded.json.action, "released", refunded.text);
  assert.equal(refunded.json.release.was, "captured");
  assert.deepEqual(await usage("RETRY"), { total: 0, held: 0 });
  const mine = (await records("RETRY")).filter((r) => r.idempotency_key.startsWith(pi));
  assert.deepEqual(mine.map((r) => [r.idempotency_key, r.state]).sort(), [[pi, "released"], [`${pi}:paid`, "released"]]);
});

test("without a customer too: the retry that pays is captured under its second key, once", async () => {
  // On shards, the payment goes to its id's shard; its second key (`<id>:paid`) is decided there too,
  // where the released hold is, whichever shard that key alone would go to.
  for (let round = 0; round < 6; round++) {
    const pi = stripeId("pi");
    const held = await call(base(), "POST", "/v1/holds", {
      body: { code: "RETRYANON", total: eur("80.00") }, headers: { ...capturer, "idempotency-key": pi } });
    assert.equal(held.status, 201, held.text);
    const failed = await postStripe(base(), paymentIntentPaymentFailed({ id: pi, code: "RETRYANON", basket: basket80 }));
    assert.equal(failed.json.action, "released", failed.text);
    const paid = paymentIntentSucceeded({ id: pi, code: "RETRYANON", amount: 7200 });
    const captured = await postStripe(base(), paid);
    assert.equal(captured.status, 200, captured.text);
    assert.equal(captured.json.action, "captured", captured.text);
    assert.equal(captured.json.receipt.key, `${pi}:paid`);
    const again = await postStripe(base(), paid);
    assert.equal(again.json.action, "replayed", again.text);
    assert.deepEqual(await usage("RETRYANON"), { total: round + 1, held: 0 });
  }
});

test("events out of order: a payment_failed delivered after the succeeded of the retry releases nothing", async () => {
  const pi = stripeId("pi");
  const held = await call(base(), "POST", "/v1/holds", {
    body: { code: "RETRY", total: eur("80.00"), customer: "ivan" }, headers: { ...capturer, "idempotency-key": pi } });
  assert.equal(held.status, 201, held.text);
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "RETRY", customer: "ivan", amount: 7200 }));
  assert.equal(paid.json.action, "captured", paid.text);
  assert.equal(paid.json.receipt.key, pi, "the hold is converted under the PaymentIntent id");
  const before = await usage("RETRY");
  for (const late of [
    paymentIntentPaymentFailed({ id: pi, code: "RETRY", customer: "ivan", basket: basket80 }),
    paymentIntentCanceled({ id: pi, code: "RETRY", customer: "ivan" }),
  ]) {
    const r = await postStripe(base(), late);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, "ignored", r.text);
  }
  assert.deepEqual(await usage("RETRY"), before);
  assert.equal((await records("RETRY")).find((r) => r.idempotency_key === pi).state, "captured");
});

test("a capture refused after the money moved is answered 200 and recorded for the operator", async () => {
  // LAST is used up (the previous test captured its one use).
  const pi = stripeId("pi");
  const late = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "LAST", customer: "frank", basket: basket80, amount: 7200 }));
  assert.equal(late.status, 200, late.text);
  assert.equal(late.json.action, "refused");
  assert.equal(late.json.rejection, "exhausted");
  const again = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "LAST", customer: "frank", basket: basket80, amount: 7200 }));
  assert.equal(again.json.action, "refused");
  // A price that changed: charged 75.00 where the code now asks 72.00.
  const pi2 = stripeId("pi");
  const changed = await postStripe(base(), paymentIntentSucceeded({ id: pi2, code: "STORM", customer: "gil", basket: basket80, amount: 7500 }));
  assert.equal(changed.json.action, "refused");
  assert.equal(changed.json.rejection, "quote_changed");
  const refused = (await records("LAST")).filter((r) => r.state === "refused");
  assert.equal(refused.length, 1, "recorded once, however often Stripe delivers");
  assert.equal(refused[0].idempotency_key, pi);
  assert.equal(refused[0].rejection, "exhausted");
  assert.deepEqual(refused[0].charged, { amount: "72.00", currency: "EUR" });
  assert.ok((await records("STORM")).some((r) => r.state === "refused" && r.rejection === "quote_changed"));
  assert.deepEqual(await usage("LAST"), { total: 1, held: 0 }, "nothing counted");
});

test("amounts convert with Stripe's own minor units: EUR, JPY (zero-decimal) and KWD (three-decimal)", async () => {
  const eurPaid = await postStripe(base(), paymentIntentSucceeded({ code: "STORM", basket: { total: eur("19.99") }, amount: 1799, currency: "eur" }));
  assert.equal(eurPaid.json.action, "captured", eurPaid.text);
  assert.equal(eurPaid.json.receipt.quote.payable.amount, "17.99");
  const yenPaid = await postStripe(base(), paymentIntentSucceeded({ code: "YEN", basket: { total: { amount: "1500", currency: "JPY" } }, amount: 1350, currency: "jpy" }));
  assert.equal(yenPaid.json.action, "captured", yenPaid.text);
  assert.deepEqual(yenPaid.json.receipt.quote.payable, { amount: "1350", currency: "JPY" });
  const kwdPaid = await postStripe(base(), paymentIntentSucceeded({ code: "DINAR", basket: { total: { amount: "10.000", currency: "KWD" } }, amount: 8750, currency: "kwd" }));
  assert.equal(kwdPaid.json.action, "captured", kwdPaid.text);
  assert.deepEqual(kwdPaid.json.receipt.quote.payable, { amount: "8.750", currency: "KWD" });
  // Read as if JPY had two decimals, 1350 would be 13.50 and refused; it is not.
  assert.equal((await usage("YEN")).total, 1);
});

test("events without a promo code, of other types, or for unknown codes are answered 200 and ignored", async () => {
  const plain = await postStripe(base(), paymentIntentSucceeded({ metadata: {} }));
  assert.equal(plain.status, 200);
  assert.equal(plain.json.action, "ignored");
  const unknown = await postStripe(base(), paymentIntentSucceeded({ code: "NOSUCH", basket: basket80 }));
  assert.equal(unknown.json.action, "ignored");
  const otherType = await call(base(), "POST", STRIPE_WEBHOOK_ROUTE, (() => {
    const { body, headers } = stripeRequest({ id: "evt_x", object: "event", type: "customer.created", data: { object: {} } });
    return { raw: body, headers };
  })());
  assert.equal(otherType.status, 200);
  assert.equal(otherType.json.action, "ignored");
});

test("a campaign's code is paid and refunded through Stripe as any code: the code is used, then free again", async () => {
  const put = await call(base(), "PUT", "/v1/campaigns/STRIPECAMP", {
    body: { discount: { kind: "percent", percent: "10" }, limits: { total: 10 } }, headers: admin });
  assert.equal(put.status, 201, put.text);
  const added = await call(base(), "POST", "/v1/campaigns/STRIPECAMP/codes", {
    body: { codes: ["STRIPE-ONE"] }, headers: { ...admin, "idempotency-key": "stripe-camp" } });
  assert.equal(added.status, 201, added.text);
  const pi = stripeId("pi");
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "stripe-one", customer: "carol", basket: basket80, amount: 7200 }));
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.action, "captured", paid.text);
  assert.equal(paid.json.receipt.usage.per_code, 1);
  const campaign = async () => (await call(base(), "GET", "/v1/campaigns/STRIPECAMP", { headers: admin })).json;
  assert.deepEqual((await campaign()).codes, { count: 1, used: 1 });
  const again = await postStripe(base(), paymentIntentSucceeded({ code: "STRIPE-ONE", customer: "dave", basket: basket80, amount: 7200 }));
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.action, "refused", "the single-use code is used up");
  const refunded = await postStripe(base(), chargeRefunded({ paymentIntent: pi, metadata: {} }));
  assert.equal(refunded.status, 200, refunded.text);
  assert.equal(refunded.json.action, "released");
  assert.deepEqual((await campaign()).usage, { total: 0, held: 0 });
});
