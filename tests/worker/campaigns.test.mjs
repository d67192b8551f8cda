// Campaigns of many codes in workerd: a campaign and all of its codes live in one Durable Object, so
// one SQLite transaction reaches a code's count, the campaign's counts and its budget; the catalog
// keeps every code unique across codes and campaigns.
import assert from "node:assert/strict";
import { test, putCode, call, captureReq, admin, capturer, eur, workerForFile, startWorker, tempDir, removeDir } from "./harness.mjs";

const worker = workerForFile();

const putCampaign = (id, definition) => call(worker.base, "PUT", `/v1/campaigns/${id}`, { body: definition, headers: admin });
const addCodes = (id, key, body) =>
  call(worker.base, "POST", `/v1/campaigns/${id}/codes`, { body, headers: { ...admin, "idempotency-key": key } });
const tally = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

// The list loads a logged Worker wrote (campaign_index.rs): {"list":"campaign:<id>","codes":<n>,...}.
const loads = (logged) => logged.log().split("\n").map((l) => l.slice(l.indexOf("{"))).filter((l) => l.startsWith('{"list"'))
  .map((l) => JSON.parse(l));
async function waitForLoads(logged, n) {
  for (let waited = 0; waited < 10_000 && loads(logged).length < n; waited += 100) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 300));
  return loads(logged);
}

async function allCodes(id) {
  const codes = [];
  let after = "";
  for (;;) {
    const page = await call(worker.base, "GET", `/v1/campaigns/${id}/codes?limit=1000${after ? `&after=${after}` : ""}`, { headers: admin });
    assert.equal(page.status, 200, page.text);
    codes.push(...page.json.codes);
    if (page.json.next === null) return codes;
    after = page.json.next;
  }
}

test("a campaign is defined (201, then 200), read back, and refuses bad input with nothing recorded", async () => {
  const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 5 } };
  const created = await putCampaign("spring", definition);
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.id, "SPRING");
  assert.equal(created.json.uses_per_code, 1, "single-use codes by default");
  const replaced = await putCampaign("SPRING", { ...definition, uses_per_code: 2 });
  assert.equal(replaced.status, 200, replaced.text);
  const read = await call(worker.base, "GET", "/v1/campaigns/spring", { headers: admin });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.json.uses_per_code, 2);
  assert.deepEqual(read.json.usage, { total: 0, held: 0 });
  assert.deepEqual(read.json.codes, { count: 0, used: 0 });
  const bad = await putCampaign("AUTUMN", { discount: { kind: "percent", percent: "10" }, uses_per_code: 0 });
  assert.equal(bad.status, 400, bad.text);
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/AUTUMN", { headers: admin })).status, 404);
  const coded = await putCampaign("AUTUMN", { code: "AUTUMN", discount: { kind: "percent", percent: "10" } });
  assert.equal(coded.status, 400, "a campaign has no code of its own");
  assert.equal((await call(worker.base, "PUT", "/v1/campaigns/SPRING", { body: definition })).status, 401);
});

