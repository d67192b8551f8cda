// public/lib/money.js: money as decimal strings, summed in BigInt minor units, never a JS number.
// Run with `node --test tests/js/` (no browser, no build).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  add, chartCoordinate, compare, formatMinus, formatMoney, formatMoneyIn, fromMinor, isZero, movePoint, plainMoney, subtract, times,
  toMinor,
} from "../../public/lib/money.js";

test("0.1 + 0.2 is 0.30, where numbers give 0.30000000000000004", () => {
  assert.notEqual(0.1 + 0.2, 0.3);
  assert.equal(add(["0.1", "0.2"], 2), "0.30");
  assert.equal(compare(add(["0.1", "0.2"], 2), "0.3"), 0);
  assert.equal(add(["0.10", "0.20", "0.70"], 2), "1.00");
});

test("minor units at the currency's places: EUR 2, JPY 0, KWD 3", () => {
  assert.equal(toMinor("12.5", 2), 1250n);
  assert.equal(toMinor("12", 2), 1200n);
  assert.equal(toMinor("0.05", 2), 5n);
  assert.equal(fromMinor(1250n, 2), "12.50");
  assert.equal(fromMinor(5n, 2), "0.05");
  assert.equal(fromMinor(0n, 2), "0.00");
  assert.equal(toMinor("500", 0), 500n);
  assert.equal(fromMinor(500n, 0), "500");
  assert.equal(add(["500", "1200"], 0), "1700");
  assert.equal(toMinor("1.005", 3), 1005n);
  assert.equal(fromMinor(1005n, 3), "1.005");
});

test("more places than the currency has, or text that is not an amount, is refused", () => {
  assert.throws(() => toMinor("1.5", 0), RangeError);
  assert.throws(() => toMinor("0.001", 2), RangeError);
  for (const bad of ["", "abc", "1e3", "1.", ".5", "1,50", "NaN", "Infinity", "0x10", "--1"]) {
    assert.throws(() => toMinor(bad, 2), RangeError, bad);
  }
});

test("negative amounts: parsed, summed, written and compared", () => {
  assert.equal(toMinor("-3.2", 2), -320n);
  assert.equal(fromMinor(-320n, 2), "-3.20");
  assert.equal(fromMinor(-5n, 2), "-0.05");
  assert.equal(subtract("1.00", "3.25", 2), "-2.25");
  assert.equal(add(["-0.10", "0.10"], 2), "0.00");
  assert.equal(compare("-1", "0.5"), -1);
  assert.equal(compare("-0.5", "-0.50"), 0);
  assert.equal(compare("-0.5", "-1"), 1);
});

test("amounts beyond 2^53 minor units stay exact", () => {
  const big = "123456789012345678.91"; // 12345678901234567891 minor units, far beyond 2^53
  assert.ok(toMinor(big, 2) > BigInt(Number.MAX_SAFE_INTEGER));
  assert.notEqual(String(Number(big.replace(".", ""))), "12345678901234567891", "a number would lose digits");
  assert.equal(add([big, "0.09"], 2), "123456789012345679.00");
  assert.equal(times("9007199254740.993", 1000, 3), "9007199254740993.000");
  assert.equal(subtract(big, "0.01", 2), "123456789012345678.90");
  assert.equal(compare("9007199254740993", "9007199254740992"), 1);
  assert.equal(formatMoney({ amount: big, currency: "EUR" }, "en-GB"), "€123,456,789,012,345,678.91");
  assert.equal(formatMoney({ amount: "9007199254740993", currency: "JPY" }, "en-US"), "¥9,007,199,254,740,993");
});

test("times multiplies by a whole quantity", () => {
  assert.equal(times("12.90", 3, 2), "38.70");
  assert.equal(times("0.10", 0, 2), "0.00");
  assert.equal(times("500", 7, 0), "3500");
});

