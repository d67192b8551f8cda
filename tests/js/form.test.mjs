// The code form's pure parts (public/admin/refusals.js: every refusal at once, a generated code, a
// refusal's times in the operator's zone) and the catalog's status, filter and orders (status.js).
// Run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

process.env.TZ = "Europe/Berlin";
const { CODE_CHARSET, generateCode, localTimes, refusalsOf, sentenceOf } = await import("../../public/admin/refusals.js");
const { filterAndSort, statusOf } = await import("../../public/admin/status.js");
const { formFromDefinition } = await import("../../public/admin/definition.js");
const { when } = await import("../../public/lib/format.js");

const FIELDS = { code: "f-code", kind: "f-kind", percent: "f-percent", currency: "f-currency", minimum: "f-minimum", total: "f-total", ends: "f-ends" };

/** A check that refuses as the module does, one refusal at a time (the first in this order). */
function check(definition) {
  const fail = (field, message) => { throw Object.assign(new Error(`${field}: ${message}`), { field }); };
  if (!definition.code) fail("definition.code", "promo code is empty");
  if (!/^\d+$/.test(definition.discount.percent ?? "")) fail("definition.discount.percent", `percent is not a number: "${definition.discount.percent}"`);
  if (definition.minimum && !definition.minimum.currency) fail("definition.minimum.currency", "currency is empty");
  if (definition.limits?.total === 0) fail("definition.limits.total", "limits.total must be at least 1");
  if (definition.ends_at && definition.ends_at < "2027") fail("definition.ends_at", `validity window ends at ${definition.ends_at}, which is not after its start`);
}

const empty = () => ({ ...formFromDefinition({ code: "", discount: { kind: "percent" } }) });

test("every refusal at once, each on its field, in the order found; an accepted form gives its definition", () => {
  const form = { ...empty(), minimum: "20.00", total: "0" };
  const { definition, errors, problem } = refusalsOf(form, check, FIELDS);
  assert.equal(definition, null);
  assert.equal(problem, "");
  assert.deepEqual([...errors.keys()], ["f-code", "f-percent", "f-currency", "f-total"]);
  assert.equal(errors.get("f-code"), "Promo code is empty");
  assert.equal(errors.get("f-percent"), 'Percent is not a number: ""');
  const ok = refusalsOf({ ...empty(), code: "SAVE10", percent: "10" }, check, FIELDS);
  assert.equal(ok.errors.size, 0);
  assert.deepEqual(ok.definition, { code: "SAVE10", active: true, discount: { kind: "percent", percent: "10" } });
});

test("a refusal no field shows is the form's problem; a field refused twice stops the asking", () => {
  const noField = (d) => { if (d.code) throw Object.assign(new Error("definition: something else"), { field: "" }); };
  assert.deepEqual(refusalsOf({ ...empty(), code: "X" }, noField, FIELDS).problem, "Something else");
  const always = () => { throw Object.assign(new Error("definition.code: no"), { field: "definition.code" }); };
  const { errors } = refusalsOf(empty(), always, FIELDS);
  assert.deepEqual([...errors], [["f-code", "No"]]);
});

test("a refusal's times in the operator's zone: 10:00 typed in Berlin is not shown as 09:00Z", () => {
  const form = { ...empty(), code: "A", percent: "10", ends: "2026-12-10T10:00" };
  const { errors } = refusalsOf(form, check, FIELDS);
  const sentence = errors.get("f-ends");
  assert.doesNotMatch(sentence, /09:00:00Z/);
  assert.equal(sentence, `Validity window ends at ${when("2026-12-10T09:00:00Z")} (Europe/Berlin), which is not after its start`);
  assert.match(when("2026-12-10T09:00:00Z"), /10:00/);
  assert.equal(localTimes("no time here"), "no time here");
  assert.equal(sentenceOf("definition.code: is empty"), "Is empty");
});

test("a generated code: 8 characters of the API's default charset in two groups, each character as likely", () => {
  const openapi = JSON.parse(readFileSync(new URL("../../docs/openapi.json", import.meta.url), "utf8"));
  assert.equal(CODE_CHARSET, openapi.components.schemas.CodesRequest.properties.charset.default);
  assert.equal(256 % CODE_CHARSET.length, 0, "no modulo bias");
  assert.doesNotMatch(CODE_CHARSET, /[0O1I]/);
  for (let i = 0; i < 200; i++) assert.match(generateCode(), /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
  assert.equal(generateCode(8, (bytes) => bytes.fill(0)), "AAAA-AAAA");
  assert.equal(generateCode(8, (bytes) => bytes.fill(255)), "9999-9999");
  assert.notEqual(generateCode(), generateCode());
});

test("a code's status: off whatever its window, scheduled before its start, expired from its end, else active", () => {
  const now = Date.parse("2026-12-06T12:00:00Z");
  assert.equal(statusOf({ active: true }, now), "active");
  assert.equal(statusOf({ active: false, ends_at: "2026-01-01T00:00:00Z" }, now), "off");
  assert.equal(statusOf({ active: true, starts_at: "2026-12-07T00:00:00Z" }, now), "scheduled");
  assert.equal(statusOf({ active: true, ends_at: "2026-12-06T12:00:00Z" }, now), "expired");
  assert.equal(statusOf({ active: true, starts_at: "2026-12-01T00:00:00Z", ends_at: "2026-12-31T00:00:00Z" }, now), "active");
});

test("the catalog filtered by status and sorted newest or most used first, ties by name", () => {
  const now = Date.parse("2026-12-06T12:00:00Z");
  const row = (name, summary) => ({ kind: "code", name, summary: { active: true, usage: { total: 0 }, ...summary } });
  const rows = [
    row("B", { defined_at: "2026-12-01T00:00:00Z", usage: { total: 5 } }),
    row("A", { defined_at: "2026-12-03T00:00:00Z", usage: { total: 5 } }),
    row("C", { usage: { total: 9 } }),
    row("D", { active: false, defined_at: "2026-12-05T00:00:00Z" }),
    row("E", { starts_at: "2027-01-01T00:00:00Z", defined_at: "2026-12-04T00:00:00Z" }),
  ];
  const names = (list) => list.map((r) => r.name).join("");
  assert.equal(names(filterAndSort(rows, "all", "name", now)), "ABCDE");
  assert.equal(names(filterAndSort(rows, "all", "newest", now)), "DEABC", "undated last");
  assert.equal(names(filterAndSort(rows, "all", "used", now)), "CABDE");
  assert.equal(names(filterAndSort(rows, "active", "newest", now)), "ABC");
  assert.equal(names(filterAndSort(rows, "off", "name", now)), "D");
  assert.equal(names(filterAndSort(rows, "scheduled", "name", now)), "E");
  assert.equal(names(filterAndSort(rows, "expired", "name", now)), "");
});
