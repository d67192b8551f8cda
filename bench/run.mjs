// The edge and browser benchmarks of scripts/bench.sh, in one Node process:
//
// - Miniflare started from Node (no wrangler dev proxy) runs the built Worker (worker/build) with
//   on-disk SQLite Durable Objects in a temporary folder, and serves a bench page next to the browser
//   module, so the page's quote round trips are same-origin.
// - A second Miniflare runs the floor (bench/floor/worker.mjs): a Durable Object doing only the
//   SQLite compare-and-set and key insert in one transactionSync.
// - Capture on one hot code with 1 and 50 concurrent clients, the floor the same way, interleaved;
//   then the same 50-client load spread over 100 codes (and 100 floor objects).
// - Headless Chromium (playwright-core, /usr/bin/chromium) times the browser module's quotes (a
//   parsed code's promo.quote(), for a total and for 3 lines; the one-shot quote()) and
//   POST /v1/quotes round trips in one page.
//
// usage: node bench/run.mjs OUT.json [--smoke]
// Every loop is bounded by a count and a time; only 127.0.0.1 is used; both servers and the
// browser are stopped on exit, on error and on SIGINT/SIGTERM.
import { Miniflare } from "miniflare";
import { chromium } from "playwright-core";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const [outFile, ...flags] = process.argv.slice(2);
if (!outFile) throw new Error("usage: node bench/run.mjs OUT.json [--smoke]");
const smoke = flags.includes("--smoke");

// Counts and time limits (each phase stops at whichever comes first).
const N = smoke
  ? { one: 20, many: 100, clients: 50, spread: 100, quotes: 2000, oneShots: 500, trips: 20, phaseMs: 5000, browserMs: 5000 }
  : { one: 1500, many: 6000, clients: 50, spread: 6000, quotes: 200000, oneShots: 50000, trips: 1500, phaseMs: 20000, browserMs: 15000 };
const CODES = 100;

const ADMIN = "bench-admin-token";
const CAPTURE = "bench-capture-token";
const TOTAL = { amount: "80.00", currency: "EUR" };
const definition = (code) => ({
  code,
  discount: { kind: "percent", percent: "10", max: { amount: "20.00", currency: "EUR" } },
  limits: { total: 1_000_000_000 },
  minimum: { amount: "50.00", currency: "EUR" },
});

const scratch = mkdtempSync(path.join(tmpdir(), "promocodes-bench-"));
const cleanups = [];
let stopping = false;
async function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const f of cleanups.reverse()) {
    try {
      await f();
    } catch (e) {
      console.error("[bench] cleanup:", e.message);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, async () => {
    await stopAll();
    process.exit(130);
  });
}

const log = (...a) => console.error("[bench]", ...a);

function site() {
  // The bench page and the browser module, assembled in the scratch folder and served as the Worker's assets.
  const dir = path.join(scratch, "site");
  const pkg = [process.env.BENCH_PKG, path.join(root, "public/pkg"), path.join(root, "pkg")].find((p) =>
    p &&
    existsSync(path.join(p, "promocodes_bg.wasm")),
  );
  if (!pkg) throw new Error("no browser module: run scripts/build-web.sh (public/pkg/ or pkg/)");
  mkdirSync(path.join(dir, "pkg"), { recursive: true });
  cpSync(path.join(root, "bench/browser"), dir, { recursive: true });
  // promocodes.js imports its JavaScript helpers from ./snippets/.
  for (const f of ["promocodes.js", "promocodes_bg.wasm", "snippets"]) {
    cpSync(path.join(pkg, f), path.join(dir, "pkg", f), { recursive: true });
  }
  return dir;
}

// The built Worker: worker-build's output, or the snapshot of it scripts/bench.sh took.
const workerBuild = process.env.BENCH_WORKER_BUILD ?? path.join(root, "worker/build");

async function startProduct() {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    modules: true,
    scriptPath: path.join(workerBuild, "worker/shim.mjs"),
    modulesRoot: workerBuild,
    modulesRules: [
      { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
    ],
    compatibilityDate: "2026-04-01",
    bindings: { ADMIN_TOKEN: ADMIN, CAPTURE_TOKEN: CAPTURE },
    durableObjects: { LEDGER: { className: "Ledger", useSQLite: true }, CATALOG: { className: "Catalog", useSQLite: true } },
    // The public routes' per-address limit, high enough that the round trips below never meet it.
    ratelimits: { PUBLIC_LIMITER: { simple: { limit: 1_000_000, period: 60 } } },
    durableObjectsPersist: path.join(scratch, "state-worker"),
    assets: {
      directory: site(),
      binding: "ASSETS",
      routerConfig: {
        has_user_worker: true,
        invoke_user_worker_ahead_of_assets: false,
        static_routing: { user_worker: ["/v1/*", "/demo/*"] },
      },
    },
  });
  cleanups.push(() => mf.dispose());
  return (await mf.ready).origin;
}

async function startFloor() {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    modules: true,
    scriptPath: path.join(root, "bench/floor/worker.mjs"),
    compatibilityDate: "2026-04-01",
    durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
    durableObjectsPersist: path.join(scratch, "state-floor"),
  });
  cleanups.push(() => mf.dispose());
  return (await mf.ready).origin;
}

function summarize(latencies, elapsedMs, extra) {
  const s = Float64Array.from(latencies).sort();
  const pick = (q) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN);
  return {
    n: s.length,
    seconds: elapsedMs / 1000,
    perSecond: s.length / (elapsedMs / 1000),
    p50Ms: pick(0.5),
    p99Ms: pick(0.99),
    ...extra,
  };
}

