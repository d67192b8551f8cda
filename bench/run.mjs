// The edge and browser benchmarks of scripts/bench.sh, in one Node process:
//
// - Miniflare started from Node (no wrangler dev proxy) runs the built Worker (worker/build) with
//   on-disk SQLite Durable Objects in a temporary folder, and serves a bench page next to the browser
//   module, so the page's quote round trips are same-origin.
// - A second Miniflare runs the floor (bench/floor/worker.mjs): a Durable Object doing only the
//   SQLite compare-and-set and key insert in one transactionSync.
// - A third runs the same floor in Rust (bench/floor-rs, built with scripts/build-worker.sh like the Worker):
//   what workers-rs and wasm-bindgen cost per request before any product code runs.
// - Capture on one hot code with 1 and 50 concurrent clients, both floors the same way, interleaved;
//   then the same 50-client load spread over 100 codes (and 100 floor objects).
// - Headless Chromium (playwright-core, /usr/bin/chromium) times the browser module's quotes (a
//   parsed code's promo.quote(), for a total and for 3 lines; the one-shot quote()) and
//   POST /v1/quotes round trips in one page.
//
// usage: node bench/run.mjs OUT.json [--smoke]
// Every loop is bounded by a count and a time; only 127.0.0.1 is used; both servers and the
// browser are stopped on exit, on error and on SIGINT/SIGTERM.
import { Miniflare } from "miniflare";
import { webhookPhases } from "./webhooks.mjs";
import { children, cpuOf } from "./cpu.mjs";
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
  ? { one: 20, many: 100, clients: 50, spread: 100, lookups: 200, quotes: 2000, oneShots: 500, trips: 20, phaseMs: 5000, browserMs: 5000 }
  : { one: 1500, many: 6000, clients: 50, spread: 6000, lookups: 30000, quotes: 200000, oneShots: 50000, trips: 1500, phaseMs: 20000, browserMs: 15000 };
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

// Three codes that combine (issue 21's example): product, order, shipping.
const STACK = [
  { code: "MUGS20", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] }, combines_with: ["order", "shipping"], limits: { total: 1_000_000_000 } },
  { code: "SAVE10", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"], limits: { total: 1_000_000_000 } },
  { code: "SHIPFREE", discount: { kind: "free_shipping" }, combines_with: ["product", "order"], limits: { total: 1_000_000_000 } },
];

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

// Miniflare's script options for what scripts/build-worker.sh writes in `dir`: its entry, its ES modules and
// the compiled .wasm next to them.
const builtByWorkerBuild = (dir) => ({
  scriptPath: path.join(dir, "worker/shim.mjs"),
  modulesRoot: dir,
  modulesRules: [
    { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
    { type: "CompiledWasm", include: ["**/*.wasm"] },
  ],
});

// The built Worker: scripts/build-worker.sh's output, or the snapshot of it scripts/bench.sh took.
const workerBuild = process.env.BENCH_WORKER_BUILD ?? path.join(root, "worker/build");

// The Worker for the edge phases runs without its static assets: locally the asset router would
// run on the same thread as the Worker and its objects for every request, which on Cloudflare it
// does not (and the floor has none). The browser phase gets its own instance with the page.
async function startProduct({ withAssets = false, state = "state-worker" } = {}) {
  const assets = withAssets
    ? {
        assets: {
          directory: site(),
          binding: "ASSETS",
          routerConfig: {
            has_user_worker: true,
            invoke_user_worker_ahead_of_assets: false,
            static_routing: { user_worker: ["/v1/*", "/demo/*"] },
          },
        },
      }
    : {};
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    modules: true,
    ...builtByWorkerBuild(workerBuild),
    compatibilityDate: "2026-04-01",
    bindings: { ADMIN_TOKEN: ADMIN, CAPTURE_TOKEN: CAPTURE, WEBHOOK_ALLOW_HTTP: "127.0.0.1" },
    durableObjects: { LEDGER: { className: "Ledger", useSQLite: true }, CATALOG: { className: "Catalog", useSQLite: true } },
    // The public rate limit (60 per 10 s per address in wrangler.toml) would measure itself here.
    ratelimits: { PUBLIC_LIMITER: { simple: { limit: 100_000_000, period: 10 } } },
    durableObjectsPersist: path.join(scratch, state),
    // The Worker writes one log line per capture; drain them rather than print them from this process.
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      stderr.resume();
    },
    ...assets,
  });
  cleanups.push(() => mf.dispose());
  return (await mf.ready).origin;
}

