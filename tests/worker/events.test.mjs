// Payment events in any order, and keys that name one redemption forever, against the real Worker
// in workerd, with the Stripe events signed as Stripe signs them (issue 24, defects 1 to 3).
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test, putCode, call, admin, capturer, captureReq, eur, workerForFile } from "./harness.mjs";
import {
  STRIPE_TEST_SECRET, chargeRefunded, paymentIntentPaymentFailed, paymentIntentSucceeded, postStripe, stripeId,
} from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } }, async () => {
  const defs = [
    { code: "EARLY", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } },
    { code: "HELDEARLY", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } },
    { code: "ONLYONE", discount: { kind: "percent", percent: "10" }, limits: { total: 1 } },
    { code: "KEYS", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } },
  ];
  for (const def of defs) assert.equal((await putCode(worker.base, def)).status, 201);
});

const base = () => worker.base;
const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
const records = async (code) =>
  (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;
const basket80 = { total: eur("80.00") };

test("a full refund before its payment's success, with nothing held: recorded, and the success captures nothing", async () => {
  const pi = stripeId("pi");
  // The charge carries the PaymentIntent's metadata (copied at confirmation): that names the code.
  const refunded = await postStripe(base(), chargeRefunded({ paymentIntent: pi, code: "EARLY", customer: "ada" }));
  assert.equal(refunded.status, 200, refunded.text);
  assert.equal(refunded.json.action, "released");
  assert.equal(refunded.json.replayed, false);
  assert.equal(refunded.json.release.key, pi);
  assert.equal(refunded.json.release.state, "released");
  assert.match(refunded.json.release.reason, /charge\.refunded/);

  const succeeded = paymentIntentSucceeded({ id: pi, code: "EARLY", customer: "ada", basket: basket80, amount: 7200 });
  for (const attempt of ["first delivery", "redelivery"]) {
    const late = await postStripe(base(), succeeded);
    assert.equal(late.status, 200, `${attempt}: ${late.text}`);
    assert.equal(late.json.action, "released", attempt);
    assert.equal(late.json.replayed, true, attempt);
    assert.equal(late.json.release.key, pi);
    assert.equal(late.json.release.replayed, true);
    assert.match(late.json.release.reason, /charge\.refunded/);
  }
  assert.deepEqual(await usage("EARLY"), { total: 0, held: 0 });
  const mine = (await records("EARLY")).filter((r) => r.idempotency_key?.startsWith(pi));
  assert.deepEqual(mine.map((r) => [r.idempotency_key, r.state]), [[pi, "released"]], JSON.stringify(mine));
  assert.match(mine[0].reason, /charge\.refunded/);
  // The refund delivered again replays it.
  const again = await postStripe(base(), chargeRefunded({ paymentIntent: pi, code: "EARLY", customer: "ada" }));
  assert.equal(again.json.action, "released", again.text);
  assert.equal(again.json.replayed, true);
  assert.equal((await records("EARLY")).filter((r) => r.idempotency_key === pi).length, 1);
});

test("a full refund before its payment's success, with a hold: the hold is released and the success captures nothing", async () => {
  const pi = stripeId("pi");
  const held = await call(base(), "POST", "/v1/holds", {
    body: { code: "HELDEARLY", total: eur("80.00"), customer: "bea" }, headers: { ...capturer, "idempotency-key": pi } });
  assert.equal(held.status, 201, held.text);
  const refunded = await postStripe(base(), chargeRefunded({ paymentIntent: pi, code: "HELDEARLY", customer: "bea" }));
  assert.equal(refunded.json.action, "released", refunded.text);
  assert.equal(refunded.json.release.was, "held");
  assert.deepEqual(await usage("HELDEARLY"), { total: 0, held: 0 });

  const late = await postStripe(base(), paymentIntentSucceeded({ id: pi, code: "HELDEARLY", customer: "bea", amount: 7200 }));
  assert.equal(late.status, 200, late.text);
  assert.equal(late.json.action, "released");
  assert.equal(late.json.replayed, true);
  assert.equal(late.json.release.was, "held");
  assert.deepEqual(await usage("HELDEARLY"), { total: 0, held: 0 });
  const mine = (await records("HELDEARLY")).filter((r) => r.idempotency_key?.startsWith(pi));
  assert.deepEqual(mine.map((r) => [r.idempotency_key, r.state]), [[pi, "released"]], "nothing under <pi>:paid");

  // Only a hold released by a failed payment may be followed by a capture afresh.
  const retried = stripeId("pi");
  const held2 = await call(base(), "POST", "/v1/holds", {
    body: { code: "HELDEARLY", total: eur("80.00"), customer: "cid" }, headers: { ...capturer, "idempotency-key": retried } });
  assert.equal(held2.status, 201, held2.text);
  const failed = await postStripe(base(), paymentIntentPaymentFailed({ id: retried, code: "HELDEARLY", customer: "cid", basket: basket80 }));
  assert.equal(failed.json.action, "released", failed.text);
  const paid = await postStripe(base(), paymentIntentSucceeded({ id: retried, code: "HELDEARLY", customer: "cid", amount: 7200 }));
  assert.equal(paid.json.action, "captured", paid.text);
  assert.equal(paid.json.receipt.key, `${retried}:paid`);
  assert.deepEqual(await usage("HELDEARLY"), { total: 1, held: 0 });
});

test("a refused payment capture is final for its key: a redelivery after a use was freed replays refused", async () => {
  const first = stripeId("pi");
  const taken = await postStripe(base(), paymentIntentSucceeded({ id: first, code: "ONLYONE", customer: "dan", basket: basket80, amount: 7200 }));
  assert.equal(taken.json.action, "captured", taken.text);
  const pi = stripeId("pi");
  const succeeded = paymentIntentSucceeded({ id: pi, code: "ONLYONE", customer: "eve", basket: basket80, amount: 7200 });
  const refused = await postStripe(base(), succeeded);
  assert.equal(refused.json.action, "refused", refused.text);
  assert.equal(refused.json.rejection, "exhausted");
  assert.equal(refused.json.replayed, false);

  // The first payment is refunded: a use is free again.
  const refund = await postStripe(base(), chargeRefunded({ paymentIntent: first, code: "ONLYONE", customer: "dan" }));
  assert.equal(refund.json.action, "released", refund.text);
  assert.deepEqual(await usage("ONLYONE"), { total: 0, held: 0 });

  const redelivered = await postStripe(base(), succeeded);
  assert.equal(redelivered.status, 200, redelivered.text);
  assert.equal(redelivered.json.action, "refused");
  assert.equal(redelivered.json.rejection, "exhausted");
  assert.equal(redelivered.json.replayed, true);
  assert.deepEqual(await usage("ONLYONE"), { total: 0, held: 0 }, "nothing captured");
  const mine = (await records("ONLYONE")).filter((r) => r.idempotency_key === pi);
  assert.deepEqual(mine.map((r) => r.state), ["refused"], "refused once, never captured");
});

test("an expired hold's key names its redemption forever: another customer or basket is 422, the history keeps the hold", async () => {
  const key = `order-${stripeId("x")}`;
  const held = await call(base(), "POST", "/v1/holds", {
    body: { code: "KEYS", total: eur("80.00"), customer: "alice", ttl_seconds: 1 },
    headers: { ...capturer, "idempotency-key": key } });
  assert.equal(held.status, 201, held.text);
  // Wait past the hold's expiry, read from its answer.
  const wait = Date.parse(held.json.expires_at) - Date.now() + 300;
  if (wait > 0) await sleep(wait);

  for (const [who, total] of [["mallory", "500.00"], ["mallory", "80.00"], ["alice", "500.00"]]) {
    const stolen = await captureReq(base(), key, { code: "KEYS", total: eur(total), customer: who });
    assert.equal(stolen.status, 422, `${who} ${total}: ${stolen.text}`);
    assert.equal(stolen.json.type, "/problems/idempotency_key_reused");
  }
  assert.deepEqual(await usage("KEYS"), { total: 0, held: 0 }, "nothing recorded");
  let mine = (await records("KEYS")).filter((r) => r.idempotency_key === key);
  assert.deepEqual(mine.map((r) => r.state), ["expired"]);

  // The hold's own customer and basket: a fresh capture, which names the hold it follows.
  const paid = await captureReq(base(), key, { code: "KEYS", total: eur("80.00"), customer: "alice" });
  assert.equal(paid.status, 201, paid.text);
  assert.equal(paid.json.state, "captured");
  mine = (await records("KEYS")).filter((r) => r.idempotency_key === key);
  assert.deepEqual(mine.map((r) => r.state), ["expired", "captured"], JSON.stringify(mine));
  assert.equal(mine[1].hold_expired_at, held.json.expires_at);
  assert.equal(mine[0].customer, "alice");
  const after = await captureReq(base(), key, { code: "KEYS", total: eur("500.00"), customer: "mallory" });
  assert.equal(after.status, 422, after.text);
  assert.deepEqual(await usage("KEYS"), { total: 1, held: 0 });
});
