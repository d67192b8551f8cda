// The console's figures in words (public/admin/figures.js): every rejection of the core named in words
// once, the refusals table's rows, the ranges, orders and the discount given (money in minor units).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ordersOf, RANGES, REJECTION_WORDS, refusalRows, refusedOf, rejectionWords } from "../../public/admin/figures.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("every rejection code of the core has its words, and no other", () => {
  const source = readFileSync(path.join(ROOT, "src/rules/rejection.rs"), "utf8");
  const codes = [...source.matchAll(/Rejection::\w+ => "(\w+)",/g)].map((m) => m[1]);
  assert.ok(codes.length >= 15, `read ${codes.length} codes from Rejection::code`);
  assert.deepEqual(Object.keys(REJECTION_WORDS).sort(), [...codes].sort());
  assert.equal(new Set(Object.values(REJECTION_WORDS)).size, codes.length, "no two alike");
  assert.equal(rejectionWords("below_minimum"), "below the minimum");
  assert.equal(rejectionWords("some_new_one"), "some new one", "an unknown code still reads as words");
});

test("the refusals table: one row a reason, counted by where, most first", () => {
  const figures = {
    rejections: {
      page: { below_minimum: 40, not_combinable: 2 },
      quotes: { below_minimum: 3 },
      holds: { expired: 1 },
      captures: { exhausted: 5 },
    },
  };
  assert.deepEqual(refusalRows(figures), [
    { rejection: "below_minimum", words: "below the minimum", page: 40, quotes: 3, holds: 0, captures: 0, total: 43 },
    { rejection: "exhausted", words: "used up", page: 0, quotes: 0, holds: 0, captures: 5, total: 5 },
    { rejection: "not_combinable", words: "not combinable with another code", page: 2, quotes: 0, holds: 0, captures: 0, total: 2 },
    { rejection: "expired", words: "expired", page: 0, quotes: 0, holds: 1, captures: 0, total: 1 },
  ]);
  assert.equal(refusedOf(figures), 51);
  assert.deepEqual(refusalRows({}), []);
  assert.equal(refusedOf({ rejections: {} }), 0);
});

test("orders and the discount given: exact, net of what releases gave back; orders per code used", () => {
  const figures = { captures: 3, discounted: { amount: "30.10", currency: "EUR" }, returned: { amount: "10.05", currency: "EUR" } };
  assert.deepEqual(ordersOf(figures, 2), { orders: 3, given: { amount: "20.05", currency: "EUR" }, perCode: null });
  assert.deepEqual(ordersOf({ captures: 5, discounted: { amount: "0.3", currency: "EUR" } }, 2, 4), { orders: 5, given: { amount: "0.30", currency: "EUR" }, perCode: 1.3 });
  assert.deepEqual(ordersOf({ captures: 0 }, 2), { orders: 0, given: null, perCode: null }, "no currency of its own: no amount");
  assert.equal(ordersOf({ captures: 1, discounted: { amount: "100000000000000000.01", currency: "EUR" } }, 2).given.amount, "100000000000000000.01", "never through a Number");
});

test("the ranges read the answer's periods and points", () => {
  const stats = { by_minute: Array(60).fill({}), by_hour: Array.from({ length: 168 }, (_, i) => ({ hour: i })) };
  assert.deepEqual(Object.fromEntries(Object.entries(RANGES).map(([k, r]) => [k, [r.key, r.points(stats).length]])), {
    hour: ["last_hour", 60], day: ["last_day", 24], week: ["last_week", 168], all: ["total", 168],
  });
  assert.equal(RANGES.day.points(stats)[0].hour, 144, "the last 24 hours are the last 24 entries");
});