test("300 racing captures of 200 single-use codes of a campaign with total 150: exactly 150, each code once", async () => {
  const put = await putCampaign("RACE", { discount: { kind: "percent", percent: "10" }, limits: { total: 150 } });
  assert.equal(put.status, 201, put.text);
  const codes = Array.from({ length: 200 }, (_, i) => `RACE-${String(i).padStart(4, "0")}`);
  const added = await addCodes("RACE", "race-import", { codes });
  assert.equal(added.status, 201, added.text);
  assert.equal(added.json.created, 200);
  const results = await Promise.all(Array.from({ length: 300 }, (_, i) =>
    captureReq(worker.base, `race-${i}`, { code: codes[(i * 7) % 200], total: eur("80.00") })));
  assert.deepEqual(tally(results), { 201: 150, 422: 150 });
  for (const r of results.filter((r) => r.status === 422)) assert.equal(r.json.rejection, "exhausted");
  const used = results.filter((r) => r.status === 201).map((r) => r.json.quote.code);
  assert.equal(new Set(used).size, 150, "no code used twice");
  const summary = await call(worker.base, "GET", "/v1/campaigns/RACE", { headers: admin });
  assert.equal(summary.json.usage.total, 150);
  assert.deepEqual(summary.json.codes, { count: 200, used: 150 });
  const listed = await allCodes("RACE");
  assert.equal(listed.length, 200);
  assert.equal(listed.reduce((n, c) => n + c.uses, 0), 150);
  assert.ok(listed.every((c) => c.uses <= 1));
  const history = await call(worker.base, "GET", "/v1/campaigns/RACE/redemptions?limit=1000", { headers: admin });
  assert.equal(history.status, 200, history.text);
  assert.equal(history.json.redemptions.length, 150, "the campaign's uses");
  assert.deepEqual(new Set(history.json.redemptions.map((r) => r.code)), new Set(used), "each with the code it came through");
  const stats = await call(worker.base, "GET", "/v1/campaigns/RACE/stats", { headers: admin });
  assert.equal(stats.status, 200, stats.text);
  assert.equal(stats.json.total.captures, 150, "the figures count every code's captures");
  // A campaign's code is a code: looked up as any code, its own use and the campaign's total counted.
  const lookup = await call(worker.base, "GET", `/v1/codes/${used[0].toLowerCase()}`);
  assert.equal(lookup.status, 200, lookup.text);
  assert.equal(lookup.json.code, used[0]);
  assert.equal(lookup.json.remaining, 0, "a used single-use code has nothing left");
  assert.equal(lookup.json.campaign, "RACE", "the definition is the campaign's, naming it");
  assert.equal(lookup.json.uses_per_code, 1);
  assert.equal(lookup.json.usage.total, 150, "the campaign's total");
  assert.equal(lookup.json.usage.per_code, 1, "the code's own uses");
});

test("10 x 10,000 generated codes are distinct, and a retried call answers the same codes", async () => {
  const put = await putCampaign("BULK", { discount: { kind: "percent", percent: "15" } });
  assert.equal(put.status, 201, put.text);
  const all = new Set();
  let first;
  for (let i = 0; i < 10; i++) {
    const r = await addCodes("BULK", `bulk-${i}`, { count: 10000, pattern: "BF-####-####-##" });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.created, 10000);
    for (const code of r.json.codes) {
      assert.match(code, /^BF-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{2}$/);
      all.add(code);
    }
    if (i === 0) first = r.json.codes;
  }
  assert.equal(all.size, 100000, "100,000 distinct codes");
  const again = await addCodes("BULK", "bulk-0", { count: 10000, pattern: "BF-####-####-##" });
  assert.equal(again.status, 201, again.text);
  assert.deepEqual(again.json.codes, first, "the retry answers the same codes");
  const reused = await addCodes("BULK", "bulk-0", { count: 5000, pattern: "BF-####-####-##" });
  assert.equal(reused.status, 422, "the key names another call");
  assert.equal(reused.json.type, "/problems/idempotency_key_reused");
  const summary = await call(worker.base, "GET", "/v1/campaigns/BULK", { headers: admin });
  assert.equal(summary.json.codes.count, 100000, "and created none");
  const csv = await fetch(`${worker.base}/v1/campaigns/BULK/codes`, { headers: { ...admin, accept: "text/csv" } });
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-type"), /^text\/csv/);
  const lines = (await csv.text()).trimEnd().split("\n");
  assert.equal(lines[0], "code,uses,held");
  const exported = lines.slice(1).map((line) => line.split(",")[0]);
  assert.equal(exported.length, 100000, "the CSV lists every code");
  assert.equal(new Set(exported).size, 100000, "each once");
  assert.ok(exported.every((code) => all.has(code)));
  assert.ok(lines.slice(1).every((line) => line.endsWith(",0,0")));
  const one = first[1234];
  const lookup = await call(worker.base, "GET", `/v1/codes/${one}`);
  assert.equal(lookup.status, 200, lookup.text);
  const small = await addCodes("BULK", "bulk-small", { count: 10, pattern: "BF-#######" });
  assert.equal(small.status, 400, "fewer than 8 #");
  const crowded = await addCodes("BULK", "bulk-crowded", { count: 10, pattern: "########", charset: "AB" });
  assert.equal(crowded.status, 400, "fewer than 1,000,000 combinations per code");
  const keyless = await call(worker.base, "POST", "/v1/campaigns/BULK/codes", { body: { count: 1 }, headers: admin });
  assert.equal(keyless.status, 400);
  assert.equal(keyless.json.type, "/problems/missing_idempotency_key");
});

