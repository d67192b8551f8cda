// The change history of a code's and a campaign's definition (issue 35, item 9) in workerd: every
// PUT, switch, archive and restore records one row in the write's own transaction (kind, fields,
// ETag before and after, the operator's X-Change-Note); a write that changes nothing records none;
// a bad note is a 400 that writes nothing; GET …/changes pages them with ?after=&limit=.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { test, putCode, call, admin, eur, startMiniflare } from "./harness.mjs";

const worker = {};
before(async () => Object.assign(worker, await startMiniflare()));
after(() => worker.stop?.());

const changesOf = async (path, query = "") => {
  const r = await call(worker.base, "GET", `${path}/changes${query}`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return r.json;
};
const put = (code, definition, note) =>
  call(worker.base, "PUT", `/v1/codes/${code}`, { body: { code, ...definition }, headers: { ...admin, ...(note === undefined ? {} : { "x-change-note": note }) } });
const base = { discount: { kind: "percent", percent: "10" }, minimum: eur("20.00") };

test("each change of a code's definition is one row: kind, fields, ETags before and after, the note", async () => {
  const created = await put("HIST", base, "First version");
  assert.equal(created.status, 201, created.text);
  const e1 = created.headers.get("etag");
  let page = await changesOf("/v1/codes/HIST");
  assert.equal(page.code, "HIST");
  assert.equal(page.next, null);
  assert.equal(page.changes.length, 1);
  const [first] = page.changes;
  assert.deepEqual({ ...first, at: undefined }, { seq: first.seq, at: undefined, change: "defined", fields: [], etag_before: null, etag_after: e1, note: "First version" });
  assert.ok(Date.now() - Date.parse(first.at) < 60_000, first.at);

  // The same definition again changes nothing: no row.
  assert.equal((await put("HIST", base)).status, 200);
  assert.equal((await changesOf("/v1/codes/HIST")).changes.length, 1, "a PUT that changed nothing records nothing");

  const raised = await put("HIST", { ...base, minimum: eur("30.00"), ends_at: "2030-01-01T00:00:00Z" }, "Raise the minimum");
  assert.equal(raised.status, 200, raised.text);
  const e2 = raised.headers.get("etag");
  // A note in any language: percent-encoded UTF-8, as the console's encodeURIComponent writes it.
  const note = "Paused – out of stock, €5 off later";
  const off = await call(worker.base, "PATCH", "/v1/codes/HIST", { body: { active: false }, headers: { ...admin, "x-change-note": encodeURIComponent(note) } });
  assert.equal(off.status, 200, off.text);
  const e3 = off.headers.get("etag");
  const archived = await call(worker.base, "DELETE", "/v1/codes/HIST", { headers: { ...admin, "x-change-note": "Season over" } });
  assert.equal(archived.status, 200, archived.text);
  const restored = await put("HIST", { ...base, active: true });
  assert.equal(restored.status, 200, restored.text);
  const e5 = restored.headers.get("etag");

  page = await changesOf("/v1/codes/HIST");
  const rows = page.changes.map(({ change, fields, note }) => ({ change, fields, note }));
  assert.deepEqual(rows, [
    { change: "defined", fields: [], note: "First version" },
    { change: "defined", fields: ["ends_at", "minimum"], note: "Raise the minimum" },
    { change: "switched_off", fields: ["active"], note },
    { change: "archived", fields: ["archived"], note: "Season over" },
    { change: "restored", fields: ["active", "archived", "ends_at", "minimum"], note: null },
  ]);
  // The ETags chain: each row's before is the previous row's after, and each after is what the write answered.
  const tags = page.changes.map((c) => [c.etag_before, c.etag_after]);
  assert.deepEqual(tags.map(([, a]) => a).filter((_, i) => i !== 3), [e1, e2, e3, e5]);
  for (let i = 1; i < tags.length; i++) assert.equal(tags[i][0], tags[i - 1][1], `row ${i + 1} starts where row ${i} ended`);
  assert.ok(page.changes.every((c, i) => i === 0 || c.seq > page.changes[i - 1].seq), "oldest first");
  // The archived code's tag is the one a write over it would be checked against.
  const again = await call(worker.base, "GET", "/v1/codes/HIST", { headers: admin });
  assert.equal(again.headers.get("etag"), e5);

  // Paged like the other lists.
  const one = await changesOf("/v1/codes/HIST", "?limit=2");
  assert.equal(one.changes.length, 2);
  assert.equal(one.next, String(one.changes[1].seq));
  const two = await changesOf("/v1/codes/HIST", `?after=${one.next}&limit=2`);
  assert.deepEqual(two.changes.map((c) => c.change), ["switched_off", "archived"]);
  const last = await changesOf("/v1/codes/HIST", `?after=${two.next}&limit=2`);
  assert.deepEqual(last.changes.map((c) => c.change), ["restored"]);
  assert.equal(last.next, null);
  assert.equal((await call(worker.base, "GET", "/v1/codes/HIST/changes?limit=0", { headers: admin })).status, 400);
  assert.equal((await call(worker.base, "GET", "/v1/codes/HIST/changes?after=x", { headers: admin })).status, 400);
  assert.equal((await call(worker.base, "GET", "/v1/codes/HIST/changes")).status, 401, "the admin token is required");
  assert.equal((await call(worker.base, "GET", "/v1/codes/NEVER/changes", { headers: admin })).status, 404);
});

test("a bad X-Change-Note is a clear 400 and writes nothing, not even a new code", async () => {
  const long = "x".repeat(501);
  for (const [note, says] of [
    [long, /501 characters long, more than 500/],
    ["%0Aline", /control character/],
    ["tab%09here", /control character/],
    ["50%", /invalid percent escape/],
    ["%FF%FE", /UTF-8/],
  ]) {
    const created = await put("NOTED", base, note);
    assert.equal(created.status, 400, `${note.slice(0, 20)}: ${created.text}`);
    assert.equal(created.json.type.endsWith("invalid_request"), true, created.text);
    assert.match(created.json.detail, /X-Change-Note/);
    assert.match(created.json.detail, says);
  }
  assert.equal((await call(worker.base, "GET", "/v1/codes/NOTED", { headers: admin })).status, 404, "no code was created");
  const list = await call(worker.base, "GET", "/v1/codes?prefix=NOTED", { headers: admin });
  assert.deepEqual(list.json.codes, [], "nor noted in the catalog");

  assert.equal((await put("NOTED", base, "x".repeat(500))).status, 201, "500 characters are allowed");
  const tag = (await call(worker.base, "GET", "/v1/codes/NOTED", { headers: admin })).headers.get("etag");
  for (const [method, body] of [["PATCH", { active: false }], ["DELETE", undefined], ["PUT", { code: "NOTED", ...base, minimum: eur("1.00") }]]) {
    const r = await call(worker.base, method, "/v1/codes/NOTED", { body, headers: { ...admin, "x-change-note": long } });
    assert.equal(r.status, 400, `${method}: ${r.text}`);
  }
  const now = await call(worker.base, "GET", "/v1/codes/NOTED", { headers: admin });
  assert.equal(now.headers.get("etag"), tag, "the definition is as it was");
  assert.equal(now.json.active, true);
  assert.equal((await changesOf("/v1/codes/NOTED")).changes.length, 1);
  // Blank notes are no notes.
  assert.equal((await call(worker.base, "PATCH", "/v1/codes/NOTED", { body: { active: false }, headers: { ...admin, "x-change-note": "   " } })).status, 200);
  assert.equal((await changesOf("/v1/codes/NOTED")).changes[1].note, null);
});

test("concurrent writes record one row each, chained ETag to ETag (each row in its write's transaction)", async () => {
  assert.equal((await put("RACEDEF", base)).status, 201);
  const writes = await Promise.all(Array.from({ length: 12 }, (_, i) =>
    i % 3 === 2
      ? call(worker.base, "PATCH", "/v1/codes/RACEDEF", { body: { active: i % 2 === 0 }, headers: { ...admin, "x-change-note": `w${i}` } })
      : put("RACEDEF", { ...base, minimum: eur(`${40 + i}.00`) }, `w${i}`)));
  assert.ok(writes.every((w) => w.status === 200), writes.map((w) => w.status).join());
  const { changes } = await changesOf("/v1/codes/RACEDEF", "?limit=1000");
  for (let i = 1; i < changes.length; i++) {
    assert.equal(changes[i].etag_before, changes[i - 1].etag_after, `row ${i + 1} starts where row ${i} ended`);
    assert.notEqual(changes[i].etag_before, changes[i].etag_after);
  }
  // Every write that changed the definition is there once, with its own answer's ETag.
  const answered = new Set(writes.map((w) => w.headers.get("etag")));
  const recorded = changes.slice(1).map((c) => c.etag_after);
  assert.ok(recorded.every((tag) => answered.has(tag)), "each row's ETag is one a write answered");
  assert.equal(new Set(changes.slice(1).map((c) => c.note)).size, changes.length - 1, "one row per write");
  const current = await call(worker.base, "GET", "/v1/codes/RACEDEF", { headers: admin });
  assert.equal(changes.at(-1).etag_after, current.headers.get("etag"), "the last row ends at the stored definition");
});

test("a campaign's changes: defined, replaced, switched, archived, restored, with notes", async () => {
  const path = "/v1/campaigns/SEASON";
  const definition = { discount: { kind: "percent", percent: "10" }, limits: { total: 5 } };
  const write = (method, body, note) => call(worker.base, method, path, { body, headers: { ...admin, ...(note ? { "x-change-note": note } : {}) } });
  assert.equal((await write("PUT", definition, "Launch")).status, 201);
  assert.equal((await write("PUT", { ...definition, limits: { total: 50 } }, "More uses")).status, 200);
  assert.equal((await write("PATCH", { active: false })).status, 200);
  assert.equal((await write("DELETE", undefined, "Done")).status, 200);
  assert.equal((await write("PUT", definition)).status, 200);
  assert.equal((await write("PUT", definition, "x".repeat(501))).status, 400);
  const { code, changes } = await changesOf(path);
  assert.equal(code, "SEASON");
  assert.deepEqual(changes.map(({ change, fields, note }) => ({ change, fields, note })), [
    { change: "defined", fields: [], note: "Launch" },
    { change: "defined", fields: ["limits"], note: "More uses" },
    { change: "switched_off", fields: ["active"], note: null },
    { change: "archived", fields: ["archived"], note: "Done" },
    { change: "restored", fields: ["active", "archived", "limits"], note: null },
  ]);
  for (let i = 1; i < changes.length; i++) assert.equal(changes[i].etag_before, changes[i - 1].etag_after);
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/NOPE/changes", { headers: admin })).status, 404);
});
