// A live code's `shards` changes (issue 37): its uses and keys stay where they were taken, each
// shard asks the earlier layouts' objects about a key or a customer new to it, and an object an
// earlier layout used sends a new key on to the shard the layout names now. Through every change:
// never a use over the cap or a cent over the budget, every key replays its first answer, and a
// customer's cap counts the uses of every layout.
import assert from "node:assert/strict";
import { test, call, captureReq, capturer, admin, eur, workerForFile, taker, replaysAll } from "./harness.mjs";
import { STRIPE_TEST_SECRET, chargeRefunded, paymentIntentSucceeded, postStripe, stripeId } from "./stripe.mjs";

// An object of an earlier layout lists the keys it knows only up to 30 here (100,000 in a real
// build): past that, a shard looks each key up. These tests' objects hold from none to hundreds of
// keys, so both ways are taken; shards-durability.test.mjs runs with the real limit.
const worker = workerForFile({ vars: { KNOWN_KEYS_MAX: "30", STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } });

const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
// Sent as written: the harness adds no test shards to a raw body.
const define = (definition) =>
  call(worker.base, "PUT", `/v1/codes/${definition.code}`, { raw: JSON.stringify(definition), headers: admin });
const hold = (key, body) => call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": key } });
const release = (key, code) => call(worker.base, "POST", "/v1/releases", { body: { code, key }, headers: capturer });
const lookup = (code) => call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });

test("1 → 4 → 16 → 2 shards: the cap stays exact, keys replay, customers keep their caps", async () => {
  const code = "MOVER";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { total: 200 } };
  assert.equal((await define({ ...definition, shards: 1 })).status, 201);
  const body = (i, customer) => ({ code, total: eur("50.00"), ...(customer ? { customer } : {}) });
  const { taken, take } = taker(worker.base);
  // On its own object: 20 customers once each, and 20 captures without one.
  for (let i = 0; i < 20; i++) {
    assert.equal((await take(`m1-c${i}`, body(i, `cust-${i}`))).status, 201);
    assert.equal((await take(`m1-k${i}`, body(i))).status, 201);
  }

  // 1 → 4: every earlier key replays from the code's object.
  const four = await define({ ...definition, shards: 4 });
  assert.equal(four.status, 200, four.text);
  assert.equal(four.json.shards, 4);
  await replaysAll(worker.base, taken, async () => (await lookup(code)).json.usage.total);
  const second = await Promise.all(Array.from({ length: 20 }, (_, i) => take(`m4-${i}`, body(i, i % 2 ? `cust-${i}` : undefined))));
  assert.deepEqual(tally(second), { 201: 20 });
  assert.equal((await lookup(code)).json.usage.total, 60);

  // 4 → 16, with 400 captures racing for the 140 left: exactly 140 more.
  assert.equal((await define({ ...definition, shards: 16 })).status, 200);
  const race = [];
  for (let wave = 0; wave < 4; wave++) {
    race.push(...await Promise.all(Array.from({ length: 100 }, (_, j) => {
      const i = wave * 100 + j;
      return take(`m16-${i}`, body(i, i % 2 === 0 ? `new-${i}` : undefined));
    })));
  }
  assert.deepEqual(tally(race), { 201: 140, 422: 260 });
  for (const r of race.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted");
  const full = await lookup(code);
  assert.equal(full.json.usage.total, 200);
  assert.equal(full.json.remaining, 0);
  await replaysAll(worker.base, taken, async () => (await lookup(code)).json.usage.total);

  // 16 → 2: shards 2 to 15 keep their uses (a replay, a release find them) and give back what they did not use.
  assert.equal((await define({ ...definition, shards: 2 })).status, 200);
  await replaysAll(worker.base, taken, async () => (await lookup(code)).json.usage.total);
  // A release of a use taken on the code's object, and of one taken on each layout's shards:
  // each gives its use back, and the next capture takes it.
  const released = [taken[0], taken.find(([key]) => key.startsWith("m4-")), taken.find(([key]) => key.startsWith("m16-"))];
  for (const [key] of released) {
    const r = await release(key, code);
    assert.equal(r.status, 200, `${key}: ${r.text}`);
    assert.equal(r.json.was, "captured", key);
  }
  assert.equal((await lookup(code)).json.usage.total, 197);
  const refill = await Promise.all(Array.from({ length: 10 }, (_, i) => take(`m2-${i}`, body(i))));
  assert.deepEqual(tally(refill), { 201: 3, 422: 7 });
  assert.equal((await lookup(code)).json.usage.total, 200);

  // Never back to 1: its uses and keys stay in its shards.
  const back = await define({ ...definition, shards: 1 });
  assert.equal(back.status, 400, back.text);
  assert.match(back.json.detail, /shards/);
  assert.equal((await lookup(code)).json.shards, 2);
});

