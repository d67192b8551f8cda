// A/B of a campaign's code's capture against a plain code's, in several builds of the Worker, rounds
// interleaved so that the machine's drift falls on every build alike:
//
//   node bench/ab-campaign.mjs NAME=BUILD_DIR ... [--rounds N] [--clients N] [--per-round N]
//
// Each BUILD_DIR is scripts/build-worker.sh's output. Each build gets its own Miniflare with a plain
// code and a campaign of 10,000 generated single-use codes; each round captures `per-round` of each
// with `clients` concurrent clients, the builds in turn. Prints captures per second and the workerd
// processes' CPU time per capture (from /proc, by bench/cpu.mjs: the figure the machine's load
// disturbs least) by build and round, then for each build the medians and the
// campaign / plain ratio's median.
import { Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { children, cpuOf } from "./cpu.mjs";
import { tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const builds = args.filter((a) => a.includes("=")).map((a) => a.split("="));
if (builds.length === 0) throw new Error("usage: node bench/ab-campaign.mjs NAME=BUILD_DIR ... [--rounds N] [--clients N] [--per-round N]");
const rounds = opt("rounds", 5), clients = opt("clients", 50), perRound = opt("per-round", 1000);
const ADMIN = "ab-admin", CAPTURE = "ab-capture", TOTAL = { amount: "80.00", currency: "EUR" };
const scratch = mkdtempSync(path.join(tmpdir(), "promocodes-ab-"));

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function start(name, dir) {
  const before = new Set(children().map((c) => c.pid));
  const mf = new Miniflare({
    host: "127.0.0.1", port: 0, modules: true,
    scriptPath: path.join(dir, "worker/shim.mjs"), modulesRoot: dir,
    modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
    bindings: { ADMIN_TOKEN: ADMIN, CAPTURE_TOKEN: CAPTURE },
    durableObjects: { LEDGER: { className: "Ledger", useSQLite: true }, CATALOG: { className: "Catalog", useSQLite: true } },
    ratelimits: { PUBLIC_LIMITER: { simple: { limit: 100_000_000, period: 10 } } },
    durableObjectsPersist: path.join(scratch, name),
    handleRuntimeStdio(stdout, stderr) { stdout.resume(); stderr.resume(); },
  });
  const origin = (await mf.ready).origin;
  // The workerd processes this Miniflare started.
  const pids = new Set(children().map((c) => c.pid).filter((pid) => !before.has(pid)));
  const put = (url, body) => fetch(`${origin}${url}`, { method: "PUT", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const plain = await put("/v1/codes/PLAIN", { code: "PLAIN", discount: { kind: "percent", percent: "10" }, limits: { total: 1_000_000_000 } });
  if (plain.status !== 201) throw new Error(`PUT code: ${plain.status}`);
  const campaign = await put("/v1/campaigns/AB", { discount: { kind: "percent", percent: "10" }, limits: { total: 1_000_000_000 } });
  if (campaign.status !== 201) throw new Error(`PUT campaign: ${campaign.status}`);
  const codes = [];
  for (let i = 0; codes.length < rounds * perRound + 10; i++) {
    const r = await fetch(`${origin}/v1/campaigns/AB/codes`, {
      method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", "idempotency-key": `gen-${i}` },
      body: JSON.stringify({ count: 10_000 }),
    });
    if (r.status !== 201) throw new Error(`codes: ${r.status} ${await r.text()}`);
    codes.push(...(await r.json()).codes);
  }
  return { name, mf, origin, pids, codes, used: 0, plainKeys: 0 };
}

// Captures/s and workerd's CPU ms per capture of `n` captures on build `b`.
async function load(b, n, bodyOf, tag) {
  const { origin } = b;
  const cpu0 = cpuOf(b.pids);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < n) {
      const i = next++;
      for (let attempt = 0; ; attempt++) {
        const r = await fetch(`${origin}/v1/captures`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${CAPTURE}`, "idempotency-key": `${tag}-${i}` },
          body: JSON.stringify(bodyOf(i)),
        });
        const text = await r.text();
        if (r.status === 201) break;
        if ((r.status === 409 || r.status >= 500) && attempt < 20) continue;
        throw new Error(`capture answered ${r.status}: ${text.slice(0, 200)}`);
      }
    }
  }));
  return { rate: n / ((performance.now() - t0) / 1000), cpu: (cpuOf(b.pids) - cpu0) / n };
}

const started = [];
try {
  for (const [name, dir] of builds) started.push(await start(name, dir));
  const results = Object.fromEntries(builds.map(([name]) => [name, { ratio: [], plain: [], campaign: [], plainCpu: [], campaignCpu: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const b of started) {
      const plain = await load(b, perRound, () => ({ code: "PLAIN", total: TOTAL }), `p${round}`);
      const offset = b.used;
      const campaign = await load(b, perRound, (i) => ({ code: b.codes[offset + i], total: TOTAL }), `c${round}`);
      b.used += perRound;
      const r = results[b.name];
      r.ratio.push(campaign.rate / plain.rate);
      r.plain.push(plain.rate);
      r.campaign.push(campaign.rate);
      r.plainCpu.push(plain.cpu);
      r.campaignCpu.push(campaign.cpu);
      console.log(`round ${round} ${b.name}: plain ${plain.rate.toFixed(0)}/s (${plain.cpu.toFixed(2)} ms CPU a capture), campaign ${
        campaign.rate.toFixed(0)}/s (${campaign.cpu.toFixed(2)} ms), ratio ${(campaign.rate / plain.rate).toFixed(2)}`);
    }
  }
  for (const [name, r] of Object.entries(results)) {
    console.log(`${name}, medians of ${rounds}: plain ${median(r.plain).toFixed(0)}/s (${median(r.plainCpu).toFixed(2)} ms CPU a capture), campaign ${
      median(r.campaign).toFixed(0)}/s (${median(r.campaignCpu).toFixed(2)} ms); campaign / plain ${median(r.ratio).toFixed(2)}`);
  }
} finally {
  for (const b of started) await b.mf.dispose();
  rmSync(scratch, { recursive: true, force: true });
}
