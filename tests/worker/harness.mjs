// Starts and stops the real Worker in workerd (wrangler dev on 127.0.0.1) for the tests: the one
// harness of tests/worker/ and tests/e2e/ (the checkout page's end-to-end tests).
// The Worker is built once by scripts/test-worker.sh (or scripts/test-e2e.sh); the generated config
// has no [build], so wrangler serves the built artifacts as they are.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test as nodeTest, before, after } from "node:test";
import { appendFileSync, cpSync, createWriteStream, existsSync, mkdtempSync, writeFileSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { failures, mismatch } from "./openapi-check.mjs";
import { freePort } from "../free-port.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const ADMIN_TOKEN = "test-admin-token";
export const CAPTURE_TOKEN = "test-capture-token";
const BUILD = process.env.PROMOCODES_WORKER_BUILD ?? path.join(ROOT, "worker/build");
/** The built Worker the tests start: PROMOCODES_WORKER_BUILD, else worker/build. */
export const WORKER_BUILD = BUILD;
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

export { freePort };

/** A temp folder for a persisted state, removed by `removeDir`. */
export function tempDir(prefix = "promocodes-worker-") {
  return mkdtempSync(path.join(tmpdir(), prefix));
}
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

// Process groups still running; killed if this test process exits without stopping them.
const running = new Set();
process.on("exit", () => {
  for (const pid of running) { try { process.kill(-pid, "SIGKILL"); } catch { /* gone */ } }
});

// Every answer a Worker test receives is checked against docs/openapi.json (openapi-check.mjs):
// through `call`, which throws at the request that does not match, and through `fetch` to a
// Worker started here. A mismatch a test swallowed (a client loop that catches everything) still
// fails the file: it is reported when the process exits, with a failing exit code.
const workers = new Map(); // base URL -> { demo }
let answersChecked = 0;
process.on("exit", () => {
  if (answersChecked > 0) process.stdout.write(`answers checked against docs/openapi.json: ${answersChecked}\n`);
  if (failures.length === 0) return;
  process.exitCode = 1;
  process.stderr.write(`\n${failures.length} answer(s) did not match docs/openapi.json:\n${failures.join("\n\n")}\n`);
});
/** Whether a DEMO value turns the demo routes on, as worker/src/routes.rs `demo_enabled` reads it. */
const demoOn = (value) => value !== undefined && value !== "" && value !== "0" && String(value).toLowerCase() !== "false";
const isProxy503 = (status, headers) => status === 503 && !(headers.get("content-type") ?? "").includes("problem+json");

/** Checks one answer of the Worker at `base`; an Error naming the mismatch, or undefined. */
function checked(base, method, route, status, headers, text, request) {
  answersChecked++;
  return mismatch({ method, url: route, status, headers, text, request, demo: workers.get(base)?.demo ?? false });
}

// fetch() to a Worker started here is checked too (the tests that need raw answers: HEAD, preflights).
const rawFetch = globalThis.fetch;
globalThis.fetch = async function checkedFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (workers.has(url.origin)) noteRequest(url.pathname + url.search, init?.body);
  const res = await rawFetch(input, init);
  if (!workers.has(url.origin) || isProxy503(res.status, res.headers)) return res;
  let text;
  try { text = await res.clone().text(); } catch { return res; } // the connection died: nothing to check
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  const error = checked(url.origin, method, url.pathname + url.search, res.status, res.headers, text, init?.body);
  if (error) throw error;
  return res;
};

// The public routes' rate limit in wrangler.toml (per client address; every test request comes from
// 127.0.0.1). The suites raise it, except the rate-limit test, which keeps the shipped default.
export const SHIPPED_LIMIT = /^simple = \{ limit = (\d+), period = (\d+) \}$/m;
const TEST_LIMIT = 1_000_000;