test("an imported code that exists anywhere is a 409 naming it, and nothing of that call is created", async () => {
  const plain = await putCode(worker.base, { code: "VIP-TAKEN", discount: { kind: "percent", percent: "5" } });
  assert.equal(plain.status, 201, plain.text);
  const put = await putCampaign("VIP", { discount: { kind: "percent", percent: "20" } });
  assert.equal(put.status, 201, put.text);
  const first = await addCodes("VIP", "vip-1", { codes: ["vip-anna", "VIP-BEN"] });
  assert.equal(first.status, 201, first.text);
  assert.deepEqual(first.json.codes, ["VIP-ANNA", "VIP-BEN"]);
  const clash = await addCodes("VIP", "vip-2", { codes: ["VIP-CARLA", "vip-taken"] });
  assert.equal(clash.status, 409, clash.text);
  assert.equal(clash.json.type, "/problems/code_exists");
  assert.match(clash.json.detail, /VIP-TAKEN/);
  assert.equal((await call(worker.base, "GET", "/v1/codes/VIP-CARLA")).status, 404, "nothing of the call was created");
  const again = await addCodes("VIP", "vip-3", { codes: ["VIP-DORA", "vip-anna"] });
  assert.equal(again.status, 409, "a code of the campaign itself");
  const itself = await addCodes("VIP", "vip-5", { codes: ["VIP-FRED", "vip"] });
  assert.equal(itself.status, 409, "the campaign's id names its own figures, not a code of it");
  assert.match(itself.json.detail, /\bVIP\b/);
  const twice = await addCodes("VIP", "vip-4", { codes: ["VIP-EVA", "vip-eva"] });
  assert.equal(twice.status, 400, "a code named twice in one import");
  const redefine = await putCode(worker.base, { code: "VIP-ANNA", discount: { kind: "percent", percent: "90" } });
  assert.equal(redefine.status, 409, "a campaign's code is not defined alone");
  const summary = await call(worker.base, "GET", "/v1/campaigns/VIP", { headers: admin });
  assert.equal(summary.json.codes.count, 2);
  const listed = await call(worker.base, "GET", "/v1/codes?limit=1000", { headers: admin });
  const names = listed.json.codes.map((c) => c.code);
  assert.ok(names.includes("VIP-TAKEN"));
  assert.ok(!names.includes("VIP-ANNA"), "GET /v1/codes lists plain codes only");
});

test("calls racing to import one code: exactly one has it, and the other creates nothing", async () => {
  assert.equal((await putCampaign("RACEIMP", { discount: { kind: "percent", percent: "10" } })).status, 201);
  const kept = [];
  for (let round = 0; round < 6; round++) {
    const mine = [`RI-${round}-SHARED`, `RI-${round}-A`];
    const theirs = [`RI-${round}-SHARED`, `RI-${round}-B`];
    const [a, b] = await Promise.all([
      addCodes("RACEIMP", `imp-a-${round}`, { codes: mine }),
      addCodes("RACEIMP", `imp-b-${round}`, { codes: theirs }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [201, 409], `${a.text} / ${b.text}`);
    const [won, lost, loserOwn] = a.status === 201 ? [a, b, theirs[1]] : [b, a, mine[1]];
    assert.equal(won.json.created, 2);
    kept.push(...won.json.codes);
    assert.equal(lost.json.type, "/problems/code_exists");
    assert.match(lost.json.detail, new RegExp(`RI-${round}-SHARED`));
    // The loser's other code was never the campaign's nor the catalog's: another call may have it.
    const later = await addCodes("RACEIMP", `imp-c-${round}`, { codes: [loserOwn] });
    assert.equal(later.status, 201, later.text);
    kept.push(loserOwn);
  }
  const listed = await allCodes("RACEIMP");
  assert.deepEqual(listed.map((c) => c.code).sort(), [...kept].sort(), "each code once, of the call that had it");
});

test("calls racing for a pattern's last room: the campaign's limits are checked again when the codes go in", async () => {
  // 2^20 = 1,048,576 combinations: room for one code (1,000,000 per code), not two.
  const tight = { count: 1, pattern: "T-" + "#".repeat(20), charset: "XY" };
  assert.equal((await putCampaign("TIGHT", { discount: { kind: "percent", percent: "10" } })).status, 201);
  const results = await Promise.all([addCodes("TIGHT", "tight-a", tight), addCodes("TIGHT", "tight-b", tight)]);
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 400], results.map((r) => r.text).join(" / "));
  const lost = results.find((r) => r.status === 400);
  const retried = await addCodes("TIGHT", lost === results[0] ? "tight-a" : "tight-b", tight);
  assert.equal(retried.status, 400, "its retry is checked afresh, and still has no room");
  const summary = await call(worker.base, "GET", "/v1/campaigns/TIGHT", { headers: admin });
  assert.equal(summary.json.codes.count, 1);
});

