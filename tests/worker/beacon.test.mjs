// The checkout page's beacon of codes tried (issue 35, item 8) in workerd: POST /v1/codes/{code}/tries
// is anonymous and rate limited like a quote, answers 204, and is counted in memory in the code's
// object: the figures are written at most once a second, never a write per report, and none is lost.
//
// The writes are counted by the object itself in test builds (GET /v1/__figures/{code}, as
// figures.test.mjs reads them): the proof is the flush log, not timing.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test, putCode, call, admin, eur, startMiniflare, ROOT } from "./harness.mjs";

const skip = process.env.PROMOCODES_CONFORMANCE !== "1" && "worker built without the conformance feature (no write counter)";
const worker = {};
before(async () => { if (!skip) Object.assign(worker, await startMiniflare()); });
after(() => worker.stop?.());

const [, INTERVAL_MS] = readFileSync(path.join(ROOT, "worker/src/stats.rs"), "utf8")
  .match(/^pub const WRITE_INTERVAL_MS: i64 = (\d+);$/m).map(Number);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tried = (code, body) => call(worker.base, "POST", `/v1/codes/${code}/tries`, { body });

async function figureWrites(code) {
  const r = await call(worker.base, "GET", `/v1/__figures/${code}`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

async function periods(code) {
  const r = await call(worker.base, "GET", `/v1/codes/${code}/stats`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return ["total", "last_hour", "last_day", "last_week"].map((p) => ({ tries: r.json[p].tries, page: r.json[p].rejections.page, quotes: r.json[p].quotes }));
}

test("400 reports at once: 204 each, every one counted, figures written at most once a second", { skip }, async () => {
  assert.equal((await putCode(worker.base, { code: "TRIED", discount: { kind: "percent", percent: "10" }, minimum: eur("50.00") })).status, 201);
  const REPORTS = 400;
  const started = performance.now();
  // Half tries (a buyer typed the code); of the refusals the page then showed, 4 in 5 below the
  // minimum (the browser priced them: no quote reached the Worker), 1 in 5 not combinable.
  const answers = await Promise.all(Array.from({ length: REPORTS }, (_, i) =>
    tried("TRIED", i % 2 === 0 ? {} : i % 10 === 9 ? { refused: "not_combinable" } : { refused: "below_minimum" })));
  const elapsed = performance.now() - started;
  assert.deepEqual([...new Set(answers.map((r) => r.status))], [204]);
  assert.ok(answers.every((r) => r.text === ""), "no body");
  const expected = { tries: 200, page: { below_minimum: 160, not_combinable: 40 }, quotes: 0 };
  for (const period of await periods("TRIED")) assert.deepEqual(period, expected, "read with what waits in memory");

  let figures = await figureWrites("TRIED");
  for (let waited = 0; figures.pending > 0 && waited < 10_000; waited += 100) {
    await sleep(100);
    figures = await figureWrites("TRIED");
  }
  console.log(`# ${REPORTS} tries answered in ${Math.round(elapsed)} ms cost ${figures.writes} figures writes`);
  assert.equal(figures.pending, 0, "everything counted was written (by the alarm, without another report)");
  assert.ok(figures.writes >= 1);
  const gaps = figures.written_at.slice(1).map((t, i) => t - figures.written_at[i]);
  assert.ok(gaps.every((gap) => gap >= INTERVAL_MS), `writes ${INTERVAL_MS} ms apart or more: ${gaps}`);
  const allowed = 1 + Math.max(1, Math.ceil(elapsed / INTERVAL_MS));
  assert.ok(figures.writes <= allowed, `${figures.writes} writes for ${REPORTS} reports in ${Math.round(elapsed)} ms (at most ${allowed})`);
  assert.ok(figures.writes < REPORTS / 10, "never a write per request");
  for (const period of await periods("TRIED")) assert.deepEqual(period, expected, "from SQLite alone, none lost");
});

test("bad reports are 4xx and count nothing; an unknown or archived code is a 404", { skip }, async () => {
  assert.equal((await putCode(worker.base, { code: "TRIEDBAD", discount: { kind: "percent", percent: "10" } })).status, 201);
  for (const body of [{ refused: "below_min" }, { refused: 3 }, { refused: "below_minimum", basket: {} }, []]) {
    const r = await tried("TRIEDBAD", body);
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
  }
  const text = await call(worker.base, "POST", "/v1/codes/TRIEDBAD/tries", { raw: "refused=x", headers: { "content-type": "text/plain" } });
  assert.equal(text.status, 415);
  assert.equal((await tried("NOSUCHCODE", {})).status, 404);
  const empty = await call(worker.base, "POST", "/v1/codes/TRIEDBAD/tries", { raw: "", headers: { "content-type": "application/json" } });
  assert.equal(empty.status, 400, "an empty body is no report");
  assert.deepEqual((await periods("TRIEDBAD"))[0], { tries: 0, page: {}, quotes: 0 }, "nothing counted");
  assert.equal((await tried("TRIEDBAD", {})).status, 204);
  assert.deepEqual((await periods("TRIEDBAD"))[0], { tries: 1, page: {}, quotes: 0 });
  assert.equal((await call(worker.base, "DELETE", "/v1/codes/TRIEDBAD", { headers: admin })).status, 200);
  assert.equal((await tried("TRIEDBAD", {})).status, 404, "archived: unknown to buyers");
});

test("the beacon is rate limited per address like the other anonymous routes", { skip }, async () => {
  const limited = await startMiniflare({ publicLimit: 5 });
  try {
    assert.equal((await putCode(limited.base, { code: "LIMITED", discount: { kind: "percent", percent: "10" } })).status, 201);
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(limited.base, "POST", "/v1/codes/LIMITED/tries", { body: {} })));
    const counts = answers.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
    assert.ok(counts[429] >= 10, JSON.stringify(counts));
    assert.deepEqual(Object.keys(counts).sort(), ["204", "429"]);
    const stats = await call(limited.base, "GET", "/v1/codes/LIMITED/stats", { headers: admin });
    assert.equal(stats.json.total.tries, counts[204], "only the answered ones count");
  } finally {
    await limited.stop();
  }
});
