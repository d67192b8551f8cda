// The operator's side against the real Worker in workerd: the catalog (with a failure between
// its two writes), archive and restore, the kill switch, live figures, and lookups of unknown
// codes that write nothing.
import assert from "node:assert/strict";
import { readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { test, putCode, call, captureReq, admin, capturer, eur, workerForFile, startWorker, tempDir, removeDir, testShards } from "./harness.mjs";

const worker = workerForFile();

const base = () => worker.base;
const def = (code, extra = {}) => ({ code, discount: { kind: "percent", percent: "10" }, ...extra });
const list = (query = "") => call(base(), "GET", `/v1/codes${query}`, { headers: admin });

/** Every code of the catalog, page by page. */
async function allCodes(query = "", limit = 100) {
  const seen = [];
  let after = "";
  let pages = 0;
  for (;;) {
    const page = await list(`?limit=${limit}${after ? `&after=${after}` : ""}${query}`);
    assert.equal(page.status, 200, page.text);
    pages++;
    seen.push(...page.json.codes);
    if (page.json.next === null) return { seen, pages };
    after = page.json.next;
  }
}

/** The SQLite files of the code objects in the persisted state. */
function objectFiles() {
  const root = path.join(worker.state, "v3", "do");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((dir) => dir.endsWith("-Ledger"))
    .flatMap((dir) => readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"));
}

test("lookups, quotes, holds, captures and releases of unknown codes write nothing", async () => {
  assert.equal((await putCode(base(), def("KNOWN1"))).status, 201);
  const before = objectFiles().length;
  assert.ok(before >= 1);
  const basket = (i) => ({ code: `GUESS${i}`, total: eur("10.00") });
  const keyed = (i) => ({ ...capturer, "idempotency-key": `guess-${i}` });
  const guesses = await Promise.all(Array.from({ length: 100 }, (_, i) => [
    () => call(base(), "GET", `/v1/codes/GUESS${i}`),
    () => call(base(), "POST", "/v1/quotes", { body: basket(i) }),
    () => call(base(), "POST", "/v1/holds", { body: basket(i), headers: keyed(i) }),
    () => captureReq(base(), `guess-${i}`, basket(i)),
    () => call(base(), "POST", "/v1/releases", { body: { code: `GUESS${i}`, key: `guess-${i}` }, headers: capturer }),
  ][i % 5]()));
  assert.ok(guesses.every((r) => r.status === 404 && r.json.type === "/problems/unknown_code"), JSON.stringify(guesses.map((r) => r.status)));
  assert.equal(objectFiles().length, before, "no object was created for a guessed code");
  assert.equal((await call(base(), "GET", "/v1/codes/KNOWN1")).status, 200);
  assert.equal((await captureReq(base(), "known-1", { code: "KNOWN1", total: eur("10.00") })).status, 201);
});

test("the catalog lists 250 codes over three pages with no gap or repeat, also after a failure between its two writes", async () => {
  const codes = Array.from({ length: 250 }, (_, i) => `CAT${String(i).padStart(3, "0")}`);
  for (let i = 0; i < codes.length; i += 25) {
    const batch = codes.slice(i, i + 25).filter((c) => c !== "CAT123");
    const puts = await Promise.all(batch.map((code) => putCode(base(), def(code, { limits: { total: 5 } }))));
    assert.ok(puts.every((r) => r.status === 201), JSON.stringify(puts.map((r) => r.status)));
  }
  // The PUT of CAT123 writes the code's object, then fails before the catalog's commit.
  const failed = await call(base(), "PUT", "/v1/codes/CAT123", {
    body: def("CAT123", { limits: { total: 5 } }), headers: { ...admin, "x-test-fail-after-ledger": "1" } });
  assert.equal(failed.status, 500, failed.text);
  assert.equal((await call(base(), "GET", "/v1/codes/CAT123")).status, 200, "the code's object has it");

  const { seen, pages } = await allCodes("&prefix=CAT", 100);
  assert.equal(pages, 3);
  assert.deepEqual(seen.map((c) => c.code), codes, "every code once, in code order, the failed one repaired");
  const sample = seen[7];
  assert.equal(sample.active, true);
  assert.deepEqual(sample.limits, { total: 5 });
  assert.deepEqual(sample.usage, { total: 0, held: 0 });
  assert.equal(sample.archived, false);

  // A retried PUT is idempotent: replaced, nothing doubled.
  const retried = await putCode(base(), def("CAT123", { limits: { total: 5 } }));
  assert.equal(retried.status, 200);
  assert.equal((await allCodes("&prefix=CAT", 100)).seen.length, 250);
  // Prefix, limit and bad parameters.
  const few = await list("?prefix=cat24&limit=3");
  assert.deepEqual(few.json.codes.map((c) => c.code), ["CAT240", "CAT241", "CAT242"]);
  assert.equal(few.json.next, "CAT242");
  // A parameter given empty is no default but a 400 naming it (leave it out for its default).
  assert.equal((await list("")).json.codes.length, 100);
  for (const bad of ["?limit=0", "?limit=1001", "?limit=x", "?archived=maybe", "?prefix=&limit=3", "?after=", "?limit=",
    "?archived="]) {
    const r = await list(bad);
    assert.equal(r.status, 400, bad);
    assert.match(r.json.detail, new RegExp(`^${bad.match(/\?(\w+)=/)[1]}`), bad);
  }
  assert.equal((await call(base(), "GET", "/v1/codes")).status, 401);
});

test("archive and restore: buyers get 404, the history stays, defining it again restores its counts", async () => {
  assert.equal((await putCode(base(), def("OLD", { limits: { total: 10 } }))).status, 201);
  assert.equal((await captureReq(base(), "old-1", { code: "OLD", total: eur("10.00") })).status, 201);
  const archived = await call(base(), "DELETE", "/v1/codes/OLD", { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.json.archived, true);
  assert.equal((await call(base(), "GET", "/v1/codes/OLD")).status, 404);
  const quote = await call(base(), "POST", "/v1/quotes", { body: { code: "OLD", total: eur("10.00") } });
  assert.equal(quote.status, 404);
  assert.equal(quote.json.type, "/problems/unknown_code");
  assert.equal((await captureReq(base(), "old-2", { code: "OLD", total: eur("10.00") })).status, 404);
  const replay = await captureReq(base(), "old-1", { code: "OLD", total: eur("10.00") });
  assert.equal(replay.status, 200, "a retry of a capture recorded before still replays");
  const history = await call(base(), "GET", "/v1/codes/OLD/redemptions", { headers: admin });
  assert.equal(history.status, 200);
  assert.equal(history.json.redemptions.length, 1);
  const visible = (await allCodes("&prefix=OLD")).seen;
  assert.deepEqual(visible, [], "archived codes are not listed by default");
  const withArchived = (await allCodes("&prefix=OLD&archived=true")).seen;
  assert.equal(withArchived.length, 1);
  assert.equal(withArchived[0].archived, true);
  assert.deepEqual(withArchived[0].usage, { total: 1, held: 0 });
  assert.equal((await call(base(), "DELETE", "/v1/codes/NEVER", { headers: admin })).status, 404);
  assert.equal((await call(base(), "DELETE", "/v1/codes/OLD")).status, 401);

  const restored = await putCode(base(), def("OLD", { limits: { total: 10 } }));
  assert.equal(restored.status, 200);
  const view = await call(base(), "GET", "/v1/codes/OLD");
  assert.equal(view.status, 200);
  assert.deepEqual(view.json.usage, { total: 1, held: 0 }, "restored with its counts");
  assert.equal((await allCodes("&prefix=OLD")).seen[0].archived, false);
});

test("the kill switch refuses quotes and captures at once; holds already recorded are not affected; on again captures", async () => {
  assert.equal((await putCode(base(), def("KILL", { limits: { total: 10 } }))).status, 201);
  const held = await call(base(), "POST", "/v1/holds", { body: { code: "KILL", total: eur("80.00") }, headers: { ...capturer, "idempotency-key": "kill-held" } });
  assert.equal(held.status, 201);
  const off = await call(base(), "PATCH", "/v1/codes/KILL", { body: { active: false }, headers: admin });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.json.active, false);
  assert.deepEqual(off.json.limits, { total: 10 }, "nothing else changed");
  const quote = await call(base(), "POST", "/v1/quotes", { body: { code: "KILL", total: eur("80.00") } });
  assert.equal(quote.status, 422);
  assert.equal(quote.json.rejection, "inactive");
  const capture = await captureReq(base(), "kill-1", { code: "KILL", total: eur("80.00") });
  assert.equal(capture.status, 422);
  assert.equal(capture.json.rejection, "inactive");
  const refusedNothing = await call(base(), "GET", "/v1/codes/KILL/redemptions", { headers: admin });
  assert.deepEqual(refusedNothing.json.redemptions.map((r) => r.idempotency_key), ["kill-held"], "the refusal recorded nothing");
  assert.equal((await call(base(), "GET", "/v1/codes/KILL")).json.active, false, "the page sees it is off");
  const converted = await captureReq(base(), "kill-held", { code: "KILL", total: eur("80.00") });
  assert.equal(converted.status, 201, "a hold recorded before the switch still captures");
  const on = await call(base(), "PATCH", "/v1/codes/KILL", { body: { active: true }, headers: admin });
  assert.equal(on.json.active, true);
  assert.equal((await captureReq(base(), "kill-2", { code: "KILL", total: eur("80.00") })).status, 201);
  for (const [body, status] of [[{ active: "no" }, 400], [{ active: false, limits: {} }, 400], [{}, 400]]) {
    const r = await call(base(), "PATCH", "/v1/codes/KILL", { body, headers: admin });
    assert.equal(r.status, status, JSON.stringify(body));
  }
  assert.equal((await call(base(), "PATCH", "/v1/codes/NOPE", { body: { active: false }, headers: admin })).status, 404);
  assert.equal((await call(base(), "PATCH", "/v1/codes/KILL", { body: { active: false } })).status, 401);
});

test("stats match a known mix of 30 captures, 5 replays, 10 rejections and a forced conflict", async () => {
  assert.equal((await putCode(base(), def("FIG", { minimum: eur("20.00") }))).status, 201);
  for (let i = 0; i < 30; i++) assert.equal((await captureReq(base(), `fig-${i}`, { code: "FIG", total: eur("50.00") })).status, 201);
  for (let i = 0; i < 5; i++) assert.equal((await captureReq(base(), `fig-${i}`, { code: "FIG", total: eur("50.00") })).status, 200);
  for (let i = 0; i < 10; i++) {
    const r = await captureReq(base(), `fig-small-${i}`, { code: "FIG", total: eur("10.00") });
    assert.equal(r.json.rejection, "below_minimum");
  }
  const conflict = await call(base(), "POST", "/v1/captures", {
    body: { code: "FIG", total: eur("50.00") }, headers: { ...capturer, "idempotency-key": "fig-busy", "x-test-conflict": "1" } });
  assert.equal(conflict.status, 409, conflict.text);
  assert.equal(conflict.headers.get("retry-after"), "1");
  for (let i = 0; i < 3; i++) assert.equal((await call(base(), "POST", "/v1/quotes", { body: { code: "FIG", total: eur("5.00") } })).status, 422);
  assert.equal((await call(base(), "POST", "/v1/quotes", { body: { code: "FIG", total: eur("50.00") } })).status, 200);

  const stats = await call(base(), "GET", "/v1/codes/FIG/stats", { headers: admin });
  assert.equal(stats.status, 200, stats.text);
  for (const period of ["total", "last_hour"]) {
    const f = stats.json[period];
    assert.equal(f.captures, 30, period);
    assert.equal(f.replays, 5, period);
    assert.equal(f.conflicts, 1, period);
    assert.equal(f.holds, 0, period);
    assert.equal(f.releases, 0, period);
    assert.equal(f.quotes, 1, period);
    assert.deepEqual(f.rejections.captures, { below_minimum: 10 }, period);
    assert.deepEqual(f.rejections.quotes, { below_minimum: 3 }, period);
  }
  assert.ok(stats.json.defined_at);
  // The catalog's summary says the same first definition (the console sorts newest first by it).
  const listed = await call(base(), "GET", "/v1/codes?prefix=FIG&limit=1", { headers: admin });
  assert.equal(listed.json.codes[0].code, "FIG");
  assert.equal(listed.json.codes[0].defined_at, stats.json.defined_at);
  // The last hour minute by minute: 60 minutes, the last one `at`'s, adding up to `last_hour`.
  const minutes = stats.json.by_minute;
  assert.equal(minutes.length, 60);
  const startOf = (t) => Math.floor(Date.parse(t) / 60_000) * 60_000;
  assert.equal(Date.parse(minutes.at(-1).minute), startOf(stats.json.at));
  for (let i = 1; i < 60; i++) assert.equal(Date.parse(minutes[i].minute) - Date.parse(minutes[i - 1].minute), 60_000);
  const sum = (name) => minutes.reduce((n, m) => n + m.figures[name], 0);
  for (const name of ["captures", "replays", "conflicts", "quotes", "holds"]) assert.equal(sum(name), stats.json.last_hour[name], name);
  assert.equal(minutes.reduce((n, m) => n + (m.figures.rejections.captures.below_minimum ?? 0), 0), 10);
  assert.equal((await call(base(), "GET", "/v1/codes/FIG/stats")).status, 401);
  assert.equal((await call(base(), "GET", "/v1/codes/NOPE/stats", { headers: admin })).status, 404);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("the public lookup is served from the edge cache for a few seconds; a token reads live; a change purges it", async () => {
  assert.equal((await putCode(base(), def("CROWD", { limits: { total: 100 } }))).status, 201);
  const first = await call(base(), "GET", "/v1/codes/CROWD");
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("x-promocodes-cache"), "miss");
  // Browsers ask again each time (the edge answers); only the edge keeps a copy, which purges reach.
  assert.equal(first.headers.get("cache-control"), "no-cache");
  const cached = await call(base(), "GET", "/v1/codes/CROWD");
  assert.equal(cached.headers.get("x-promocodes-cache"), "hit");
  assert.equal(cached.headers.get("cache-control"), "no-cache");
  assert.deepEqual(cached.json, first.json);
  const live = await call(base(), "GET", "/v1/codes/CROWD", { headers: admin });
  assert.equal(live.headers.get("x-promocodes-cache"), null);
  assert.equal(live.headers.get("cache-control"), "no-store");
  assert.deepEqual(live.json.usage, { total: 0, held: 0 });
  // Switching it off purges the entry at once.
  assert.equal((await call(base(), "PATCH", "/v1/codes/CROWD", { body: { active: false }, headers: admin })).status, 200);
  const off = await call(base(), "GET", "/v1/codes/CROWD");
  assert.equal(off.json.active, false);
  assert.equal(off.headers.get("x-promocodes-cache"), "miss");
  assert.equal((await call(base(), "GET", "/v1/codes/CROWD")).headers.get("x-promocodes-cache"), "hit");
  // With no write, the entry ages out after its max-age (5 s).
  await sleep(5_500);
  const later = await call(base(), "GET", "/v1/codes/CROWD");
  assert.equal(later.headers.get("x-promocodes-cache"), "miss", "expired after max-age");
  assert.equal(later.json.active, false);
});

test("a hold, capture or release after a cached lookup purges it: the buyer's next lookup is live", async () => {
  // On one object: its writes purge (a sharded code's lookup is a second behind instead: shards.test.mjs).
  assert.equal((await putCode(base(), def("FEW", { limits: { total: 3 }, shards: 1 }))).status, 201);
  const lookup = () => call(base(), "GET", "/v1/codes/FEW");
  const expectLookup = async (cache, usage, remaining, why) => {
    const r = await lookup();
    assert.equal(r.headers.get("x-promocodes-cache"), cache, why);
    assert.deepEqual(r.json.usage, usage, why);
    assert.equal(r.json.remaining, remaining, why);
  };
  await expectLookup("miss", { total: 0, held: 0 }, 3, "first lookup");
  await expectLookup("hit", { total: 0, held: 0 }, 3, "no write since");
  assert.equal((await captureReq(base(), "few-1", { code: "FEW", total: eur("10.00") })).status, 201);
  await expectLookup("miss", { total: 1, held: 0 }, 2, "the capture purged it");
  const hold = (key) => call(base(), "POST", "/v1/holds", { body: { code: "FEW", total: eur("10.00") }, headers: { ...capturer, "idempotency-key": key } });
  assert.equal((await hold("few-2")).status, 201);
  await expectLookup("miss", { total: 2, held: 1 }, 1, "the hold purged it");
  await expectLookup("hit", { total: 2, held: 1 }, 1, "no write since");
  assert.equal((await hold("few-2")).status, 200, "a replay changes no count");
  await expectLookup("hit", { total: 2, held: 1 }, 1, "a replay purges nothing");
  assert.equal((await call(base(), "POST", "/v1/releases", { body: { code: "FEW", key: "few-2" }, headers: capturer })).status, 200);
  await expectLookup("miss", { total: 1, held: 0 }, 2, "the release purged it");
  // Writes with no lookup in between: the first purges, and the next lookup sees both.
  assert.equal((await hold("few-3")).status, 201);
  assert.equal((await hold("few-4")).status, 201);
  await expectLookup("miss", { total: 3, held: 2 }, 0, "purged by the first of the two writes");
});

test("a cached lookup is kept no longer than the code's next hold runs: expiry changes the counts without a write", async () => {
  assert.equal((await putCode(base(), def("BRIEF", { limits: { total: 10 } }))).status, 201);
  const held = await call(base(), "POST", "/v1/holds", {
    body: { code: "BRIEF", total: eur("10.00"), ttl_seconds: 3 },
    headers: { ...capturer, "idempotency-key": "brief-1" },
  });
  assert.equal(held.status, 201);
  const during = await call(base(), "GET", "/v1/codes/BRIEF");
  assert.equal(during.headers.get("x-promocodes-cache"), "miss");
  assert.deepEqual(during.json.usage, { total: 1, held: 1 });
  assert.equal((await call(base(), "GET", "/v1/codes/BRIEF")).headers.get("x-promocodes-cache"), "hit");
  await sleep(Date.parse(held.json.expires_at) - Date.now() + 300);
  const after = await call(base(), "GET", "/v1/codes/BRIEF");
  assert.deepEqual(after.json.usage, { total: 0, held: 0 }, "the hold expired: no copy that counted it is served");
  assert.equal(after.json.remaining, 10);
});

test("one JSON log line per hold, capture and release, refused ones included", async () => {
  const logged = await startWorker({ state: tempDir("promocodes-logs-"), logLevel: "log" });
  try {
    assert.equal((await putCode(logged.base, def("LOGS", { minimum: eur("5.00") }))).status, 201);
    const held = await call(logged.base, "POST", "/v1/holds", { body: { code: "LOGS", total: eur("10.00") }, headers: { ...capturer, "idempotency-key": "log-1" } });
    assert.equal(held.status, 201);
    assert.equal((await captureReq(logged.base, "log-1", { code: "LOGS", total: eur("10.00") })).status, 201);
    assert.equal((await call(logged.base, "POST", "/v1/releases", { body: { code: "LOGS", key: "log-1", reason: "refund" }, headers: capturer })).status, 200);
    assert.equal((await captureReq(logged.base, "log-2", { code: "LOGS", total: eur("1.00") })).status, 422);
    assert.equal((await captureReq(logged.base, "log-3", { code: "LOGS", total: eur("0.00"), customer: "" })).status, 400);
    assert.equal((await captureReq(logged.base, "log-4", { code: "NOLOGS", total: eur("10.00") })).status, 404);
    assert.equal((await call(logged.base, "POST", "/v1/releases", { body: { code: "LOGS", key: "log-404" }, headers: capturer })).status, 404);
    assert.equal((await call(logged.base, "POST", "/v1/releases", { body: { code: "NOLOGS", key: "log-1" }, headers: capturer })).status, 404);
    const noToken = await call(logged.base, "POST", "/v1/holds", { body: { code: "LOGS", total: eur("10.00") }, headers: { "idempotency-key": "log-5" } });
    assert.equal(noToken.status, 401);
    const expected = [
      "LOGS/hold:held:",
      "LOGS/capture:captured:",
      "LOGS/release:released:",
      "LOGS/capture:rejected:below_minimum",
      "LOGS/capture:problem:invalid_request",
      "NOLOGS/capture:problem:unknown_code",
      "LOGS/release:problem:unknown_key",
      "NOLOGS/release:problem:unknown_code",
      "null/hold:problem:unauthorized",
    ];
    // wrangler prints workerd's output as it comes: wait (at most 10 s) for as many lines as expected, then a moment for any extra.
    const opLines = () => logged.log().split("\n").map((l) => l.slice(l.indexOf("{"))).filter((l) => l.startsWith('{"'))
      .map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter((l) => l && typeof l.op === "string");
    for (let waited = 0; waited < 10_000 && opLines().length < expected.length; waited += 100) await sleep(100);
    await sleep(300);
    const lines = opLines();
    const seen = lines.map((l) => `${l.code}/${l.op}:${l.outcome}:${l.rejection ?? l.problem ?? ""}`);
    assert.deepEqual(seen, expected, logged.log());
    assert.ok(lines.every((l) => typeof l.ms === "number"));
  } finally {
    await logged.stop();
    removeDir(logged.state);
  }
});

/** A CSV text's rows, each a list of cells (RFC 4180: quoted cells, doubled quotes, any line end). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(cell); cell = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) { row.push(cell); rows.push(row); }
  return rows;
}

const CSV_COLUMNS = ["seq", "idempotency_key", "state", "customer", "total", "discount", "payable", "currency", "at", "reason"];

test("a code's and a campaign's redemptions export as CSV, every page, with formula cells neutralised", async () => {
  // Values a spreadsheet would run as a formula (a customer id and a reason hold no control character,
  // so a tab or a carriage return cannot reach a cell through them; the cell function's unit test has those).
  const formulas = ["=1+1", "+SUM(A1)", "-2+3", "@cmd|' /C calc'!A0"];
  assert.equal((await putCode(base(), def("CSVOUT"))).status, 201);
  for (const [i, customer] of formulas.entries()) {
    const held = await call(base(), "POST", "/v1/holds", {
      body: { code: "CSVOUT", total: eur("50.00"), customer }, headers: { ...capturer, "idempotency-key": `csv-${i}` } });
    assert.equal(held.status, 201, held.text);
  }
  const released = await call(base(), "POST", "/v1/releases", {
    body: { code: "CSVOUT", key: "csv-0", reason: "=HYPERLINK(\"http://evil.example\",\"a, b\")" }, headers: capturer });
  assert.equal(released.status, 200, released.text);
  assert.equal((await call(base(), "POST", "/v1/releases", { body: { code: "CSVOUT", key: "csv-1", reason: "-refund" }, headers: capturer })).status, 200);
  assert.equal((await captureReq(base(), "csv-2", { code: "CSVOUT", total: eur("50.00"), customer: formulas[2] })).status, 201);
  // More than one page of the object's history (1,000 a page): the export pages through all of it.
  for (let start = 0; start < 1000; start += 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, (_, j) =>
      captureReq(base(), `csv-bulk-${start + j}`, { code: "CSVOUT", total: eur("20.00") })));
    assert.ok(batch.every((r) => r.status === 201), "every bulk capture recorded");
  }
  const exported = await call(base(), "GET", "/v1/codes/CSVOUT/redemptions", { headers: { ...admin, accept: "text/csv" } });
  assert.equal(exported.status, 200, exported.text);
  assert.match(exported.headers.get("content-type"), /^text\/csv/);
  const rows = parseCsv(exported.text);
  assert.deepEqual(rows[0], CSV_COLUMNS, "the console's columns, a header row");
  assert.equal(rows.length, 1 + 1004, "every record, across pages");
  assert.ok(rows.every((row) => row.length === CSV_COLUMNS.length), "every row has every column");
  const seqs = rows.slice(1).map((row) => Number(row[0]));
  if (testShards === 1) assert.ok(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]), "oldest first, each once");
  // A sharded code's history merges its objects' records: `seq` is each object's own, so each key once.
  else assert.equal(new Set(rows.slice(1).map((row) => row[1])).size, 1004, "each once");
  const byKey = Object.fromEntries(rows.slice(1).map((row) => [row[1], Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, row[i]]))]));
  for (const [i, customer] of formulas.entries()) assert.equal(byKey[`csv-${i}`].customer, `'${customer}`, "a formula cell starts with '");
  assert.equal(byKey["csv-0"].reason, "'=HYPERLINK(\"http://evil.example\",\"a, b\")");
  assert.equal(byKey["csv-0"].state, "released");
  assert.equal(byKey["csv-1"].reason, "'-refund");
  assert.equal(byKey["csv-2"].state, "captured");
  assert.equal(byKey["csv-3"].state, "held");
  assert.deepEqual([byKey["csv-2"].total, byKey["csv-2"].discount, byKey["csv-2"].payable, byKey["csv-2"].currency], ["50.00", "5.00", "45.00", "EUR"]);
  assert.ok(Date.parse(byKey["csv-2"].at) > 0, "when it last changed");
  for (const row of rows.slice(1)) for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, "no cell a spreadsheet runs");
  // Without the CSV type, the JSON page as before.
  const page = await call(base(), "GET", "/v1/codes/CSVOUT/redemptions?limit=2", { headers: admin });
  assert.equal(page.status, 200, page.text);
  assert.equal(page.json.redemptions.length, 2);

  // A campaign's: each record with the code it came through, after its number.
  assert.equal((await call(base(), "PUT", "/v1/campaigns/CSVCAMP", { body: { discount: { kind: "percent", percent: "10" } }, headers: admin })).status, 201);
  const added = await call(base(), "POST", "/v1/campaigns/CSVCAMP/codes", { body: { codes: ["-CSV-A", "CSV-B"] }, headers: { ...admin, "idempotency-key": "csvcamp-1" } });
  assert.equal(added.status, 201, added.text);
  assert.equal((await captureReq(base(), "csvcamp-a", { code: "-CSV-A", total: eur("30.00"), customer: "@home" })).status, 201);
  const hold = await call(base(), "POST", "/v1/holds", {
    body: { code: "CSV-B", total: eur("30.00"), customer: "+49 30 123" }, headers: { ...capturer, "idempotency-key": "csvcamp-b" } });
  assert.equal(hold.status, 201, hold.text);
  assert.equal((await call(base(), "POST", "/v1/releases", { body: { code: "CSV-B", key: "csvcamp-b", reason: "=cancelled" }, headers: capturer })).status, 200);
  const campaign = await call(base(), "GET", "/v1/campaigns/CSVCAMP/redemptions", { headers: { ...admin, accept: "text/csv" } });
  assert.equal(campaign.status, 200, campaign.text);
  assert.match(campaign.headers.get("content-type"), /^text\/csv/);
  const campaignRows = parseCsv(campaign.text);
  assert.deepEqual(campaignRows[0], ["seq", "code", ...CSV_COLUMNS.slice(1)]);
  assert.equal(campaignRows.length, 3);
  const [a, b] = campaignRows.slice(1);
  assert.deepEqual([a[1], a[2], a[3], a[4]], ["'-CSV-A", "csvcamp-a", "captured", "'@home"]);
  assert.deepEqual([b[1], b[2], b[3], b[4], b.at(-1)], ["CSV-B", "csvcamp-b", "released", "'+49 30 123", "'=cancelled"]);
});
