// A hot code spread over shard objects ("shards": N): captures and holds racing on N shards, each
// deciding inside an allotment its code's object grants; never one use over the cap, and exactly
// min(cap, attempts) taken (no false `exhausted` while another shard holds unused uses).
import assert from "node:assert/strict";
import { test, putCode, call, captureReq, capturer, admin, eur, workerForFile } from "./harness.mjs";
import { STRIPE_TEST_SECRET, chargeRefunded, paymentIntentCanceled, paymentIntentSucceeded, postStripe, stripeId } from "./stripe.mjs";

const worker = workerForFile({ vars: { STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } });

const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
const hold = (key, body) => call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": key } });
const release = (key, code) => call(worker.base, "POST", "/v1/releases", { body: { code, key }, headers: capturer });

test("a definition's shards: 1 to 64, written when above 1, anything else a clear 400", async () => {
  for (const shards of [0, 65, 2.5, "4"]) {
    const r = await putCode(worker.base, { code: "BADSHARDS", discount: { kind: "percent", percent: "10" }, shards });
    assert.equal(r.status, 400, `${JSON.stringify(shards)}: ${r.text}`);
  }
  const one = await putCode(worker.base, { code: "ONESHARD", discount: { kind: "percent", percent: "10" }, shards: 1 });
  assert.equal(one.status, 201, one.text);
  assert.equal(one.json.shards, undefined, "1 is the default, left out");
  const four = await putCode(worker.base, { code: "FOURSHARDS", discount: { kind: "percent", percent: "10" }, shards: 4 });
  assert.equal(four.status, 201, four.text);
  assert.equal(four.json.shards, 4);
  const lookup = await call(worker.base, "GET", "/v1/codes/FOURSHARDS", { headers: admin });
  assert.equal(lookup.json.shards, 4);
  // A defined code may move to other shards, never back to 1: its uses and keys stay in its shards.
  // Sent as written (raw): the harness adds no shards to it.
  const raw = (code, shards) => call(worker.base, "PUT", `/v1/codes/${code}`,
    { raw: JSON.stringify({ code, discount: { kind: "percent", percent: "10" }, ...(shards ? { shards } : {}) }), headers: admin });
  for (const shards of [undefined, 1]) {
    const back = await raw("FOURSHARDS", shards);
    assert.equal(back.status, 400, back.text);
    assert.match(back.json.detail, /shards/);
    assert.match(back.json.detail, /not back to 1/);
  }
  assert.equal((await call(worker.base, "GET", "/v1/codes/FOURSHARDS", { headers: admin })).json.shards, 4);
  const same = await putCode(worker.base, { code: "FOURSHARDS", discount: { kind: "percent", percent: "15" }, shards: 4 });
  assert.equal(same.status, 200, same.text);
});

for (const shards of [4, 16]) {
  test(`N = ${shards}: 2,000 racing captures, half with customers, on a cap of 300: exactly 300 taken`, async () => {
    const code = `HOT${shards}`;
    const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 300 }, shards });
    assert.equal(put.status, 201, put.text);
    const results = [];
    // 2,000 requests, 200 at a time in flight (the Node client's sockets, not the Worker, bound it).
    for (let wave = 0; wave < 10; wave++) {
      results.push(...await Promise.all(Array.from({ length: 200 }, (_, j) => {
        const i = wave * 200 + j;
        const body = { code, total: eur("50.00"), ...(i % 2 === 0 ? { customer: `c-${i}` } : {}) };
        return captureReq(worker.base, `hot${shards}-${i}`, body);
      })));
    }
    // Every request decided at once: no 409 (at the end of a code, shards once recalled each
    // other's grants in flight, and a request spun until it answered a conflict).
    const decided = results;
    assert.deepEqual(tally(decided), { 201: 300, 422: 1700 });
    for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted");
    // The lookup with a token is exact: the uses of every shard and of the code's object.
    const lookup = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
    assert.equal(lookup.status, 200, lookup.text);
    assert.equal(lookup.json.usage.total, 300);
    assert.equal(lookup.json.remaining, 0);
    const listed = await call(worker.base, "GET", `/v1/codes?prefix=${code}`, { headers: admin });
    assert.equal(listed.json.codes.find((c) => c.code === code)?.usage.total, 300, listed.text);
    // Replays reach the shard that recorded them, wherever they go.
    const taken = decided.map((r, i) => [r, i]).filter(([r]) => r.status === 201).slice(0, 20);
    for (const [, i] of taken) {
      const body = { code, total: eur("50.00"), ...(i % 2 === 0 ? { customer: `c-${i}` } : {}) };
      const again = await captureReq(worker.base, `hot${shards}-${i}`, body);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.replayed, true);
    }
    // A release gives a use back; the next capture takes it, and then the code is used up again.
    const [, first] = taken[0];
    const released = await release(`hot${shards}-${first}`, code);
    assert.equal(released.status, 200, released.text);
    assert.equal(released.json.was, "captured");
    const refill = await captureReq(worker.base, `hot${shards}-refill`, { code, total: eur("50.00") });
    assert.equal(refill.status, 201, refill.text);
    const over = await captureReq(worker.base, `hot${shards}-over`, { code, total: eur("50.00") });
    assert.equal(over.status, 422, over.text);
    assert.equal(over.json.rejection, "exhausted");
  });
}

