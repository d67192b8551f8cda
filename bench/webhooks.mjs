// Issue 36's figure: a capture's throughput with one webhook endpoint subscribed to every event,
// next to the same captures with none. Both write the outbox's rows (every write does); "with" adds
// the alarm's deliveries, signed and sent to a Node receiver on 127.0.0.1 in the same process tree.
// Rounds alternate without/with on fresh codes so that drift of the machine falls on both; after
// each "with" phase the deliveries are waited for, so that they do not run into the next phase.
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

const EVENTS = ["redemption.held", "redemption.captured", "redemption.released", "redemption.expired", "code.exhausted",
  "budget.threshold", "campaign.exhausted", "code.updated", "campaign.updated"];

/** A receiver that answers 204 and counts the distinct webhook-ids it got. */
async function receiver() {
  const ids = new Set();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      ids.add(req.headers["webhook-id"]);
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { ids, url: `http://127.0.0.1:${server.address().port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Runs `rounds` × (without, with) phases of `clients` clients capturing `total` each on a fresh
 * code; returns { without, with } summaries (the sums' throughput) and the deliveries counted.
 * `load`, `captureRequest` and `putCode` are bench/run.mjs's; `admin` its admin token; `server` the
 * name of the Worker's processes for `load`'s CPU time, `cpuNow()` their CPU milliseconds so far
 * (the deliveries that run on after a phase's captures are counted in its CPU time per capture).
 */
export async function webhookPhases({ origin, server, cpuNow, admin, load, captureRequest, putCode, clients, total, maxMs, rounds = 2, tag, log }) {
  const hook = await receiver();
  const headers = { "content-type": "application/json", authorization: `Bearer ${admin}` };
  const out = { without: { n: 0, ms: 0, cpuMs: 0, p99: [] }, with: { n: 0, ms: 0, cpuMs: 0, p99: [] }, delivered: 0, captured: 0, clients };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const phase of ["without", "with"]) {
        const code = `HOOK${tag}${phase === "with" ? "W" : "O"}${round}`;
        if (phase === "with") {
          const r = await fetch(`${origin}/v1/webhooks/bench`, { method: "PUT", headers, body: JSON.stringify({ url: hook.url, events: EVENTS }) });
          if (r.status !== 201 && r.status !== 200) throw new Error(`PUT /v1/webhooks/bench: ${r.status} ${await r.text()}`);
        }
        // Defined after the endpoint: its code.updated is delivered too (one more than the captures).
        await putCode(origin, code);
        log(`captures, ${clients} client(s), ${phase} a webhook endpoint (round ${round + 1})`);
        const s = await load({ clients, total, maxMs, server, request: captureRequest(origin, () => code, `wh${tag}${phase}${round}`) });
        out[phase].n += s.n;
        out[phase].ms += s.seconds * 1000;
        out[phase].cpuMs += (s.cpuMsPerRequest ?? NaN) * s.n;
        out[phase].p99.push(s.p99Ms);
        if (phase === "with") {
          out.captured += s.n;
          // The deliveries still running after the captures are the capture's cost too.
          const cpu0 = cpuNow?.() ?? 0;
          // Each capture's redemption.captured reaches the receiver (and the code's code.updated).
          const want = (id) => id?.startsWith(`evt_${code}_`);
          const deadline = Date.now() + 120_000;
          while ([...hook.ids].filter(want).length < s.n + 1 && Date.now() < deadline) await sleep(100);
          out.delivered += [...hook.ids].filter(want).length - 1;
          out.with.cpuMs += (cpuNow?.() ?? NaN) - cpu0;
          const d = await fetch(`${origin}/v1/webhooks/bench`, { method: "DELETE", headers });
          if (d.status !== 200 && d.status !== 204) throw new Error(`DELETE /v1/webhooks/bench: ${d.status}`);
        }
      }
    }
  } finally {
    await hook.close();
  }
  for (const phase of ["without", "with"]) {
    out[phase].perSecond = out[phase].n / (out[phase].ms / 1000);
    out[phase].p99Ms = Math.max(...out[phase].p99);
    out[phase].cpuMsPerCapture = out[phase].cpuMs / out[phase].n;
  }
  return out;
}
