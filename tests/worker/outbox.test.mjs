// Events to the shop (issue 36): each write's events are rows of its own transaction, delivered
// by the code object's alarm to a real receiver that verifies every delivery with the Standard
// Webhooks reference library (the `standardwebhooks` npm package): in order per code, at least
// once (exactly once after de-duplication by webhook-id), retried, and given up on a 410.
import { after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { test, startWorker, tempDir, removeDir, putCode, call, admin, capturer, captureReq, eur, testShards } from "./harness.mjs";

/** A receiver on a free port: verifies each delivery, answers what `answer()` says (200 by default). */
async function receiver() {
  const r = { secret: null, got: [], tries: [], answer: () => 200 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => { body += d; });
    req.on("end", () => {
      const headers = { "webhook-id": req.headers["webhook-id"], "webhook-timestamp": req.headers["webhook-timestamp"],
        "webhook-signature": req.headers["webhook-signature"] };
      r.tries.push(headers["webhook-id"]);
      let payload;
      try {
        payload = new Webhook(r.secret).verify(body, headers);
      } catch (err) {
        r.bad = (r.bad ?? 0) + 1;
        res.writeHead(400).end(String(err));
        return;
      }
      const status = r.answer(payload, headers["webhook-id"]);
      if (status >= 200 && status < 300) r.got.push({ id: headers["webhook-id"], payload });
      res.writeHead(status, status === 503 ? { "retry-after": r.retryAfter ?? "1" } : {}).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${server.address().port}/hooks`;
  r.close = () => new Promise((resolve) => server.close(resolve));
  /** Each delivered event once (by webhook-id), in order of first arrival. */
  r.unique = () => {
    const seen = new Map();
    for (const d of r.got) if (!seen.has(d.id)) seen.set(d.id, d);
    return [...seen.values()];
  };
  return r;
}

async function until(what, check, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const ALL = ["redemption.held", "redemption.captured", "redemption.released", "redemption.expired", "code.exhausted",
  "budget.threshold", "campaign.exhausted"];
const state = tempDir();
// Retries in test time: every wait of the schedule divided by 10,000 (5 min is 30 ms).
const vars = { WEBHOOK_ALLOW_HTTP: "127.0.0.1", WEBHOOK_RETRY_DIVISOR: "10000" };
let worker = await startWorker({ state, vars });
const hooks = [];
after(async () => {
  await worker?.stop();
  removeDir(state);
  for (const r of hooks) await r.close();
});

async function subscribe(id, events = ALL) {
  const r = await receiver();
  hooks.push(r);
  const created = await call(worker.base, "PUT", `/v1/webhooks/${id}`, { body: { url: r.url, events }, headers: admin });
  assert.equal(created.status, 201, created.text);
  r.secret = created.json.secret;
  r.id = id;
  return r;
}
const release = (key, code) => call(worker.base, "POST", "/v1/releases", { body: { code, key }, headers: capturer });
const seqOf = (id) => Number(id.split("_").at(-1));
const objectOf = (id) => id.slice(0, id.lastIndexOf("_"));
const forCode = (r, code) => r.unique().filter((d) => d.payload.data.code === code);

test("a hold, its capture and a release reach the shop signed, in order, with the usage after each", async () => {
  const shop = await subscribe("first");
  assert.equal((await putCode(worker.base, { code: "ORDERLY", discount: { kind: "fixed", amount: eur("5.00") }, limits: { total: 1 } })).status, 201);
  const held = await call(worker.base, "POST", "/v1/holds", { body: { code: "ORDERLY", total: eur("50.00") }, headers: { ...capturer, "idempotency-key": "o-1" } });
  assert.equal(held.status, 201, held.text);
  const captured = await captureReq(worker.base, "o-1", { code: "ORDERLY", total: eur("50.00") });
  assert.equal(captured.status, 201, captured.text);
  assert.equal((await release("o-1", "ORDERLY")).status, 200);
  const types = ["redemption.held", "code.exhausted", "redemption.captured", "redemption.released"];
  const events = await until("4 events", () => forCode(shop, "ORDERLY").length >= 4 && forCode(shop, "ORDERLY"));
  if (testShards === 1) {
    assert.deepEqual(events.map((e) => e.payload.type), types);
  } else {
    // A sharded code: its uses' events come from the shard that took them, in its order; its own
    // (code.exhausted) from the code's object, which reads its shards' totals within a second.
    assert.deepEqual(events.map((e) => e.payload.type).sort(), [...types].sort());
    assert.equal(events.find((e) => e.payload.type === "code.exhausted").payload.data.usage.total, 1);
  }
  for (const object of new Set(events.map((e) => objectOf(e.id)))) {
    const ids = events.filter((e) => objectOf(e.id) === object).map((e) => seqOf(e.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "in the order of the writes");
  }
  assert.ok(events.every((e) => e.id.startsWith("evt_ORDERLY_")));
  const of = (type) => events.find((e) => e.payload.type === type);
  assert.equal(of("redemption.held").payload.data.key, "o-1");
  assert.equal(of("redemption.held").payload.data.usage.total, 1);
  assert.equal(of("redemption.captured").payload.data.quote.discount.amount, "5.00");
  assert.equal(of("redemption.released").payload.data.usage.total, 0);
  assert.equal(shop.bad ?? 0, 0, "every delivery verifies");
  await call(worker.base, "DELETE", "/v1/webhooks/first", { headers: admin });
});

for (const shards of [1, 4]) {
  test(`a campaign's own events on ${shards} shard(s): budget.threshold at 50, 80, 100 % and campaign.exhausted, each once`, async () => {
    const id = `CEV${shards}`;
    const shop = await subscribe(`campaign-${shards}`, ["budget.threshold", "campaign.exhausted"]);
    const put = await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: {
      discount: { kind: "fixed", amount: eur("5.00") }, limits: { total: 4, budget: eur("20.00") }, shards } });
    assert.equal(put.status, 201, put.text);
    const codes = Array.from({ length: 8 }, (_, i) => `${id}-${i}`);
    const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
      body: { codes }, headers: { ...admin, "idempotency-key": `codes-${id}` } });
    assert.equal(added.status, 201, added.text);
    // Eight racing captures (half with customers) for a campaign of 4 uses.
    const results = await Promise.all(codes.map((code, i) =>
      captureReq(worker.base, `cev-${shards}-${i}`, { code, total: eur("50.00"), ...(i % 2 ? { customer: `c-${i}` } : {}) })));
    assert.equal(results.filter((r) => r.status === 201).length, 4, results.map((r) => r.text).join("\n"));
    const ofCampaign = () => shop.unique().filter((d) => d.payload.data.campaign === id);
    const events = await until("4 events", () => ofCampaign().length >= 4 && ofCampaign());
    await sleep(1500); // a second poll of the totals, had one been due: nothing written twice
    const types = ofCampaign().map((e) => [e.payload.type, e.payload.data.threshold ?? null]);
    assert.deepEqual(types.sort(), [["budget.threshold", 100], ["budget.threshold", 50], ["budget.threshold", 80],
      ["campaign.exhausted", null]]);
    const exhausted = events.find((e) => e.payload.type === "campaign.exhausted").payload.data;
    assert.equal(exhausted.usage.total, 4, JSON.stringify(exhausted));
    const full = events.find((e) => e.payload.data.threshold === 100).payload.data;
    assert.equal(full.spent.amount, "20.00");
    if (shards > 1) {
      // From the campaign's object, which reads its shards' totals: they name the campaign, no key.
      assert.ok(events.every((e) => e.id.startsWith(`evt_campaign.${id}_`)), events.map((e) => e.id).join());
      assert.equal(exhausted.code, id);
      assert.equal(exhausted.key, undefined);
    }
    assert.equal(shop.bad ?? 0, 0, "every delivery verifies");
    await call(worker.base, "DELETE", `/v1/webhooks/campaign-${shards}`, { headers: admin });
  });
}