test("a generated code that exists elsewhere is drawn again: the call creates its count, none of them taken", async () => {
  // Test builds draw from a seeded generator on request: the same seed draws the same codes.
  const seeded = (id, key, count) =>
    call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
      body: { count, pattern: "SD-########" },
      headers: { ...admin, "idempotency-key": key, "x-test-seed": "42" },
    });
  assert.equal((await putCampaign("SEEDA", { discount: { kind: "percent", percent: "10" } })).status, 201);
  assert.equal((await putCampaign("SEEDB", { discount: { kind: "percent", percent: "20" } })).status, 201);
  const first = await seeded("SEEDA", "seed-a", 1);
  assert.equal(first.status, 201, first.text);
  const [taken] = first.json.codes;
  const second = await seeded("SEEDB", "seed-b", 2);
  assert.equal(second.status, 201, second.text);
  assert.equal(second.json.created, 2);
  assert.ok(!second.json.codes.includes(taken), `${taken} is SEEDA's: drawn again`);
  assert.equal(new Set(second.json.codes).size, 2);
  const again = await seeded("SEEDB", "seed-b", 2);
  assert.deepEqual(again.json.codes, second.json.codes, "a retry answers the codes as drawn again");
  for (const code of second.json.codes) {
    const looked = await call(worker.base, "GET", `/v1/codes/${code}`);
    assert.equal(looked.json.campaign, "SEEDB", looked.text);
  }
  const owner = await call(worker.base, "GET", `/v1/codes/${taken}`);
  assert.equal(owner.json.campaign, "SEEDA", "the taken code stays the first campaign's");
});

test("an unknown code and an unknown campaign are 404 and create nothing", async () => {
  const unknown = await call(worker.base, "GET", "/v1/codes/NEVER-GENERATED-1");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.type, "/problems/unknown_code");
  const capture = await captureReq(worker.base, "never-1", { code: "NEVER-GENERATED-1", total: eur("80.00") });
  assert.equal(capture.status, 404);
  const campaign = await call(worker.base, "GET", "/v1/campaigns/NOPE", { headers: admin });
  assert.equal(campaign.status, 404);
  const codes = await addCodes("NOPE", "nope-1", { count: 1 });
  assert.equal(codes.status, 404);
});