test("a customer's cap counts the uses of every layout", async () => {
  const code = "MOVERPC";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { per_customer: 2 } };
  assert.equal((await define({ ...definition, shards: 1 })).status, 201);
  const take = (key, i) => captureReq(worker.base, key, { code, total: eur("50.00"), customer: `pc-${i}` });
  const first = await Promise.all(Array.from({ length: 20 }, (_, i) => take(`pc1-${i}`, i)));
  assert.deepEqual(tally(first), { 201: 20 });
  // 1 → 4: one use on the code's object, one left, taken on a shard; then none, whichever shard it asks.
  assert.equal((await define({ ...definition, shards: 4 })).status, 200);
  const second = await Promise.all(Array.from({ length: 20 }, (_, i) => take(`pc4-${i}`, i)));
  assert.deepEqual(tally(second), { 201: 20 });
  const third = await Promise.all(Array.from({ length: 20 }, (_, i) => take(`pc4b-${i}`, i)));
  assert.deepEqual(tally(third), { 422: 20 }, "each customer's 2 uses: one on the code's object, one on a shard");
  for (const r of third) assert.equal(r.json.rejection, "customer_limit_reached");
  // 4 → 7: the customers land on other shards, and still have nothing left; racing changes nothing.
  assert.equal((await define({ ...definition, shards: 7 })).status, 200);
  const fourth = await Promise.all(Array.from({ length: 40 }, (_, i) => take(`pc7-${i}`, i % 20)));
  assert.deepEqual(tally(fourth), { 422: 40 });
  for (const r of fourth) assert.equal(r.json.rejection, "customer_limit_reached");
  // A use given back (on the code's object) is one the customer may take again, on the shard they go to now.
  const back = await release("pc1-3", code);
  assert.equal(back.status, 200, back.text);
  const again = await Promise.all([take("pc7-again-a", 3), take("pc7-again-b", 3)]);
  assert.deepEqual(tally(again), { 201: 1, 422: 1 });
  assert.equal((await lookup(code)).json.usage.total, 40);
});

test("a key taken under one layout names the same call under the next", async () => {
  const code = "MOVEKEY";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { total: 100 } };
  assert.equal((await define({ ...definition, shards: 4 })).status, 201);
  const dora = await captureReq(worker.base, "mk-dora", { code, total: eur("50.00"), customer: "dora" });
  assert.equal(dora.status, 201, dora.text);
  const plain = await captureReq(worker.base, "mk-plain", { code, total: eur("50.00") });
  assert.equal(plain.status, 201, plain.text);
  const held = await hold("mk-held", { code, total: eur("50.00"), customer: "hank" });
  assert.equal(held.status, 201, held.text);
  assert.equal((await define({ ...definition, shards: 8 })).status, 200);
  // Another customer's key, or a key with no customer used for one: reused, nothing taken.
  for (const [key, customer] of [["mk-dora", "eve"], ["mk-dora", undefined], ["mk-plain", "eve"]]) {
    const r = await captureReq(worker.base, key, { code, total: eur("50.00"), ...(customer ? { customer } : {}) });
    assert.equal(r.status, 422, `${key} for ${customer}: ${r.text}`);
    assert.equal(r.json.type, "/problems/idempotency_key_reused", r.text);
  }
  // The hold taken before the change is captured under its key after it: one use, not two.
  const captured = await captureReq(worker.base, "mk-held", { code, total: eur("50.00"), customer: "hank" });
  assert.equal(captured.status, 201, captured.text);
  assert.equal(captured.json.key, "mk-held");
  assert.equal(captured.json.state, "captured");
  assert.equal((await lookup(code)).json.usage.total, 3);
  // And a release after the change finds the use where it was taken.
  const r = await release("mk-dora", code);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.was, "captured");
  assert.equal((await lookup(code)).json.usage.total, 2);
});

