// public/lib/format.js: words, counts, percents and times for the pages. Run with `node --test tests/js/`.
// The time zone is fixed here (Europe/Paris) before the module loads; locale-dependent output is
// compared with Intl's own answer for the same options.
import { test } from "node:test";
import assert from "node:assert/strict";

process.env.TZ = "Europe/Paris";
const {
  capitalise, count, eitherOf, listOf, longWhen, minutesSeconds, ordinalWord, percent, plural, sentence, toLocal, toUtc, when, zone,
} = await import("../../public/lib/format.js");

test("minutesSeconds rounds up to the second and never goes below 0:00", () => {
  assert.equal(minutesSeconds(61_000), "1:01");
  assert.equal(minutesSeconds(60_001), "1:01");
  assert.equal(minutesSeconds(59_000), "0:59");
  assert.equal(minutesSeconds(900_000), "15:00");
  assert.equal(minutesSeconds(1), "0:01");
  assert.equal(minutesSeconds(0), "0:00");
  assert.equal(minutesSeconds(-5_000), "0:00");
});

test("ordinal words up to ten, then a number", () => {
  assert.equal(ordinalWord(1), "first");
  assert.equal(ordinalWord(2), "second");
  assert.equal(ordinalWord(10), "tenth");
  assert.equal(ordinalWord(11), "number 11");
});

test("lists in English: and, or", () => {
  assert.equal(listOf(["SAVE10"]), "SAVE10");
  assert.equal(listOf(["MUGS20", "SAVE10"]), "MUGS20 and SAVE10");
  assert.equal(listOf(["MUGS20", "SAVE10", "SHIPFREE"]), "MUGS20, SAVE10 and SHIPFREE");
  assert.equal(eitherOf(["mugs"]), "mugs");
  assert.equal(eitherOf(["mugs", "coffee"]), "mugs or coffee");
});

test("sentences: capitals, one full stop, plurals", () => {
  assert.equal(capitalise("the budget"), "The budget");
  assert.equal(capitalise(""), "");
  assert.equal(sentence("used up"), "Used up.");
  assert.equal(sentence("used up."), "Used up.");
  assert.equal(plural(1, "is", "are"), "is");
  assert.equal(plural(2, "is", "are"), "are");
  assert.equal(plural(0, "code", "codes"), "codes");
});

test("a percent is the core's decimal text, the point moved in the text", () => {
  const reference = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 4 });
  assert.equal(percent("10"), reference.format(0.1));
  assert.equal(percent("12.5"), reference.format(0.125));
  assert.equal(percent("0.25"), reference.format(0.0025));
  assert.equal(percent("100"), reference.format(1));
  assert.equal(percent("not a percent"), "not a percent%");
});

test("counts in the locale's grouping, decimal text kept", () => {
  const reference = new Intl.NumberFormat();
  assert.equal(count(12345), reference.format(12345));
  assert.equal(count("12.5"), reference.format(12.5));
});

test("times in the browser's time zone", () => {
  assert.equal(zone(), "Europe/Paris");
  const at = "2026-12-06T12:05:00Z";
  assert.equal(when(at), new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Paris" }).format(new Date(at)));
  assert.equal(when(""), "");
  assert.equal(longWhen(at), new Intl.DateTimeFormat(undefined, { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" }).format(new Date(at)));
});

test("datetime-local values and RFC 3339 UTC, both ways, across a change of offset", () => {
  assert.equal(toUtc("2026-12-06T13:05"), "2026-12-06T12:05:00Z"); // winter: UTC+1
  assert.equal(toUtc("2026-07-01T13:05"), "2026-07-01T11:05:00Z"); // summer: UTC+2
  assert.equal(toLocal("2026-12-06T12:05:00Z"), "2026-12-06T13:05");
  assert.equal(toLocal("2026-07-01T11:05:00Z"), "2026-07-01T13:05");
  assert.equal(toUtc(toLocal("2027-03-28T00:30:00Z")), "2027-03-28T00:30:00Z");
});
