// Durability: the SQLite state survives a clean stop and a SIGKILL during a load. Every
// receipt a client received is still there after a restart on the same state folder, and
// retrying every key afterwards never counts anything twice.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, tempDir, removeDir, putCode, call, captureReq, admin, capturer, eur } from "./harness.mjs";

const state = tempDir();
let worker;
after(async () => {
  await worker?.stop();
  removeDir(state);
});

const usage = async (code) => (await call(worker.base, "GET", `/v1/codes/${code}`)).json.usage.total;
async function receipts(code) {
  const items = [];
  let after = 0;
  for (;;) {
    const page = await call(worker.base, "GET", `/v1/codes/${code}/redemptions?after=${after}&limit=1000`, { headers: admin });
    assert.equal(page.status, 200, page.text);
    items.push(...page.json.redemptions);
    if (page.json.next === null) return items;
    after = page.json.next;
  }
}
const strip = (receipt) => ({ quote: receipt.quote, usage: receipt.usage });

test("a clean stop and restart keeps counts and replays", async () => {
  worker = await startWorker({ state });
  assert.equal((await putCode(worker.base, { code: "KEEP", discount: { kind: "percent", percent: "10" }, limits: { total: 10 } })).status, 201);
  const got = [];
  for (let i = 0; i < 3; i++) {
    const r = await captureReq(worker.base, `keep-${i}`, { code: "KEEP", total: eur("50.00"), customer: `k${i}` });
    assert.equal(r.status, 201, r.text);
    got.push(r.json);
  }
  await worker.stop();
  worker = await startWorker({ state });
  assert.equal(await usage("KEEP"), 3);
  for (let i = 0; i < 3; i++) {
    const r = await captureReq(worker.base, `keep-${i}`, { code: "KEEP", total: eur("50.00"), customer: `k${i}` });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { ...got[i], replayed: true });
  }
  assert.equal(await usage("KEEP"), 3);
  await worker.stop();
  worker = undefined;
});

test("SIGKILL during a load: received receipts survive, retries never double-count", async () => {
  worker = await startWorker({ state });
  assert.equal((await putCode(worker.base, { code: "LOAD", discount: { kind: "fixed", amount: eur("1.00") } })).status, 201);
  const base = worker.base;
  const received = new Map(); // key -> receipt the client got
  const attempted = [];
  let stop = false;
  let next = 0;
  const client = async () => {
    while (!stop) {
      const key = `load-${next++}`;
      attempted.push(key);
      try {
        // No retry here: the server may die under this request.
        const res = await fetch(`${base}/v1/captures`, {
          method: "POST",
          headers: { ...capturer, "idempotency-key": key, "content-type": "application/json" },
          body: JSON.stringify({ code: "LOAD", total: eur("10.00"), customer: key }),
        });
        const body = await res.text();
        if (res.status === 201) received.set(key, JSON.parse(body));
      } catch { /* the connection died with the server */ }
    }
  };
  const clients = Array.from({ length: 10 }, client);
  while (received.size < 40) await new Promise((r) => setTimeout(r, 20));
  await worker.kill(); // SIGKILL to wrangler and workerd, mid-load
  stop = true;
  await Promise.all(clients);
  console.log(`# killed after ${received.size} receipts received, ${attempted.length} captures attempted`);

  worker = await startWorker({ state });
  const recorded = await receipts("LOAD");
  const byKey = new Map(recorded.map((r) => [r.idempotency_key, r]));
  assert.equal(byKey.size, recorded.length, "one receipt per key");
  assert.equal(await usage("LOAD"), recorded.length, "the count is the number of receipts");
  assert.ok(recorded.length >= received.size);
  for (const [key, receipt] of received) {
    assert.ok(byKey.has(key), `the receipt for ${key} is still there`);
    assert.deepEqual(strip(byKey.get(key)), strip(receipt));
  }

  // Retry every key ever attempted (a client that saw no answer retries the same key).
  const retried = await Promise.all(attempted.map((key) =>
    captureReq(worker.base, key, { code: "LOAD", total: eur("10.00"), customer: key })));
  for (const [i, r] of retried.entries()) {
    const key = attempted[i];
    if (byKey.has(key)) {
      assert.equal(r.status, 200, `${key} was recorded, so it replays`);
      assert.deepEqual(strip(r.json), strip(byKey.get(key)));
    } else {
      assert.equal(r.status, 201, `${key} was not recorded, so it counts now`);
    }
  }
  assert.equal(await usage("LOAD"), attempted.length, "each key counted exactly once");
  const again = await Promise.all(attempted.map((key) =>
    captureReq(worker.base, key, { code: "LOAD", total: eur("10.00"), customer: key })));
  assert.ok(again.every((r) => r.status === 200 && r.json.replayed));
  assert.equal(await usage("LOAD"), attempted.length);
  await worker.stop();
  worker = undefined;
});
