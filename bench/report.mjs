// Folds the criterion estimates, the edge/browser run (bench/run.mjs) and the .wasm sizes into ONE
// markdown table on stdout. usage: node bench/report.mjs RUN.json
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const run = JSON.parse(readFileSync(process.argv[2], "utf8"));

// criterion: target/criterion/<id>/new/{benchmark,estimates}.json, mean in ns.
const criterionDir = path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, "target"), "criterion");
const core = {};
if (existsSync(criterionDir)) {
  for (const d of readdirSync(criterionDir)) {
    const dir = path.join(criterionDir, d, "new");
    if (!existsSync(path.join(dir, "estimates.json"))) continue;
    const id = JSON.parse(readFileSync(path.join(dir, "benchmark.json"), "utf8")).full_id;
    core[id] = JSON.parse(readFileSync(path.join(dir, "estimates.json"), "utf8")).mean.point_estimate;
  }
}

const rows = [];
const row = (figure, value, unit, ratio = "") => rows.push([figure, value, unit, ratio]);
const num = (x, digits) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "n/a";
const auto = (x) => num(x, x >= 100 ? 0 : x >= 10 ? 1 : 2);
const times = (x) => (Number.isFinite(x) ? `${auto(x)}×` : "n/a");

// Core (criterion, native, the workspace's release profile).
const ns = (id) => core[id];
row("core: `check` (criterion)", auto(ns("check")), "ns/call");
row("core: `quote` (criterion)", auto(ns("quote")), "ns/call", `${times(ns("quote") / ns("check"))} check`);
row(
  "core: definition `PromoCode::from_json` (criterion)",
  auto(ns("definition from_json")),
  "ns/call",
  `${times(ns("definition from_json") / ns("quote"))} quote`,
);
row("core: `redeem`, in-memory store, uncontended", auto(ns("redeem/uncontended") / 1000), "µs/redemption");
row(
  "core: `redeem`, 2 threads on one code",
  auto(ns("redeem/2 threads, one code") / 1000),
  "µs/redemption (wall)",
  `${times(ns("redeem/2 threads, one code") / ns("redeem/uncontended"))} uncontended`,
);

// Browser: a parsed code's promo.quote() (the mean of a loop with no clock read between calls; p50
// and p99 from calls timed one by one, which adds the clock's own cost), the one-shot quote(), and
// the round trip they replace.
const b = run.browser;
const us = (ms) => ms * 1000;
row(
  "browser: `promo.quote()` of a parsed code, total only, mean",
  auto(us(b.handleBatch.meanMs)),
  `µs/call (n=${b.handleBatch.n})`,
);
row(
  "browser: `promo.quote()`, total only, p50 / p99",
  `${auto(us(b.handle.p50Ms))} / ${auto(us(b.handle.p99Ms))}`,
  `µs/call, timed one by one (timer step ${auto(us(b.timerResolutionMs))} µs)`,
);
row(
  "browser: `promo.quote()`, total only, two baskets in turn, mean",
  auto(us(b.handleAlternateBatch.meanMs)),
  `µs/call (n=${b.handleAlternateBatch.n}, no answer repeats the one before)`,
  `${times(b.handleAlternateBatch.meanMs / b.handleBatch.meanMs)} same basket`,
);
row(
  "browser: `promo.quote()`, 3 lines and shipping, mean",
  auto(us(b.handleLinesBatch.meanMs)),
  `µs/call (n=${b.handleLinesBatch.n})`,
  `${times(b.handleLinesBatch.meanMs / b.handleBatch.meanMs)} total only`,
);
row(
  "browser: one-shot `quote(definition, …)`, total only, mean",
  auto(us(b.wasm.meanMs)),
  `µs/call (n=${b.wasm.n}, parses the definition each call)`,
  `${times(b.wasm.meanMs / b.handleBatch.meanMs)} promo.quote()`,
);
row(
  "browser: `POST /v1/quotes` round trip, mean",
  auto(b.http.meanMs),
  `ms (n=${b.http.n})`,
  `${times(b.http.meanMs / b.handleBatch.meanMs)} promo.quote()`,
);
row("browser: `POST /v1/quotes` round trip, p99", auto(b.http.p99Ms), "ms", `${times(b.http.p99Ms / b.handle.p99Ms)} promo.quote() p99`);

// Capture vs floor.
const pair = (label, c, f) => {
  row(`capture, ${label}: throughput`, auto(c.perSecond), `captures/s (n=${c.n})`, `${num(c.perSecond / f.perSecond, 2)} of floor`);
  row(`capture, ${label}: p50`, auto(c.p50Ms), "ms", `${times(c.p50Ms / f.p50Ms)} floor`);
  row(`capture, ${label}: p99`, auto(c.p99Ms), "ms", `${times(c.p99Ms / f.p99Ms)} floor`);
  row(`floor, ${label}: throughput`, auto(f.perSecond), `writes/s (n=${f.n})`);
  row(`floor, ${label}: p50 / p99`, `${auto(f.p50Ms)} / ${auto(f.p99Ms)}`, "ms");
};
pair("1 client, one code", run.capture1, run.floor1);
pair(`${run.captureN.clients} clients, one code`, run.captureN, run.floorN);
const s = run.captureSpread;
row(
  `capture, ${s.clients} clients over 100 codes: throughput`,
  auto(s.perSecond),
  `captures/s (n=${s.n})`,
  `${num(s.perSecond / run.captureN.perSecond, 2)} of one code; ${num(s.perSecond / run.floorSpread.perSecond, 2)} of floor`,
);
row(`capture, ${s.clients} clients over 100 codes: p50 / p99`, `${auto(s.p50Ms)} / ${auto(s.p99Ms)}`, "ms");
row(
  `floor, ${s.clients} clients over 100 objects: throughput`,
  auto(run.floorSpread.perSecond),
  `writes/s (n=${run.floorSpread.n})`,
  `${num(run.floorSpread.perSecond / run.floorN.perSecond, 2)} of one object`,
);
const retries = ["capture1", "captureN", "captureSpread"].reduce((a, k) => a + run[k].retries, 0);
row("capture: retries (409/5xx, same key) / count check", `${retries} / ${run.hotConsistent ? "ok" : "MISMATCH"}`, "");

// Sizes.
const size = (label, candidates) => {
  const file = candidates
    .filter(Boolean)
    .map((p) => path.resolve(root, p))
    .find(existsSync);
  if (!file) return row(`${label} .wasm`, "n/a", "not built");
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes, { level: 9 }).length;
  row(`${label} .wasm, raw`, num(bytes.length / 1024, 1), `KiB (${path.relative(root, file)})`);
  row(`${label} .wasm, gzip -9`, num(gz / 1024, 1), "KiB", `${num(gz / bytes.length, 2)} of raw`);
};
const env = (v, f) => (process.env[v] ? path.join(process.env[v], f) : undefined);
size("browser module", [env("BENCH_PKG", "promocodes_bg.wasm"), "public/pkg/promocodes_bg.wasm", "pkg/promocodes_bg.wasm"]);
size("Worker", [env("BENCH_WORKER_BUILD", "index_bg.wasm"), "worker/build/index_bg.wasm"]);

const out = [
  `Edge figures: the built Worker under ${run.server} (not wrangler dev), on-disk SQLite, 127.0.0.1; ${run.mode} counts.`,
  "",
  "| figure | value | unit | ratio |",
  "|---|---:|---|---|",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
];
console.log(out.join("\n"));
