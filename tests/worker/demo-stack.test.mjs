// The demo checkout's routes with several codes (issue 21), against the real Worker in workerd: the
// page holds, pays and cancels a stack through /demo/hold, /demo/pay and /demo/cancel with
// `"codes": [...]` in place of `"code"`, each played as the API's stack request under the key
// `demo-<attempt>` (all or none); /demo/quote prices a stack as POST /v1/quotes does. Every answer is
// checked against docs/openapi.json by the harness.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile({ demo: true }, async () => {
  for (const definition of [
    { code: "DMUGS", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order", "shipping"], limits: { total: 10 } },
    { code: "DSAVE", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"],
      limits: { total: 10 } },
    { code: "DALONE", discount: { kind: "percent", percent: "5" } },
    { code: "DLAST", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    { code: "DKEEP", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"] },
    // A stack whose hold takes a code's last use and a customer's only use.
    { code: "DCAP1", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    { code: "DONCE", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { per_customer: 1 } },
  ]) {
    const put = await putCode(worker.base, definition);
    assert.equal(put.status, 201, put.text);
  }
});

const base = () => worker.base;
const line = (sku, quantity, amount, categories) => ({ sku, quantity, unit_price: eur(amount), categories });
const basket = { lines: [line("MUG", 2, "12.50", ["mugs"]), line("GRINDER", 1, "46.50", ["grinders"])], shipping: eur("4.90") };
const demo = (step, body) => call(base(), "POST", `/demo/${step}`, { body });
const usage = async (code) => {
  const { total, held } = (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
  return { total, held };
};

test("/demo/quote prices a stack as POST /v1/quotes does", async () => {
  const r = await demo("quote", { codes: ["DSAVE", "DMUGS"], ...basket });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.codes.map((p) => [p.code, p.class, p.discount.amount]), [["DMUGS", "product", "5.00"], ["DSAVE", "order", "6.65"]]);
  assert.equal(r.json.payable.amount, "64.75");
  const api = await call(base(), "POST", "/v1/quotes", { body: { codes: ["DSAVE", "DMUGS"], ...basket } });
  assert.deepEqual({ ...r.json, quoted_at: null }, { ...api.json, quoted_at: null });

  const refused = await demo("quote", { codes: ["DSAVE", "DALONE"], ...basket });
  assert.equal(refused.status, 422, refused.text);
  assert.deepEqual(refused.json.rejections.map((x) => [x.code, x.rejection, x.with]), [["DALONE", "not_combinable", "DSAVE"]]);
  const both = await demo("quote", { code: "DSAVE", codes: ["DSAVE"], ...basket });
  assert.equal(both.status, 400, both.text);
});

test("/demo/hold, /demo/pay and /demo/cancel take a stack: all codes under demo-<attempt>", async () => {
  const hold = { codes: ["DSAVE", "DMUGS"], ...basket, ttl_seconds: 600, attempt: "stack-1" };
  const held = await demo("hold", hold);
  assert.equal(held.status, 201, held.text);
  assert.deepEqual(held.json.holds.map((h) => [h.quote.code, h.state, h.key]), [["DMUGS", "held", "demo-stack-1"], ["DSAVE", "held", "demo-stack-1"]]);
  assert.deepEqual(await usage("DMUGS"), { total: 1, held: 1 });
  assert.deepEqual(await usage("DSAVE"), { total: 1, held: 1 });
  const again = await demo("hold", hold);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.json.holds.map((h) => h.replayed), [true, true]);

  // Pinned to the stack's quote as shown.
  const shown = (await demo("quote", { codes: ["DSAVE", "DMUGS"], ...basket })).json;
  const pay = { codes: ["DSAVE", "DMUGS"], ...basket, quote: shown, attempt: "stack-1" };
  const paid = await demo("pay", pay);
  assert.equal(paid.status, 201, paid.text);
  assert.deepEqual(paid.json.receipts.map((r) => [r.quote.code, r.state, r.quote.discount.amount]),
    [["DMUGS", "captured", "5.00"], ["DSAVE", "captured", "6.65"]]);
  assert.deepEqual(await usage("DMUGS"), { total: 1, held: 0 });
  assert.deepEqual(await usage("DSAVE"), { total: 1, held: 0 });
  const redelivered = await demo("pay", pay);
  assert.equal(redelivered.status, 200, redelivered.text);
  assert.deepEqual(redelivered.json.receipts.map((r) => r.replayed), [true, true]);

  // A second attempt, held and cancelled: both codes are given back.
  const second = await demo("hold", { ...hold, attempt: "stack-2" });
  assert.equal(second.status, 201, second.text);
  assert.deepEqual(await usage("DSAVE"), { total: 2, held: 1 });
  const cancelled = await demo("cancel", { codes: ["DSAVE", "DMUGS"], attempt: "stack-2", reason: "cancelled by the buyer" });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.deepEqual(cancelled.json.releases.map((r) => [r.state, r.was]), [["released", "held"], ["released", "held"]]);
  assert.deepEqual(await usage("DMUGS"), { total: 1, held: 0 });
  assert.deepEqual(await usage("DSAVE"), { total: 1, held: 0 });
  const bad = await demo("cancel", { code: "DSAVE", codes: ["DSAVE"], attempt: "stack-2" });
  assert.equal(bad.status, 400, bad.text);
});

test("a refused stack on /demo/hold holds nothing", async () => {
  const notCombinable = await demo("hold", { codes: ["DKEEP", "DALONE"], ...basket, attempt: "refused-1" });
  assert.equal(notCombinable.status, 422, notCombinable.text);
  assert.deepEqual(notCombinable.json.rejections.map((x) => [x.code, x.rejection, x.with]), [["DALONE", "not_combinable", "DKEEP"]]);
  const first = await demo("hold", { codes: ["DKEEP", "DLAST"], ...basket, attempt: "refused-2" });
  assert.equal(first.status, 201, first.text);
  const before = await usage("DKEEP");
  const exhausted = await demo("hold", { codes: ["DKEEP", "DLAST"], ...basket, attempt: "refused-3" });
  assert.equal(exhausted.status, 422, exhausted.text);
  assert.deepEqual(exhausted.json.rejections.map((x) => [x.code, x.rejection]), [["DLAST", "exhausted"]]);
  assert.deepEqual(await usage("DKEEP"), before, "DKEEP's counts stay as they were");
  assert.deepEqual(await usage("DALONE"), { total: 0, held: 0 });
});

test("a held stack whose hold took a code's last use and the customer's only use is captured, and retries replay", async () => {
  const body = { codes: ["DCAP1", "DONCE"], customer: "gil", ...basket };
  const shown = (await demo("quote", body)).json;
  assert.deepEqual(shown.codes.map((p) => [p.code, p.discount.amount]), [["DONCE", "2.50"], ["DCAP1", "2.00"]]);
  const held = await demo("hold", { ...body, attempt: "last-1" });
  assert.equal(held.status, 201, held.text);
  // A retry of the hold replays (the key's own holds stand in no cap's way), as does one of the API's.
  const again = await demo("hold", { ...body, attempt: "last-1" });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.json.holds.map((h) => h.replayed), [true, true]);
  // Anyone else is refused: DCAP1's one use is held, and so is gil's one use of DONCE.
  const other = await demo("hold", { ...body, attempt: "last-2" });
  assert.equal(other.status, 422, other.text);
  assert.deepEqual(other.json.rejections.map((x) => [x.code, x.rejection]),
    [["DONCE", "customer_limit_reached"], ["DCAP1", "exhausted"]]);
  // The capture converts both holds, pinned to the quote shown before the hold.
  const paid = await demo("pay", { ...body, quote: shown, attempt: "last-1" });
  assert.equal(paid.status, 201, paid.text);
  assert.deepEqual(paid.json.receipts.map((r) => [r.quote.code, r.state]), [["DONCE", "captured"], ["DCAP1", "captured"]]);
  const replayed = await demo("pay", { ...body, quote: shown, attempt: "last-1" });
  assert.equal(replayed.status, 200, replayed.text);
  const api = await call(base(), "POST", "/v1/captures",
    { body, headers: { ...capturer, "idempotency-key": "demo-last-1" } });
  assert.equal(api.status, 200, api.text);
  assert.deepEqual(api.json.receipts.map((r) => r.replayed), [true, true]);
  assert.deepEqual(await usage("DCAP1"), { total: 1, held: 0 });
  assert.deepEqual(await usage("DONCE"), { total: 1, held: 0 });
});
