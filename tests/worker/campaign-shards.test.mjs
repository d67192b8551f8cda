// A campaign spread over shard objects ("shards": N on its definition): its codes' holds and captures
// go to the shard of their customer, else of their key, each deciding inside allotments its
// campaign's object grants: of the campaign's total and budget, and of each code's own uses
// (`uses_per_code`), since two customers of one code may reach two shards. Never one use over any
// cap, and exactly as many taken as the caps allow (no false `exhausted`).
import assert from "node:assert/strict";
import { test, call, captureReq, capturer, admin, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile();

const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
const putCampaign = (id, definition) => call(worker.base, "PUT", `/v1/campaigns/${id}`, { body: definition, headers: admin });
const importCodes = (id, codes) =>
  call(worker.base, "POST", `/v1/campaigns/${id}/codes`, { body: { codes }, headers: { ...admin, "idempotency-key": `import-${id}` } });
const hold = (key, body) => call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": key } });
const release = (key, code) => call(worker.base, "POST", "/v1/releases", { body: { code, key }, headers: capturer });

/** A campaign `id` on `shards` shards with `definition`'s fields, and `count` imported codes `<id>-<n>`. */
async function campaign(id, shards, definition, count) {
  const put = await putCampaign(id, { discount: { kind: "percent", percent: "10" }, ...definition, shards });
  assert.equal(put.status, 201, put.text);
  assert.equal(put.json.shards, shards);
  const codes = Array.from({ length: count }, (_, i) => `${id}-${String(i).padStart(3, "0")}`);
  const added = await importCodes(id, codes);
  assert.equal(added.status, 201, added.text);
  return codes;
}

/** `requests` (functions returning a promise) sent `inFlight` at a time, their answers in order. */
async function race(requests, inFlight = 200) {
  const results = [];
  for (let i = 0; i < requests.length; i += inFlight) {
    results.push(...(await Promise.all(requests.slice(i, i + inFlight).map((send) => send()))));
  }
  return results;
}

/** How many 201s each code got. */
function usesByCode(results, bodies) {
  const uses = new Map();
  results.forEach((r, i) => {
    if (r.status === 201) uses.set(bodies[i].code, (uses.get(bodies[i].code) ?? 0) + 1);
  });
  return uses;
}

test("a campaign's shards: 1 to 64, written when above 1, never back to 1, anything else a clear 400", async () => {
  for (const shards of [0, 65, 2.5, "4"]) {
    const r = await putCampaign("BADSHARDS", { discount: { kind: "percent", percent: "10" }, shards });
    assert.equal(r.status, 400, `${JSON.stringify(shards)}: ${r.text}`);
    assert.match(r.text, /shards/);
  }
  const one = await putCampaign("ONESHARDC", { discount: { kind: "percent", percent: "10" }, shards: 1 });
  assert.equal(one.status, 201, one.text);
  assert.equal(one.json.shards, undefined, "1 is the default, left out");
  const four = await putCampaign("FOURSHARDC", { discount: { kind: "percent", percent: "10" }, shards: 4 });
  assert.equal(four.status, 201, four.text);
  assert.equal(four.json.shards, 4);
  const read = await call(worker.base, "GET", "/v1/campaigns/FOURSHARDC", { headers: admin });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.json.shards, 4);
  // Never back to 1 (its codes' uses and keys stay in its shards); to 8, a change of its layout
  // (campaign-reshard.test.mjs).
  const back = await putCampaign("FOURSHARDC", { discount: { kind: "percent", percent: "10" }, shards: 1 });
  assert.equal(back.status, 400, back.text);
  assert.match(back.json.detail, /not back to 1/);
  const same = await putCampaign("FOURSHARDC", { discount: { kind: "percent", percent: "15" }, shards: 4 });
  assert.equal(same.status, 200, same.text);
});

for (const shards of [4, 16]) {
  test(`N = ${shards}: 2,000 racing captures over 200 codes, half with customers: exactly the campaign's 300`, async () => {
    const id = `CSHOT${shards}`;
    const codes = await campaign(id, shards, { limits: { total: 300 }, uses_per_code: 3 }, 200);
    const bodies = Array.from({ length: 2000 }, (_, i) => ({
      code: codes[i % 200],
      total: eur("50.00"),
      ...(i % 2 === 0 ? { customer: `c-${i}` } : {}),
    }));
    const results = await race(bodies.map((body, i) => () => captureReq(worker.base, `${id}-${i}`, body)));
    assert.deepEqual(tally(results), { 201: 300, 422: 1700 });
    for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted");
    for (const [code, n] of usesByCode(results, bodies)) assert.ok(n <= 3, `${code} used ${n} times, over its 3`);
    // Decided on the shards (test builds name the one that answered), not in the campaign's object.
    const answeredBy = new Set(results.filter((r) => r.status === 201).map((r) => r.headers.get("x-test-shard")?.split(";")[0]));
    assert.equal(answeredBy.size, shards, `answered by shards ${[...answeredBy].join(", ")}`);
    // The campaign's summary and a code's lookup count the uses on every shard (read now, with a token).
    const summary = await call(worker.base, "GET", `/v1/campaigns/${id}`, { headers: admin });
    assert.equal(summary.status, 200, summary.text);
    assert.equal(summary.json.usage.total, 300, summary.text);
    assert.equal(summary.json.remaining, 0, summary.text);
    const uses = usesByCode(results, bodies);
    const [busiest, most] = [...uses].sort((a, b) => b[1] - a[1])[0];
    const lookup = await call(worker.base, "GET", `/v1/codes/${busiest}`, { headers: admin });
    assert.equal(lookup.status, 200, lookup.text);
    assert.equal(lookup.json.usage.total, 300, lookup.text);
    assert.equal(lookup.json.usage.per_code, most, lookup.text);
    assert.equal(lookup.json.remaining, 0, lookup.text);
    // A replay answers as before and takes nothing.
    const first = results.findIndex((r) => r.status === 201);
    const again = await captureReq(worker.base, `${id}-${first}`, bodies[first]);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.replayed, true);
  });
}

