// Baskets with lines against the real Worker in workerd: both basket forms on quotes, holds,
// captures and replays; the split in every answer and in the admin list; bad lines named.
import assert from "node:assert/strict";
import { test, putCode, call, captureReq, admin, capturer, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile({}, async () => {
  assert.equal((await putCode(worker.base, { code: "MUGS15", discount: { kind: "percent", percent: "15" }, applies_to: { categories: ["mugs"] } })).status, 201);
  assert.equal((await putCode(worker.base, { code: "SHIPFREE", discount: { kind: "free_shipping" }, minimum: eur("50.00") })).status, 201);
  assert.equal((await putCode(worker.base, { code: "TEN", discount: { kind: "percent", percent: "10" } })).status, 201);
});

const base = () => worker.base;
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), ...(categories ? { categories } : {}) });
const shop = [line("MUG", 2, "12.50", ["mugs"]), line("BEANS", 1, "8.50", ["coffee"]), line("GRINDER", 1, "46.50", ["grinders"])];

test("a scoped quote splits the discount over the eligible lines, inline or nested", async () => {
  for (const body of [
    { code: "MUGS15", lines: shop, shipping: eur("4.90") },
    { code: "MUGS15", basket: { lines: shop, shipping: eur("4.90") } },
  ]) {
    const r = await call(base(), "POST", "/v1/quotes", { body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.total.amount, "84.90");
    assert.equal(r.json.discount.amount, "3.75");
    assert.equal(r.json.payable.amount, "81.15");
    assert.deepEqual(r.json.lines.map((l) => [l.sku, l.amount.amount, l.discount.amount]),
      [["MUG", "25.00", "3.75"], ["BEANS", "8.50", "0.00"], ["GRINDER", "46.50", "0.00"]]);
    assert.deepEqual(r.json.shipping, { amount: eur("4.90"), discount: eur("0.00") });
  }
  const none = await call(base(), "POST", "/v1/quotes", { body: { code: "MUGS15", lines: [line("BEANS", 1, "8.50", ["coffee"])] } });
  assert.equal(none.status, 422);
  assert.equal(none.json.rejection, "no_eligible_items");
  assert.equal(none.json.detail, "this code applies only to items in mugs");
  const totalOnly = await call(base(), "POST", "/v1/quotes", { body: { code: "MUGS15", total: eur("80.00") } });
  assert.equal(totalOnly.json.rejection, "no_eligible_items");
});

test("free shipping takes the shipping off above its minimum", async () => {
  const r = await call(base(), "POST", "/v1/quotes", { body: { code: "SHIPFREE", lines: shop, shipping: eur("4.90") } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.discount.amount, "4.90");
  assert.deepEqual(r.json.shipping, { amount: eur("4.90"), discount: eur("4.90") });
  assert.ok(r.json.lines.every((l) => l.discount.amount === "0.00"));
  const small = await call(base(), "POST", "/v1/quotes", { body: { code: "SHIPFREE", lines: [line("MUG", 1, "12.50")], shipping: eur("4.90") } });
  assert.equal(small.json.rejection, "below_minimum");
});

test("max caps a fixed amount too: the least of the amount, its max and the eligible subtotal", async () => {
  const fixed = (code, amount, max) => ({ code, discount: { kind: "fixed", amount: eur(amount), max: eur(max) }, applies_to: { categories: ["mugs"] } });
  const put = await putCode(base(), fixed("MUGS8", "10.00", "8.00"));
  assert.equal(put.status, 201, put.text);
  assert.deepEqual((await call(base(), "GET", "/v1/codes/MUGS8")).json.discount, { kind: "fixed", amount: eur("10.00"), max: eur("8.00") });
  const quote = (code) => call(base(), "POST", "/v1/quotes", { body: { code, lines: shop, shipping: eur("4.90") } });
  const capped = await quote("MUGS8");
  assert.equal(capped.status, 200, capped.text);
  assert.equal(capped.json.discount.amount, "8.00", "the max");
  assert.equal(capped.json.payable.amount, "76.90");
  assert.deepEqual(capped.json.lines.map((l) => l.discount.amount), ["8.00", "0.00", "0.00"]);
  assert.equal((await putCode(base(), fixed("MUGS30", "40.00", "30.00"))).status, 201);
  assert.equal((await quote("MUGS30")).json.discount.amount, "25.00", "the eligible subtotal (two mugs)");
  const mixed = await putCode(base(), { ...fixed("MIXED", "10.00", "8.00"), discount: { kind: "fixed", amount: eur("10.00"), max: { amount: "8.00", currency: "USD" } } });
  assert.equal(mixed.status, 400);
  assert.match(mixed.json.detail, /discount\.max/);
});

test("holds, captures and replays keep the lines and the split; the admin list shows it", async () => {
  const body = { code: "MUGS15", lines: shop, shipping: eur("4.90"), customer: "lia" };
  const held = await call(base(), "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": "lines-1" } });
  assert.equal(held.status, 201, held.text);
  assert.equal(held.json.quote.lines[0].discount.amount, "3.75");
  const captured = await call(base(), "POST", "/v1/captures", { body: { ...body, quote: held.json.quote }, headers: { ...capturer, "idempotency-key": "lines-1" } });
  assert.equal(captured.status, 201, captured.text);
  assert.deepEqual(captured.json.quote, held.json.quote);
  const replay = await captureReq(base(), "lines-1", body);
  assert.equal(replay.status, 200);
  assert.deepEqual(replay.json.quote.lines, held.json.quote.lines);
  // The same basket in the other form is the same redemption.
  const nested = await captureReq(base(), "lines-1", { code: "MUGS15", customer: "lia", basket: { lines: shop, shipping: eur("4.90") } });
  assert.equal(nested.status, 200);
  // Another basket under the key is not.
  const other = await captureReq(base(), "lines-1", { ...body, lines: shop.slice(1) });
  assert.equal(other.status, 422);
  assert.equal(other.json.type, "/problems/idempotency_key_reused");
  const total = await captureReq(base(), "total-1", { code: "TEN", total: eur("80.00") });
  assert.equal(total.status, 201);
  assert.equal(total.json.quote.lines, undefined, "a total-only basket has no lines");
  const list = await call(base(), "GET", "/v1/codes/MUGS15/redemptions", { headers: admin });
  assert.deepEqual(list.json.redemptions[0].quote.lines.map((l) => l.discount.amount), ["3.75", "0.00", "0.00"]);
  assert.equal(list.json.redemptions[0].quote.shipping.amount.amount, "4.90");
});