test("a threshold sent from one object is not sent again once the code or campaign moves to 4 shards", async () => {
  const shop = await subscribe("moved", ["budget.threshold", "code.exhausted", "campaign.exhausted"]);
  const limits = { total: 4, budget: eur("20.00") };
  const discount = { kind: "fixed", amount: eur("5.00") };
  const code = "EVMOVE";
  const id = "CEVMOVE";
  assert.equal((await call(worker.base, "PUT", `/v1/codes/${code}`, { headers: admin, body: { code, discount, limits, shards: 1 } })).status, 201);
  assert.equal((await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: { discount, limits, shards: 1 } })).status, 201);
  const codes = Array.from({ length: 6 }, (_, i) => `${id}-${i}`);
  const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, { body: { codes }, headers: { ...admin, "idempotency-key": `codes-${id}` } });
  assert.equal(added.status, 201, added.text);
  const ofCode = () => shop.unique().filter((d) => d.payload.data.code === code);
  const ofCampaign = () => shop.unique().filter((d) => d.payload.data.campaign === id && d.payload.type !== "code.exhausted");
  // Two uses of four on one object: 50 % of each budget, sent from the writes.
  for (const i of [0, 1]) {
    assert.equal((await captureReq(worker.base, `evm-${i}`, { code, total: eur("50.00") })).status, 201);
    assert.equal((await captureReq(worker.base, `evcm-${i}`, { code: codes[i], total: eur("50.00") })).status, 201);
  }
  await until("the two 50 % thresholds", () => ofCode().length >= 1 && ofCampaign().length >= 1);
  // Moved to 4 shards: the object's totals' poll writes what follows from the counts it had.
  assert.equal((await call(worker.base, "PUT", `/v1/codes/${code}`, { headers: admin, body: { code, discount, limits, shards: 4 } })).status, 200);
  assert.equal((await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: { discount, limits, shards: 4 } })).status, 200);
  const more = await Promise.all([2, 3, 4].flatMap((i) => [
    captureReq(worker.base, `evm-${i}`, { code, total: eur("50.00"), customer: `m-${i}` }),
    captureReq(worker.base, `evcm-${i}`, { code: codes[i], total: eur("50.00"), customer: `m-${i}` }),
  ]));
  assert.deepEqual(more.map((r) => r.status).sort(), [201, 201, 201, 201, 422, 422]);
  await until("80 and 100 % and exhausted", () => ofCode().length >= 4 && ofCampaign().length >= 4);
  await sleep(2500); // another poll of the totals, had one been due: nothing written twice
  const kinds = (events) => events.map((e) => [e.payload.type, e.payload.data.threshold ?? null]).sort();
  assert.deepEqual(kinds(ofCode()), [["budget.threshold", 100], ["budget.threshold", 50], ["budget.threshold", 80], ["code.exhausted", null]]);
  assert.deepEqual(kinds(ofCampaign()), [["budget.threshold", 100], ["budget.threshold", 50], ["budget.threshold", 80], ["campaign.exhausted", null]]);
  assert.equal(shop.bad ?? 0, 0, "every delivery verifies");
  await call(worker.base, "DELETE", "/v1/webhooks/moved", { headers: admin });
});