test("compare reads any places: 1.5 = 1.50 < 1.51", () => {
  assert.equal(compare("1.5", "1.50"), 0);
  assert.equal(compare("1.5", "1.51"), -1);
  assert.equal(compare("10", "9.999"), 1);
});

test("isZero: absent or zero, whatever the places", () => {
  assert.equal(isZero(null), true);
  assert.equal(isZero(undefined), true);
  assert.equal(isZero({ amount: "0", currency: "EUR" }), true);
  assert.equal(isZero({ amount: "0.00", currency: "EUR" }), true);
  assert.equal(isZero({ amount: "-0.00", currency: "EUR" }), true);
  assert.equal(isZero({ amount: "0.01", currency: "EUR" }), false);
  assert.equal(isZero({ amount: "10", currency: "JPY" }), false);
});

test("movePoint moves the decimal point in the text, both ways", () => {
  assert.equal(movePoint("12.5", 2), "0.125");
  assert.equal(movePoint("10", 2), "0.10");
  assert.equal(movePoint("0.5", 2), "0.005");
  assert.equal(movePoint("100", 2), "1.00");
  assert.equal(movePoint("-7", 2), "-0.07");
  assert.equal(movePoint("1.234", -2), "123.4");
  assert.equal(movePoint("12", -3), "12000");
  assert.equal(movePoint("33.333333333333333333", 2), "0.33333333333333333333");
});

test("formatMoney formats the decimal text in the locale's style, with the currency's places", () => {
  assert.equal(formatMoney({ amount: "12.5", currency: "EUR" }, "en-GB"), "€12.50");
  assert.equal(formatMoney({ amount: "1234.5", currency: "EUR" }, "de-DE"), "1.234,50\u00a0€");
  assert.equal(formatMoney({ amount: "500", currency: "JPY" }, "en-US"), "¥500");
  assert.equal(formatMoney({ amount: "-3.20", currency: "USD" }, "en-US"), "-$3.20");
  assert.equal(formatMoney({ amount: "0.1", currency: "KWD" }, "en-GB"), "KWD\u00a00.100");
  assert.equal(formatMinus({ amount: "3.20", currency: "EUR" }, "en-GB"), "−€3.20");
  assert.equal(formatMoney(null), "");
});

test("a currency Intl refuses is written as the core writes it", () => {
  assert.equal(formatMoney({ amount: "3.20", currency: "not a currency" }, "en-GB"), "not a currency 3.20");
  assert.equal(plainMoney({ amount: "3.20", currency: "EUR" }), "EUR 3.20");
});

test("a chart coordinate is the amount's value, for plotting only", () => {
  assert.equal(chartCoordinate(1250n, 2), 12.5);
  assert.equal(chartCoordinate(-5n, 2), -0.05);
  assert.equal(chartCoordinate(500n, 0), 500);
});

test("the core's money in a text, written in the locale's style; other text left as it is", () => {
  assert.equal(formatMoneyIn("only EUR 3.20 is left in this promotion's budget", "en-GB"), "only €3.20 is left in this promotion's budget");
  assert.equal(formatMoneyIn("EUR 3.20 of EUR 20.00", "de-DE"), "3,20\u00a0€ of 20,00\u00a0€");
  assert.equal(formatMoneyIn("JPY 500 and KWD 1.250", "en-GB"), `${formatMoney({ amount: "500", currency: "JPY" }, "en-GB")} and ${formatMoney({ amount: "1.250", currency: "KWD" }, "en-GB")}`);
  // Exact: no number in between.
  assert.equal(formatMoneyIn("EUR 98999999999999999.01", "en-GB"), "€98,999,999,999,999,999.01");
  // Not a currency Intl knows, not a plain decimal, or no money at all: as written.
  assert.equal(formatMoneyIn("SKU 12 and XYZ 1.00", "en-GB"), "SKU 12 and XYZ 1.00");
  assert.equal(formatMoneyIn("EUR 1.2.3", "en-GB"), "EUR 1.2.3");
  assert.equal(formatMoneyIn("no money here", "en-GB"), "no money here");
});
