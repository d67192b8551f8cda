// A live campaign's `shards` changes (issue 37), as a code's does: its codes' uses and keys stay in
// the objects that took them (the campaign's own object on 1 shard, then its shards), each shard
// asks the earlier layouts' objects about a key or a customer new to it, and the campaign's object
// keeps both escrows (the campaign's total and budget, each code's own uses) across every layout.
// Through every change: never a use over a cap or a cent over the budget, every key replays its
// first answer, and a customer's cap counts the uses of every layout.
//
// Every definition here names its own `shards`, so the Worker suite's second pass (every code and
// campaign on 4 shards) leaves these tests as the first pass ran them.
import assert from "node:assert/strict";
import { test, call, captureReq, capturer, admin, eur, workerForFile, taker, replaysAll } from "./harness.mjs";
import { STRIPE_TEST_SECRET, chargeRefunded, paymentIntentSucceeded, postStripe, stripeId } from "./stripe.mjs";

// An earlier layout's object lists the keys it knows only up to 30 here (100,000 in a real build):
// past that, a shard looks each key up; these tests take both ways.
const worker = workerForFile({ vars: { KNOWN_KEYS_MAX: "30", STRIPE_WEBHOOK_SECRET: STRIPE_TEST_SECRET } });

const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
// Sent as written: the harness adds no test shards to a raw body.
const putCampaign = (id, definition) =>
  call(worker.base, "PUT", `/v1/campaigns/${id}`, { raw: JSON.stringify(definition), headers: admin });
const summary = async (id) => {
  const r = await call(worker.base, "GET", `/v1/campaigns/${id}`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return r.json;
};
const hold = (key, body) => call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": key } });
const release = (key, code) => call(worker.base, "POST", "/v1/releases", { body: { code, key }, headers: capturer });

/** Campaign `id` defined as `definition` (with its `shards`), and `count` imported codes `<id>-<n>`. */
async function campaign(id, definition, count) {
  const put = await putCampaign(id, definition);
  assert.equal(put.status, 201, put.text);
  const codes = Array.from({ length: count }, (_, i) => `${id}-${String(i).padStart(3, "0")}`);
  const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
    body: { codes },
    headers: { ...admin, "idempotency-key": `import-${id}` },
  });
  assert.equal(added.status, 201, added.text);
  return codes;
}

