// Times the browser module against a POST /v1/quotes round trip to the Worker, in one page:
// - promo.quote(basket, options) on a code parsed once (PromoCode.parse), for a basket of one total
//   (the same one each call, and two in turn) and for a basket of 3 lines with shipping: what a
//   checkout page does as the buyer edits the basket;
// - the one-shot quote(definition, basket, options), which also parses the definition every call;
// - a stack of 3 codes (product, order, shipping: the issue 21 example's MUGS20, SAVE10, SHIPFREE)
//   parsed once (PromoStack.parse), quoting the 3-line basket: cfg.stack = [definitions];
// - the round trip, for the same code and basket.
// window.runBench({definition, basket, lines, options, request, quoteCalls, oneShotCalls, roundTrips,
// maxMillis}) → stats. With roundTrips 0 it times the module alone (no server needed).
import init, { quote, PromoCode, PromoStack } from "./pkg/promocodes.js";

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

/// The mean of many calls of a synchronous fn(), timed as one loop (no timer call between them):
/// what a call costs without the cost of reading the clock around it.
function timeBatch(fn, count, maxMillis) {
  const deadline = performance.now() + maxMillis;
  const start = performance.now();
  let n = 0;
  while (n < count) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    if (performance.now() > deadline) break;
  }
  return { n, meanMs: (performance.now() - start) / n };
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
  const promo = PromoCode.parse(cfg.definition);
  const expect = (r, what) => {
    if (!r.ok) throw new Error(`${what} refused: ${JSON.stringify(r)}`);
    return r;
  };
  // The parsed code and the one-shot function answer alike before anything is timed.
  const total = JSON.stringify(expect(promo.quote(cfg.basket, cfg.options), "handle quote"));
  if (total !== JSON.stringify(quote(cfg.definition, cfg.basket, cfg.options))) throw new Error("handle and one-shot differ");
  expect(promo.quote(cfg.lines, cfg.options), "handle quote of lines");
  // Warm up every path before timing.
  for (let i = 0; i < 20000; i++) {
    promo.quote(cfg.basket, cfg.options);
    promo.quote(cfg.lines, cfg.options);
  }
  for (let i = 0; i < 2000; i++) quote(cfg.definition, cfg.basket, cfg.options);
  const body = JSON.stringify(cfg.request);
  const roundTrip = async () => {
    const r = await fetch("/v1/quotes", { method: "POST", headers: { "content-type": "application/json" }, body });
    if (r.status !== 200) throw new Error(`POST /v1/quotes answered ${r.status}: ${await r.text()}`);
    await r.json();
  };
  if (cfg.roundTrips > 0) for (let i = 0; i < 20; i++) await roundTrip();

  const out = { timerResolutionMs: timerResolution(), crossOriginIsolated: self.crossOriginIsolated };
  out.handle = await timeLoop(() => promo.quote(cfg.basket, cfg.options), cfg.quoteCalls, cfg.maxMillis);
  out.handleBatch = timeBatch(() => promo.quote(cfg.basket, cfg.options), cfg.quoteCalls, cfg.maxMillis);
  // Two baskets in turn: no answer is the one before it (the helpers skip decoding a repeated answer).
  const other = { total: { ...cfg.basket.total, amount: "80.01" } };
  let flip = false;
  out.handleAlternateBatch = timeBatch(
    () => promo.quote((flip = !flip) ? other : cfg.basket, cfg.options),
    cfg.quoteCalls,
    cfg.maxMillis,
  );
  out.handleLines = await timeLoop(() => promo.quote(cfg.lines, cfg.options), cfg.quoteCalls, cfg.maxMillis);
  out.handleLinesBatch = timeBatch(() => promo.quote(cfg.lines, cfg.options), cfg.quoteCalls, cfg.maxMillis);
  out.wasm = await timeLoop(() => quote(cfg.definition, cfg.basket, cfg.options), cfg.oneShotCalls, cfg.maxMillis);
  if (cfg.stack) {
    const stack = PromoStack.parse(cfg.stack);
    const first = stack.quote(cfg.lines, cfg.options);
    if (!first.ok || first.quote.codes.length !== cfg.stack.length) throw new Error(`stack refused: ${JSON.stringify(first)}`);
    for (let i = 0; i < 20000; i++) stack.quote(cfg.lines, cfg.options);
    out.stackLinesBatch = timeBatch(() => stack.quote(cfg.lines, cfg.options), cfg.quoteCalls, cfg.maxMillis);
    // Two baskets in turn: none is the basket read last (the module keeps what it read last).
    const otherLines = { ...cfg.lines, shipping: { ...cfg.lines.shipping, amount: "4.95" } };
    let turn = false;
    out.stackAlternateBatch = timeBatch(
      () => stack.quote((turn = !turn) ? otherLines : cfg.lines, cfg.options),
      cfg.quoteCalls,
      cfg.maxMillis,
    );
    stack.free();
  }
  if (cfg.roundTrips > 0) out.http = await timeLoop(roundTrip, cfg.roundTrips, cfg.maxMillis);
  promo.free();
  return out;
};
document.getElementById("out").textContent = "ready";