test("N = 4: fewer attempts than the cap all succeed, holds and captures mixed", async () => {
  const code = "ROOMY";
  const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 1000 }, shards: 4 });
  assert.equal(put.status, 201, put.text);
  const results = await Promise.all(Array.from({ length: 400 }, (_, i) => {
    const body = { code, total: eur("50.00"), ...(i % 3 === 0 ? { customer: `r-${i}` } : {}) };
    return i % 2 === 0 ? hold(`roomy-${i}`, body) : captureReq(worker.base, `roomy-${i}`, body);
  }));
  assert.deepEqual(tally(results), { 201: 400 });
  const lookup = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
  assert.equal(lookup.json.usage.total, 400);
  assert.equal(lookup.json.usage.held, 200);
  assert.equal(lookup.json.remaining, 600);
  // A held key captured under the same key converts its hold, on its shard.
  const converted = await captureReq(worker.base, "roomy-0", { code, total: eur("50.00"), customer: "r-0" });
  assert.equal(converted.status, 201, converted.text);
  const afterConversion = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
  assert.deepEqual([afterConversion.json.usage.total, afterConversion.json.usage.held], [400, 199]);
  const unknown = await release("roomy-nothing", code);
  assert.equal(unknown.status, 404, unknown.text);
});

test("N = 4: a per-customer cap stays exact, one customer's requests on one shard", async () => {
  const code = "PERCUST";
  const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 100, per_customer: 2 }, shards: 4 });
  assert.equal(put.status, 201, put.text);
  const results = await Promise.all(Array.from({ length: 120 }, (_, i) =>
    captureReq(worker.base, `percust-${i}`, { code, total: eur("50.00"), customer: `p-${i % 10}` })));
  assert.deepEqual(tally(results), { 201: 20, 422: 100 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "customer_limit_reached");
  const anonymous = await captureReq(worker.base, "percust-anon", { code, total: eur("50.00") });
  assert.equal(anonymous.status, 422);
  assert.equal(anonymous.json.rejection, "customer_required");
});

test("N = 4: a budget of 100.00 at 7.00 a use: 14 uses, never a cent over", async () => {
  const code = "BUDGET4";
  const put = await putCode(worker.base, {
    code, discount: { kind: "fixed", amount: eur("7.00") }, limits: { budget: eur("100.00") }, shards: 4,
  });
  assert.equal(put.status, 201, put.text);
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    captureReq(worker.base, `budget4-${i}`, { code, total: eur("50.00"), ...(i % 2 ? { customer: `b-${i}` } : {}) })));
  assert.deepEqual(tally(results), { 201: 14, 422: 186 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "budget_exhausted");
});

test("N = 4: the kill switch and an archive reach every shard at once", async () => {
  const code = "SWITCH4";
  const put = await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 1000 }, shards: 4 });
  assert.equal(put.status, 201, put.text);
  // Every shard holds an allotment (and a copy of the definition).
  const warm = await Promise.all(Array.from({ length: 40 }, (_, i) => captureReq(worker.base, `switch-${i}`, { code, total: eur("50.00") })));
  assert.deepEqual(tally(warm), { 201: 40 });
  const off = await call(worker.base, "PATCH", `/v1/codes/${code}`, { body: { active: false }, headers: admin });
  assert.equal(off.status, 200, off.text);
  const refused = await Promise.all(Array.from({ length: 40 }, (_, i) => captureReq(worker.base, `switch-off-${i}`, { code, total: eur("50.00") })));
  assert.deepEqual(tally(refused), { 422: 40 });
  for (const r of refused) assert.equal(r.json.rejection, "inactive", r.text);
  const on = await call(worker.base, "PATCH", `/v1/codes/${code}`, { body: { active: true }, headers: admin });
  assert.equal(on.status, 200, on.text);
  const again = await captureReq(worker.base, "switch-on", { code, total: eur("50.00") });
  assert.equal(again.status, 201, again.text);
  const archived = await call(worker.base, "DELETE", `/v1/codes/${code}`, { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  const gone = await Promise.all(Array.from({ length: 20 }, (_, i) => captureReq(worker.base, `switch-gone-${i}`, { code, total: eur("50.00") })));
  assert.deepEqual(tally(gone), { 404: 20 });
});