// The isolate lists a campaign's codes once the catalog has named one of them (clients.rs,
// campaign_index.rs), and finds later codes in its list without the catalog: a code added after the
// list was loaded, and a code listed in another campaign's list, must still reach the right object.
// A list loads after the answer of the request that began it: the test waits for both lists' log
// lines before it captures the codes it means to be found in them.
test("codes added after the Worker listed a campaign's codes are found; each code counts in its own campaign", async () => {
  const logged = await startWorker({ state: tempDir("promocodes-listed-"), logLevel: "log" });
  const base = logged.base;
  try {
    const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 10 } };
    const put = (id, body) => call(base, "PUT", `/v1/campaigns/${id}`, { body, headers: admin });
    const add = (id, key, body) => call(base, "POST", `/v1/campaigns/${id}/codes`, { body, headers: { ...admin, "idempotency-key": key } });
    assert.equal((await put("LISTED", definition)).status, 201);
    assert.equal((await put("LISTED2", { ...definition, limits: { total: 1 } })).status, 201);
    assert.equal((await add("LISTED", "listed-1", { codes: ["LISTED-A", "LISTED-B"] })).status, 201);
    assert.equal((await add("LISTED2", "listed2-1", { codes: ["LISTED2-A", "LISTED2-B"] })).status, 201);
    // The first capture of each campaign's code loads its list (one at a time: the second waits for the first's).
    const loadedBy = Date.now();
    assert.equal((await captureReq(base, "listed-a", { code: "LISTED-A", total: eur("20.00") })).status, 201);
    assert.deepEqual(await waitForLoads(logged, 1), [{ list: "campaign:LISTED", codes: 2 }]);
    assert.equal((await captureReq(base, "listed2-a", { code: "LISTED2-A", total: eur("20.00") })).status, 201);
    assert.deepEqual((await waitForLoads(logged, 2))[1], { list: "campaign:LISTED2", codes: 2 });
    // Added after: not in the isolate's list yet, so found through the catalog.
    assert.equal((await add("LISTED", "listed-2", { codes: ["LISTED-C"] })).status, 201);
    const late = await captureReq(base, "listed-c", { code: "LISTED-C", total: eur("20.00") });
    assert.equal(late.status, 201, late.text);
    // In the lists: each to its own campaign, whose own limits decide.
    assert.equal((await captureReq(base, "listed-b", { code: "LISTED-B", total: eur("20.00") })).status, 201);
    const second = await captureReq(base, "listed2-b", { code: "LISTED2-B", total: eur("20.00") });
    assert.equal(second.status, 422, second.text);
    assert.equal(second.json.rejection, "exhausted", "LISTED2 has 1 use, taken");
    const again = await captureReq(base, "listed-a2", { code: "LISTED-A", total: eur("20.00") });
    assert.equal(again.json.rejection, "exhausted", "a single-use code once used stays used");
    const read = (id) => call(base, "GET", `/v1/campaigns/${id}`, { headers: admin });
    assert.deepEqual((await read("LISTED")).json.usage, { total: 3, held: 0 });
    assert.deepEqual((await read("LISTED2")).json.usage, { total: 1, held: 0 });
    // A code in no list and unknown to the catalog is still unknown.
    const unknown = await captureReq(base, "listed-z", { code: "LISTED-Z", total: eur("20.00") });
    assert.equal(unknown.status, 404, unknown.text);
    // (On a machine so slow that 10 s passed since LISTED's load, LISTED-C would rightly load it again.)
    if (Date.now() - loadedBy < 9_000) assert.equal(loads(logged).length, 2, "no other load: LISTED-C came through the catalog");
  } finally {
    await logged.stop();
    removeDir(logged.state);
  }
});

// campaign_index.rs logs each load of a list: {"list":"campaign:<id>","codes":<n>}. The campaign's object
// reads 20,000 codes a statement (CODE_LINES_PAGE), so 25,000 codes take two; a code added later
// brings the list up to date ({"list":...,"codes":<n>,"added":<read>}: only the codes added since)
// once RELOAD_MS (10 s) has passed since the last load, never before.
test("the Worker lists all of a campaign's 25,000 codes in one load, and reads only codes added since at most every 10 s", async () => {
  const logged = await startWorker({ state: tempDir("promocodes-lists-"), logLevel: "log" });
  try {
    const put = await call(logged.base, "PUT", "/v1/campaigns/BIG", { body: { discount: { kind: "percent", percent: "10" } }, headers: admin });
    assert.equal(put.status, 201, put.text);
    const codes = [];
    for (const [i, count] of [10_000, 10_000, 5_000].entries()) {
      const made = await call(logged.base, "POST", "/v1/campaigns/BIG/codes", { body: { count }, headers: { ...admin, "idempotency-key": `big-${i}` } });
      assert.equal(made.status, 201, made.text);
      codes.push(...made.json.codes);
    }
    const loadedBy = Date.now();
    assert.equal((await captureReq(logged.base, "big-0", { code: codes[0], total: eur("20.00") })).status, 201);
    assert.deepEqual(await waitForLoads(logged, 1), [{ list: "campaign:BIG", codes: 25_000 }]);
    // Listed: from both pages, each captured in its campaign.
    for (const code of [codes[19_999], codes[20_000], codes[24_999]]) {
      assert.equal((await captureReq(logged.base, `big-${code}`, { code, total: eur("20.00") })).status, 201);
    }
    // Added now: found through the catalog, and no second load within 10 s of the first.
    const added = await call(logged.base, "POST", "/v1/campaigns/BIG/codes", { body: { codes: ["BIG-LATE-1", "BIG-LATE-2"] }, headers: { ...admin, "idempotency-key": "big-late" } });
    assert.equal(added.status, 201, added.text);
    assert.equal((await captureReq(logged.base, "big-late-1", { code: "BIG-LATE-1", total: eur("20.00") })).status, 201);
    // (On a machine so slow that 10 s passed since the load began, a second load would be right.)
    await new Promise((r) => setTimeout(r, 500));
    if (Date.now() - loadedBy < 9_000) assert.equal(loads(logged).length, 1, "no load within 10 s of the last");
    await new Promise((r) => setTimeout(r, 10_500));
    assert.equal((await captureReq(logged.base, "big-late-2", { code: "BIG-LATE-2", total: eur("20.00") })).status, 201);
    // Brought up to date: the campaign's object sent the 2 codes added since, not its 25,002.
    assert.deepEqual((await waitForLoads(logged, 2))[1], { list: "campaign:BIG", codes: 25_002, added: 2 });
    const read = await call(logged.base, "GET", "/v1/campaigns/BIG", { headers: admin });
    assert.deepEqual(read.json.usage, { total: 6, held: 0 });
  } finally {
    await logged.stop();
    removeDir(logged.state);
  }
});

