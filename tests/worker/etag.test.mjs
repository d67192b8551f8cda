// No lost update between two operators, against the real Worker in workerd: the admin lookup's
// ETag, PUT and PATCH with If-Match (412 `precondition_failed` when the definition changed since,
// nothing written), without If-Match as before, and concurrent conditional writes of which exactly
// one lands (the object compares and writes in one synchronous step).
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, workerForFile } from "./harness.mjs";

const worker = workerForFile();
const base = () => worker.base;
const def = (code, extra = {}) => ({ code, discount: { kind: "percent", percent: "10" }, ...extra });
const TAG = /^"[0-9a-f]{32}"$/;

const lookup = (code, headers = admin) => call(base(), "GET", `/v1/codes/${code}`, { headers });
const put = (definition, ifMatch) => call(base(), "PUT", `/v1/codes/${definition.code}`, {
  body: definition, headers: { ...admin, ...(ifMatch === undefined ? {} : { "if-match": ifMatch }) },
});
const patch = (code, active, ifMatch) => call(base(), "PATCH", `/v1/codes/${code}`, {
  body: { active }, headers: { ...admin, ...(ifMatch === undefined ? {} : { "if-match": ifMatch }) },
});

test("the admin lookup answers a strong ETag that follows the definition, not the counts", async () => {
  const created = await putCode(base(), def("TAGGED"));
  assert.equal(created.status, 201, created.text);
  const first = created.headers.get("etag");
  assert.match(first, TAG);
  const read = await lookup("TAGGED");
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get("etag"), first, "a read answers the tag the write answered");
  assert.equal((await lookup("TAGGED", capturer)).headers.get("etag"), first, "any token reads it live");
  const buyer = await lookup("TAGGED", {});
  assert.equal(buyer.status, 200);
  assert.equal(buyer.headers.get("etag"), null, "a buyer's (cached) lookup carries none");

  const capture = await call(base(), "POST", "/v1/captures", {
    body: { code: "TAGGED", total: { amount: "50.00", currency: "EUR" } },
    headers: { ...capturer, "idempotency-key": "etag-1" },
  });
  assert.equal(capture.status, 201, capture.text);
  assert.equal((await lookup("TAGGED")).headers.get("etag"), first, "a capture does not change the definition");

  const replaced = await put(def("TAGGED", { discount: { kind: "percent", percent: "20" } }));
  assert.equal(replaced.status, 200);
  assert.notEqual(replaced.headers.get("etag"), first);
  assert.equal((await lookup("TAGGED")).headers.get("etag"), replaced.headers.get("etag"));
});

test("PUT with If-Match writes over the definition it names and refuses a stale one with 412", async () => {
  const created = await put(def("EDITED"));
  const tag = created.headers.get("etag");
  const mine = await put(def("EDITED", { discount: { kind: "percent", percent: "15" } }), tag);
  assert.equal(mine.status, 200, mine.text);
  const now = mine.headers.get("etag");
  assert.notEqual(now, tag);

  const theirs = await put(def("EDITED", { discount: { kind: "percent", percent: "50" } }), tag);
  assert.equal(theirs.status, 412, theirs.text);
  assert.equal(theirs.json.type, "/problems/precondition_failed");
  assert.equal(theirs.headers.get("etag"), now, "the 412 names the current tag");
  assert.match(theirs.json.detail, /changed since it was read/);
  const stored = await lookup("EDITED");
  assert.equal(stored.json.discount.percent, "15", "nothing was written");
  assert.equal(stored.headers.get("etag"), now);

  for (const condition of [`W/${now}`, '"0123"']) {
    const refused = await put(def("EDITED", { discount: { kind: "percent", percent: "50" } }), condition);
    assert.equal(refused.status, 412, `If-Match: ${condition}`);
  }
  const list = await put(def("EDITED", { discount: { kind: "percent", percent: "16" } }), `"stale", ${now}`);
  assert.equal(list.status, 200, "one tag of a list matches");
  const any = await put(def("EDITED", { discount: { kind: "percent", percent: "17" } }), "*");
  assert.equal(any.status, 200, "* matches any definition");
});

test("PUT with If-Match on a code that has no definition is refused, and * does not create it", async () => {
  for (const condition of ["*", '"00000000000000000000000000000000"']) {
    const refused = await put(def("NEVERDEFINED"), condition);
    assert.equal(refused.status, 412, refused.text);
    assert.equal(refused.headers.get("etag"), null);
    assert.equal((await lookup("NEVERDEFINED")).status, 404, "nothing was defined");
  }
});

