// A stack of codes killed half-way (issue 21): workerd is SIGKILLed between two codes of one hold or
// capture, then started again on the same state folder. The test build's `x-test-stall-after-first-code`
// header (feature `conformance` only, protocol::TEST_STALL_HEADER) makes the Worker wait after the
// first code's write, so that the kill lands exactly there.
import { after } from "node:test";
import assert from "node:assert/strict";
import { test, startWorker, tempDir, removeDir, putCode, call, admin, capturer, eur } from "./harness.mjs";

const state = tempDir();
let worker;
after(async () => {
  await worker?.stop();
  removeDir(state);
});

const STALL = { "x-test-stall-after-first-code": "1" };
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")], shipping: eur("4.90") };
const usage = async (code) => (await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
/** The use and hold counts (without `discounted`, which a capped code shows too). */
const counts = async (code) => (({ total, held }) => ({ total, held }))(await usage(code));
const keyed = (route, key, body, headers = {}) =>
  call(worker.base, "POST", route, { body, headers: { ...capturer, "idempotency-key": key, ...headers } });

/** Sends a stalled stack request (never awaited to its end: the process dies under it). */
function stalled(route, key, body) {
  fetch(`${worker.base}${route}`, {
    method: "POST",
    headers: { ...capturer, ...STALL, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.text(), () => {}).catch(() => {});
}

/** Waits until `done()` holds (polled), or fails after `ms`. */
async function until(done, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A product code and an order code that combine: the product code is written first. */
async function pair(product, order) {
  for (const definition of [
    { code: product, discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 10 } },
    { code: order, discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 10 } },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
}

test("a capture killed (kill -9) between two codes and retried with the same key ends with both captured once", async () => {
  worker = await startWorker({ state });
  await pair("KA", "KB");
  await pair("KC", "KD");
  // KA and KB: captured afresh. KC and KD: held first, the capture converts the holds.
  const held = await keyed("/v1/holds", "kill-held", { codes: ["KD", "KC"], ...basket, ttl_seconds: 600 });
  assert.equal(held.status, 201, held.text);
  stalled("/v1/captures", "kill-fresh", { codes: ["KB", "KA"], ...basket });
  stalled("/v1/captures", "kill-held", { codes: ["KD", "KC"], ...basket });
  await until(async () => (await usage("KA")).total === 1, "KA's capture");
  await until(async () => (await usage("KC")).held === 0, "KC's conversion");
  assert.deepEqual(await counts("KB"), { total: 0, held: 0 }, "KB is not written yet");
  assert.deepEqual(await counts("KD"), { total: 1, held: 1 }, "KD is still held");
  await worker.kill(); // SIGKILL to wrangler and workerd, between the two codes

  worker = await startWorker({ state });
  assert.deepEqual(await counts("KA"), { total: 1, held: 0 }, "the first code's capture survived");
  assert.deepEqual(await counts("KB"), { total: 0, held: 0 });
  assert.deepEqual(await counts("KC"), { total: 1, held: 0 });
  assert.deepEqual(await counts("KD"), { total: 1, held: 1 });

  const fresh = await keyed("/v1/captures", "kill-fresh", { codes: ["KB", "KA"], ...basket });
  assert.equal(fresh.status, 201, fresh.text);
  assert.deepEqual(fresh.json.receipts.map((r) => [r.quote.code, r.state, r.replayed]),
    [["KA", "captured", true], ["KB", "captured", false]]);
  const converted = await keyed("/v1/captures", "kill-held", { codes: ["KD", "KC"], ...basket });
  assert.equal(converted.status, 201, converted.text);
  assert.deepEqual(converted.json.receipts.map((r) => [r.quote.code, r.state, r.replayed]),
    [["KC", "captured", true], ["KD", "captured", false]]);
  for (const code of ["KA", "KB", "KC", "KD"]) assert.deepEqual(await counts(code), { total: 1, held: 0 }, code);
  // Once more: everything replays, nothing counts twice.
  for (const [key, codes] of [["kill-fresh", ["KB", "KA"]], ["kill-held", ["KD", "KC"]]]) {
    const again = await keyed("/v1/captures", key, { codes, ...basket });
    assert.equal(again.status, 200, again.text);
    assert.ok(again.json.receipts.every((r) => r.replayed), again.text);
  }
  for (const code of ["KA", "KB", "KC", "KD"]) assert.deepEqual(await counts(code), { total: 1, held: 0 }, code);
  await worker.stop();
  worker = undefined;
});

test("a stack hold killed between two codes counts no use past its ttl; retried in time, it holds both", async () => {
  worker = await startWorker({ state });
  await pair("KE", "KF");
  await pair("KG", "KH");
  // KE and KF: retried after the restart. KG and KH: never retried, with a 3 s hold.
  stalled("/v1/holds", "kill-retried", { codes: ["KF", "KE"], ...basket, ttl_seconds: 600 });
  stalled("/v1/holds", "kill-abandoned", { codes: ["KH", "KG"], ...basket, ttl_seconds: 3 });
  await until(async () => (await usage("KE")).held === 1 && (await usage("KG")).held === 1, "the first codes' holds");
  await worker.kill();

  worker = await startWorker({ state });
  assert.deepEqual(await counts("KF"), { total: 0, held: 0 });
  const retried = await keyed("/v1/holds", "kill-retried", { codes: ["KF", "KE"], ...basket, ttl_seconds: 600 });
  assert.equal(retried.status, 201, retried.text);
  assert.deepEqual(retried.json.holds.map((h) => [h.quote.code, h.replayed]), [["KE", true], ["KF", false]]);
  for (const code of ["KE", "KF"]) assert.deepEqual(await counts(code), { total: 1, held: 1 }, code);
  // The abandoned stack's first code counts its use no longer than its hold's 3 s.
  await until(async () => (await usage("KG")).total === 0, "KG's hold to expire", 10_000);
  assert.deepEqual(await counts("KG"), { total: 0, held: 0 });
  assert.deepEqual(await counts("KH"), { total: 0, held: 0 });
  await worker.stop();
  worker = undefined;
});
