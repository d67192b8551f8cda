// The Stripe test helper (stripe.mjs) on its own, no Worker: its signer produces the header of the
// fixed vector that worker/src/payments/signature.rs verifies in its Rust tests, so both sides agree, and its
// events have the shapes the Worker reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  signStripe, stripeSignature, stripeRequest, promoMetadata, paymentIntentSucceeded, paymentIntentCanceled,
  paymentIntentPaymentFailed, chargeRefunded, chargePartiallyRefunded, STRIPE_TEST_SECRET,
} from "./stripe.mjs";

// The shared vector: the same constants are in worker/src/payments/signature.rs (tests, VECTOR_*). The hex was
// computed independently with `openssl dgst -sha256 -hmac` and Python's hmac over "1700000000." + body.
const VECTOR_BODY = '{"id":"evt_vector","object":"event","type":"payment_intent.succeeded","data":{"object":'
  + '{"id":"pi_vector","object":"payment_intent","amount_received":7200,"currency":"eur",'
  + '"description":"Café crème","metadata":{"promo_code":"SUMMER24"}}}}';
const VECTOR_SECRET = "whsec_promocodes_test_vector";
const VECTOR_T = 1700000000;
const VECTOR_V1 = "7c5710f3f0d836e045ad0ddb76cc921f1319408593b070e235aa0c163fea7886";
// The same body and t signed with "whsec_other_secret" (OTHER_SECRET_V1 in the Rust tests).
const OTHER_SECRET_V1 = "b60ad799e821b9cd7c92479d1bfef77b5dd4041bb5e96eed7afab9a9c88517d4";

test("the signer gives the shared vector's header, from a string or from bytes", () => {
  assert.equal(Buffer.byteLength(VECTOR_BODY, "utf8"), 239, "the body the Rust tests sign");
  const expected = `t=${VECTOR_T},v1=${VECTOR_V1}`;
  assert.equal(signStripe(VECTOR_BODY, VECTOR_SECRET, { t: VECTOR_T }), expected);
  assert.equal(signStripe(Buffer.from(VECTOR_BODY, "utf8"), VECTOR_SECRET, { t: VECTOR_T }), expected);
  assert.equal(signStripe(new TextEncoder().encode(VECTOR_BODY), VECTOR_SECRET, { t: VECTOR_T }), expected);
});

test("a rolled secret adds a second v1 (the Rust tests' other vector); v0 is an extra element", () => {
  const header = signStripe(VECTOR_BODY, VECTOR_SECRET, { t: VECTOR_T, also: ["whsec_other_secret"], v0: true });
  const [t, first, second, v0] = header.split(",");
  assert.deepEqual([t, first, second], [`t=${VECTOR_T}`, `v1=${VECTOR_V1}`, `v1=${OTHER_SECRET_V1}`]);
  assert.match(v0, /^v0=[0-9a-f]{64}$/);
});

test("the signature covers the timestamp, the secret and every byte of the body", () => {
  const base = stripeSignature(VECTOR_BODY, VECTOR_SECRET, VECTOR_T);
  assert.equal(base, VECTOR_V1);
  assert.notEqual(stripeSignature(VECTOR_BODY, VECTOR_SECRET, VECTOR_T + 1), base);
  assert.notEqual(stripeSignature(VECTOR_BODY, "whsec_other_secret", VECTOR_T), base);
  assert.notEqual(stripeSignature(VECTOR_BODY.replace("é", "e"), VECTOR_SECRET, VECTOR_T), base);
  assert.throws(() => signStripe(JSON.parse(VECTOR_BODY), VECTOR_SECRET), TypeError, "an object is not a raw body");
});

test("a request carries the pretty-printed body Stripe sends, signed as sent", () => {
  const event = paymentIntentSucceeded({ code: "SAVE10" });
  const { body, headers } = stripeRequest(event, { t: VECTOR_T });
  assert.equal(body, JSON.stringify(event, null, 2));
  assert.equal(headers["stripe-signature"], `t=${VECTOR_T},v1=${stripeSignature(body, STRIPE_TEST_SECRET, VECTOR_T)}`);
  assert.notEqual(stripeSignature(JSON.stringify(event), STRIPE_TEST_SECRET, VECTOR_T),
    stripeSignature(body, STRIPE_TEST_SECRET, VECTOR_T), "re-serialised JSON does not verify");
  assert.equal(stripeRequest(event, { header: null }).headers["stripe-signature"], undefined);
  assert.equal(stripeRequest(event, { header: "t=1,v1=00" }).headers["stripe-signature"], "t=1,v1=00");
});