test("a campaign's shards 1 → 4 → 16 → 2: its total and each code's uses stay exact, keys replay, customers keep their caps", async () => {
  const id = "CMOVE";
  const definition = {
    discount: { kind: "percent", percent: "10" },
    limits: { total: 120, per_customer: 2 },
    uses_per_code: 3,
  };
  const codes = await campaign(id, { ...definition, shards: 1 }, 80);
  const body = (code, customer) => ({ code, total: eur("50.00"), ...(customer ? { customer } : {}) });
  const { taken, take } = taker(worker.base);
  // On the campaign's object: 20 customers once each (codes 0-19), and 20 more customers (20-39).
  // (A per-customer cap needs a customer on every use.)
  for (let i = 0; i < 20; i++) {
    assert.equal((await take(`cm1-c${i}`, body(codes[i], `cust-${i}`))).status, 201);
    assert.equal((await take(`cm1-k${i}`, body(codes[20 + i], `solo-${i}`))).status, 201);
  }
  assert.equal((await summary(id)).usage.total, 40);

  // 1 → 4: every earlier key replays from the campaign's object.
  const four = await putCampaign(id, { ...definition, shards: 4 });
  assert.equal(four.status, 200, four.text);
  assert.equal(four.json.shards, 4);
  await replaysAll(worker.base, taken, async () => (await summary(id)).usage.total);
  // Each customer's second use goes on a shard; a third is refused there, their first counted.
  // The Worker knew the campaign on 1 shard: its object sends the first new key on to its shard
  // (test builds mark that answer), and the Worker asks for the layout before the next.
  const moved = await take("cm4-c0", body(codes[40], "cust-0"));
  assert.equal(moved.status, 201, moved.text);
  assert.equal(moved.headers.get("x-test-moved"), "1", "sent on by the campaign's object");
  const second = await Promise.all(Array.from({ length: 19 }, (_, j) => take(`cm4-c${j + 1}`, body(codes[41 + j], `cust-${j + 1}`))));
  assert.deepEqual(tally(second), { 201: 19 });
  for (const r of second) assert.equal(r.headers.get("x-test-moved"), null, "routed to its shard at once");
  const third = await Promise.all(Array.from({ length: 20 }, (_, i) => take(`cm4-x${i}`, body(codes[60 + i], `cust-${i}`))));
  assert.deepEqual(tally(third), { 422: 20 });
  for (const r of third) assert.equal(r.json.rejection, "customer_limit_reached", r.text);
  // Code 0 took one use on the campaign's object: two more anywhere, then none (its 3).
  const code0 = await Promise.all(Array.from({ length: 6 }, (_, i) => take(`cm4-z${i}`, body(codes[0], `zed-${i}`))));
  assert.deepEqual(tally(code0), { 201: 2, 422: 4 });
  for (const r of code0.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted", r.text);
  assert.equal((await summary(id)).usage.total, 62);

  // 4 → 16, with 300 captures racing for the 58 left of the total: exactly 58 more.
  assert.equal((await putCampaign(id, { ...definition, shards: 16 })).status, 200);
  const race = [];
  for (let wave = 0; wave < 3; wave++) {
    race.push(...await Promise.all(Array.from({ length: 100 }, (_, j) => {
      const i = wave * 100 + j;
      return take(`cm16-${i}`, body(codes[1 + (i % 79)], `new-${i % 150}`));
    })));
  }
  assert.equal(tally(race)[201], 58, JSON.stringify(tally(race)));
  assert.equal(tally(race)[201] + tally(race)[422], race.length);
  for (const r of race.filter((r) => r.status === 422)) {
    assert.ok(["exhausted", "customer_limit_reached"].includes(r.json.rejection), r.text);
  }
  // No code over its 3, across the campaign's object and its shards.
  const perCode = new Map();
  for (const [, b] of taken) perCode.set(b.code, (perCode.get(b.code) ?? 0) + 1);
  for (const [code, n] of perCode) assert.ok(n <= 3, `${code} used ${n} times`);
  const full = await summary(id);
  assert.equal(full.usage.total, 120);
  assert.equal(full.remaining, 0);
  await replaysAll(worker.base, taken, async () => (await summary(id)).usage.total);

  // 16 → 2: shards 2 to 15 keep their uses (a replay, a release find them) and give back what they did not use.
  const two = await putCampaign(id, { ...definition, shards: 2 });
  assert.equal(two.status, 200, two.text);
  await replaysAll(worker.base, taken, async () => (await summary(id)).usage.total);
  const released = [taken[0], taken.find(([key]) => key.startsWith("cm4-")), taken.find(([key]) => key.startsWith("cm16-"))];
  for (const [key, b] of released) {
    const r = await release(key, b.code);
    assert.equal(r.status, 200, `${key}: ${r.text}`);
    assert.equal(r.json.was, "captured", key);
  }
  assert.equal((await summary(id)).usage.total, 117);
  const refill = await Promise.all(Array.from({ length: 10 }, (_, i) => take(`cm2-${i}`, body(codes[70 + i], `last-${i}`))));
  assert.deepEqual(tally(refill), { 201: 3, 422: 7 });
  assert.equal((await summary(id)).usage.total, 120);

  // The codes page and a code's lookup count every object.
  const page = await call(worker.base, "GET", `/v1/campaigns/${id}/codes?limit=100`, { headers: admin });
  assert.equal(page.status, 200, page.text);
  const pageUses = page.json.codes.reduce((sum, c) => sum + c.uses, 0);
  assert.equal(pageUses, 120, page.text);
  // A code used on the campaign's object and on shards is one code in use.
  const inUse = page.json.codes.filter((c) => c.uses + c.held > 0).length;
  assert.equal((await summary(id)).codes.used, inUse);
  const lookup = await call(worker.base, "GET", `/v1/codes/${codes[0]}`, { headers: admin });
  assert.equal(lookup.status, 200, lookup.text);
  assert.equal(lookup.json.usage.total, 120, lookup.text);
  assert.equal(lookup.json.usage.per_code, perCode.get(codes[0]) - (released[0][1].code === codes[0] ? 1 : 0), lookup.text);
  // Its history lists every use, wherever it was taken.
  const history = await call(worker.base, "GET", `/v1/campaigns/${id}/redemptions?limit=1000`, { headers: admin });
  assert.equal(history.status, 200, history.text);
  const keys = new Set(history.json.redemptions.map((r) => r.idempotency_key));
  assert.equal(history.json.redemptions.length, taken.length, "each use once, the 3 released among them");
  for (const [key] of taken) assert.ok(keys.has(key), `${key} missing from the history`);

  // Never back to 1: its uses and keys stay in its shards.
  const back = await putCampaign(id, { ...definition, shards: 1 });
  assert.equal(back.status, 400, back.text);
  assert.match(back.json.detail, /shards/);
  assert.equal((await summary(id)).shards, 2);
});

test("a campaign's shards change while 1,200 captures race on its total of 300, a budget and per-code caps: exactly 300", async () => {
  const id = "CMOVERACE";
  // 10 % of EUR 50.00 is EUR 5.00 a use: a budget of EUR 1,500.00 is the 300 uses of the total.
  const definition = {
    discount: { kind: "percent", percent: "10" },
    limits: { total: 300, per_customer: 3, budget: eur("1500.00") },
    uses_per_code: 4,
  };
  const codes = await campaign(id, { ...definition, shards: 1 }, 100);
  const results = [];
  const bodies = [];
  const changes = [];
  for (let wave = 0; wave < 12; wave++) {
    const requests = Array.from({ length: 100 }, (_, j) => {
      const i = wave * 100 + j;
      const b = { code: codes[(i * 7) % 100], total: eur("50.00"), customer: `r-${i % 150}` };
      bodies.push(b);
      return captureReq(worker.base, `cmr-${i}`, b);
    });
    // Mid-wave, the layout changes: 1 → 4 → 16 → 3.
    const shards = { 1: 4, 4: 16, 7: 3 }[wave];
    if (shards) changes.push(putCampaign(id, { ...definition, shards }));
    results.push(...await Promise.all(requests));
  }
  for (const change of await Promise.all(changes)) assert.equal(change.status, 200, change.text);
  const counts = tally(results);
  assert.equal(counts[201], 300, JSON.stringify(counts));
  assert.equal(counts[201] + counts[422], results.length, JSON.stringify(counts));
  for (const r of results.filter((r) => r.status === 422)) {
    assert.ok(["exhausted", "budget_exhausted", "customer_limit_reached"].includes(r.json.rejection), r.text);
  }
  const perCode = new Map();
  const perCustomer = new Map();
  results.forEach((r, i) => {
    if (r.status !== 201) return;
    perCode.set(bodies[i].code, (perCode.get(bodies[i].code) ?? 0) + 1);
    perCustomer.set(bodies[i].customer, (perCustomer.get(bodies[i].customer) ?? 0) + 1);
  });
  for (const [code, n] of perCode) assert.ok(n <= 4, `${code} used ${n} times`);
  for (const [customer, n] of perCustomer) assert.ok(n <= 3, `${customer} took ${n}`);
  const view = await summary(id);
  assert.equal(view.usage.total, 300);
  assert.deepEqual(view.usage.discounted, eur("1500.00"), "never a cent over the budget");
  assert.equal(view.remaining, 0);
});

test("a campaign's shards change at most 8 times, never back to 1: each refusal a 400 naming shards, nothing changed", async () => {
  const id = "CMOVEMANY";
  const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 50 } };
  const [code] = await campaign(id, { ...definition, shards: 2 }, 1);
  const taken = await captureReq(worker.base, "cmm-0", { code, total: eur("50.00") });
  assert.equal(taken.status, 201, taken.text);
  for (const shards of [3, 4, 5, 6, 7, 8, 9, 10]) {
    const moved = await putCampaign(id, { ...definition, shards });
    assert.equal(moved.status, 200, `to ${shards}: ${moved.text}`);
  }
  const ninth = await putCampaign(id, { ...definition, shards: 11 });
  assert.equal(ninth.status, 400, ninth.text);
  assert.match(ninth.json.detail, /changed 8 times/);
  const view = await summary(id);
  assert.equal(view.shards, 10);
  assert.equal(view.usage.total, 1);
  const again = await captureReq(worker.base, "cmm-0", { code, total: eur("50.00") });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.json.replayed, true);
  assert.equal((await putCampaign(id, { ...definition, shards: 10, limits: { total: 60 } })).status, 200);
  assert.equal((await summary(id)).remaining, 59);
});

