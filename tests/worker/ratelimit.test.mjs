// The public routes' rate limit against the real Worker in workerd (wrangler dev), with the limit
// shipped in wrangler.toml (60 requests per 10 s per client address). The key is CF-Connecting-IP
// parsed: an IPv4 address as it is (also written IPv4-mapped), an IPv6 address by its /64
// (worker/src/ratelimit.rs `key`, unit-tested there).
//
// How a test presents different client addresses under wrangler dev (4.86), found by experiment
// (a JavaScript Worker echoing its request headers, and this file):
// - wrangler dev sets CF-Connecting-IP from the socket's peer address: a client bound to 127.0.0.2
//   (Node's http `localAddress`; any 127.0.0.0/8 address works on Linux loopback) arrives as
//   `127.0.0.2`, a plain client as `127.0.0.1`. No X-Forwarded-For or X-Real-IP is added.
// - A CF-Connecting-IP sent by the client is passed through as it is (`9.9.9.9` arrived as
//   `9.9.9.9`). On Cloudflare the edge sets the header itself, so a client cannot choose its key
//   there; locally it can, which is why these tests use bound source addresses, not the header.
// - wrangler dev simulates the Rate Limiting binding in memory, per key, and a fresh wrangler dev
//   starts with empty counters. Miniflare counts in fixed windows aligned to multiples of the
//   period (`Math.floor(Date.now() / period)` in its ratelimit worker): a burst that crosses a
//   boundary starts again from zero there. So every burst below waits for a fresh window first
//   (a burst that straddled one passed 65 requests against 60 in a CI run), then asserts at most
//   the limit, and some 429s.
import assert from "node:assert/strict";
import http from "node:http";
import { test, putCode, call, admin, capturer, eur, SHIPPED_LIMIT, ROOT, workerForFile, withTestShards } from "./harness.mjs";
import { readFileSync } from "node:fs";
import path from "node:path";

const [, LIMIT, PERIOD] = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8").match(SHIPPED_LIMIT).map(Number);
// The code names its one shard: what these tests assert is the Worker's per-address limit, which
// answers before any object, so the second pass of the suite (every other code on 4 shards) would
// only send the same requests again, and leaves this file out.
const worker = workerForFile({ publicLimit: "shipped" }, async () => {
  const put = await putCode(worker.base, { code: "RATE10", discount: { kind: "percent", percent: "10" }, shards: 1 });
  assert.equal(put.status, 201, put.text);
});