/// `clients` concurrent clients send request(i) for i = 0.. until `total` succeeded or `maxMs`
/// passed. 409 and 5xx are retried with the same idempotency key (the request is the same); the
/// latency of a capture is from its first send to its success.
async function load({ clients, total, maxMs, request, ok = [201] }) {
  let next = 0;
  let retries = 0;
  const latencies = [];
  const deadline = performance.now() + maxMs;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total && performance.now() < deadline) {
        const i = next++;
        const { url, init } = request(i);
        const t0 = performance.now();
        for (let attempt = 0; ; attempt++) {
          const r = await fetch(url, init);
          const text = await r.text();
          if (ok.includes(r.status)) break;
          if ((r.status === 409 || r.status >= 500) && attempt < 50) {
            retries++;
            continue;
          }
          throw new Error(`${init.method} ${url} answered ${r.status}: ${text.slice(0, 300)}`);
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarize(latencies, performance.now() - start, { clients, retries });
}

const run = Date.now().toString(36);
const captureRequest = (origin, codeOf, tag) => (i) => ({
  url: `${origin}/v1/captures`,
  init: {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${CAPTURE}`,
      "idempotency-key": `${run}-${tag}-${i}`,
    },
    body: JSON.stringify({ code: codeOf(i), total: TOTAL }),
  },
});
const floorRequest = (origin, nameOf, tag) => (i) => ({
  url: `${origin}/floor/${nameOf(i)}`,
  init: { method: "POST", headers: { "idempotency-key": `${run}-${tag}-${i}` } },
});

async function putCode(origin, code) {
  const r = await fetch(`${origin}/v1/codes/${code}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify(definition(code)),
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT ${code}: ${r.status} ${await r.text()}`);
}

async function usageOf(origin, code) {
  const r = await fetch(`${origin}/v1/codes/${code}`);
  const j = await r.json();
  return j.usage?.total;
}

async function browser(origin) {
  const b = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  cleanups.push(() => b.close());
  const page = await b.newPage();
  page.on("pageerror", (e) => log("page error:", e.message));
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => typeof window.runBench === "function", null, { timeout: 30000 });
  const out = await page.evaluate((cfg) => window.runBench(cfg), {
    definition: definition("HOT"),
    basket: { total: TOTAL },
    // A basket of 3 lines and shipping, as a checkout page sends it.
    lines: {
      lines: [
        { sku: "MUG-ENAMEL", quantity: 2, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] },
        { sku: "BEANS-1KG", quantity: 1, unit_price: { amount: "28.50", currency: "EUR" }, categories: ["coffee"] },
        { sku: "GRINDER", quantity: 1, unit_price: { amount: "46.50", currency: "EUR" } },
      ],
      shipping: { amount: "4.90", currency: "EUR" },
    },
    options: { now: "2026-12-02T10:00:00Z" },
    request: { code: "HOT", total: TOTAL },
    quoteCalls: N.quotes,
    oneShotCalls: N.oneShots,
    roundTrips: N.trips,
    maxMillis: N.browserMs,
  });
  await b.close();
  return out;
}

try {
  const [worker, floor] = await Promise.all([startProduct(), startFloor()]);
  log(`Worker (Miniflare from Node) at ${worker}, floor at ${floor}; ${smoke ? "smoke" : "full"} counts`);
  await putCode(worker, "HOT");
  for (let c = 0; c < CODES; c++) await putCode(worker, `SPREAD${c}`);

  // Warm both servers (module instantiation, first object, SQLite files) before timing.
  await load({ clients: 4, total: 40, maxMs: 10000, request: captureRequest(worker, () => "HOT", "warm") });
  await load({ clients: 4, total: 40, maxMs: 10000, request: floorRequest(floor, () => "hot", "warm") });
  // The capture's 100 spread objects exist already (PUT above); create the floor's 100 too.
  await load({ clients: 10, total: CODES, maxMs: 30000, request: floorRequest(floor, (i) => `spread${i}`, "warm") });
  const before = await usageOf(worker, "HOT");

  const res = { mode: smoke ? "smoke" : "full", server: "Miniflare from Node", counts: N };
  const hot = () => "HOT";
  const spread = (i) => `SPREAD${i % CODES}`;
  log("capture, 1 client");
  res.capture1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: captureRequest(worker, hot, "c1") });
  log("floor, 1 client");
  res.floor1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: floorRequest(floor, () => "hot", "f1") });
  log(`capture, ${N.clients} clients`);
  res.captureN = await load({
    clients: N.clients,
    total: N.many,
    maxMs: N.phaseMs,
    request: captureRequest(worker, hot, "cN"),
  });
  log(`floor, ${N.clients} clients`);
  res.floorN = await load({
    clients: N.clients,
    total: N.many,
    maxMs: N.phaseMs,
    request: floorRequest(floor, () => "hot", "fN"),
  });
  log(`capture, ${N.clients} clients over ${CODES} codes`);
  res.captureSpread = await load({
    clients: N.clients,
    total: N.spread,
    maxMs: N.phaseMs,
    request: captureRequest(worker, spread, "cS"),
  });
  log(`floor, ${N.clients} clients over ${CODES} objects`);
  res.floorSpread = await load({
    clients: N.clients,
    total: N.spread,
    maxMs: N.phaseMs,
    request: floorRequest(floor, (i) => `spread${i % CODES}`, "fS"),
  });
  const after = await usageOf(worker, "HOT");
  res.hotConsistent = after - before === res.capture1.n + res.captureN.n;
  log(`HOT usage ${before} → ${after}, captures ${res.capture1.n + res.captureN.n}: consistent=${res.hotConsistent}`);

  log("browser: wasm quote vs POST /v1/quotes");
  res.browser = await browser(worker);
  writeFileSync(outFile, JSON.stringify(res, null, 2));
  log("done");
} finally {
  await stopAll();
}