// The floor in Rust: scripts/build-worker.sh's output of bench/floor-rs, or the snapshot scripts/bench.sh took.
const floorRsBuild = process.env.BENCH_FLOOR_RS_BUILD ?? path.join(root, "bench/floor-rs/build");

// The floor through raw bindings (bench/floor-raw: wasm-bindgen on the Durable Object API, no
// workers-rs): scripts/build-floor-raw.sh's output, or the snapshot scripts/bench.sh took.
const floorRawBuild = process.env.BENCH_FLOOR_RAW_BUILD ?? path.join(root, "bench/floor-raw/build");
const floorRawScript = () => ({
  scriptPath: path.join(floorRawBuild, "shim.mjs"),
  modulesRoot: floorRawBuild,
  modulesRules: [
    { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
    { type: "CompiledWasm", include: ["**/*.wasm"] },
  ],
});

// A floor (its `FLOOR` object class), from `script` (Miniflare's script options), its objects in `state`.
async function startFloor(script, state) {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    modules: true,
    ...script,
    compatibilityDate: "2026-04-01",
    durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
    durableObjectsPersist: path.join(scratch, state),
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      stderr.resume();
    },
  });
  cleanups.push(() => mf.dispose());
  return (await mf.ready).origin;
}

const pidsOf = {};

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
/// passed. 409, 5xx and a reset connection are retried with the same idempotency key; the
/// latency of a capture is from its first send to its success.
async function load({ clients, total, maxMs, request, ok = [201], server, onResponse }) {
  const cpu0 = server ? cpuOf(pidsOf[server]) : 0;
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
          let r, text;
          try {
            r = await fetch(url, init);
            text = await r.text();
          } catch (err) {
            // A connection the local proxy reset (seen on a loaded machine): the same request again,
            // under the same idempotency key, is safe.
            if (attempt < 50) {
              retries++;
              continue;
            }
            throw err;
          }
          onResponse?.(r);
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
  const elapsed = performance.now() - start;
  const cpuMsPerRequest = server ? (cpuOf(pidsOf[server]) - cpu0) / Math.max(1, latencies.length) : undefined;
  return summarize(latencies, elapsed, { clients, retries, cpuMsPerRequest });
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

// The capture real checkouts do: a basket with lines, held while the buyer pays, then captured under
// the hold's key with the quote shown. One "request" here is the hold and its capture.
const LINES = {
  lines: [
    { sku: "MUG", quantity: 2, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] },
    { sku: "BEANS", quantity: 1, unit_price: { amount: "8.50", currency: "EUR" }, categories: ["coffee"] },
    { sku: "GRINDER", quantity: 1, unit_price: { amount: "46.50", currency: "EUR" }, categories: ["grinders"] },
  ],
  shipping: { amount: "4.90", currency: "EUR" },
};
async function checkoutLoad({ origin, code, clients, total, maxMs, tag }) {
  const cpu0 = cpuOf(pidsOf.worker);
  let next = 0;
  let retries = 0;
  const latencies = [];
  const deadline = performance.now() + maxMs;
  const start = performance.now();
  const post = async (route, key, body) => {
    for (let attempt = 0; ; attempt++) {
      let r, text;
      try {
        r = await fetch(`${origin}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${CAPTURE}`, "idempotency-key": key },
          body: JSON.stringify(body),
        });
        text = await r.text();
      } catch (err) {
        if (attempt >= 50) throw err;
        retries++;
        continue;
      }
      if (r.status === 201) return JSON.parse(text);
      if ((r.status === 409 || r.status >= 500) && attempt < 50) {
        retries++;
        continue;
      }
      throw new Error(`POST ${route} answered ${r.status}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total && performance.now() < deadline) {
        const key = `${run}-${tag}-${next++}`;
        const t0 = performance.now();
        const held = await post("/v1/holds", key, { code, ...LINES });
        await post("/v1/captures", key, { code, ...LINES, quote: held.quote });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const out = summarize(latencies, performance.now() - start, { clients, retries });
  out.cpuMsPerRequest = (cpuOf(pidsOf.worker) - cpu0) / Math.max(1, latencies.length);
  return out;
}

const lookupRequest = (origin, code, token) => () => ({
  url: `${origin}/v1/codes/${code}`,
  init: { method: "GET", headers: token ? { authorization: `Bearer ${token}` } : {} },
});

async function putCode(origin, code, body = definition(code)) {
  const r = await fetch(`${origin}/v1/codes/${code}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify(body),
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT ${code}: ${r.status} ${await r.text()}`);
}

async function usageOf(origin, code) {
  // Live counts: a token bypasses the lookup's edge cache.
  const r = await fetch(`${origin}/v1/codes/${code}`, { headers: { authorization: `Bearer ${ADMIN}` } });
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
    stack: STACK,
    quoteCalls: N.quotes,
    oneShotCalls: N.oneShots,
    roundTrips: N.trips,
    maxMillis: N.browserMs,
  });
  await b.close();
  return out;
}

// Cold start: the time from a new Miniflare (a fresh workerd, which compiles the module) to the first
// answer of a request that creates an object (the product: a code's definition; the Rust floor: a
// write), on a fresh state folder; the median of 3 starts each, each instance stopped before the next.
async function coldStart(kind) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const mf =
      kind === "worker"
        ? new Miniflare({
            host: "127.0.0.1",
            port: 0,
            modules: true,
            ...builtByWorkerBuild(workerBuild),
            compatibilityDate: "2026-04-01",
            bindings: { ADMIN_TOKEN: ADMIN, CAPTURE_TOKEN: CAPTURE },
            durableObjects: { LEDGER: { className: "Ledger", useSQLite: true }, CATALOG: { className: "Catalog", useSQLite: true } },
            ratelimits: { PUBLIC_LIMITER: { simple: { limit: 100_000_000, period: 10 } } },
            durableObjectsPersist: path.join(scratch, `cold-${kind}-${i}`),
            handleRuntimeStdio: (o, e) => (o.resume(), e.resume()),
          })
        : new Miniflare({
            host: "127.0.0.1",
            port: 0,
            modules: true,
            ...builtByWorkerBuild(floorRsBuild),
            compatibilityDate: "2026-04-01",
            durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
            durableObjectsPersist: path.join(scratch, `cold-${kind}-${i}`),
            handleRuntimeStdio: (o, e) => (o.resume(), e.resume()),
          });
    try {
      const origin = (await mf.ready).origin;
      const ready = performance.now() - t0;
      if (kind === "worker") await putCode(origin, "COLD");
      else {
        const r = await fetch(`${origin}/floor/cold`, { method: "POST", headers: { "idempotency-key": `cold-${i}` } });
        await r.text();
        if (r.status !== 201 && r.status !== 200) throw new Error(`cold floor answered ${r.status}`);
      }
      times.push({ readyMs: ready, firstAnswerMs: performance.now() - t0 });
    } finally {
      await mf.dispose();
    }
  }
  times.sort((a, b) => a.firstAnswerMs - b.firstAnswerMs);
  return times[1];
}

try {
  const cold = { worker: await coldStart("worker"), floorRs: await coldStart("floorRs") };
  log(`cold start: Worker ${cold.worker.firstAnswerMs.toFixed(0)} ms, Rust floor ${cold.floorRs.firstAnswerMs.toFixed(0)} ms`);
  // One after the other, so that each server's workerd processes are known (for their CPU time).
  const worker = await startProduct();
  pidsOf.worker = new Set(children().map((c) => c.pid));
  const floor = await startFloor({ scriptPath: path.join(root, "bench/floor/worker.mjs") }, "state-floor");
  pidsOf.floor = new Set(children().map((c) => c.pid).filter((p) => !pidsOf.worker.has(p)));
  const floorRs = await startFloor(builtByWorkerBuild(floorRsBuild), "state-floor-rs");
  pidsOf.floorRs = new Set(children().map((c) => c.pid).filter((p) => !pidsOf.worker.has(p) && !pidsOf.floor.has(p)));
  const floorRaw = existsSync(path.join(floorRawBuild, "shim.mjs")) ? await startFloor(floorRawScript(), "state-floor-raw") : null;
  const known = [...pidsOf.worker, ...pidsOf.floor, ...pidsOf.floorRs];
  pidsOf.floorRaw = new Set(children().map((c) => c.pid).filter((p) => !known.includes(p)));
  log(`Worker (Miniflare from Node) at ${worker}, floor at ${floor}, Rust floor at ${floorRs}; ${smoke ? "smoke" : "full"} counts`);
  await putCode(worker, "HOT");
  for (let c = 0; c < CODES; c++) await putCode(worker, `SPREAD${c}`);

  // Warm both servers (module instantiation, first object, SQLite files) before timing.
  await load({ clients: 4, total: 40, maxMs: 10000, request: captureRequest(worker, () => "HOT", "warm") });
  await load({ clients: 4, total: 40, maxMs: 10000, request: floorRequest(floor, () => "hot", "warm") });
  await load({ clients: 4, total: 40, maxMs: 10000, request: floorRequest(floorRs, () => "hot", "warm") });
  if (floorRaw) await load({ clients: 4, total: 40, maxMs: 10000, request: floorRequest(floorRaw, () => "hot", "warm") });
  // The capture's 100 spread objects exist already (PUT above); create the floor's 100 too.
  await load({ clients: 10, total: CODES, maxMs: 30000, request: floorRequest(floor, (i) => `spread${i}`, "warm") });
  const before = await usageOf(worker, "HOT");

  const res = { mode: smoke ? "smoke" : "full", server: "Miniflare from Node", counts: N, coldStart: cold };
  const hot = () => "HOT";
  const spread = (i) => `SPREAD${i % CODES}`;
  log("capture, 1 client");
  res.capture1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: captureRequest(worker, hot, "c1"), server: "worker" });
  // Each floor on its one hot object: `clients` at a time, `total` writes, its results under `${key}${suffix}`.
  const floors = [
    ["floor", floor, "floor", "f"],
    ["Rust floor", floorRs, "floorRs", "r"],
    ["raw-bindings floor", floorRaw, "floorRaw", "w"],
  ];
  const floorPhases = async (clients, total, suffix) => {
    for (const [what, origin, key, tag] of floors) {
      if (!origin) continue;
      log(`${what}, ${clients} client${clients === 1 ? "" : "s"}`);
      res[`${key}${suffix}`] = await load({
        clients,
        total,
        maxMs: N.phaseMs,
        request: floorRequest(origin, () => "hot", `${tag}${suffix}`),
        server: key,
      });
    }
  };
  await floorPhases(1, N.one, "1");
  log(`capture, ${N.clients} clients`);
  res.captureN = await load({
    clients: N.clients,
    total: N.many,
    maxMs: N.phaseMs,
    request: captureRequest(worker, hot, "cN"),
    server: "worker",
  });
  await floorPhases(N.clients, N.many, "N");
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
  log(`hold + capture of a basket with lines, ${N.clients} clients, one code`);
  res.checkoutN = await checkoutLoad({ origin: worker, code: "HOT", clients: N.clients, total: N.many / 2, maxMs: N.phaseMs, tag: "hN" });
  log(`lookups of one hot code, ${N.clients} clients: from the edge cache, then live (a token bypasses it)`);
  let misses = 0;
  const countMisses = (r) => {
    if (r.headers.get("x-promocodes-cache") === "miss") misses++;
  };
  res.lookupCached = await load({
    clients: N.clients,
    total: N.lookups,
    maxMs: N.phaseMs,
    request: lookupRequest(worker, "HOT"),
    ok: [200],
    server: "worker",
    onResponse: countMisses,
  });
  // How many of those lookups reached the code's object (the rest came from the edge cache).
  res.lookupCached.objectReads = misses;
  res.lookupLive = await load({ clients: N.clients, total: N.lookups, maxMs: N.phaseMs, request: lookupRequest(worker, "HOT", ADMIN), ok: [200], server: "worker" });
  log(`capture, ${N.clients} clients, while ${N.clients} clients look the code up (cached, then live)`);
  for (const [name, token] of [["Cached", undefined], ["Live", ADMIN]]) {
    const lookups = load({ clients: N.clients, total: N.lookups, maxMs: N.phaseMs, request: lookupRequest(worker, "HOT", token), ok: [200] });
    res[`captureWithLookups${name}`] = await load({
      clients: N.clients,
      total: N.many,
      maxMs: N.phaseMs,
      request: captureRequest(worker, hot, `cL${name}`),
    });
    res[`lookupsDuringCapture${name}`] = await lookups;
  }
  const after = await usageOf(worker, "HOT");
  const hotCaptures = res.capture1.n + res.captureN.n + res.checkoutN.n + res.captureWithLookupsCached.n + res.captureWithLookupsLive.n;
  res.hotConsistent = after - before === hotCaptures;
  log(`HOT usage ${before} → ${after}, captures ${hotCaptures}: consistent=${res.hotConsistent}`);

  log("campaign: 10,000 codes generated a call, captures of its single-use codes, a lookup among all of them");
  const campaignPut = await fetch(`${worker}/v1/campaigns/BENCH`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ ...definition("BENCH"), code: undefined }),
  });
  if (campaignPut.status !== 201 && campaignPut.status !== 200) throw new Error(`PUT campaign: ${campaignPut.status} ${await campaignPut.text()}`);
  const campaignCodes = [];
  const generateMs = [];
  for (let k = 0; k < (smoke ? 1 : 10); k++) {
    const t0 = performance.now();
    const r = await fetch(`${worker}/v1/campaigns/BENCH/codes`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}`, "idempotency-key": `${run}-generate-${k}` },
      body: JSON.stringify({ count: 10000 }),
    });
    if (r.status !== 201) throw new Error(`generate: ${r.status} ${await r.text()}`);
    campaignCodes.push(...(await r.json()).codes);
    generateMs.push(performance.now() - t0);
  }
  res.campaignGenerate = { calls: generateMs.length, codes: campaignCodes.length, meanSeconds: generateMs.reduce((a, b) => a + b, 0) / generateMs.length / 1000 };
  // Each capture takes a code of its own (single-use codes): first the 1-client phase's, then the others'.
  res.campaignCapture1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: captureRequest(worker, (i) => campaignCodes[i], "k1"), server: "worker" });
  res.campaignCaptureN = await load({
    clients: N.clients,
    total: N.many,
    maxMs: N.phaseMs,
    request: captureRequest(worker, (i) => campaignCodes[N.one + i], "kN"),
    server: "worker",
  });
  res.campaignLookup = await load({
    clients: N.clients,
    total: N.lookups,
    maxMs: N.phaseMs,
    request: lookupRequest(worker, campaignCodes[campaignCodes.length - 1], ADMIN),
    ok: [200],
    server: "worker",
  });

  log("stack: captures of 3 codes at once next to captures of one code with the same basket");
  for (const d of STACK) await putCode(worker, d.code, d);
  const linesCapture = (body, tag) => (i) => ({
    url: `${worker}/v1/captures`,
    init: {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${CAPTURE}`, "idempotency-key": `${run}-${tag}-${i}` },
      body: JSON.stringify({ ...body, ...LINES }),
    },
  });
  res.stackSingle1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: linesCapture({ code: "SAVE10" }, "s1"), server: "worker" });
  res.stackCapture1 = await load({ clients: 1, total: N.one, maxMs: N.phaseMs, request: linesCapture({ codes: STACK.map((d) => d.code) }, "t1"), server: "worker" });
  res.stackSingleN = await load({ clients: N.clients, total: N.many, maxMs: N.phaseMs, request: linesCapture({ code: "SAVE10" }, "sN"), server: "worker" });
  res.stackCaptureN = await load({ clients: N.clients, total: N.many, maxMs: N.phaseMs, request: linesCapture({ codes: STACK.map((d) => d.code) }, "tN"), server: "worker" });
  const stackUses = await Promise.all(STACK.map((d) => usageOf(worker, d.code)));
  const stacks = res.stackCapture1.n + res.stackCaptureN.n;
  res.stackConsistent = stackUses[0] === stacks && stackUses[2] === stacks && stackUses[1] === stacks + res.stackSingle1.n + res.stackSingleN.n;
  log(`stack uses ${stackUses.join("/")} for ${stacks} stacks: consistent=${res.stackConsistent}`);

  log("webhooks: captures with one endpoint subscribed next to captures with none (issue 36)");
  for (const [name, clients, total] of [["webhooks1", 1, N.one], ["webhooksN", N.clients, N.many]]) {
    res[name] = await webhookPhases({ origin: worker, server: "worker", cpuNow: () => cpuOf(pidsOf.worker), admin: ADMIN, load, captureRequest, putCode, clients, total: Math.ceil(total / 2),
      maxMs: N.phaseMs / 2, tag: name.at(-1), log });
  }

  log("browser: wasm quote vs POST /v1/quotes");
  const page = await startProduct({ withAssets: true, state: "state-page" });
  await putCode(page, "HOT");
  res.browser = await browser(page);
  writeFileSync(outFile, JSON.stringify(res, null, 2));
  log("done");
} finally {
  await stopAll();
}