for (const shards of [1, 4]) {
  test(`a campaign's codes on ${shards} shard(s): code.exhausted once per code used up, again after a release`, async () => {
    const id = `CUP${shards}`;
    const shop = await subscribe(`used-up-${shards}`, ["code.exhausted"]);
    const put = await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: {
      discount: { kind: "percent", percent: "10" }, uses_per_code: 2, shards } });
    assert.equal(put.status, 201, put.text);
    const codes = Array.from({ length: 5 }, (_, i) => `${id}-${i}`);
    const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
      body: { codes }, headers: { ...admin, "idempotency-key": `codes-${id}` } });
    assert.equal(added.status, 201, added.text);
    // Each code taken twice, by two customers (on 4 shards, mostly two shards): 10 racing captures.
    const results = await Promise.all([0, 1].flatMap((n) => codes.map((code, i) =>
      captureReq(worker.base, `cup-${shards}-${i}-${n}`, { code, total: eur("50.00"), customer: `cu-${i}-${n}` }))));
    assert.ok(results.every((r) => r.status === 201), results.map((r) => r.text).join("\n"));
    const ofCampaign = () => shop.unique().filter((d) => d.payload.data.campaign === id);
    await until("5 code.exhausted", () => ofCampaign().length >= 5);
    // A use given back and taken again: the code is used up a second time.
    assert.equal((await release(`cup-${shards}-0-0`, codes[0])).status, 200);
    const again = await captureReq(worker.base, `cup-${shards}-0-2`, { code: codes[0], total: eur("50.00"), customer: "cu-0-2" });
    assert.equal(again.status, 201, again.text);
    await until("the 6th", () => ofCampaign().length >= 6);
    await sleep(1500); // a later read of the shards' counts writes nothing more
    const byCode = ofCampaign().map((e) => e.payload.data.code).sort();
    assert.deepEqual(byCode, [codes[0], ...codes].sort(), "each code once, the first twice");
    for (const e of ofCampaign()) assert.equal(e.payload.type, "code.exhausted");
    if (shards > 1) assert.ok(ofCampaign().every((e) => e.payload.data.key === undefined), "read from the shards: no key");
    assert.equal(shop.bad ?? 0, 0, "every delivery verifies");
    await call(worker.base, "DELETE", `/v1/webhooks/used-up-${shards}`, { headers: admin });
  });
}