test("a campaign's code is switched, defined and archived only through its campaign: /v1/codes refuses, nothing changes", async () => {
  assert.equal((await putCampaign("OWNED", { discount: { kind: "percent", percent: "10" }, limits: { total: 5 } })).status, 201);
  assert.equal((await addCodes("OWNED", "owned-1", { codes: ["OWNED-A", "OWNED-B"] })).status, 201);
  assert.equal((await captureReq(worker.base, "owned-a", { code: "OWNED-A", total: eur("20.00") })).status, 201);
  const patched = await call(worker.base, "PATCH", "/v1/codes/OWNED-B", { body: { active: false }, headers: admin });
  assert.equal(patched.status, 400, patched.text);
  assert.match(patched.json.detail, /OWNED-B is a code of campaign OWNED/);
  const put = await call(worker.base, "PUT", "/v1/codes/OWNED-B", { body: { code: "OWNED-B", discount: { kind: "percent", percent: "50" } }, headers: admin });
  assert.equal(put.status, 409, put.text);
  assert.equal(put.json.type, "/problems/code_exists");
  const archived = await call(worker.base, "DELETE", "/v1/codes/OWNED-B", { headers: admin });
  assert.equal(archived.status, 400, archived.text);
  assert.match(archived.json.detail, /OWNED-B is a code of campaign OWNED: archive the campaign \(DELETE \/v1\/campaigns\/OWNED\)/);
  // The code is still the campaign's, on, at 10 %.
  const used = await captureReq(worker.base, "owned-b", { code: "OWNED-B", total: eur("20.00") });
  assert.equal(used.status, 201, used.text);
  assert.equal(used.json.quote.discount.amount, "2.00");
  const lookup = await call(worker.base, "GET", "/v1/codes/OWNED-B", { headers: admin });
  assert.equal(lookup.json.campaign, "OWNED");
  assert.deepEqual((await call(worker.base, "GET", "/v1/campaigns/OWNED", { headers: admin })).json.usage, { total: 2, held: 0 });
});

