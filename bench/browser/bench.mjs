// Times the browser module's quote() against a POST /v1/quotes round trip to the Worker, in one page.
// window.runBench({definition, basket, options, request, quoteCalls, roundTrips, maxMillis}) → stats.
import init, { quote } from "./pkg/promocodes.js";

const ready = init();

function stats(samples, total) {
  const sorted = Float64Array.from(samples).sort();
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: samples.length, meanMs: total / samples.length, p50Ms: pick(0.5), p99Ms: pick(0.99) };
}

/// Calls fn() up to `count` times or until `maxMillis` ran out; each call timed on its own, the mean
/// taken from the whole loop (the timer's resolution is coarser than one wasm call).
async function timeLoop(fn, count, maxMillis) {
  const samples = [];
  const deadline = performance.now() + maxMillis;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    samples.push(performance.now() - t0);
    if (t0 > deadline) break;
  }
  return stats(samples, performance.now() - start);
}

/// The smallest non-zero step of performance.now() seen in a busy loop, in ms.
function timerResolution() {
  let best = Infinity;
  for (let i = 0; i < 2000; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

window.runBench = async (cfg) => {
  await ready;
  const first = quote(cfg.definition, cfg.basket, cfg.options);
  if (!first.ok) throw new Error(`wasm quote refused: ${JSON.stringify(first)}`);
  // Warm up both paths before timing.
  for (let i = 0; i < 2000; i++) quote(cfg.definition, cfg.basket, cfg.options);
  const body = JSON.stringify(cfg.request);
  const roundTrip = async () => {
    const r = await fetch("/v1/quotes", { method: "POST", headers: { "content-type": "application/json" }, body });
    if (r.status !== 200) throw new Error(`POST /v1/quotes answered ${r.status}: ${await r.text()}`);
    await r.json();
  };
  for (let i = 0; i < 20; i++) await roundTrip();

  const wasm = await timeLoop(() => quote(cfg.definition, cfg.basket, cfg.options), cfg.quoteCalls, cfg.maxMillis);
  const http = await timeLoop(roundTrip, cfg.roundTrips, cfg.maxMillis);
  return { wasm, http, timerResolutionMs: timerResolution(), crossOriginIsolated: self.crossOriginIsolated };
};
document.getElementById("out").textContent = "ready";
