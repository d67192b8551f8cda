// A sharded code under kill -9: workerd is killed 5 times while 40 clients capture and release on a
// code kept near its cap (so that shards keep asking for grants and the code's object keeps
// recalling). Afterwards every acknowledged use is there, the cap was never passed, and every use
// can still be taken: no allotment was lost between a shard and the code's object. The same for a
// sharded campaign, whose object also escrows each code's own uses (claims and recalls).
import { after } from "node:test";
import assert from "node:assert/strict";
import { test, startWorker, tempDir, removeDir, putCode, call, captureReq, admin, capturer, eur } from "./harness.mjs";

const state = tempDir();
let worker;
after(async () => {
  await worker?.stop();
  removeDir(state);
});

const CAP = 120;
const CODE = "KILLSHARDS";
const lookup = async () => {
  const r = await call(worker.base, "GET", `/v1/codes/${CODE}`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return r.json;
};
const body = (i) => ({ code: CODE, total: eur("20.00"), ...(i % 2 ? { customer: `k-${i}` } : {}) });

/**
 * `n` clients capturing on `code` at `base` until `stopped()`, each under a new key `<prefix>-<i>` with
 * `body(i)`; an acknowledged capture goes into `captured` (key -> i). Near the cap (`exhausted`) a
 * client releases the oldest acknowledged use, so that grants and recalls go on. A release the kill
 * left unanswered may or may not have landed: its key goes into `releasing`. Errors are the kill's.
 */
function capturers({ base, prefix, body, captured, releasing, counter, stopped, n }) {
  const client = async () => {
    while (!stopped()) {
      const i = counter.next++;
      const key = `${prefix}-${i}`;
      try {
        const res = await fetch(`${base}/v1/captures`, {
          method: "POST",
          headers: { ...capturer, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify(body(i)),
        });
        const json = await res.json().catch(() => null);
        if (res.status === 201 || res.status === 200) captured.set(key, i);
        if (res.status === 422 && json?.rejection === "exhausted" && captured.size > 0) {
          const [old] = captured.keys();
          releasing.add(old);
          const rel = await fetch(`${base}/v1/releases`, {
            method: "POST",
            headers: { ...capturer, "content-type": "application/json" },
            body: JSON.stringify({ code: body(captured.get(old)).code, key: old }),
          });
          if (rel.status === 200) {
            captured.delete(old);
            releasing.delete(old);
          }
        }
      } catch { /* the process is being killed */ }
    }
  };
  return Array.from({ length: n }, client);
}

/**
 * Every acknowledged use is there: a retry under its key replays it, still captured. Only a key whose
 * release the kill left unanswered may replay as released; it then leaves `captured`.
 */
async function replayAll(base, captured, releasing, body) {
  let landed = 0;
  for (const [key, i] of [...captured]) {
    const again = await captureReq(base, key, body(i));
    assert.equal(again.status, 200, `${key}: ${again.text}`);
    assert.equal(again.json.replayed, true);
    if (again.json.state === "released" && releasing.has(key)) {
      captured.delete(key);
      landed++;
    } else assert.equal(again.json.state, "captured", `${key}: ${again.text}`);
  }
  console.log(`# releases the kill left unanswered: ${releasing.size}, of which landed: ${landed}`);
}

test("kill -9 five times during grants and recalls: no use lost, none doubled, all still takeable", async () => {
  worker = await startWorker({ state });
  const put = await putCode(worker.base, { code: CODE, discount: { kind: "percent", percent: "10" }, limits: { total: CAP }, shards: 4 });
  assert.equal(put.status, 201, put.text);
  const captured = new Map(); // key -> index, acknowledged captured and not released since
  const releasing = new Set(); // keys whose release went unanswered
  const counter = { next: 0 };
  for (let round = 0; round < 5; round++) {
    const base = worker.base;
    let stop = false;
    const clients = capturers({ base, prefix: "kill", body, captured, releasing, counter, stopped: () => stop, n: 40 });
    await new Promise((r) => setTimeout(r, 1500 + round * 300));
    await worker.kill();
    stop = true;
    await Promise.all(clients);
    worker = await startWorker({ state });
  }
  await replayAll(worker.base, captured, releasing, body);
  const before = await lookup();
  assert.ok(before.usage.total <= CAP, `never over the cap: ${before.usage.total}`);
  assert.ok(before.usage.total >= captured.size, `${before.usage.total} < ${captured.size} acknowledged`);
  // Every use can still be taken, exactly up to the cap, and not one more.
  let taken = 0;
  for (let i = 0; taken < CAP * 2; i++) {
    const r = await captureReq(worker.base, `fill-${i}`, body(100_000 + i));
    if (r.status === 422) {
      assert.equal(r.json.rejection, "exhausted", r.text);
      break;
    }
    assert.equal(r.status, 201, r.text);
    taken++;
  }
  const afterFill = await lookup();
  assert.equal(afterFill.usage.total, CAP, `filled to the cap: ${before.usage.total} + ${taken}`);
  assert.equal(afterFill.remaining, 0);
});

test("kill -9 five times while the code's shards change under load: no use lost, none doubled", async () => {
  worker ??= await startWorker({ state });
  const code = "KILLMOVE";
  const cap = 150;
  const definition = (shards) => JSON.stringify({
    code, discount: { kind: "percent", percent: "10" }, limits: { total: cap, per_customer: 4 }, shards,
  });
  // Sent as written (raw): the harness adds no test shards.
  const define = (base, shards) =>
    fetch(`${base}/v1/codes/${code}`, { method: "PUT", headers: { ...admin, "content-type": "application/json" }, body: definition(shards) });
  const put = await define(worker.base, 4);
  assert.equal(put.status, 201, await put.text());
  const moveBody = (i) => ({ code, total: eur("20.00"), customer: `m-${i % 60}` });
  const captured = new Map();
  const releasing = new Set();
  const counter = { next: 0 };
  // 4 → 8 → 3 → 12 → 5 → 2: each change lands in the middle of a round, just before the kill or well before it.
  const layouts = [8, 3, 12, 5, 2];
  for (let round = 0; round < 5; round++) {
    const base = worker.base;
    let stop = false;
    const clients = capturers({ base, prefix: "move", body: moveBody, captured, releasing, counter, stopped: () => stop, n: 30 });
    await new Promise((r) => setTimeout(r, 600 + round * 200));
    const change = define(base, layouts[round]).catch(() => null);
    await new Promise((r) => setTimeout(r, round % 2 ? 50 : 800));
    await worker.kill();
    stop = true;
    await Promise.all([...clients, change]);
    worker = await startWorker({ state });
    // A change the kill interrupted is made again: it is one transaction, so either it is there or not.
    const again = await define(worker.base, layouts[round]);
    assert.equal(again.status, 200, await again.text());
  }
  await replayAll(worker.base, captured, releasing, moveBody);
  // No customer took more than 4 uses across every layout (the history merges every object's records).
  const uses = {};
  for (let after = ""; ;) {
    const page = await call(worker.base, "GET", `/v1/codes/${code}/redemptions?limit=1000${after ? `&after=${after}` : ""}`, { headers: admin });
    assert.equal(page.status, 200, page.text);
    for (const r of page.json.redemptions) {
      if (r.state === "captured" || r.state === "held") uses[r.customer] = (uses[r.customer] ?? 0) + 1;
    }
    if (page.json.next === null) break;
    after = page.json.next;
  }
  for (const [customer, n] of Object.entries(uses)) assert.ok(n <= 4, `${customer} holds ${n} uses`);
  const view = async () => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json;
  const before = await view();
  assert.equal(before.shards, 2);
  assert.ok(before.usage.total <= cap, `never over the cap: ${before.usage.total}`);
  assert.ok(before.usage.total >= captured.size, `${before.usage.total} < ${captured.size} acknowledged`);
  // Every use can still be taken, up to the cap (new customers, 4 uses each at most).
  let taken = 0;
  for (let i = 0; taken < cap * 2; i++) {
    const r = await captureReq(worker.base, `movefill-${i}`, { code, total: eur("20.00"), customer: `fill-${i}` });
    if (r.status === 422) {
      assert.equal(r.json.rejection, "exhausted", r.text);
      break;
    }
    assert.equal(r.status, 201, r.text);
    taken++;
  }
  assert.equal((await view()).usage.total, cap, `filled to the cap: ${before.usage.total} + ${taken}`);
});

test("kill -9 five times during a sharded campaign's grants, code claims and recalls: every use still takeable", async () => {
  worker ??= await startWorker({ state });
  const id = "KILLCAMP";
  // 30 codes of 4 uses and a total of 120: filling the campaign takes every code's every use.
  const [codes, perCode, cap] = [30, 4, 120];
  const put = await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: {
    discount: { kind: "percent", percent: "10" }, limits: { total: cap }, uses_per_code: perCode, shards: 4 } });
  assert.equal(put.status, 201, put.text);
  const names = Array.from({ length: codes }, (_, i) => `${id}-${i}`);
  const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
    body: { codes: names }, headers: { ...admin, "idempotency-key": "killcamp-codes" } });
  assert.equal(added.status, 201, added.text);
  // A code's keys and customers spread over every shard, so that each code's uses are claimed and recalled.
  const campBody = (i) => ({ code: names[i % codes], total: eur("20.00"), ...(i % 3 ? { customer: `kc-${i}` } : {}) });
  const captured = new Map();
  const releasing = new Set();
  const counter = { next: 0 };
  for (let round = 0; round < 5; round++) {
    const base = worker.base;
    let stop = false;
    const clients = capturers({ base, prefix: "camp", body: campBody, captured, releasing, counter, stopped: () => stop, n: 40 });
    await new Promise((r) => setTimeout(r, 1500 + round * 300));
    await worker.kill();
    stop = true;
    await Promise.all(clients);
    worker = await startWorker({ state });
  }
  await replayAll(worker.base, captured, releasing, campBody);
  const summary = async () => {
    const r = await call(worker.base, "GET", `/v1/campaigns/${id}`, { headers: admin });
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const before = await summary();
  assert.ok(before.usage.total <= cap, `never over the cap: ${before.usage.total}`);
  assert.ok(before.usage.total >= captured.size, `${before.usage.total} < ${captured.size} acknowledged`);
  // Every code's every use can still be taken: each code up to its 4, the campaign to exactly 120.
  let taken = 0;
  for (const [n, code] of names.entries()) {
    for (let i = 0; ; i++) {
      const r = await captureReq(worker.base, `campfill-${n}-${i}`, { code, total: eur("20.00"), customer: `fill-${n}-${i}` });
      if (r.status === 422) {
        assert.equal(r.json.rejection, "exhausted", r.text);
        break;
      }
      assert.equal(r.status, 201, r.text);
      taken++;
    }
    const lookup = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
    assert.equal(lookup.json.usage.per_code, perCode, `${code}: ${lookup.text}`);
  }
  const filled = await summary();
  assert.equal(filled.usage.total, cap, `filled to the cap: ${before.usage.total} + ${taken}`);
  assert.equal(filled.remaining, 0);
});