test("after a campaign's 1 → 4: a key names the same call, a hold taken before is captured, Stripe refunds find every use", async () => {
  const id = "CMOVEKEY";
  const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 100 }, uses_per_code: 5 };
  const codes = await campaign(id, { ...definition, shards: 1 }, 10);
  const basket = { total: eur("80.00") };
  const dora = await captureReq(worker.base, "ck-dora", { code: codes[0], ...basket, customer: "dora" });
  assert.equal(dora.status, 201, dora.text);
  const plain = await captureReq(worker.base, "ck-plain", { code: codes[1], ...basket });
  assert.equal(plain.status, 201, plain.text);
  const held = await hold("ck-held", { code: codes[2], ...basket, customer: "hank" });
  assert.equal(held.status, 201, held.text);
  const pay = (pi, code, customer) => postStripe(worker.base, paymentIntentSucceeded({ id: pi, code, customer, basket, amount: 7200 }));
  const refund = (pi, code, customer) => postStripe(worker.base, chargeRefunded({ paymentIntent: pi, code, customer }));
  const early = stripeId("pi");
  assert.equal((await pay(early, codes[3], "paula")).json.action, "captured");

  assert.equal((await putCampaign(id, { ...definition, shards: 4 })).status, 200);
  // Another customer's key, or a key with no customer used for one: reused, nothing taken.
  for (const [key, code, customer] of [["ck-dora", codes[0], "eve"], ["ck-dora", codes[0], undefined], ["ck-plain", codes[1], "eve"]]) {
    const r = await captureReq(worker.base, key, { code, ...basket, ...(customer ? { customer } : {}) });
    assert.equal(r.status, 422, `${key} for ${customer}: ${r.text}`);
    assert.equal(r.json.type, "/problems/idempotency_key_reused", r.text);
  }
  // The hold taken on the campaign's object is captured there under its key: one use, not two.
  const captured = await captureReq(worker.base, "ck-held", { code: codes[2], ...basket, customer: "hank" });
  assert.equal(captured.status, 201, captured.text);
  assert.equal(captured.json.state, "captured");
  assert.equal((await summary(id)).usage.total, 4);
  // Payments on the shards now; every refund finds its use, the one taken before the change too.
  const late = Array.from({ length: 6 }, () => stripeId("pi"));
  for (const [i, pi] of late.entries()) assert.equal((await pay(pi, codes[4 + i], `late-${i}`)).json.action, "captured");
  assert.equal((await summary(id)).usage.total, 10);
  for (const [pi, code, customer] of [[early, codes[3], "paula"], ...late.map((pi, i) => [pi, codes[4 + i], `late-${i}`])]) {
    const r = await refund(pi, code, customer);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, "released", `${pi}: ${r.text}`);
    assert.equal(r.json.release.was, "captured");
  }
  // A release after the change finds the use where it was taken.
  const r = await release("ck-dora", codes[0]);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.was, "captured");
  assert.equal((await summary(id)).usage.total, 2);
  // The campaign's figures count every object's captures.
  const stats = await call(worker.base, "GET", `/v1/campaigns/${id}/stats`, { headers: admin });
  assert.equal(stats.status, 200, stats.text);
  assert.equal(stats.json.total.captures, 10, stats.text);
});
