// Several codes in one basket against the real Worker in workerd (issue 21): POST /v1/quotes with
// `codes` gives the core's stack quote (the example, exactly), a refused stack is 422 with
// every code's rejection, bad lists are 400, and a stack quote records nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile({}, async () => {
  for (const definition of [
    { code: "MUGS20", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order", "shipping"] },
    { code: "SAVE10", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"],
      limits: { total: 100 } },
    { code: "SHIPFREE", discount: { kind: "free_shipping" }, combines_with: ["product", "order"] },
    { code: "LONER", discount: { kind: "percent", percent: "5" } },
    { code: "VIP", discount: { kind: "percent", percent: "5" }, audience: ["dora"], combines_with: ["product", "order"] },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
});

const base = () => worker.base;
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50")], shipping: eur("4.90") };
const quote = (body, headers) => call(base(), "POST", "/v1/quotes", { body, headers });

test("the issue's example comes out exactly, in any order", async () => {
  for (const codes of [["SAVE10", "SHIPFREE", "MUGS20"], ["mugs20", "save10", "shipfree"], ["SHIPFREE", "MUGS20", "SAVE10"]]) {
    const r = await quote({ codes, ...basket });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.codes.map((p) => [p.code, p.class, p.discount.amount]),
      [["MUGS20", "product", "5.00"], ["SAVE10", "order", "6.65"], ["SHIPFREE", "shipping", "4.90"]]);
    assert.equal(r.json.total.amount, "76.40");
    assert.equal(r.json.discount.amount, "16.55");
    assert.equal(r.json.payable.amount, "59.85");
    assert.deepEqual(r.json.lines.map((l) => [l.sku, l.discount.amount]), [["MUG", "7.00"], ["GRINDER", "4.65"]]);
    assert.deepEqual(r.json.shipping, { amount: eur("4.90"), discount: eur("4.90") });
    assert.deepEqual(r.json.codes[1].lines.map((l) => [l.amount.amount, l.discount.amount]), [["20.00", "2.00"], ["46.50", "4.65"]]);
  }
  // Nested basket too; one code in `codes` is a stack of one.
  const nested = await quote({ codes: ["SAVE10"], basket });
  assert.equal(nested.status, 200, nested.text);
  assert.deepEqual(nested.json.codes.map((p) => p.discount.amount), ["7.15"]);
});

test("a refused stack is 422 with every code that refused, and why", async () => {
  // LONER combines with nothing: it refuses after SAVE10, and MUGS20 (listed after it) refuses too.
  // The refusals come in the order the codes apply (product codes first).
  const r = await quote({ codes: ["SAVE10", "LONER", "MUGS20"], ...basket });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.type, "/problems/rejected");
  assert.deepEqual(r.json.rejections, [
    { code: "MUGS20", rejection: "not_combinable", with: "LONER", message: "this code cannot be combined with LONER" },
    { code: "LONER", rejection: "not_combinable", with: "SAVE10", message: "this code cannot be combined with SAVE10" },
  ]);
  assert.equal(r.json.rejection, "not_combinable");
  assert.equal(r.json.detail,
    "MUGS20: this code cannot be combined with LONER; LONER: this code cannot be combined with SAVE10");
  // A code's own rules come first: an assigned code without a customer needs one.
  const own = await quote({ codes: ["MUGS20", "VIP"], ...basket });
  assert.equal(own.status, 422, own.text);
  assert.deepEqual(own.json.rejections.map((x) => [x.code, x.rejection]), [["VIP", "customer_required"]]);
  // With the customer (and a server's token), the code's audience admits her.
  const dora = await quote({ codes: ["MUGS20", "VIP"], customer: "dora", ...basket }, capturer);
  assert.equal(dora.status, 200, dora.text);
  assert.deepEqual(dora.json.codes.map((p) => [p.code, p.discount.amount]), [["MUGS20", "5.00"], ["VIP", "3.33"]]);
  const anonymous = await quote({ codes: ["MUGS20", "VIP"], customer: "dora", ...basket });
  assert.equal(anonymous.status, 401, anonymous.text);
});

test("bad lists are 400 and name the field; an unknown code is 404", async () => {
  const both = await quote({ code: "SAVE10", codes: ["SAVE10"], ...basket });
  assert.equal(both.status, 400, both.text);
  assert.equal(both.json.detail, "codes: a request names either `code` (one code) or `codes` (several), not both");
  const twice = await quote({ codes: ["SAVE10", "save10"], ...basket });
  assert.equal(twice.status, 400, twice.text);
  assert.equal(twice.json.detail, "codes: SAVE10 is listed twice; a basket takes each code once");
  const six = await quote({ codes: ["A1", "A2", "A3", "A4", "A5", "A6"], ...basket });
  assert.equal(six.status, 400, six.text);
  assert.equal(six.json.detail, "codes: codes may have at most 5 entries, not 6");
  const none = await quote({ codes: [], ...basket });
  assert.equal(none.status, 400, none.text);
  const badLine = await quote({ codes: ["SAVE10"], lines: [line("MUG", 0, "1.00")] });
  assert.equal(badLine.status, 400, badLine.text);
  assert.match(badLine.json.detail, /^lines\[0\]\.quantity: /);
  const unknown = await quote({ codes: ["SAVE10", "NOSUCH"], ...basket });
  assert.equal(unknown.status, 404, unknown.text);
  assert.equal(unknown.json.type, "/problems/unknown_code");
});

test("a stack quote records nothing", async () => {
  const before = (await call(base(), "GET", "/v1/codes/SAVE10", { headers: admin })).json.usage;
  for (let i = 0; i < 3; i++) assert.equal((await quote({ codes: ["MUGS20", "SAVE10"], ...basket })).status, 200);
  const after = (await call(base(), "GET", "/v1/codes/SAVE10", { headers: admin })).json.usage;
  assert.deepEqual(after, before);
  const lookup = await call(base(), "GET", "/v1/codes/MUGS20");
  assert.deepEqual(lookup.json.combines_with, ["order", "shipping"]);
});