test("N = 4: a key names one call across shards: another customer's, or none, is 422 and records nothing", async () => {
  const code = "CLAIMS4";
  assert.equal((await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 100 }, shards: 4 })).status, 201);
  const usage = async () => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json.usage.total;
  // Keys first used with a customer, then reused with others and with none (20 keys: most
  // customers' shards differ from the key's own, so the claim crosses objects).
  for (let i = 0; i < 20; i++) {
    const first = await captureReq(worker.base, `claim-${i}`, { code, total: eur("50.00"), customer: `first-${i}` });
    assert.equal(first.status, 201, first.text);
    for (const other of [{ customer: `other-${i}` }, {}]) {
      const reused = await captureReq(worker.base, `claim-${i}`, { code, total: eur("50.00"), ...other });
      assert.equal(reused.status, 422, reused.text);
      assert.equal(reused.json.type, "/problems/idempotency_key_reused");
    }
    const again = await captureReq(worker.base, `claim-${i}`, { code, total: eur("50.00"), customer: `first-${i}` });
    assert.equal(again.status, 200, again.text);
  }
  // Keys first used without a customer, then with one.
  for (let i = 0; i < 20; i++) {
    const first = await captureReq(worker.base, `anon-${i}`, { code, total: eur("50.00") });
    assert.equal(first.status, 201, first.text);
    const reused = await captureReq(worker.base, `anon-${i}`, { code, total: eur("50.00"), customer: `late-${i}` });
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.json.type, "/problems/idempotency_key_reused");
  }
  assert.equal(await usage(), 40, "one use per key, none for the reuses");
});

test("N = 4: the history lists every shard's records once, page by page; the stats count them all", async () => {
  const code = "HISTORY4";
  assert.equal((await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 100 }, shards: 4 })).status, 201);
  const keys = [];
  for (let i = 0; i < 23; i++) {
    const key = `hist-${i}`;
    const body = { code, total: eur("10.00"), ...(i % 3 === 0 ? { customer: `h-${i}` } : {}) };
    const r = await captureReq(worker.base, key, body);
    assert.equal(r.status, 201, r.text);
    keys.push(key);
  }
  const seen = [];
  let route = `/v1/codes/${code}/redemptions?limit=5`;
  for (let pages = 0; pages < 20; pages++) {
    const page = await call(worker.base, "GET", route, { headers: admin });
    assert.equal(page.status, 200, page.text);
    assert.ok(page.json.redemptions.length <= 5);
    seen.push(...page.json.redemptions.map((r) => r.idempotency_key));
    if (page.json.next === null) break;
    assert.match(page.json.next, /^\d+(~\d+){4}$/, "one position for the code's object and each shard");
    route = `/v1/codes/${code}/redemptions?limit=5&after=${page.json.next}`;
  }
  assert.deepEqual([...seen].sort(), [...keys].sort(), "every record once");
  const csv = await call(worker.base, "GET", `/v1/codes/${code}/redemptions`, { headers: { ...admin, accept: "text/csv" } });
  assert.equal(csv.status, 200);
  assert.equal(csv.text.trim().split("\n").length, 1 + keys.length, "the CSV: a header and every record");
  const bad = await call(worker.base, "GET", `/v1/codes/${code}/redemptions?after=1~2~3~4~5~6`, { headers: admin });
  assert.equal(bad.status, 400, bad.text);
  const stats = await call(worker.base, "GET", `/v1/codes/${code}/stats`, { headers: admin });
  assert.equal(stats.status, 200, stats.text);
  assert.equal(stats.json.total.captures, keys.length, "every shard's captures");
});

test("N = 4: a shard's own alarm marks its expired holds, and the uses come back", async () => {
  const code = "EXPIRY4";
  assert.equal((await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 3 }, shards: 4 })).status, 201);
  for (let i = 0; i < 3; i++) {
    const r = await hold(`exp-${i}`, { code, total: eur("30.00"), ttl_seconds: 2 });
    assert.equal(r.status, 201, r.text);
  }
  let expired = [];
  for (let i = 0; i < 40 && expired.length < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const page = await call(worker.base, "GET", `/v1/codes/${code}/redemptions`, { headers: admin });
    expired = page.json.redemptions.filter((r) => r.state === "expired");
  }
  assert.equal(expired.length, 3, "every shard's alarm marked its holds");
  for (let i = 3; i < 6; i++) {
    const r = await captureReq(worker.base, `exp-${i}`, { code, total: eur("30.00") });
    assert.equal(r.status, 201, r.text);
  }
});

