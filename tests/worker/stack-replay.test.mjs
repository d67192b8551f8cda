// What a retried stack replays (issue 32, items 1 and 5): a stack under a key whose codes all have a
// record under it replays as a whole, whatever changed since (definitions, other uses, budgets); a
// code that replays is never priced again; and the all-or-none compensation gives back only a use
// that this very request newly took. The same for a redelivered `payment_intent.succeeded`.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";
import { STRIPE_TEST_SECRET, paymentIntentSucceeded, postStripe, stripeId } from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } });
const base = () => worker.base;

const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const lines = [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")];
const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
const records = async (code) =>
  (await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin })).json.redemptions;
const stateUnder = async (code, key) => (await records(code)).find((r) => r.idempotency_key === key)?.state;
const keyed = (route, key, body) => call(base(), "POST", route, { body, headers: { ...capturer, "idempotency-key": key } });
const put = async (definition) => {
  const r = await putCode(base(), definition);
  assert.ok([200, 201].includes(r.status), r.text);
};
/** Each answer's code, state, discount and whether it replayed. */
const parts = (answers) => answers.map((a) => [a.quote.code, a.state, a.quote.discount.amount, a.replayed]);

test("the issue's reproduction: a retried stack replays BP's clipped capture, and never releases it", async () => {
  await put({ code: "BP", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
    limits: { budget: eur("8.00"), when_budget_short: "partial" }, combines_with: ["order"] });
  await put({ code: "BO", discount: { kind: "percent", percent: "10" }, combines_with: ["product"] });
  const b = await keyed("/v1/captures", "repro-b", { code: "BP", lines });
  assert.equal(b.status, 201, b.text);
  assert.equal(b.json.quote.discount.amount, "5.00");
  const a = await keyed("/v1/captures", "repro-a", { codes: ["BP", "BO"], lines });
  assert.equal(a.status, 201, a.text);
  assert.deepEqual(parts(a.json.receipts), [["BP", "captured", "3.00", false], ["BO", "captured", "6.85", false]]);
  const released = await call(base(), "POST", "/v1/releases", { body: { code: "BP", key: "repro-b" }, headers: capturer });
  assert.equal(released.status, 200, released.text);

  const again = await keyed("/v1/captures", "repro-a", { codes: ["BP", "BO"], lines });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(parts(again.json.receipts), [["BP", "captured", "3.00", true], ["BO", "captured", "6.85", true]]);
  assert.equal(await stateUnder("BP", "repro-a"), "captured");
  assert.equal(await stateUnder("BO", "repro-a"), "captured");
  assert.equal((await usage("BP")).total, 1);
});