test("payment_intent.succeeded carries the code, customer and basket in metadata, and amount_received", () => {
  const basket = { lines: [{ sku: "mug", quantity: 2, unit_price: { amount: "36.00", currency: "EUR" } }] };
  const event = paymentIntentSucceeded({ code: "SAVE10", customer: "alice", basket, amount: 7200, currency: "eur" });
  assert.equal(event.object, "event");
  assert.equal(event.type, "payment_intent.succeeded");
  assert.match(event.id, /^evt_/);
  const pi = event.data.object;
  assert.equal(pi.object, "payment_intent");
  assert.match(pi.id, /^pi_/);
  assert.equal(pi.status, "succeeded");
  assert.equal(pi.amount_received, 7200);
  assert.equal(pi.currency, "eur");
  assert.deepEqual(pi.metadata, { promo_code: "SAVE10", customer: "alice", promo_basket: JSON.stringify(basket) });
  const partial = paymentIntentSucceeded({ code: "SAVE10", amount: 7200, amountReceived: 5000 }).data.object;
  assert.equal(partial.amount_received, 5000);
  assert.deepEqual(paymentIntentSucceeded({ metadata: {} }).data.object.metadata, {});
  assert.notEqual(paymentIntentSucceeded().id, paymentIntentSucceeded().id, "every event has its own id");
});

test("canceled and payment_failed PaymentIntents carry Stripe's reasons", () => {
  const canceled = paymentIntentCanceled({ code: "SAVE10" }).data.object;
  assert.equal(canceled.status, "canceled");
  assert.equal(canceled.cancellation_reason, "requested_by_customer");
  assert.equal(canceled.amount_received, 0);
  assert.equal(canceled.metadata.promo_code, "SAVE10");
  const failed = paymentIntentPaymentFailed({ code: "SAVE10" });
  assert.equal(failed.type, "payment_intent.payment_failed");
  assert.equal(failed.data.object.status, "requires_payment_method");
  assert.equal(failed.data.object.last_payment_error.code, "card_declined");
  assert.equal(failed.data.object.last_payment_error.decline_code, "insufficient_funds");
});

test("charge.refunded is full by default, partial on request, and links its PaymentIntent", () => {
  const full = chargeRefunded({ code: "SAVE10", paymentIntent: "pi_123", amount: 7200 });
  const ch = full.data.object;
  assert.equal(full.type, "charge.refunded");
  assert.equal(ch.object, "charge");
  assert.deepEqual([ch.amount, ch.amount_refunded, ch.refunded, ch.payment_intent], [7200, 7200, true, "pi_123"]);
  assert.equal(ch.metadata.promo_code, "SAVE10");
  assert.deepEqual(full.data.previous_attributes, { amount_refunded: 0, refunded: false });
  const partial = chargePartiallyRefunded({ code: "SAVE10", amount: 7200, amountRefunded: 400 }).data.object;
  assert.deepEqual([partial.amount, partial.amount_refunded, partial.refunded], [7200, 400, false]);
  assert.throws(() => chargePartiallyRefunded({ amount: 100, amountRefunded: 100 }), RangeError);
  assert.equal(chargeRefunded({ paymentIntent: null }).data.object.payment_intent, null);
});

test("metadata follows Stripe's rules: strings of at most 500 characters", () => {
  assert.deepEqual(promoMetadata({ code: "SAVE10" }), { promo_code: "SAVE10" });
  assert.throws(() => promoMetadata({ code: "SAVE10", basket: "x".repeat(501) }), RangeError);
  assert.doesNotThrow(() => promoMetadata({ basket: "x".repeat(500) }));
  assert.throws(() => promoMetadata({ code: 10 }), TypeError);
});