test("N = 4: a stack takes what the shards left: their unused budget is recalled, the last use clipped once", async () => {
  const mugs = [{ sku: "MUG", quantity: 2, unit_price: eur("12.50"), categories: ["mugs"] }, { sku: "GRINDER", quantity: 1, unit_price: eur("46.50") }];
  const put = (definition) => putCode(worker.base, definition);
  assert.equal((await put({ code: "SHP", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
    limits: { budget: eur("8.00"), when_budget_short: "partial" }, combines_with: ["order"], shards: 4 })).status, 201);
  assert.equal((await put({ code: "SHO", discount: { kind: "percent", percent: "10" }, combines_with: ["product"] })).status, 201);
  // A single capture on a shard: 5.00 of the 8.00 (the shard asks for more than it spends).
  const single = await captureReq(worker.base, "shp-single", { code: "SHP", lines: mugs });
  assert.equal(single.status, 201, single.text);
  assert.equal(single.json.quote.discount.amount, "5.00");
  // The stack is decided by the code's object: what is left (3.00) though a shard held it unused.
  const stack = await captureReq(worker.base, "shp-stack", { codes: ["SHP", "SHO"], lines: mugs });
  assert.equal(stack.status, 201, stack.text);
  assert.deepEqual(stack.json.receipts.map((r) => [r.quote.code, r.quote.discount.amount]), [["SHP", "3.00"], ["SHO", "6.85"]]);
  const view = await call(worker.base, "GET", "/v1/codes/SHP", { headers: admin });
  assert.deepEqual(view.json.usage.discounted, eur("8.00"), "never a cent over the budget");
  const more = await captureReq(worker.base, "shp-more", { code: "SHP", lines: mugs });
  assert.equal(more.status, 422, more.text);
  assert.equal(more.json.rejection, "budget_exhausted");
});

test("N = 4: a payment reaches the shard its hold is in: captured once, refunded back, a refund first final", async () => {
  const code = "SHPAY";
  assert.equal((await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 100 }, shards: 4 })).status, 201);
  const basket = { total: eur("80.00") };
  const usage = async () => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
  // Eight payments: even ones with a customer (its shard), odd ones without (their id's shard).
  const payments = Array.from({ length: 8 }, (_, i) => ({ pi: stripeId("pi"), customer: i % 2 === 0 ? `buyer-${i}` : undefined }));
  const shardOf = (answer) => answer.headers.get("x-test-shard")?.split(";")[0];
  for (const payment of payments) {
    const held = await hold(payment.pi, { code, ...basket, ...(payment.customer ? { customer: payment.customer } : {}) });
    assert.equal(held.status, 201, held.text);
    payment.shard = shardOf(held);
    assert.ok(payment.shard !== undefined, "a shard took the hold");
  }
  assert.equal((await usage()).held, 8);
  for (const { pi, customer, shard } of payments) {
    const paid = await postStripe(worker.base, paymentIntentSucceeded({ id: pi, code, customer, basket, amount: 7200 }));
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.json.action, "captured", paid.text);
    assert.equal(paid.json.receipt.quote.discount.amount, "8.00");
    assert.equal(shardOf(paid), shard, "the payment went to its hold's shard");
    const again = await postStripe(worker.base, paymentIntentSucceeded({ id: pi, code, customer, basket, amount: 7200 }));
    assert.equal(again.json.action, "replayed", again.text);
  }
  // The holds were captured where they were taken: no second use anywhere.
  assert.deepEqual((({ total, held }) => ({ total, held }))(await usage()), { total: 8, held: 0 });
  const history = (await call(worker.base, "GET", `/v1/codes/${code}/redemptions?limit=100`, { headers: admin })).json.redemptions;
  for (const { pi } of payments) {
    assert.deepEqual(history.filter((r) => r.idempotency_key === pi).map((r) => r.state), ["captured"], pi);
  }
  // Refunds with no metadata find their shard; a cancel of a captured payment is ignored.
  for (const { pi } of payments.slice(0, 4)) {
    const refund = await postStripe(worker.base, chargeRefunded({ paymentIntent: pi, metadata: {} }));
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.json.action, "released", refund.text);
  }
  const cancel = await postStripe(worker.base, paymentIntentCanceled({ id: payments[5].pi, code, basket }));
  assert.equal(cancel.json.action, "ignored", cancel.text);
  assert.equal((await usage()).total, 4);
  // A refund before anything: final, and the success after it captures nothing.
  const early = stripeId("pi");
  const refund = await postStripe(worker.base, chargeRefunded({ paymentIntent: early, code, metadata: { promo_code: code } }));
  assert.equal(refund.status, 200, refund.text);
  const late = await postStripe(worker.base, paymentIntentSucceeded({ id: early, code, customer: "buyer-late", basket, amount: 7200 }));
  assert.equal(late.status, 200, late.text);
  assert.notEqual(late.json.action, "captured", late.text);
  assert.equal((await usage()).total, 4);
});