test("shards change while 1,200 captures and holds race on a cap of 300 and a budget: exactly 300, never over", async () => {
  const code = "MOVERACE";
  // 10 % of EUR 50.00 is EUR 5.00 a use: a budget of EUR 1,500.00 is the 300 uses of the cap.
  const definition = {
    code, discount: { kind: "percent", percent: "10" },
    limits: { total: 300, per_customer: 3, budget: eur("1500.00") },
    // 150 customers, 3 each at most: 450 uses could go, so the cap and the budget decide.
  };
  assert.equal((await define({ ...definition, shards: 4 })).status, 201);
  const results = [];
  const changes = [];
  for (let wave = 0; wave < 12; wave++) {
    const requests = Array.from({ length: 100 }, (_, j) => {
      const i = wave * 100 + j;
      const b = { code, total: eur("50.00"), customer: `r-${i % 150}` };
      return i % 4 === 0 ? hold(`race-${i}`, b) : captureReq(worker.base, `race-${i}`, b);
    });
    // Mid-wave, the layout changes: 4 → 16 → 8 → 3.
    const shards = { 2: 16, 5: 8, 8: 3 }[wave];
    if (shards) changes.push(define({ ...definition, shards }));
    results.push(...await Promise.all(requests));
  }
  for (const change of await Promise.all(changes)) assert.equal(change.status, 200, change.text);
  const counts = tally(results);
  assert.equal(counts[201], 300, JSON.stringify(counts));
  assert.equal(counts[201] + counts[422], results.length, JSON.stringify(counts));
  for (const r of results.filter((r) => r.status === 422)) {
    assert.ok(["exhausted", "budget_exhausted", "customer_limit_reached"].includes(r.json.rejection), r.text);
  }
  // Each customer took at most 3, across every layout.
  const perCustomer = {};
  results.forEach((r, i) => {
    if (r.status === 201) perCustomer[i % 150] = (perCustomer[i % 150] ?? 0) + 1;
  });
  for (const [customer, n] of Object.entries(perCustomer)) assert.ok(n <= 3, `r-${customer} took ${n}`);
  const view = await lookup(code);
  assert.equal(view.json.usage.total, 300);
  assert.deepEqual(view.json.usage.discounted, eur("1500.00"), "never a cent over the budget");
  assert.equal(view.json.remaining, 0);
});

test("a hold that expired under an earlier layout is not captured afresh past a customer's cap", async () => {
  const code = "MOVEEXP";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { per_customer: 1 } };
  assert.equal((await define({ ...definition, shards: 4 })).status, 201);
  const held = await hold("me-hold", { code, total: eur("50.00"), customer: "ivy", ttl_seconds: 1 });
  assert.equal(held.status, 201, held.text);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await define({ ...definition, shards: 9 })).status, 200);
  // Her hold expired: her one use is free, and she takes it under a new key on the new layout.
  const fresh = await captureReq(worker.base, "me-new", { code, total: eur("50.00"), customer: "ivy" });
  assert.equal(fresh.status, 201, fresh.text);
  // The expired hold's key, captured now: the object that holds it sees only its own uses of hers,
  // so it takes no new use there; the checkout asks again under a new key, and is refused her cap.
  const late = await captureReq(worker.base, "me-hold", { code, total: eur("50.00"), customer: "ivy" });
  assert.equal(late.status, 422, late.text);
  assert.equal(late.json.type, "/problems/idempotency_key_reused", late.text);
  const again = await captureReq(worker.base, "me-again", { code, total: eur("50.00"), customer: "ivy" });
  assert.equal(again.status, 422, again.text);
  assert.equal(again.json.rejection, "customer_limit_reached");
  assert.equal((await lookup(code)).json.usage.total, 1);
});