/** One request from the source address `from` (e.g. 127.0.0.2). */
function requestFrom(from, method, route, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(route, worker.base);
    const payload = body === undefined ? undefined : JSON.stringify(withTestShards(method, route, body));
    const req = http.request(url, {
      method, localAddress: from, agent: false,
      headers: payload === undefined ? headers : { "content-type": "application/json", ...headers },
    }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => { text += d; });
      res.on("end", () => {
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode, headers: res.headers, json, text });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const lookup = (from, headers) => requestFrom(from, "GET", "/v1/codes/RATE10", { headers });
const quote = (from, headers) => requestFrom(from, "POST", "/v1/quotes", { body: { code: "RATE10", total: eur("80.00") }, headers });
/** Waits until a new rate-limit window has just begun (and 200 ms more, for the two clocks). */
async function freshWindow() {
  const period = PERIOD * 1000;
  await new Promise((r) => setTimeout(r, period - (Date.now() % period) + 200));
}

const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

test("the shipped default is 60 requests per 10 s", () => {
  assert.equal(LIMIT, 60);
  assert.equal(PERIOD, 10);
});

test("a burst from one address gets 429s; another address, servers and private routes do not", async () => {
  await freshWindow();
  const burst = [];
  for (let i = 0; i < LIMIT + 20; i++) burst.push(await (i % 2 ? quote : lookup)("127.0.0.2"));
  const counts = tally(burst);
  assert.ok(counts[429] >= 20, `some 429s: ${JSON.stringify(counts)}`);
  assert.ok((counts[200] ?? 0) <= LIMIT, `at most ${LIMIT} pass: ${JSON.stringify(counts)}`);
  assert.deepEqual(Object.keys(counts).sort(), ["200", "429"]);
  const refused = burst.find((r) => r.status === 429);
  assert.equal(refused.headers["content-type"], "application/problem+json");
  assert.equal(refused.json.type, "/problems/too_many_requests");
  assert.equal(refused.json.status, 429);
  assert.equal(refused.headers["retry-after"], String(PERIOD));
  assert.match(refused.headers.vary, /Origin/);
  // Still limited: both public routes.
  assert.equal((await lookup("127.0.0.2")).status, 429);
  assert.equal((await quote("127.0.0.2")).status, 429);

  // Another address is unaffected.
  const other = await lookup("127.0.0.3");
  assert.equal(other.status, 200, other.text);
  assert.equal((await quote("127.0.0.3")).status, 200);

  // A public request with a valid admin or capture token is not limited, from the same address.
  assert.equal((await lookup("127.0.0.2", admin)).status, 200);
  assert.equal((await quote("127.0.0.2", capturer)).status, 200);
  const named = await requestFrom("127.0.0.2", "POST", "/v1/quotes",
    { body: { code: "RATE10", total: eur("80.00"), customer: "ann" }, headers: capturer });
  assert.equal(named.status, 200, named.text);
  // A wrong token is not a server's: still limited.
  assert.equal((await lookup("127.0.0.2", { authorization: "Bearer wrong" })).status, 429);

  // Capture and admin routes are never limited.
  const capture = await requestFrom("127.0.0.2", "POST", "/v1/captures",
    { body: { code: "RATE10", total: eur("80.00"), customer: "ann" }, headers: { ...capturer, "idempotency-key": "rate-1" } });
  assert.equal(capture.status, 201, capture.text);
  const list = await requestFrom("127.0.0.2", "GET", "/v1/codes/RATE10/redemptions", { headers: admin });
  assert.equal(list.status, 200, list.text);
  const put = await requestFrom("127.0.0.2", "PUT", "/v1/codes/RATE10",
    { body: { code: "RATE10", discount: { kind: "percent", percent: "10" }, shards: 1 }, headers: admin });
  assert.equal(put.status, 200, put.text);

  // After the period, the address passes again.
  await new Promise((r) => setTimeout(r, (PERIOD + 1) * 1000));
  const later = await lookup("127.0.0.2");
  assert.equal(later.status, 200, later.text);
});

test("the key is CF-Connecting-IP: under wrangler dev a client-supplied one is passed through", async () => {
  // Documents the local behaviour the header above describes (on Cloudflare the edge sets it).
  await freshWindow();
  const results = [];
  for (let i = 0; i < LIMIT + 5; i++) results.push(await call(worker.base, "GET", "/v1/codes/RATE10", { headers: { "cf-connecting-ip": "198.51.100.7" } }));
  assert.ok(tally(results)[429] >= 5, JSON.stringify(tally(results)));
  const otherKey = await call(worker.base, "GET", "/v1/codes/RATE10", { headers: { "cf-connecting-ip": "198.51.100.8" } });
  assert.equal(otherKey.status, 200);
  // The captures and lookups above came from 127.0.0.1 and other keys: its bucket is untouched.
  assert.equal((await lookup("127.0.0.1")).status, 200);
});

/** `count` lookups, one after another, each with the CF-Connecting-IP `addressOf(i)`; their statuses. */
async function lookupsFrom(count, addressOf) {
  const statuses = [];
  for (let i = 0; i < count; i++) {
    statuses.push((await call(worker.base, "GET", "/v1/codes/RATE10", { headers: { "cf-connecting-ip": addressOf(i) } })).status);
  }
  return statuses;
}

test("the addresses of one IPv6 /64 share a bucket: the 61st lookup from 61 of them is refused", async () => {
  await freshWindow();
  // 2001:db8:64:1::1 ... 2001:db8:64:1:ffff:...: every lookup from another address of the same /64.
  const inside = (i) => `2001:db8:64:1:${(i * 977 + 1).toString(16)}:${i.toString(16)}::${(i + 1).toString(16)}`;
  const statuses = await lookupsFrom(LIMIT + 1, inside);
  assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(200), JSON.stringify(tally(statuses)));
  assert.equal(statuses[LIMIT], 429, `lookup ${LIMIT + 1} from the /64`);
  // The next /64 is another client.
  assert.equal((await lookupsFrom(1, () => "2001:db8:64:2::1"))[0], 200);
});

test("an IPv4 address written as IPv4-mapped IPv6 is the same address: one bucket", async () => {
  await freshWindow();
  const ways = ["198.51.100.23", "::ffff:198.51.100.23", "::ffff:c633:6417", "0:0:0:0:0:FFFF:198.51.100.23"];
  const statuses = await lookupsFrom(LIMIT + 1, (i) => ways[i % ways.length]);
  assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(200), JSON.stringify(tally(statuses)));
  assert.equal(statuses[LIMIT], 429, `lookup ${LIMIT + 1} from 198.51.100.23 written ${ways.length} ways`);
  assert.equal((await lookupsFrom(1, () => "198.51.100.24"))[0], 200, "the next address is another bucket");
});