test("N = 4: an anonymous lookup is at most a second behind the shards' writes; with a token, exact", async () => {
  const code = "SHLOOK";
  assert.equal((await putCode(worker.base, { code, discount: { kind: "percent", percent: "10" }, limits: { total: 10 }, shards: 4 })).status, 201);
  const anonymous = () => call(worker.base, "GET", `/v1/codes/${code}`);
  const first = await anonymous();
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.json.usage, { total: 0, held: 0 });
  assert.equal(first.headers.get("x-promocodes-cache"), "miss");
  assert.match(first.headers.get("cache-control") ?? "", /no-cache/);
  for (let i = 0; i < 4; i++) {
    const r = await captureReq(worker.base, `look-${i}`, { code, total: eur("20.00"), customer: `look-${i}` });
    assert.equal(r.status, 201, r.text);
  }
  const exact = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
  assert.equal(exact.json.usage.total, 4, "a token reads every shard now");
  // The shards' writes purge nothing: the copy cached before them is served for at most a second.
  const written = Date.now();
  let live;
  for (;;) {
    live = await anonymous();
    if (live.json.usage.total === 4) break;
    assert.ok(Date.now() - written < 1500, `still ${live.json.usage.total} after ${Date.now() - written} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(live.json.remaining, 6);
});

test("N = 4: a stack's part is written in the customer's shard: one per-customer cap, one key", async () => {
  const lines = [{ sku: "MUG", quantity: 2, unit_price: eur("12.50"), categories: ["mugs"] }, { sku: "BEANS", quantity: 1, unit_price: eur("20.00") }];
  assert.equal((await putCode(worker.base, { code: "SHONCE", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
    limits: { per_customer: 1 }, combines_with: ["order"], shards: 4 })).status, 201);
  assert.equal((await putCode(worker.base, { code: "SHORDER", discount: { kind: "percent", percent: "5" }, combines_with: ["product"] })).status, 201);
  const single = (key, customer) => captureReq(worker.base, key, { code: "SHONCE", lines, customer });
  const stack = (key, customer) => captureReq(worker.base, key, { codes: ["SHONCE", "SHORDER"], lines, customer });
  // A single capture, then a stack for the same customer: the stack's part meets the same count.
  assert.equal((await single("once-ann-1", "ann")).status, 201);
  const refused = await stack("once-ann-2", "ann");
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.json.rejection, "customer_limit_reached", refused.text);
  // A stack, then a single capture: the same.
  const bob = await stack("once-bob-1", "bob");
  assert.equal(bob.status, 201, bob.text);
  const again = await single("once-bob-2", "bob");
  assert.equal(again.status, 422, again.text);
  assert.equal(again.json.rejection, "customer_limit_reached");
  const replay = await stack("once-bob-1", "bob");
  assert.equal(replay.status, 200, replay.text);
  assert.deepEqual(replay.json.receipts.map((r) => r.quote.discount.amount), bob.json.receipts.map((r) => r.quote.discount.amount));
  // A key used for a single capture, then for a stack: the stack takes that use as it is, no second one.
  assert.equal((await single("once-cat", "cat")).status, 201);
  const joined = await stack("once-cat", "cat");
  assert.equal(joined.status, 201, joined.text);
  assert.deepEqual(joined.json.receipts.map((r) => r.quote.code), ["SHONCE", "SHORDER"]);
  const view = await call(worker.base, "GET", "/v1/codes/SHONCE", { headers: admin });
  assert.equal(view.json.usage.total, 3, "ann, bob and cat: one use each");
  // Racing: 12 stacks and 12 single captures for one customer, all at once: exactly one use.
  const racing = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? stack : single)(`once-dan-${i}`, "dan")));
  assert.equal(racing.filter((r) => r.status === 201).length, 1, JSON.stringify(tally(racing)));
  assert.equal((await call(worker.base, "GET", "/v1/codes/SHONCE", { headers: admin })).json.usage.total, 4);
});