test("shards change at most 8 times: the 9th is a 400 naming shards, and nothing changes", async () => {
  const code = "MOVEMANY";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { total: 50 } };
  assert.equal((await define({ ...definition, shards: 2 })).status, 201);
  const taken = await captureReq(worker.base, "mm-0", { code, total: eur("50.00") });
  assert.equal(taken.status, 201, taken.text);
  for (const shards of [3, 4, 5, 6, 7, 8, 9, 10]) {
    const moved = await define({ ...definition, shards });
    assert.equal(moved.status, 200, `to ${shards}: ${moved.text}`);
  }
  const ninth = await define({ ...definition, shards: 11 });
  assert.equal(ninth.status, 400, ninth.text);
  assert.match(ninth.json.detail, /shards/);
  assert.match(ninth.json.detail, /changed 8 times/);
  const view = await lookup(code);
  assert.equal(view.json.shards, 10);
  assert.equal(view.json.usage.total, 1);
  // The key taken on the first layout still replays through eight changes.
  const again = await captureReq(worker.base, "mm-0", { code, total: eur("50.00") });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.replayed, true);
  // The same definition with its shards as they are is still a plain redefinition.
  assert.equal((await define({ ...definition, shards: 10, limits: { total: 60 } })).status, 200);
  assert.equal((await lookup(code)).json.remaining, 59);
});

test("a stack retried across a change of shards replays; quotes and stacks count a customer's uses in every shard and layout", async () => {
  const a = { code: "STKMOVE", discount: { kind: "percent", percent: "10" }, limits: { total: 100, per_customer: 2 }, combines_with: ["order"] };
  const b = { code: "STKPLAIN", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["order"] };
  assert.equal((await define({ ...a, shards: 2 })).status, 201);
  assert.equal((await define(b)).status, 201);
  const stack = (customer) => ({ codes: [a.code, b.code], total: eur("80.00"), customer });
  const capture = (key, body) => call(worker.base, "POST", "/v1/captures", { body, headers: { ...capturer, "idempotency-key": key } });
  const customers = Array.from({ length: 8 }, (_, i) => `stk-${i}`);
  const taken = []; // [key, customer, first answer]
  for (const customer of customers) {
    const r = await capture(`stk-key-${customer}`, stack(customer));
    assert.equal(r.status, 201, r.text);
    taken.push([`stk-key-${customer}`, customer, r.json]);
  }
  // 2 as it was (a plain redefinition), then two changes. Each customer has one use of STKMOVE's
  // two on the first layout, and takes the second on it: counted once, on every layout after.
  for (const shards of [2, 5, 11]) {
    assert.equal((await define({ ...a, shards })).status, 200);
    // Each stack retried under its key replays its first answer; nothing is taken or given back.
    for (const [key, customer, first] of taken) {
      const again = await capture(key, stack(customer));
      assert.equal(again.status, 200, `${key} on ${shards}: ${again.text}`);
      assert.deepEqual(again.json.receipts.map((r) => [r.code ?? r.quote.code, r.replayed]), first.receipts.map((r) => [r.code ?? r.quote.code, true]));
      assert.deepEqual(again.json.receipts.map((r) => r.quote), first.receipts.map((r) => r.quote), key);
    }
    const uses = shards === 2 ? 1 : 2;
    assert.equal((await lookup(a.code)).json.usage.total, customers.length * uses);
    assert.equal((await lookup(b.code)).json.usage.total, customers.length * uses);
    for (const customer of customers) {
      const single = await call(worker.base, "POST", "/v1/quotes", { body: { code: a.code, total: eur("80.00"), customer }, headers: capturer });
      const quoted = await call(worker.base, "POST", "/v1/quotes", { body: stack(customer), headers: capturer });
      const key = `stk-more-${shards}-${customer}`;
      const more = await capture(key, stack(customer));
      if (uses === 1) {
        // One use of two: offered alone and in the stack, and taken.
        assert.equal(single.status, 200, `${customer} quoted alone on ${shards}: ${single.text}`);
        assert.equal(quoted.status, 200, `${customer} quoted on ${shards}: ${quoted.text}`);
        assert.equal(more.status, 201, `${customer} on ${shards}: ${more.text}`);
        taken.push([key, customer, more.json]);
      } else {
        // Both taken (in a shard, on this layout or an earlier one): refused alone and in the
        // stack, and STKPLAIN keeps nothing of the refused stack.
        assert.equal(single.status, 422, `${customer} quoted alone on ${shards}: ${single.text}`);
        assert.equal(single.json.rejection, "customer_limit_reached");
        assert.equal(quoted.status, 422, `${customer} quoted on ${shards}: ${quoted.text}`);
        assert.deepEqual(quoted.json.rejections.map((r) => [r.code, r.rejection]), [[a.code, "customer_limit_reached"]]);
        assert.equal(more.status, 422, `${customer} on ${shards}: ${more.text}`);
        assert.deepEqual(more.json.rejections.map((r) => [r.code, r.rejection]), [[a.code, "customer_limit_reached"]]);
      }
    }
    assert.equal((await lookup(a.code)).json.usage.total, customers.length * 2);
    assert.equal((await lookup(b.code)).json.usage.total, customers.length * 2);
  }
});

