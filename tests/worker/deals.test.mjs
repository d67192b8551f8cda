// Buy X get Y, tiered and first-order codes (issue 34) against the real Worker in workerd: every
// vector of tests/vectors.json with such a code (and no usage the Worker cannot have) is quoted
// through POST /v1/quotes and must answer what the core answers natively; every malformed one is
// a 400 naming the field. Then a first-order code held and captured, and a stack.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test, ROOT, putCode, call, captureReq, capturer, eur, workerForFile } from "./harness.mjs";

const vectors = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/vectors.json"), "utf8"));
const definitionOf = (c) => (typeof c.definition === "string" ? vectors.definitions[c.definition] : c.definition);
const isDeal = (d) => d && (["buy_x_get_y", "tiered"].includes(d.discount?.kind) || d.first_order === true);
const fresh = (o) => !o?.usage || (o.usage.total === 0 && o.usage.per_customer === 0 && !o.usage.discounted);
const cases = vectors.cases.filter((c) => isDeal(definitionOf(c)) && fresh(c.options));
const malformed = vectors.malformed.filter((c) => isDeal(definitionOf(c)) && !c.options && typeof c.definition !== "string");

const worker = workerForFile({}, async () => {
  const names = new Set(cases.map((c) => JSON.stringify(definitionOf(c))));
  for (const text of names) {
    const r = await putCode(worker.base, JSON.parse(text));
    assert.equal(r.status, 201, r.text);
  }
});

const without = (quote) => {
  const { quoted_at: _, ...rest } = quote;
  return rest;
};

test("the Worker quotes every deal vector as the core does", async () => {
  assert.ok(cases.length >= 50, `only ${cases.length} cases`);
  for (const c of cases) {
    const d = definitionOf(c);
    const body = { code: d.code, basket: c.basket };
    let headers = {};
    if (c.options?.customer) {
      body.customer = c.options.customer;
      headers = capturer;
    }
    if (c.options?.customer_orders !== undefined) body.customer_orders = c.options.customer_orders;
    const r = await call(worker.base, "POST", "/v1/quotes", { body, headers });
    if (c.expect.ok) {
      assert.equal(r.status, 200, `${c.name}: ${r.text}`);
      assert.deepEqual(without(r.json), without(c.expect.quote), c.name);
    } else {
      assert.equal(r.status, 422, `${c.name}: ${r.text}`);
      assert.equal(r.json.rejection, c.expect.rejection, c.name);
      assert.equal(r.json.detail, c.expect.message, c.name);
    }
  }
});

test("a malformed deal is a 400 naming its field", async () => {
  assert.ok(malformed.length >= 25, `only ${malformed.length} cases`);
  for (const c of malformed) {
    const d = definitionOf(c);
    const r = await putCode(worker.base, d);
    assert.equal(r.status, 400, `${c.name}: ${r.text}`);
    assert.equal(r.json.detail, c.error.replace(/^definition\./, ""), c.name);
  }
});

test("a first-order code is held and captured with the count of earlier orders", async () => {
  const put = await putCode(worker.base, { code: "HELLO", discount: { kind: "percent", percent: "10" }, first_order: true });
  assert.equal(put.status, 201, put.text);
  assert.equal(put.json.first_order, true);
  assert.equal(put.json.limits.per_customer, 1);
  const body = { code: "HELLO", customer: "carol", total: eur("80.00") };
  const missing = await call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": "pi_h0" } });
  assert.equal(missing.status, 422, missing.text);
  assert.equal(missing.json.rejection, "customer_required");
  const held = await call(worker.base, "POST", "/v1/holds", { body: { ...body, customer_orders: 0 }, headers: { ...capturer, "idempotency-key": "pi_h1" } });
  assert.equal(held.status, 201, held.text);
  const captured = await captureReq(worker.base, "pi_h1", { ...body, customer_orders: 0 });
  assert.equal(captured.status, 201, captured.text);
  assert.equal(captured.json.quote.discount.amount, "8.00");
  const again = await captureReq(worker.base, "pi_h2", { ...body, customer: "dave", customer_orders: 4 });
  assert.equal(again.status, 422, again.text);
  assert.equal(again.json.rejection, "not_first_order");
});

test("a stack passes the count of earlier orders to each code and prices deals in order", async () => {
  const mugs = { code: "STACK-B2G1", combines_with: ["order"], discount: { kind: "buy_x_get_y", buy: { quantity: 2, applies_to: { categories: ["mugs"] } }, get: { quantity: 1, percent: "100" } } };
  const welcome = { code: "STACK-HELLO", combines_with: ["product"], first_order: true, discount: { kind: "tiered", by: "subtotal", tiers: [{ from: eur("50.00"), discount: { kind: "percent", percent: "10" } }] } };
  for (const d of [mugs, welcome]) assert.equal((await putCode(worker.base, d)).status, 201);
  const lines = [{ sku: "MUG", quantity: 3, unit_price: eur("12.50"), categories: ["mugs"] }, { sku: "LAMP", quantity: 1, unit_price: eur("70.00") }];
  const body = { codes: ["STACK-HELLO", "STACK-B2G1"], customer: "erin", customer_orders: 0, lines };
  const quote = await call(worker.base, "POST", "/v1/quotes", { body, headers: capturer });
  assert.equal(quote.status, 200, quote.text);
  assert.deepEqual(quote.json.codes.map((c) => [c.code, c.discount.amount]), [["STACK-B2G1", "12.50"], ["STACK-HELLO", "9.50"]]);
  const held = await call(worker.base, "POST", "/v1/holds", { body, headers: { ...capturer, "idempotency-key": "pi_s1" } });
  assert.equal(held.status, 201, held.text);
  const captured = await captureReq(worker.base, "pi_s1", body);
  assert.equal(captured.status, 201, captured.text);
  const refused = await captureReq(worker.base, "pi_s2", { ...body, customer: "frank", customer_orders: 1 });
  assert.equal(refused.status, 422, refused.text);
});
