// A hot campaign on 1 and 4 shards: 50 clients capturing through the test build of the Worker in
// workerd (as bench/shards.mjs: `BENCH_SERVER`, bench/hot.mjs), every Durable Object held to
// OBJECT_RATE_LIMIT requests a second (50, as in bench/shards.mjs). Two campaigns a row: 4,000 single-use codes, each captured once (the usual
// campaign of unique codes), and one code of 1,000,000 uses. Each capture on a shard first claims
// the code's use at the campaign's object when its shard has none of the code left (one use a
// claim), so this measures what the campaign's object still sees. Prints one markdown table:
// captures a second, p50 and p99 latency, refused or failed.
//
//   PROMOCODES_WORKER_BUILD=worker/build/test node bench/campaign-shards.mjs [--smoke]
import { call, admin, capturer, eur } from "../tests/worker/harness.mjs";
import { LIMIT, SERVER, closedLoop, percentile, withWorker } from "./hot.mjs";

const CODES = 4000;

/** Captures a second on a campaign of `shards` shards: single-use codes (`unique`), else one code of many uses. */
function run(shards, unique) {
  return withWorker(async (worker) => {
    const id = `BC${shards}${unique ? "U" : "M"}`;
    const put = await call(worker.base, "PUT", `/v1/campaigns/${id}`, { headers: admin, body: {
      discount: { kind: "percent", percent: "10" }, limits: { total: 100_000_000 }, uses_per_code: unique ? 1 : 1_000_000, shards } });
    if (put.status !== 201) throw new Error(put.text);
    const codes = Array.from({ length: unique ? CODES : 1 }, (_, i) => `${id}-${String(i).padStart(5, "0")}`);
    const added = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
      body: { codes }, headers: { ...admin, "idempotency-key": `bench-${id}` } });
    if (added.status !== 201) throw new Error(added.text);
    const request = (i) => fetch(`${worker.base}/v1/captures`, {
      method: "POST",
      headers: { ...capturer, "content-type": "application/json", "idempotency-key": `${id}-k${i}` },
      body: JSON.stringify({ code: codes[i % codes.length], total: eur("50.00"), customer: `c-${i}` }),
    });
    const { latencies, seconds, errors } = await closedLoop(request);
    return { shards, unique, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
  });
}

const rows = [];
for (const unique of [true, false]) {
  for (const shards of [1, 4]) {
    process.stderr.write(`[bench campaign-shards] N = ${shards}, ${unique ? "single-use codes" : "one code of many uses"}\n`);
    rows.push(await run(shards, unique));
  }
}
console.log(`| campaign | shards | captures/s (${LIMIT} req/s per object, ${SERVER}) | × N = 1 | p50 ms | p99 ms | refused or failed |`);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const base = rows.find((b) => b.unique === r.unique && b.shards === 1).perSecond;
  const kind = r.unique ? `${CODES.toLocaleString("en")} single-use codes` : "one code of 1,000,000 uses";
  console.log(`| ${kind} | ${r.shards} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / base).toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.errors} |`);
}