test("PATCH with If-Match: the kill switch lands over the definition it names, and never over a changed one", async () => {
  const tag = (await put(def("SWITCHED"))).headers.get("etag");
  const off = await patch("SWITCHED", false, tag);
  assert.equal(off.status, 200, off.text);
  assert.equal(off.json.active, false);
  const offTag = off.headers.get("etag");
  assert.match(offTag, TAG);
  assert.notEqual(offTag, tag);
  const stale = await patch("SWITCHED", true, tag);
  assert.equal(stale.status, 412, stale.text);
  assert.equal(stale.headers.get("etag"), offTag);
  assert.equal((await lookup("SWITCHED")).json.active, false, "still off");
  const on = await patch("SWITCHED", true, offTag);
  assert.equal(on.status, 200);
  const unconditional = await patch("SWITCHED", false);
  assert.equal(unconditional.status, 200, "without If-Match as before");
  assert.equal((await patch("NOPE", false, offTag)).status, 404, "an unknown code is still a 404");
});

test("two editors racing with one tag: exactly one write lands", async () => {
  const tag = (await put(def("RACED"))).headers.get("etag");
  const writes = await Promise.all(
    Array.from({ length: 8 }, (_, i) => put(def("RACED", { discount: { kind: "percent", percent: String(i + 1) } }), tag)),
  );
  const statuses = writes.map((w) => w.status).sort();
  assert.deepEqual(statuses, [200, 412, 412, 412, 412, 412, 412, 412]);
  const winner = writes.find((w) => w.status === 200);
  const stored = await lookup("RACED");
  assert.equal(stored.json.discount.percent, winner.json.discount.percent);
  assert.equal(stored.headers.get("etag"), winner.headers.get("etag"));
});

test("PUT with If-None-Match: * creates a code and never replaces one", async () => {
  const create = (percent) => call(base(), "PUT", "/v1/codes/FRESH", {
    body: def("FRESH", { discount: { kind: "percent", percent } }), headers: { ...admin, "if-none-match": "*" },
  });
  const first = await create("10");
  assert.equal(first.status, 201, first.text);
  const second = await create("90");
  assert.equal(second.status, 412, second.text);
  assert.equal(second.json.type, "/problems/precondition_failed");
  assert.equal(second.headers.get("etag"), first.headers.get("etag"));
  assert.equal((await lookup("FRESH")).json.discount.percent, "10", "nothing was written");
});

test("a campaign's ETag: GET answers it, PUT and PATCH with a stale If-Match are 412 and write nothing, If-None-Match: * refuses an existing one", async () => {
  const path = "/v1/campaigns/TAGCAMP";
  const body = { discount: { kind: "percent", percent: "10" }, limits: { total: 50 } };
  const created = await call(base(), "PUT", path, { body, headers: { ...admin, "if-none-match": "*" } });
  assert.equal(created.status, 201, created.text);
  const first = created.headers.get("etag");
  assert.match(first, TAG);
  const read = await call(base(), "GET", path, { headers: admin });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get("etag"), first, "a read answers the tag the write answered");

  const again = await call(base(), "PUT", path, { body, headers: { ...admin, "if-none-match": "*" } });
  assert.equal(again.status, 412, again.text);
  assert.equal(again.json.type, "/problems/precondition_failed");

  const changed = await call(base(), "PUT", path, {
    body: { ...body, discount: { kind: "percent", percent: "20" } }, headers: { ...admin, "if-match": first },
  });
  assert.equal(changed.status, 200, changed.text);
  const second = changed.headers.get("etag");
  assert.match(second, TAG);
  assert.notEqual(second, first, "a change answers another tag");

  const stale = await call(base(), "PUT", path, {
    body: { ...body, discount: { kind: "percent", percent: "30" } }, headers: { ...admin, "if-match": first },
  });
  assert.equal(stale.status, 412, stale.text);
  assert.equal(stale.json.type, "/problems/precondition_failed");
  const stalePatch = await call(base(), "PATCH", path, { body: { active: false }, headers: { ...admin, "if-match": first } });
  assert.equal(stalePatch.status, 412, stalePatch.text);
  const now = await call(base(), "GET", path, { headers: admin });
  assert.equal(now.json.discount.percent, "20", "the stale writes wrote nothing");
  assert.equal(now.json.active, true);

  const off = await call(base(), "PATCH", path, { body: { active: false }, headers: { ...admin, "if-match": second } });
  assert.equal(off.status, 200, off.text);
  assert.notEqual(off.headers.get("etag"), null);
  const plain = await call(base(), "PATCH", path, { body: { active: true }, headers: admin });
  assert.equal(plain.status, 200, "without If-Match, as before");
});
