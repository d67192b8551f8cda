// Durability: the SQLite state survives a clean stop and a SIGKILL during a load. Every
// receipt a client received is still there after a restart on the same state folder, and
// retrying every key afterwards never counts anything twice.
import { after } from "node:test";
import assert from "node:assert/strict";
import { test, startWorker, tempDir, removeDir, putCode, call, captureReq, admin, capturer, eur } from "./harness.mjs";

const state = tempDir();
let worker;
after(async () => {
  await worker?.stop();
  removeDir(state);
});

const usage = async (code) => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json.usage.total;
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

test("SIGKILL with active holds: holds, expiries and releases survive, and no count differs from the records", async () => {
  worker = await startWorker({ state });
  assert.equal((await putCode(worker.base, { code: "HOLDS", discount: { kind: "percent", percent: "10" }, limits: { total: 100 } })).status, 201);
  const hold = (key, ttl) => call(worker.base, "POST", "/v1/holds", {
    body: { code: "HOLDS", total: eur("20.00"), customer: key, ttl_seconds: ttl }, headers: { ...capturer, "idempotency-key": key } });
  for (let i = 0; i < 10; i++) assert.equal((await hold(`long-${i}`, 600)).status, 201);
  for (let i = 0; i < 5; i++) assert.equal((await hold(`short-${i}`, 3)).status, 201);
  for (let i = 0; i < 3; i++) {
    const r = await call(worker.base, "POST", "/v1/releases", { body: { code: "HOLDS", key: `long-${i}`, reason: "cancelled" }, headers: capturer });
    assert.equal(r.status, 200, r.text);
  }
  for (let i = 3; i < 5; i++) {
    const r = await captureReq(worker.base, `long-${i}`, { code: "HOLDS", total: eur("20.00"), customer: `long-${i}` });
    assert.equal(r.status, 201, r.text);
  }
  await worker.kill();

  worker = await startWorker({ state });
  await new Promise((r) => setTimeout(r, 3_500)); // the short holds expire while nothing is asked
  let recorded = [];
  for (let i = 0; i < 40; i++) {
    recorded = await receipts("HOLDS");
    if (recorded.filter((r) => r.state === "expired").length === 5) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const states = recorded.reduce((m, r) => ((m[r.state] = (m[r.state] ?? 0) + 1), m), {});
  assert.deepEqual(states, { held: 5, released: 3, captured: 2, expired: 5 });
  const view = (await call(worker.base, "GET", "/v1/codes/HOLDS", { headers: admin })).json;
  assert.deepEqual(view.usage, { total: 7, held: 5 }, "the count is the captured and the held records");
  // Releases and captures replay after the restart; nothing counts twice.
  const again = await call(worker.base, "POST", "/v1/releases", { body: { code: "HOLDS", key: "long-0" }, headers: capturer });
  assert.equal(again.json.replayed, true);
  const converted = await captureReq(worker.base, "long-5", { code: "HOLDS", total: eur("20.00"), customer: "long-5" });
  assert.equal(converted.status, 201, "a hold from before the kill converts");
  assert.deepEqual((await call(worker.base, "GET", "/v1/codes/HOLDS", { headers: admin })).json.usage, { total: 7, held: 4 });
  await worker.stop();
  worker = undefined;
});

test("SIGKILL during captures of a campaign's codes: received receipts survive, the campaign counts each once", async () => {
  worker = await startWorker({ state });
  const put = await call(worker.base, "PUT", "/v1/campaigns/KILL", {
    body: { discount: { kind: "fixed", amount: eur("1.00") } }, headers: admin });
  assert.equal(put.status, 201, put.text);
  const codes = Array.from({ length: 5000 }, (_, i) => `KILL-${String(i).padStart(4, "0")}`);
  const added = await call(worker.base, "POST", "/v1/campaigns/KILL/codes", {
    body: { codes }, headers: { ...admin, "idempotency-key": "kill-import" } });
  assert.equal(added.status, 201, added.text);
  const base = worker.base;
  const received = new Map(); // key -> receipt the client got
  const attempted = [];
  let stop = false;
  let next = 0;
  const body = (i) => JSON.stringify({ code: codes[i], total: eur("10.00") });
  const client = async () => {
    while (!stop && next < codes.length) {
      const i = next++;
      attempted.push(i);
      try {
        const res = await fetch(`${base}/v1/captures`, {
          method: "POST",
          headers: { ...capturer, "idempotency-key": `kill-${i}`, "content-type": "application/json" },
          body: body(i),
        });
        const text = await res.text();
        if (res.status === 201) received.set(i, JSON.parse(text));
      } catch { /* the connection died with the server */ }
    }
  };
  const clients = Array.from({ length: 10 }, client);
  while (received.size < 40) await new Promise((r) => setTimeout(r, 20));
  await worker.kill(); // SIGKILL to wrangler and workerd, mid-load
  stop = true;
  await Promise.all(clients);
  console.log(`# killed after ${received.size} campaign receipts received, ${attempted.length} captures attempted`);

  worker = await startWorker({ state });
  const listed = [];
  let after = "";
  for (;;) {
    const page = await call(worker.base, "GET", `/v1/campaigns/KILL/codes?limit=1000${after ? `&after=${after}` : ""}`, { headers: admin });
    assert.equal(page.status, 200, page.text);
    listed.push(...page.json.codes);
    if (page.json.next === null) break;
    after = page.json.next;
  }
  const used = new Set(listed.filter((c) => c.uses > 0).map((c) => c.code));
  assert.ok(listed.every((c) => c.uses <= 1), "no code counted twice");
  const summary = await call(worker.base, "GET", "/v1/campaigns/KILL", { headers: admin });
  assert.equal(summary.json.usage.total, used.size, "the campaign's total is its codes' uses");
  for (const [i, receipt] of received) {
    assert.ok(used.has(codes[i]), `the receipt for ${codes[i]} is still there`);
    assert.equal(receipt.usage.per_code, 1);
  }
  const retried = await Promise.all(attempted.map((i) => captureReq(worker.base, `kill-${i}`, { code: codes[i], total: eur("10.00") })));
  for (const [n, r] of retried.entries()) {
    const i = attempted[n];
    assert.equal(r.status, used.has(codes[i]) ? 200 : 201, `${codes[i]}: ${r.text}`);
  }
  const after2 = await call(worker.base, "GET", "/v1/campaigns/KILL", { headers: admin });
  assert.equal(after2.json.usage.total, attempted.length, "each key counted exactly once");
  await worker.stop();
  worker = undefined;
});