/**
 * The repository's wrangler.toml in `dir`, without its [build] section, with absolute paths: to the
 * built Worker and public/, or with `snapshot` to copies of both made in `dir` (a rebuild in the
 * working tree while the tests run then cannot reload the Worker under them). The config sits in
 * `dir`, so the developer's .dev.vars (read from the config's folder) plays no part.
 */
function config(dir, publicLimit, snapshot) {
  let build = BUILD;
  let assets = path.join(ROOT, "public");
  if (snapshot) {
    [build, assets] = [path.join(dir, "worker-build"), path.join(dir, "public")];
    cpSync(BUILD, build, { recursive: true });
    cpSync(path.join(ROOT, "public"), assets, { recursive: true });
  }
  let toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8")
    .replace(/^\[build\]\n(?:(?!\[).*\n)*/m, "")
    .replace(/^main = .*$/m, `main = ${JSON.stringify(path.join(build, "worker/shim.mjs"))}`)
    .replace(/^directory = .*$/m, `directory = ${JSON.stringify(assets)}`);
  if (/^\[build\]/m.test(toml)) throw new Error("wrangler.toml's [build] section was not removed");
  if (!SHIPPED_LIMIT.test(toml)) throw new Error("wrangler.toml has no [[ratelimits]] simple = { limit, period }");
  if (publicLimit !== "shipped") {
    toml = toml.replace(SHIPPED_LIMIT, (_, _limit, period) => `simple = { limit = ${publicLimit}, period = ${period} }`);
  }
  const file = path.join(dir, "wrangler.toml");
  writeFileSync(file, toml);
  return file;
}

/**
 * One Worker for a whole test file, on a state folder of its own: started (then `setup()` run)
 * before the file's first test, `teardown()` run then the Worker stopped and its state removed
 * after its last. Returns a handle whose `base` (the Worker's URL) and `state` (its persist folder)
 * are set once it runs; `options` are `startWorker`'s.
 */
export function workerForFile(options = {}, setup = async () => {}, teardown = async () => {}) {
  const handle = { base: null, state: null, running: null };
  before(async () => {
    handle.state = tempDir();
    handle.running = await startWorker({ ...options, state: handle.state });
    handle.base = handle.running.base;
    await setup();
  });
  after(async () => {
    await teardown();
    await handle.running?.stop();
    removeDir(handle.state);
    if (call.proxy503) console.log(`# wrangler proxy 503s retried with the same key: ${call.proxy503}`);
  });
  return handle;
}

/**
 * Starts wrangler dev on a free port with `state` as its persist folder. Resolves once
 * the Worker answers. `stop()` ends the whole process group; `kill()` sends SIGKILL.
 * `vars` adds variables (e.g. ALLOWED_ORIGINS); `demo` turns the demo routes on (DEMO=1);
 * `publicLimit` is the public routes' rate limit per 10 s, raised for the suites by default,
 * `"shipped"` for wrangler.toml's own. `snapshot` serves copies of the built Worker and of public/
 * (see `config`); `logLevel` is wrangler's; `logTo()` makes a stream that gets wrangler's output
 * too (called once: one stream for every try); `startupTimeoutMs` bounds the wait for the first
 * answer. PROMOCODES_TEST_LOG names a file that gets every Worker's output (for debugging a run).
 */
export async function startWorker({ logTo = null, ...options } = {}) {
  const file = process.env.PROMOCODES_TEST_LOG;
  const logStream = logTo?.() ?? (file ? createWriteStream(file, { flags: "a" }) : null);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWorkerOnce({ ...options, logStream });
    } catch (err) {
      // Another server took the port between `freePort` and wrangler's bind: draw new ports.
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startWorkerOnce({
  state, demo = false, vars: extra = {}, publicLimit = TEST_LIMIT, logLevel = "warn", snapshot = false, logStream = null,
  startupTimeoutMs = 120_000,
} = {}) {
  const port = await freePort();
  const confDir = tempDir("promocodes-conf-");
  const vars = [`ADMIN_TOKEN:${ADMIN_TOKEN}`, `CAPTURE_TOKEN:${CAPTURE_TOKEN}`];
  if (demo) vars.push("DEMO:1");
  for (const [name, value] of Object.entries(extra)) vars.push(`${name}:${value}`);
  const args = ["dev", "--config", config(confDir, publicLimit, snapshot), "--local", "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", state, "--show-interactive-dev-session=false", "--log-level", logLevel,
    "--inspector-port", String(await freePort()), "--var", ...vars];
  const child = spawn(WRANGLER, args, {
    cwd: confDir,
    detached: true, // its own process group: wrangler and workerd stop together
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_HIDE_BANNER: "true", NO_COLOR: "1" },
  });
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  child.stderr.on("data", (d) => { log += d; });
  if (logStream) for (const stream of [child.stdout, child.stderr]) stream.pipe(logStream, { end: false });
  running.add(child.pid);
  const exited = new Promise((resolve) => child.once("exit", resolve)).then(() => running.delete(child.pid));
  const base = `http://127.0.0.1:${port}`;
  const signal = (sig) => { try { process.kill(-child.pid, sig); } catch { /* already gone */ } };
  const worker = {
    base, port, state,
    log: () => log,
    async stop(sig = "SIGTERM") {
      workers.delete(base);
      signal(sig);
      const timer = setTimeout(() => signal("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      removeDir(confDir);
    },
    kill() { return worker.stop("SIGKILL"); },
  };
  const deadline = Date.now() + startupTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await exited;
      removeDir(confDir);
      const Failure = /Address already in use/.test(log) ? PortTaken : Error;
      throw new Failure(`wrangler dev exited early:\n${log}`);
    }
    try {
      const r = await rawFetch(`${base}/v1/codes/PING`);
      await r.arrayBuffer();
      if (r.status === 404) {
        workers.set(base, { demo: demo || demoOn(extra.DEMO) });
        return worker;
      }
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { await worker.stop(); throw new Error(`wrangler dev did not answer:\n${log}`); }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * fetch that retries wrangler's proxy 503 ("worker restarted mid-request") with the same request,
 * and checks the answer against docs/openapi.json (throwing at a mismatch).
 */
export async function call(base, method, route, { body, headers = {}, raw } = {}) {
  body = withTestShards(method, route, body);
  noteRequest(route, raw ?? body);
  for (let attempt = 0; ; attempt++) {
    const init = { method, headers: { ...headers } };
    // A body is JSON unless the test names another Content-Type (`"content-type": null`: none at all).
    const typed = Object.keys(init.headers).find((name) => name.toLowerCase() === "content-type");
    if (raw !== undefined || body !== undefined) {
      init.body = raw !== undefined ? raw : JSON.stringify(body);
      if (typed === undefined) init.headers["content-type"] = "application/json";
    }
    if (typed !== undefined && init.headers[typed] === null) delete init.headers[typed];
    let res;
    try {
      res = await rawFetch(base + route, init);
    } catch (err) {
      if (attempt < 20) { await new Promise((r) => setTimeout(r, 100)); continue; }
      throw err;
    }
    const text = await res.text();
    if (isProxy503(res.status, res.headers) && attempt < 20) { call.proxy503 = (call.proxy503 ?? 0) + 1; continue; }
    const error = checked(base, method, route, res.status, res.headers, text, raw ?? body);
    if (error) throw error;
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    noteCampaignCodes(method, route, json);
    return { status: res.status, headers: res.headers, json, text };
  }
}

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
export const capturer = { authorization: `Bearer ${CAPTURE_TOKEN}` };

// PROMOCODES_TEST_SHARDS=4 defines every code a test puts through `putCode` with `"shards": 4` (unless
// it names its own): the existing tests run against sharded codes.
const TEST_SHARDS = Number(process.env.PROMOCODES_TEST_SHARDS ?? "1");
/** How many shards `putCode` spreads a code over by default (1 unless PROMOCODES_TEST_SHARDS says). */
export const testShards = TEST_SHARDS;

/** A code's definition PUT through `call` gets the test's shards too (a PUT without them would change them). */
export function withTestShards(method, route, body) {
  const plain = body !== null && typeof body === "object" && !Array.isArray(body);
  if (method === "PUT" && /^\/v1\/codes\/[^/?]+$/.test(route) && plain && body.shards === undefined) {
    onTestShards(decodeURIComponent(route.slice("/v1/codes/".length)));
    if (TEST_SHARDS > 1) return { ...body, shards: TEST_SHARDS };
  }
  // A campaign's too: its codes' uses are spread the same way.
  if (method === "PUT" && /^\/v1\/campaigns\/[^/?]+$/.test(route) && plain && body.shards === undefined) {
    onTestShards(decodeURIComponent(route.slice("/v1/campaigns/".length)));
    if (TEST_SHARDS > 1) return { ...body, shards: TEST_SHARDS };
  }
  return body;
}

// Which tests the second pass (PROMOCODES_TEST_SHARDS=4) would run differently: those that define a
// code on the test's shards (through `putCode` or `call`, without shards of their own), and those
// that send a request naming such a code (in its path or body), through `call` or `fetch`, though
// another test of the file defined it. With PROMOCODES_TEST_SHARDS_MANIFEST (scripts/test-worker.sh),
// the first pass appends each such test to that file (`<file>\t<name>`, or `<file>\t*` when a hook
// outside any test defines one), and the second runs only those: every other test sends exactly the
// requests it sent in the first, about codes whose definitions are the same in both. (A noted test
// that needs what a test left out made would fail in the second pass: loudly, not silently.)
const MANIFEST = process.env.PROMOCODES_TEST_SHARDS_MANIFEST;
const NOTING = MANIFEST !== undefined && TEST_SHARDS === 1;
const FILE = path.relative(ROOT, process.argv[1] ?? "");
let testNow = null; // the test now running: { key, touches }
const onShards = new Set(); // each code (and campaign id) this file defined on the test's shards, upper case
const WORD = /[^A-Za-z0-9_-]+/; // a code's characters (A-Z, 0-9, "_", "-"): a name is a whole word of a path or body
function onTestShards(code) {
  if (!NOTING) return;
  const name = code.replace(/[^A-Za-z0-9_-]/g, "").toUpperCase();
  if (name) onShards.add(name);
  if (testNow) testNow.touches = true;
  else appendFileSync(MANIFEST, `${FILE}\t*\n`);
}
/** Notes the test now running if `route` or `body` names a code on the test's shards. */
function noteRequest(route, body) {
  if (!NOTING || !testNow || testNow.touches || onShards.size === 0) return;
  const text = `${route} ${typeof body === "string" ? body : JSON.stringify(body ?? "")}`;
  if (text.split(WORD).some((word) => onShards.has(word.toUpperCase()))) testNow.touches = true;
}
/** A campaign on the test's shards spreads its codes too: those it made or imported are noted as its own. */
function noteCampaignCodes(method, route, json) {
  const made = method === "POST" && /^\/v1\/campaigns\/([^/?]+)\/codes$/.exec(route);
  if (!NOTING || !made || !onShards.has(decodeURIComponent(made[1]).toUpperCase())) return;
  for (const code of json?.codes ?? []) if (typeof code === "string") onTestShards(code);
}
let listed = null;
function firstPassNoted(key) {
  listed ??= new Set(existsSync(MANIFEST) ? readFileSync(MANIFEST, "utf8").split("\n") : []);
  return listed.has(key) || listed.has(`${FILE}\t*`);
}

/**
 * node:test's `test` (name, options if any, then the function), which the Worker's test files use:
 * with PROMOCODES_TEST_SHARDS_MANIFEST, it notes in the first pass which tests define or use a code
 * on the test's shards, and skips the others in the second.
 */
export function test(name, options, fn) {
  if (typeof options === "function") [options, fn] = [{}, options];
  const key = `${FILE}\t${name}`;
  if (MANIFEST && TEST_SHARDS > 1 && !options.skip && !firstPassNoted(key)) {
    return nodeTest(name, { ...options, skip: "touches no code on the test's shards: the first pass ran it as it is" }, fn);
  }
  return nodeTest(name, options, async (t) => {
    testNow = { key, touches: false };
    try {
      return await fn(t);
    } finally {
      if (NOTING && testNow.touches) appendFileSync(MANIFEST, `${key}\n`);
      testNow = null;
    }
  });
}

export function putCode(base, definition) {
  // `call` adds the test's shards (withTestShards).
  return call(base, "PUT", `/v1/codes/${definition.code}`, { body: definition, headers: admin });
}

export function captureReq(base, key, body) {
  return call(base, "POST", "/v1/captures", { body, headers: { ...capturer, "idempotency-key": key } });
}

/**
 * Captures on `base` that remember what they took: `take(key, body)` captures, and each 201 is kept
 * in `taken` as `[key, body, answer]` (for `replaysAll`).
 */
export function taker(base) {
  const taken = [];
  const take = async (key, body) => {
    const r = await captureReq(base, key, body);
    if (r.status === 201) taken.push([key, body, r]);
    return r;
  };
  return { taken, take };
}

/**
 * Every key in `taken` (see `taker`) replays its first answer (200, `replayed`, its key and quote),
 * and `total()` (the code's or the campaign's uses, read now) does not move: a replay takes no use.
 */
export async function replaysAll(base, taken, total) {
  const before = await total();
  for (const [key, body, first] of taken) {
    const again = await captureReq(base, key, body);
    assert.equal(again.status, 200, `${key}: ${again.text}`);
    assert.equal(again.json.replayed, true, key);
    assert.equal(again.json.key, key);
    assert.deepEqual(again.json.quote, first.json.quote, key);
  }
  assert.equal(await total(), before, "a replay takes no use");
}

export const eur = (amount) => ({ amount, currency: "EUR" });

/**
 * Starts the built Worker in workerd through Miniflare directly, without wrangler dev's proxy: for
 * the tests that need the runtime's own HTTP server (see chunked.test.mjs), and the benchmarks that
 * measure the Worker without the proxy's work. State is in memory, or in the folder `persist`;
 * `quiet` drops the runtime's output instead of printing it.
 * Bindings as in wrangler.toml; no static assets. `stop()` disposes of it.
 */
export async function startMiniflare({ publicLimit = TEST_LIMIT, vars = {}, persist = undefined, quiet = false } = {}) {
  const { Miniflare } = await import("miniflare");
  const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  const [, , period] = toml.match(SHIPPED_LIMIT);
  const mf = new Miniflare({
    modules: true,
    scriptPath: path.join(BUILD, "index.js"),
    modulesRoot: BUILD,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: toml.match(/^compatibility_date = "(.*)"$/m)[1],
    durableObjects: { LEDGER: { className: "Ledger", useSQLite: true }, CATALOG: { className: "Catalog", useSQLite: true } },
    ratelimits: { PUBLIC_LIMITER: { simple: { limit: publicLimit, period: Number(period) } } },
    bindings: { ADMIN_TOKEN, CAPTURE_TOKEN, ALLOWED_ORIGINS: "", ...vars },
    host: "127.0.0.1",
    port: await freePort(),
    ...(persist === undefined ? {} : { durableObjectsPersist: persist }),
    // The runtime's output (the Worker's log line a request) read and dropped, not printed.
    ...(quiet ? { handleRuntimeStdio: (stdout, stderr) => { stdout.resume(); stderr.resume(); } } : {}),
  });
  const url = await mf.ready;
  workers.set(url.origin, { demo: demoOn(vars.DEMO) });
  return { base: url.origin, port: Number(url.port), stop: () => { workers.delete(url.origin); return mf.dispose(); } };
}