test("a campaign code's hold counts until it expires, then the alarm marks it expired and the code is free", async () => {
  const put = await putCampaign("SHORT", { discount: { kind: "percent", percent: "10" }, limits: { total: 10 } });
  assert.equal(put.status, 201, put.text);
  assert.equal((await addCodes("SHORT", "short-1", { codes: ["SHORT-1"] })).status, 201);
  const held = await call(worker.base, "POST", "/v1/holds", {
    body: { code: "SHORT-1", total: eur("20.00"), ttl_seconds: 1 }, headers: { ...capturer, "idempotency-key": "short-hold" } });
  assert.equal(held.status, 201, held.text);
  assert.equal(held.json.usage.per_code, 1);
  const busy = await captureReq(worker.base, "short-other", { code: "SHORT-1", total: eur("20.00") });
  assert.equal(busy.status, 422, "the held code is used");
  assert.equal(busy.json.rejection, "exhausted");
  const during = await call(worker.base, "GET", "/v1/campaigns/SHORT", { headers: admin });
  assert.deepEqual(during.json.usage, { total: 1, held: 1 });
  const looked = await call(worker.base, "GET", "/v1/codes/SHORT-1");
  assert.deepEqual(looked.json.usage, { total: 1, held: 1, per_code: 1 }, "the code's lookup counts the campaign's hold");
  assert.equal(looked.json.remaining, 0);
  let states = [];
  for (let i = 0; i < 60; i++) {
    const page = await call(worker.base, "GET", "/v1/codes/SHORT-1/redemptions", { headers: admin });
    assert.equal(page.status, 200, page.text);
    states = page.json.redemptions.map((r) => r.state);
    if (states.includes("expired")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(states, ["expired"], "the campaign's alarm marked the hold expired");
  const free = await captureReq(worker.base, "short-after", { code: "SHORT-1", total: eur("20.00") });
  assert.equal(free.status, 201, free.text);
});

test("a campaign's kill switch and archive reach all of its codes; GET /v1/campaigns lists campaigns", async () => {
  const put = await putCampaign("SWITCH", { discount: { kind: "percent", percent: "10" } });
  assert.equal(put.status, 201, put.text);
  assert.equal((await addCodes("SWITCH", "switch-1", { codes: ["SWITCH-1", "SWITCH-2"] })).status, 201);
  // A buyer's lookups (no token: the edge cache's path) follow the switch and the archive at once.
  const before = await call(worker.base, "GET", "/v1/codes/SWITCH-2");
  assert.equal(before.status, 200, before.text);
  assert.equal(before.json.active, true);
  const off = await call(worker.base, "PATCH", "/v1/campaigns/SWITCH", { body: { active: false }, headers: admin });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.json.active, false);
  const seenOff = await call(worker.base, "GET", "/v1/codes/SWITCH-2");
  assert.equal(seenOff.status, 200, seenOff.text);
  assert.equal(seenOff.json.active, false, "not a copy from before the switch");
  const refused = await captureReq(worker.base, "switch-a", { code: "SWITCH-1", total: eur("20.00") });
  assert.equal(refused.status, 422);
  assert.equal(refused.json.rejection, "inactive");
  const on = await call(worker.base, "PATCH", "/v1/campaigns/SWITCH", { body: { active: true }, headers: admin });
  assert.equal(on.json.active, true);
  assert.equal((await captureReq(worker.base, "switch-b", { code: "SWITCH-1", total: eur("20.00") })).status, 201);
  const listed = await call(worker.base, "GET", "/v1/campaigns?prefix=SW", { headers: admin });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json.campaigns.map((c) => c.id), ["SWITCH"]);
  assert.equal(listed.json.campaigns[0].usage.total, 1);
  const archived = await call(worker.base, "DELETE", "/v1/campaigns/SWITCH", { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.json.archived, true);
  const gone = await call(worker.base, "GET", "/v1/codes/SWITCH-2", { headers: admin });
  const never = await call(worker.base, "GET", "/v1/codes/SWITCH-9", { headers: admin });
  assert.equal(gone.status, 404);
  assert.deepEqual({ ...gone.json, detail: "" }, { ...never.json, detail: "" }, "an archived campaign's code reads as an unknown code");
  const goneToBuyers = await call(worker.base, "GET", "/v1/codes/SWITCH-2");
  const neverToBuyers = await call(worker.base, "GET", "/v1/codes/SWITCH-9");
  assert.equal(goneToBuyers.status, 404, "not a copy from before the archive");
  assert.deepEqual({ ...goneToBuyers.json, detail: "" }, { ...neverToBuyers.json, detail: "" });
  assert.equal((await captureReq(worker.base, "switch-c", { code: "SWITCH-2", total: eur("20.00") })).status, 404);
  const hidden = await call(worker.base, "GET", "/v1/campaigns?prefix=SW", { headers: admin });
  assert.deepEqual(hidden.json.campaigns, [], "archived campaigns are listed only with archived=true");
  const shown = await call(worker.base, "GET", "/v1/campaigns?prefix=SW&archived=true", { headers: admin });
  assert.equal(shown.json.campaigns[0].archived, true);
});

test("an archived campaign is restored by defining it again: its codes work, its counts stay; remaining follows limits.total", async () => {
  const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 5 } };
  assert.equal((await putCampaign("COMEBACK", definition)).status, 201);
  assert.equal((await addCodes("COMEBACK", "comeback-1", { codes: ["COMEBACK-1", "COMEBACK-2"] })).status, 201);
  assert.equal((await captureReq(worker.base, "comeback-a", { code: "COMEBACK-1", total: eur("20.00") })).status, 201);
  const read = await call(worker.base, "GET", "/v1/campaigns/COMEBACK", { headers: admin });
  assert.equal(read.json.remaining, 4, "5 uses, 1 used");
  assert.equal((await call(worker.base, "DELETE", "/v1/campaigns/COMEBACK", { headers: admin })).status, 200);
  assert.equal((await captureReq(worker.base, "comeback-b", { code: "COMEBACK-2", total: eur("20.00") })).status, 404);

  // The console restores with the definition the (archived) campaign answers, less what is not a definition.
  const archived = await call(worker.base, "GET", "/v1/campaigns/COMEBACK", { headers: admin });
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.json.archived, true);
  assert.ok(archived.json.defined_at, "when it was first defined");
  const { id, archived: _a, usage, remaining, remaining_budget: _r, codes, defined_at: _d, ...again } = archived.json;
  const restored = await call(worker.base, "PUT", "/v1/campaigns/COMEBACK", { body: again, headers: { ...admin, "if-match": archived.headers.get("etag") } });
  assert.equal(restored.status, 200, restored.text);
  const back = await call(worker.base, "GET", "/v1/campaigns/COMEBACK", { headers: admin });
  assert.equal(back.json.archived, false);
  assert.deepEqual([back.json.usage.total, back.json.remaining, back.json.codes.count], [1, 4, 2], "its counts and codes stay");
  const listed = await call(worker.base, "GET", "/v1/campaigns?prefix=COMEBACK", { headers: admin });
  assert.deepEqual(listed.json.campaigns.map((c) => c.id), ["COMEBACK"], "listed again without archived=true");
  assert.equal((await captureReq(worker.base, "comeback-c", { code: "COMEBACK-2", total: eur("20.00") })).status, 201);
  const used = await captureReq(worker.base, "comeback-d", { code: "COMEBACK-1", total: eur("20.00") });
  assert.equal(used.json.rejection, "exhausted", "a single-use code used before archiving stays used");
});

