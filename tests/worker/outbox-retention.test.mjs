// The outbox keeps an event that every endpoint got for a retention (7 days; here, in a test build,
// OUTBOX_RETENTION_S=1 second), then the object's alarm removes it with its delivery records: the
// outbox does not grow without end, and an event still owed to an endpoint is never removed.
import { after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { test, startWorker, tempDir, removeDir, putCode, call, admin, captureReq, eur } from "./harness.mjs";

const state = tempDir();
const vars = { WEBHOOK_ALLOW_HTTP: "127.0.0.1", WEBHOOK_RETRY_DIVISOR: "10000", OUTBOX_RETENTION_S: "1" };
const worker = await startWorker({ state, vars });
const got = [];
let answer = 200;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (answer === 200) got.push(req.headers["webhook-id"]);
    res.writeHead(answer).end();
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
after(async () => {
  await worker.stop();
  removeDir(state);
  await new Promise((resolve) => server.close(resolve));
});

async function until(what, check, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
const retry = (id) => call(worker.base, "POST", `/v1/webhooks/keeper/deliveries/${id}/retry`, { headers: admin });

test("events every endpoint got are removed after the retention; one still owed is kept", async () => {
  const url = `http://127.0.0.1:${server.address().port}/hooks`;
  const created = await call(worker.base, "PUT", "/v1/webhooks/keeper", { body: { url, events: ["redemption.captured"] }, headers: admin });
  assert.equal(created.status, 201, created.text);
  // One object's outbox and its pruning (a shard's is the same code, pruned on that shard's writes).
  assert.equal((await putCode(worker.base, { code: "KEPT", discount: { kind: "percent", percent: "10" }, shards: 1 })).status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await captureReq(worker.base, `old-${i}`, { code: "KEPT", total: eur("10.00") })).status, 201);
  const old = await until("3 deliveries", () => got.length >= 3 && [...got]);
  // Still kept: "Send again" finds it.
  assert.equal((await retry(old[0])).status, 200);
  // The receiver goes down: the next event stays owed past the retention.
  answer = 500;
  await sleep(1500);
  assert.equal((await captureReq(worker.base, "owed", { code: "KEPT", total: eur("10.00") })).status, 201);
  // Its alarm pruned the 3 old events (delivered, older than a second), not the owed one.
  const gone = await until("the old events pruned", async () => (await retry(old[0])).status === 404);
  assert.ok(gone);
  for (const id of old) {
    const r = await retry(id);
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.type, "/problems/unknown_delivery");
  }
  await sleep(1500);
  // A write later, its alarm prunes again: the owed event (the cursor has not passed it) stays.
  assert.equal((await captureReq(worker.base, "later", { code: "KEPT", total: eur("10.00") })).status, 201);
  answer = 200;
  const owed = old[0].replace(/_\d+$/, `_${Number(old[2].split("_").at(-1)) + 1}`);
  // Kept while owed: it arrives once the receiver is back, though older than the retention.
  const sent = await until("the owed event delivered", () => got.includes(owed));
  assert.ok(sent);
});