test("a held or captured stack replays as a whole after its codes' definitions changed", async () => {
  await put({ code: "EP", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
    combines_with: ["order"], limits: { total: 10 } });
  await put({ code: "EO", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 10 } });
  const body = { codes: ["EO", "EP"], lines, ttl_seconds: 600 };
  const held = await keyed("/v1/holds", "edit-held", body);
  assert.equal(held.status, 201, held.text);
  const captured = await keyed("/v1/captures", "edit-captured", { codes: ["EO", "EP"], lines });
  assert.equal(captured.status, 201, captured.text);

  // The product code gives more now and the order code less: a fresh pricing differs on both parts.
  await put({ code: "EP", discount: { kind: "percent", percent: "30" }, applies_to: { categories: ["mugs"] },
    combines_with: ["order"], limits: { total: 10 } });
  await put({ code: "EO", discount: { kind: "fixed", amount: eur("1.00") }, combines_with: ["product"], limits: { total: 10 } });

  const heldAgain = await keyed("/v1/holds", "edit-held", body);
  assert.equal(heldAgain.status, 200, heldAgain.text);
  assert.deepEqual(parts(heldAgain.json.holds), [["EP", "held", "2.50", true], ["EO", "held", "2.00", true]]);
  const capturedAgain = await keyed("/v1/captures", "edit-captured", { codes: ["EO", "EP"], lines });
  assert.equal(capturedAgain.status, 200, capturedAgain.text);
  assert.deepEqual(parts(capturedAgain.json.receipts), [["EP", "captured", "2.50", true], ["EO", "captured", "2.00", true]]);
  assert.deepEqual(capturedAgain.json.receipts.map((r) => r.quote), captured.json.receipts.map((r) => r.quote));
  // Nothing was counted twice, nothing given back.
  assert.deepEqual([(await usage("EP")).total, (await usage("EO")).total], [2, 2]);
  // Another basket under a used key is still a reused key, and gives nothing back.
  const other = await keyed("/v1/captures", "edit-captured", { codes: ["EO", "EP"], lines: [lines[0]] });
  assert.equal(other.status, 422, other.text);
  assert.equal(other.json.type, "/problems/idempotency_key_reused", other.text);
  assert.equal(await stateUnder("EP", "edit-captured"), "captured");
  assert.equal(await stateUnder("EO", "edit-captured"), "captured");
  // Archived, a code takes no new stack, but the captured one still replays (as one code's capture does).
  const archived = await call(base(), "DELETE", "/v1/codes/EO", { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  const afterArchive = await keyed("/v1/captures", "edit-captured", { codes: ["EO", "EP"], lines });
  assert.equal(afterArchive.status, 200, afterArchive.text);
  assert.deepEqual(parts(afterArchive.json.receipts), [["EP", "captured", "2.50", true], ["EO", "captured", "2.00", true]]);
  const fresh = await keyed("/v1/captures", "edit-fresh", { codes: ["EO", "EP"], lines });
  assert.equal(fresh.status, 404, fresh.text);
  assert.equal(await stateUnder("EP", "edit-fresh"), undefined, "nothing taken for a stack with an unknown code");
});

test("a stack refused part way gives back only what this request newly took, never a use its key had", async () => {
  await put({ code: "HP", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
    combines_with: ["order"] });
  await put({ code: "HO", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"] });
  // HP is captured under the key first, on its own; then HO under it for another basket.
  const first = await keyed("/v1/captures", "half-key", { code: "HP", lines });
  assert.equal(first.status, 201, first.text);
  const otherBasket = await keyed("/v1/captures", "half-key", { code: "HO", total: eur("10.00") });
  assert.equal(otherBasket.status, 201, otherBasket.text);
  // The stack under that key: HO's record is for another basket, a reused key; HP's capture stays.
  const stack = await keyed("/v1/captures", "half-key", { codes: ["HP", "HO"], lines });
  assert.equal(stack.status, 422, stack.text);
  assert.equal(stack.json.type, "/problems/idempotency_key_reused", stack.text);
  assert.equal(await stateUnder("HP", "half-key"), "captured");
  assert.equal(await stateUnder("HO", "half-key"), "captured");

  // HP captured under a key on its own, then the stack under it: HP replays as it was (not priced
  // again after its edit), HO is priced on the basket HP's record left and captured.
  const single = await keyed("/v1/captures", "half-done", { code: "HP", lines });
  assert.equal(single.status, 201, single.text);
  await put({ code: "HP", discount: { kind: "percent", percent: "40" }, applies_to: { categories: ["mugs"] },
    combines_with: ["order"] });
  const finished = await keyed("/v1/captures", "half-done", { codes: ["HP", "HO"], lines });
  assert.equal(finished.status, 201, finished.text);
  assert.deepEqual(parts(finished.json.receipts), [["HP", "captured", "2.50", true], ["HO", "captured", "2.00", false]]);
  assert.equal(finished.json.receipts[1].quote.total.amount, "69.00", "HO's part is of the basket HP's record left");
});

test("a redelivered payment_intent.succeeded of a captured stack replays the first answer after an edit", async () => {
  await put({ code: "WP", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
    combines_with: ["order"] });
  await put({ code: "WO", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"] });
  const basket = { lines, shipping: eur("4.90") };
  const pi = stripeId("pi");
  const metadata = { promo_codes: "WO,WP", customer: "alice", promo_basket: JSON.stringify(basket) };
  // 76.40 less WP's 2.50 and WO's 2.00.
  const event = paymentIntentSucceeded({ id: pi, metadata, amount: 7190 });
  const paid = await postStripe(base(), event);
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.action, "captured", paid.text);

  await put({ code: "WO", discount: { kind: "fixed", amount: eur("5.00") }, combines_with: ["product"] });
  const again = await postStripe(base(), event);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.action, "replayed", again.text);
  assert.deepEqual(again.json.receipts.map((r) => [r.quote.code, r.state, r.replayed]),
    [["WP", "captured", true], ["WO", "captured", true]]);
  assert.deepEqual(again.json.receipts.map((r) => r.quote), paid.json.receipts.map((r) => r.quote));
  assert.equal(await stateUnder("WP", pi), "captured");
  assert.equal(await stateUnder("WO", pi), "captured");
  assert.equal((await usage("WO")).total, 1);
});
