// Concurrent captures against the real Worker in workerd: the caps hold because the
// Durable Object's SQLite compare-and-set decides, and one idempotency key is one redemption.
import assert from "node:assert/strict";
import { test, testShards, putCode, call, captureReq, admin, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile();

const usage = async (code) => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json.usage.total;
const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

async function allRedemptions(code) {
  const items = [];
  let after = 0;
  for (;;) {
    const page = await call(worker.base, "GET", `/v1/codes/${code}/redemptions?after=${after}&limit=40`, { headers: admin });
    assert.equal(page.status, 200, page.text);
    items.push(...page.json.redemptions);
    if (page.json.next === null) return items;
    after = page.json.next;
  }
}

test("200 concurrent captures on a code capped at 50: exactly 50 succeed", async () => {
  const put = await putCode(worker.base, { code: "CAP50", discount: { kind: "percent", percent: "10" }, limits: { total: 50 } });
  assert.equal(put.status, 201, put.text);
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    captureReq(worker.base, `cap50-${i}`, { code: "CAP50", total: eur("80.00"), customer: `buyer-${i}` })));
  const seconds = (performance.now() - started) / 1000;
  console.log(`# 200 concurrent captures in ${seconds.toFixed(2)} s (${(200 / seconds).toFixed(0)} requests/s)`);
  assert.deepEqual(tally(results), { 201: 50, 422: 150 });
  for (const r of results.filter((r) => r.status === 422)) {
    assert.equal(r.json.type, "/problems/rejected");
    assert.equal(r.json.rejection, "exhausted");
    assert.equal(r.json.quote.payable.amount, "72.00", "the stale quote comes back");
  }
  const successes = results.filter((r) => r.status === 201);
  const totals = successes.map((r) => r.json.usage.total).sort((a, b) => a - b);
  const upTo = (n) => Array.from({ length: n }, (_, i) => i + 1);
  if (testShards === 1) {
    assert.deepEqual(totals, upTo(50), "each success saw its own count");
  } else {
    // A sharded code's receipt counts where it was decided: each shard's successes saw their own counts.
    const byShard = new Map();
    for (const r of successes) {
      const shard = r.headers.get("x-test-shard")?.split(";")[0];
      byShard.set(shard, [...(byShard.get(shard) ?? []), r]);
    }
    assert.ok(!byShard.has(undefined), "every capture was decided by a shard");
    for (const [shard, mine] of byShard) {
      assert.deepEqual(mine.map((r) => r.json.usage.total).sort((a, b) => a - b), upTo(mine.length), `shard ${shard}`);
    }
  }
  assert.equal(await usage("CAP50"), 50);

  const list = await allRedemptions("CAP50");
  assert.equal(list.length, 50);
  if (testShards === 1) {
    assert.deepEqual(list.map((r) => r.usage.total), totals, "receipts are listed oldest first");
    assert.ok(list.every((r, i) => i === 0 || r.seq > list[i - 1].seq));
  } else {
    // Merged across the shards: every receipt once (each shard's `seq` is its own).
    assert.deepEqual(list.map((r) => r.usage.total).sort((a, b) => a - b), totals, "every receipt listed once");
  }
});

test("20 concurrent captures by one customer on a 1-per-customer code: exactly one succeeds", async () => {
  const put = await putCode(worker.base, { code: "ONCE", discount: { kind: "fixed", amount: eur("5.00") }, limits: { per_customer: 1 } });
  assert.equal(put.status, 201, put.text);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    captureReq(worker.base, `once-${i}`, { code: "ONCE", total: eur("30.00"), customer: "alice" })));
  assert.deepEqual(tally(results), { 201: 1, 422: 19 });
  assert.ok(results.filter((r) => r.status === 422).every((r) => r.json.rejection === "customer_limit_reached"));
  assert.equal(await usage("ONCE"), 1);
  const other = await captureReq(worker.base, "once-bob", { code: "ONCE", total: eur("30.00"), customer: "bob" });
  assert.equal(other.status, 201, "another customer still can");
});

test("50 concurrent captures with one idempotency key: one increment, one receipt", async () => {
  const put = await putCode(worker.base, { code: "SAMEKEY", discount: { kind: "percent", percent: "25" } });
  assert.equal(put.status, 201, put.text);
  const results = await Promise.all(Array.from({ length: 50 }, () =>
    captureReq(worker.base, "evt_same", { code: "SAMEKEY", total: eur("40.00"), customer: "carol" })));
  assert.deepEqual(tally(results), { 200: 49, 201: 1 });
  const first = results.find((r) => r.status === 201).json;
  assert.equal(first.replayed, false);
  for (const r of results) {
    assert.deepEqual({ ...r.json, replayed: undefined }, { ...first, replayed: undefined }, "same receipt");
    assert.equal(r.json.replayed, r.status === 200);
  }
  assert.equal(await usage("SAMEKEY"), 1);
  assert.equal((await allRedemptions("SAMEKEY")).length, 1);
});

test("without DEMO the demo route does not exist", async () => {
  const r = await call(worker.base, "POST", "/demo/pay", { body: { code: "ONCE", total: eur("30.00"), attempt: "a1" } });
  assert.equal(r.status, 404);
  assert.equal(r.json.type, "/problems/not_found");
});