test("1,000 racing captures and releases: each event exactly once after de-duplication, in order per code", async () => {
  const shop = await subscribe("racing", ["redemption.captured", "redemption.released"]);
  const codes = ["RACE-A", "RACE-B"];
  for (const code of codes) assert.equal((await putCode(worker.base, { code, discount: { kind: "fixed", amount: eur("1.00") } })).status, 201);
  const chains = [];
  for (let i = 0; i < 500; i++) {
    const code = codes[i % 2];
    chains.push((async () => {
      const c = await captureReq(worker.base, `race-${i}`, { code, total: eur("10.00") });
      assert.equal(c.status, 201, c.text);
      const r = await release(`race-${i}`, code);
      assert.equal(r.status, 200, r.text);
    })());
    if (chains.length % 50 === 0) await Promise.all(chains.slice(-50));
  }
  await Promise.all(chains);
  const events = await until("1,000 events", () => shop.unique().length >= 1000 && shop.unique(), 120_000);
  assert.equal(events.length, 1000);
  for (const code of codes) {
    const mine = events.filter((e) => e.payload.data.code === code);
    assert.equal(mine.length, 500, code);
    // In order per object that wrote them: the code's, or each of its shards' (`evt_<code>_s<i>_<seq>`).
    for (const object of new Set(mine.map((e) => objectOf(e.id)))) {
      const seqs = mine.filter((e) => objectOf(e.id) === object).map((e) => seqOf(e.id));
      assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), `${object}: in order`);
    }
    const state = new Map();
    for (const e of mine) {
      const key = e.payload.data.key;
      const was = state.get(key);
      if (e.payload.type === "redemption.captured") assert.equal(was, undefined, key);
      else assert.equal(was, "redemption.captured", key);
      state.set(key, e.payload.type);
    }
    assert.equal(state.size, 250);
  }
  assert.equal(shop.bad ?? 0, 0);
  console.log(`# ${shop.got.length} deliveries for ${events.length} events`);
  await call(worker.base, "DELETE", "/v1/webhooks/racing", { headers: admin });
});