test("bad lines are named and record nothing; 500 lines fit the 64 KiB body, a 501st is refused by the line limit", async () => {
  const cases = [
    [{ code: "TEN", lines: [line("A", 1, "1.00"), line("B", 0, "1.00")] }, /lines\[1\]\.quantity/],
    [{ code: "TEN", basket: { lines: [line("A", 1, "1.00"), line("B", 0, "1.00")] } }, /basket\.lines\[1\]\.quantity/],
    [{ code: "TEN", lines: [line("A", 1, "1.00"), { ...line("B", 1, "1.00"), unit_price: { amount: "1.00", currency: "USD" } }] }, /lines\[1\]\.unit_price/],
    [{ code: "TEN", lines: [line("A B", 1, "1.00")] }, /lines\[0\]\.sku/],
    [{ code: "TEN", lines: [] }, /lines/],
    [{ code: "TEN", total: eur("1.00"), lines: [line("A", 1, "1.00")] }, /either `total` or `lines`/],
    [{ code: "TEN", total: eur("1.00"), basket: { total: eur("1.00") } }, /basket/],
  ];
  for (const [body, detail] of cases) {
    for (const route of ["/v1/quotes", "/v1/captures", "/v1/holds"]) {
      const r = await call(base(), "POST", route, { body, headers: { ...capturer, "idempotency-key": "bad-line" } });
      assert.equal(r.status, 400, `${route} ${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.json.detail, detail);
    }
  }
  const many = Array.from({ length: 500 }, (_, i) => line(`SKU-${i}`, 1, "1.00", ["bulk"]));
  const big = await call(base(), "POST", "/v1/quotes", { body: { code: "TEN", lines: many } });
  assert.equal(big.status, 200, big.text.slice(0, 300));
  assert.equal(big.json.discount.amount, "50.00");
  const tooMany = await call(base(), "POST", "/v1/quotes", { body: { code: "TEN", lines: [...many, line("ONE-MORE", 1, "1.00")] } });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.json.detail, /at most 500/);
  const list = await call(base(), "GET", "/v1/codes/TEN/redemptions", { headers: admin });
  assert.equal(list.json.redemptions.length, 1, "nothing but the one good capture");
});

test("a body that is not JSON at all says so", async () => {
  for (const raw of ["hello", "{\"code\": ", ""]) {
    const r = await call(base(), "POST", "/v1/quotes", { raw, headers: { "content-type": "application/json" } });
    assert.equal(r.status, 400, raw);
    assert.equal(r.json.type, "/problems/invalid_request");
    assert.match(r.json.detail, /^the body is not JSON: /, r.json.detail);
  }
  const amount = await call(base(), "POST", "/v1/quotes", { body: { code: "TEN", total: { amount: "-0", currency: "EUR" } } });
  assert.equal(amount.status, 400, "an amount written -0 is refused: amounts have no sign");
  assert.match(amount.json.detail, /total\.amount: .*sign/);
});