test("a campaign's code in a stack is counted through its campaign: used up, the stack is refused exhausted", async () => {
  const created = await putCampaign("STACKED", { discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["order"] });
  assert.equal(created.status, 201, created.text);
  const added = await addCodes("STACKED", "stacked-import", { codes: ["STACKED-ONE"] });
  assert.equal(added.status, 201, added.text);
  const order = await putCode(worker.base, { code: "STACKORDER", discount: { kind: "percent", percent: "10" }, combines_with: ["order"] });
  assert.equal(order.status, 201, order.text);
  const body = { codes: ["STACKORDER", "STACKED-ONE"], total: eur("80.00") };
  const fresh = await call(worker.base, "POST", "/v1/quotes", { body });
  assert.equal(fresh.status, 200, fresh.text);
  // Its one use goes to a single-code capture; the stack then finds it used up.
  assert.equal((await captureReq(worker.base, "stacked-single", { code: "STACKED-ONE", total: eur("10.00") })).status, 201);
  const quoted = await call(worker.base, "POST", "/v1/quotes", { body });
  assert.equal(quoted.status, 422, quoted.text);
  assert.deepEqual(quoted.json.rejections.map((r) => [r.code, r.rejection]), [["STACKED-ONE", "exhausted"]]);
  const held = await call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": "stacked-hold" } });
  assert.equal(held.status, 422, held.text);
  const usage = (await call(worker.base, "GET", "/v1/codes/STACKORDER", { headers: admin })).json.usage;
  assert.equal(usage.total, 0, "the order code holds nothing for a refused stack");
});