test("Stripe refunds after 1 → 4 shards: a Worker that knew the code on one shard finds every use", async () => {
  const code = "REFMOVE";
  const definition = { code, discount: { kind: "percent", percent: "10" }, limits: { total: 50 } };
  assert.equal((await define({ ...definition, shards: 1 })).status, 201);
  const basket = { total: eur("80.00") };
  const pay = (id, customer) => postStripe(worker.base, paymentIntentSucceeded({ id, code, customer, basket, amount: 7200 }));
  const refund = (id, customer) => postStripe(worker.base, chargeRefunded({ paymentIntent: id, code, customer }));
  const state = async (id) => {
    const page = await call(worker.base, "GET", `/v1/codes/${code}/redemptions?limit=1000`, { headers: admin });
    return page.json.redemptions.find((r) => r.idempotency_key === id)?.state;
  };
  // On one shard (the Worker now knows the code so): a payment and its refund, in the code's object.
  const early = [stripeId("pi"), stripeId("pi")];
  for (const [i, id] of early.entries()) assert.equal((await pay(id, `ref-${i}`)).json.action, "captured");
  const first = await refund(early[0], "ref-0");
  assert.equal(first.json.action, "released", first.text);
  assert.equal(first.json.release.was, "captured");

  // Spread over 4, the Worker left on its one-shard layout (as an isolate that has not heard of the
  // change): payments go to the code's object, which sends them on to the shards.
  const spread = await call(worker.base, "PUT", `/v1/codes/${code}`, {
    raw: JSON.stringify({ ...definition, shards: 4 }), headers: { ...admin, "x-test-keep-layout": "1" },
  });
  assert.equal(spread.status, 200, spread.text);
  const late = Array.from({ length: 8 }, () => stripeId("pi"));
  for (const [i, id] of late.entries()) assert.equal((await pay(id, `ref-late-${i}`)).json.action, "captured");
  assert.equal((await lookup(code)).json.usage.total, 9);
  // Every refund finds its use: the one taken in the code's object before the change, and each
  // shard's (the code's object answers the first release sent as to one shard 421, and the Worker
  // asks for the layout).
  for (const [i, id] of [[0, early[1]], ...late.map((id, i) => [i, id])]) {
    const customer = id === early[1] ? "ref-1" : `ref-late-${i}`;
    const r = await refund(id, customer);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, "released", `${id}: ${r.text}`);
    assert.equal(r.json.release.was, "captured");
    assert.equal(await state(id), "released", id);
  }
  assert.equal((await lookup(code)).json.usage.total, 0);
  // A refund before its payment, on the sharded code: final everywhere, so the payment takes nothing.
  const ahead = stripeId("pi");
  const refundedFirst = await refund(ahead, "ref-ahead");
  assert.equal(refundedFirst.status, 200, refundedFirst.text);
  const paidAfter = await pay(ahead, "ref-ahead");
  assert.equal(paidAfter.status, 200, paidAfter.text);
  assert.notEqual(paidAfter.json.action, "captured", paidAfter.text);
  assert.equal((await lookup(code)).json.usage.total, 0);
});