test("a receiver down for 3 tries gets the event on the 4th, under the same webhook-id", async () => {
  const shop = await subscribe("flaky", ["redemption.captured"]);
  let failures = 0;
  shop.answer = () => (failures++ < 3 ? 500 : 200);
  assert.equal((await putCode(worker.base, { code: "FLAKY", discount: { kind: "percent", percent: "10" } })).status, 201);
  assert.equal((await captureReq(worker.base, "f-1", { code: "FLAKY", total: eur("10.00") })).status, 201);
  const [event] = await until("the event", () => forCode(shop, "FLAKY").length && forCode(shop, "FLAKY"));
  const tries = shop.tries.filter((id) => id === event.id);
  assert.equal(tries.length, 4, "3 failed tries, then the 4th");
  // The endpoint's deliveries list its tries; "Send again" sends it once more under the same id.
  const listed = await until("the log", async () => {
    const r = await call(worker.base, "GET", "/v1/webhooks/flaky/deliveries?limit=10", { headers: admin });
    assert.equal(r.status, 200, r.text);
    return r.json.deliveries[0]?.state === "delivered" && r.json;
  });
  assert.equal(listed.deliveries.length, 1);
  assert.deepEqual([listed.deliveries[0].event_id, listed.deliveries[0].attempts, listed.deliveries[0].status, listed.next],
    [event.id, 4, 200, null]);
  const again = await call(worker.base, "POST", `/v1/webhooks/flaky/deliveries/${event.id}/retry`, { headers: admin });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual([again.json.state, again.json.attempts], ["delivered", 5]);
  assert.equal(shop.tries.filter((id) => id === event.id).length, 5);
  const unknown = await call(worker.base, "POST", "/v1/webhooks/flaky/deliveries/evt_NOPE_1/retry", { headers: admin });
  assert.equal(unknown.status, 404, unknown.text);
  assert.equal(unknown.json.type, "/problems/unknown_delivery");
  const nobody = await call(worker.base, "GET", "/v1/webhooks/nobody/deliveries", { headers: admin });
  assert.equal(nobody.status, 404, nobody.text);
  await call(worker.base, "DELETE", "/v1/webhooks/flaky", { headers: admin });
});

test("a receiver answering 410 disables its endpoint", async () => {
  const shop = await subscribe("gone", ["redemption.captured"]);
  shop.answer = () => 410;
  assert.equal((await putCode(worker.base, { code: "GONE", discount: { kind: "percent", percent: "10" } })).status, 201);
  assert.equal((await captureReq(worker.base, "g-1", { code: "GONE", total: eur("10.00") })).status, 201);
  const disabled = await until("disabled", async () => {
    const r = await call(worker.base, "GET", "/v1/webhooks/gone", { headers: admin });
    return r.json.disabled && r.json;
  });
  assert.match(disabled.disabled, /410/);
  const tries = shop.tries.length;
  assert.equal((await captureReq(worker.base, "g-2", { code: "GONE", total: eur("10.00") })).status, 201);
  await sleep(1000);
  assert.equal(shop.tries.length, tries, "nothing more is sent to it");
  await call(worker.base, "DELETE", "/v1/webhooks/gone", { headers: admin });
});

test("budget.threshold fires once per crossing under 50 concurrent captures that cross it together", async () => {
  const shop = await subscribe("budget", ["budget.threshold", "code.exhausted"]);
  assert.equal((await putCode(worker.base, { code: "BUDGETED", discount: { kind: "fixed", amount: eur("1.00") },
    limits: { budget: eur("60.00") } })).status, 201);
  for (let i = 0; i < 20; i++) assert.equal((await captureReq(worker.base, `b-${i}`, { code: "BUDGETED", total: eur("10.00") })).status, 201);
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) =>
    captureReq(worker.base, `b-race-${i}`, { code: "BUDGETED", total: eur("10.00") })));
  const won = results.filter((r) => r.status === 201).length;
  assert.equal(won, 40, "the budget holds 60 uses of 1.00");
  const events = await until("3 events", () => forCode(shop, "BUDGETED").length >= 3 && forCode(shop, "BUDGETED"));
  await sleep(500);
  const all = forCode(shop, "BUDGETED");
  assert.deepEqual(all.map((e) => [e.payload.type, e.payload.data.threshold ?? null]),
    [["budget.threshold", 50], ["budget.threshold", 80], ["budget.threshold", 100], ["code.exhausted", null]].slice(0, all.length));
  assert.equal(all.length, 4, JSON.stringify(all.map((e) => e.payload.type)));
  // A sharded code's object writes them from its shards' totals, read within a second: spent then.
  if (testShards === 1) assert.equal(events[0].payload.data.spent.amount, "30.00");
  else assert.ok(Number(events[0].payload.data.spent.amount) >= 30, events[0].payload.data.spent.amount);
  assert.equal(events[0].payload.data.budget.amount, "60.00");
  await call(worker.base, "DELETE", "/v1/webhooks/budget", { headers: admin });
});

