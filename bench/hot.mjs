// What bench/shards.mjs and bench/campaign-shards.mjs share: the server each run starts, the
// closed loop of clients that capture until the measured window ends, and the percentile.
import { startWorker, startMiniflare, tempDir, removeDir } from "../tests/worker/harness.mjs";

export const smoke = process.argv.includes("--smoke");
export const CLIENTS = 50;
const WARM_MS = smoke ? 1000 : 3000;
const RUN_MS = smoke ? 3000 : 15000;
/** Each Durable Object's requests a second (the test build's `OBJECT_RATE_LIMIT`; 0: none). */
export const LIMIT = Number(process.env.BENCH_OBJECT_RATE_LIMIT ?? "50");
// `miniflare` (default): workerd through Miniflare directly, state persisted on disk as wrangler's
// is, a request reaching the Worker from workerd's own HTTP server as on the platform (the Worker's
// log lines read and dropped, as the wrangler run's are); `wrangler`: wrangler dev, as the tests
// run it, with its proxy (a second Worker and a Node process) in front of each request, which caps
// this machine near 300 captures a second (docs/performance.md).
export const SERVER = process.env.BENCH_SERVER ?? "miniflare";
if (!["wrangler", "miniflare"].includes(SERVER)) throw new Error(`BENCH_SERVER: wrangler or miniflare, not ${SERVER}`);

export const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `body(worker)` on a fresh Worker (the test build, on `SERVER`, each object held to `LIMIT`), then stops it. */
export async function withWorker(body) {
  const state = tempDir();
  const vars = { OBJECT_RATE_LIMIT: String(LIMIT) };
  const worker = SERVER === "miniflare" ? await startMiniflare({ vars, persist: state, quiet: true }) : await startWorker({ state, vars });
  try {
    return await body(worker);
  } finally {
    await worker.stop();
    removeDir(state);
  }
}

/**
 * `CLIENTS` clients, each sending `request(i)` (a fetch, `i` counting every request) again as soon
 * as it is answered, warmed up, then measured. `seen(response, measuring)` sees every answer.
 * Returns the sorted latencies of the 201s in the window, its seconds, and the other answers and
 * failures in it.
 */
export async function closedLoop(request, seen = () => {}) {
  let n = 0;
  let measuring = false;
  let stop = false;
  const latencies = [];
  let errors = 0;
  const client = async () => {
    while (!stop) {
      const started = performance.now();
      let res;
      try {
        res = await request(n++);
        await res.arrayBuffer();
      } catch {
        errors++;
        continue;
      }
      const ms = performance.now() - started;
      seen(res, measuring);
      if (!measuring) continue;
      if (res.status === 201) latencies.push(ms);
      else errors++;
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  await new Promise((r) => setTimeout(r, WARM_MS));
  measuring = true;
  const began = performance.now();
  await new Promise((r) => setTimeout(r, RUN_MS));
  measuring = false;
  const seconds = (performance.now() - began) / 1000;
  stop = true;
  await Promise.all(clients);
  latencies.sort((a, b) => a - b);
  return { latencies, seconds, errors };
}