test("N = 4: single-use codes raced by six customers each: every code taken exactly once", async () => {
  const codes = await campaign("CSONCE", 4, {}, 100);
  const bodies = Array.from({ length: 600 }, (_, i) => ({ code: codes[i % 100], total: eur("50.00"), customer: `once-${i}` }));
  const results = await race(bodies.map((body, i) => () => captureReq(worker.base, `once-${i}`, body)));
  assert.deepEqual(tally(results), { 201: 100, 422: 500 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted");
  const uses = usesByCode(results, bodies);
  assert.equal(uses.size, 100, "every code taken");
  for (const [code, n] of uses) assert.equal(n, 1, `${code} taken ${n} times`);
});

test("N = 4: a per-customer cap of 1 across the campaign holds while each customer races five codes", async () => {
  const codes = await campaign("CSCUST", 4, { limits: { per_customer: 1 } }, 250);
  const bodies = Array.from({ length: 250 }, (_, i) => ({ code: codes[i], total: eur("50.00"), customer: `cust-${i % 50}` }));
  const results = await race(bodies.map((body, i) => () => captureReq(worker.base, `cust-${i}`, body)));
  assert.deepEqual(tally(results), { 201: 50, 422: 200 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "customer_limit_reached");
  const won = new Map();
  results.forEach((r, i) => r.status === 201 && won.set(bodies[i].customer, (won.get(bodies[i].customer) ?? 0) + 1));
  assert.equal(won.size, 50);
  for (const [customer, n] of won) assert.equal(n, 1, `${customer} took ${n}`);
});

test("N = 4: a budget of 100.00 over 200 codes racing: exactly 20 uses of 5.00, never a cent over", async () => {
  const codes = await campaign("CSBUDGET", 4, {
    discount: { kind: "fixed", amount: eur("5.00") },
    limits: { budget: eur("100.00") },
  }, 200);
  const bodies = codes.map((code, i) => ({ code, total: eur("50.00"), ...(i % 2 ? { customer: `b-${i}` } : {}) }));
  const results = await race(bodies.map((body, i) => () => captureReq(worker.base, `budget-${i}`, body)));
  assert.deepEqual(tally(results), { 201: 20, 422: 180 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "budget_exhausted");
});

test("N = 4: a single-use code held on one shard is refused on another; released, the other takes it", async () => {
  const [code] = await campaign("CSHOLD", 4, {}, 1);
  // Two customers whose requests go to different shards (many tried: at least one pair differs).
  const held = await hold("hold-ann", { code, total: eur("50.00"), customer: "ann" });
  assert.equal(held.status, 201, held.text);
  const refused = [];
  for (let i = 0; i < 8; i++) {
    refused.push(await captureReq(worker.base, `hold-other-${i}`, { code, total: eur("50.00"), customer: `other-${i}` }));
  }
  for (const r of refused) {
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.rejection, "exhausted");
  }
  const released = await release("hold-ann", code);
  assert.equal(released.status, 200, released.text);
  const taken = await captureReq(worker.base, "hold-other-taken", { code, total: eur("50.00"), customer: "other-3" });
  assert.equal(taken.status, 201, taken.text);
  const after = await captureReq(worker.base, "hold-ann-again", { code, total: eur("50.00"), customer: "ann" });
  assert.equal(after.status, 422, after.text);
  assert.equal(after.json.rejection, "exhausted");
});

test("N = 4: a campaign's switch, a new discount and its archive reach every shard at once", async () => {
  const codes = await campaign("CSSWITCH", 4, { discount: { kind: "percent", percent: "10" } }, 140);
  let next = 0;
  /** Captures on `n` fresh codes, each by its own customer: spread over every shard. */
  const captures = (n) => Promise.all(Array.from({ length: n }, () => {
    const i = next++;
    return captureReq(worker.base, `csswitch-${i}`, { code: codes[i], total: eur("50.00"), customer: `sw-${i}` });
  }));
  const shardsOf = (results) => new Set(results.map((r) => r.headers.get("x-test-shard")?.split(";")[0]));
  // Every shard takes uses first (so each keeps a copy of the definition and an allotment).
  const first = await captures(40);
  assert.ok(first.every((r) => r.status === 201), first.map((r) => r.text).join("\n"));
  assert.equal(shardsOf(first).size, 4, "every shard took uses");
  const off = await call(worker.base, "PATCH", "/v1/campaigns/CSSWITCH", { body: { active: false }, headers: admin });
  assert.equal(off.status, 200, off.text);
  const refused = await captures(20);
  for (const r of refused) {
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.rejection, "inactive");
  }
  assert.equal((await call(worker.base, "PATCH", "/v1/campaigns/CSSWITCH", { body: { active: true }, headers: admin })).status, 200);
  const put = await putCampaign("CSSWITCH", { discount: { kind: "percent", percent: "20" }, shards: 4 });
  assert.equal(put.status, 200, put.text);
  const priced = await captures(40);
  for (const r of priced) {
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.quote.discount.amount, "10.00", "20 % of 50.00, on every shard");
  }
  assert.equal(shardsOf(priced).size, 4);
  const archived = await call(worker.base, "DELETE", "/v1/campaigns/CSSWITCH", { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  for (const r of await captures(20)) assert.equal(r.status, 404, r.text);
});