test("a definition's changes are code.updated events, each in its write's order", async () => {
  const shop = await subscribe("defs", ["code.updated", "campaign.updated"]);
  const def = { code: "CHANGING", discount: { kind: "percent", percent: "10" } };
  assert.equal((await putCode(worker.base, def)).status, 201);
  const patched = await call(worker.base, "PATCH", "/v1/codes/CHANGING", { body: { active: false }, headers: admin });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await call(worker.base, "DELETE", "/v1/codes/CHANGING", { headers: admin })).status, 200);
  assert.equal((await putCode(worker.base, def)).status, 200);
  const events = await until("4 events", () => forCode(shop, "CHANGING").length >= 4 && forCode(shop, "CHANGING"));
  assert.deepEqual(events.map((e) => [e.payload.type, e.payload.data.change]),
    [["code.updated", "defined"], ["code.updated", "switched_off"], ["code.updated", "archived"], ["code.updated", "restored"]]);
  await call(worker.base, "DELETE", "/v1/webhooks/defs", { headers: admin });
});

test("kill -9 of workerd between the commit and the delivery: the event arrives after the restart", async () => {
  const shop = await subscribe("durable", ["redemption.captured"]);
  // Not now: each try is retried after Retry-After, an hour here, scaled down to 360 ms, so that the
  // kill comes long before the schedule's 9 tries are spent (at 1 s, scaled to 0.1 ms, a slow kill
  // saw the event given up as failed before it).
  shop.retryAfter = "3600";
  shop.answer = () => 503;
  assert.equal((await putCode(worker.base, { code: "KILLED", discount: { kind: "percent", percent: "10" } })).status, 201);
  assert.equal((await captureReq(worker.base, "k-1", { code: "KILLED", total: eur("10.00") })).status, 201);
  await until("a first try", () => shop.tries.length > 0);
  await worker.kill();
  assert.equal(forCode(shop, "KILLED").length, 0, "not delivered before the kill");
  shop.answer = () => 200;
  worker = await startWorker({ state, vars });
  // No traffic: the object's alarm, set before the kill, delivers after the restart.
  const [event] = await until("the event after the restart", () => forCode(shop, "KILLED").length && forCode(shop, "KILLED"));
  assert.equal(event.payload.data.key, "k-1");
  assert.equal(new Set(shop.tries).size, 1, "one webhook-id on every try");
});

test("kill -9 while 40 captures race: every committed capture's event arrives after the restart, no traffic", async () => {
  // The alarm that delivers a write's events is set in the write's own turn, so it commits with them:
  // a use whose answer the kill cut off still has its event delivered, without another request.
  const shop = await subscribe("racekill", ["redemption.captured"]);
  assert.equal((await putCode(worker.base, { code: "CUTOFF", discount: { kind: "percent", percent: "10" } })).status, 201);
  let answered = 0;
  const racing = Array.from({ length: 40 }, (_, i) =>
    captureReq(worker.base, `cut-${i}`, { code: "CUTOFF", total: eur("10.00") })
      .then((r) => { if (r.status === 201) answered++; })
      .catch(() => {}));
  await until("a few answers", () => answered >= 3);
  await worker.kill();
  await Promise.all(racing);
  const seen = shop.unique().length;
  worker = await startWorker({ state, vars });
  // No request reaches the code's object: wait until its deliveries stop arriving.
  let last = -1;
  let quiet = 0;
  await until("the deliveries to settle", async () => {
    const now = forCode(shop, "CUTOFF").length;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
    await sleep(200);
    return quiet >= 40;
  }, 60_000);
  const delivered = forCode(shop, "CUTOFF");
  // Only now ask the object how many uses committed.
  const looked = await call(worker.base, "GET", "/v1/codes/CUTOFF", { headers: admin });
  assert.equal(looked.status, 200, looked.text);
  const used = looked.json.usage.total;
  assert.ok(used >= answered, `${used} uses for ${answered} answers`);
  assert.equal(delivered.length, used, `${delivered.length} events for ${used} committed uses (${seen} before the kill)`);
  assert.deepEqual(new Set(delivered.map((e) => e.payload.data.key)).size, used, "one event a use");
});
