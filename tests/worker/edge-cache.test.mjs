// The public lookup's edge cache against the real Worker in workerd: one entry per code, whatever
// the Host a request came through (issue 24, defect 5).
//
// Under wrangler dev, a Host header sent by the client reaches the Worker as the request URL's host
// (found by experiment: Node's http client sends it as given; fetch() replaces it with the URL's), so
// these requests go through node:http. Their answers are checked against docs/openapi.json here.
import assert from "node:assert/strict";
import http from "node:http";
import { test, putCode, capturer, eur, workerForFile } from "./harness.mjs";
import { checkAnswer } from "./openapi-check.mjs";

const worker = workerForFile();

/** One request to the Worker with `Host: host`; its answer must match the description. */
function viaHost(host, method, route, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const all = { host, ...headers, ...(payload === undefined ? {} : { "content-type": "application/json" }) };
    const req = http.request(new URL(route, worker.base), { method, agent: false, headers: all }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => { text += d; });
      res.on("end", () => {
        const answer = { status: res.statusCode, headers: new Headers(), text };
        for (const [name, value] of Object.entries(res.headers)) answer.headers.set(name, [value].flat().join(", "));
        assert.deepEqual(checkAnswer({ method, url: route, status: answer.status, headers: answer.headers, text, request: body }), []);
        try { answer.json = JSON.parse(text); } catch { answer.json = undefined; }
        resolve(answer);
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const lookup = (host, code) => viaHost(host, "GET", `/v1/codes/${code}`);
const cacheOf = (answer) => answer.headers.get("x-promocodes-cache");

test("a capture sent through one host purges the lookup cached through another", async () => {
  // On one object: its writes purge (a sharded code's lookup is a second behind instead: shards.test.mjs).
  assert.equal((await putCode(worker.base, { code: "HOSTS", discount: { kind: "percent", percent: "10" }, limits: { total: 5 }, shards: 1 })).status, 201);
  const first = await lookup("shop.example", "HOSTS");
  assert.equal(first.status, 200, first.text);
  assert.equal(cacheOf(first), "miss");
  const cached = await lookup("shop.example", "HOSTS");
  assert.equal(cacheOf(cached), "hit");
  assert.deepEqual(cached.json.usage, { total: 0, held: 0 });

  const captured = await viaHost("api.shop.example", "POST", "/v1/captures", {
    body: { code: "HOSTS", total: eur("50.00") }, headers: { ...capturer, "idempotency-key": "hosts-1" } });
  assert.equal(captured.status, 201, captured.text);

  const after = await lookup("shop.example", "HOSTS");
  assert.equal(cacheOf(after), "miss", "the capture through api.shop.example purged the copy cached through shop.example");
  assert.deepEqual(after.json.usage, { total: 1, held: 0 });
  assert.equal(after.json.remaining, 4);
});

test("distinct Host headers share one cache entry per code", async () => {
  assert.equal((await putCode(worker.base, { code: "MANYHOSTS", discount: { kind: "percent", percent: "10" } })).status, 201);
  const first = await lookup("host-0.example", "MANYHOSTS");
  assert.equal(first.status, 200, first.text);
  assert.equal(cacheOf(first), "miss");
  // 20 other hosts, with a port and in another case too: every one is answered from the one entry.
  const hosts = Array.from({ length: 20 }, (_, i) => `host-${i + 1}.example`).concat(["HOST-0.EXAMPLE", "host-0.example:8443"]);
  for (const host of hosts) {
    const r = await lookup(host, "MANYHOSTS");
    assert.equal(r.status, 200, r.text);
    assert.equal(cacheOf(r), "hit", `${host} is served the entry cached through host-0.example`);
    assert.deepEqual(r.json, first.json);
  }
});
