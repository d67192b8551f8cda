// Several codes in one basket against the real Worker in workerd (issue 21): POST /v1/quotes with
// `codes` gives the core's stack quote (the example, exactly), a refused stack is 422 with
// every code's rejection, bad lists are 400, and a stack quote records nothing; holds, captures and
// releases of stacks are all or none, also when 100 buyers race for codes capped 30 and 50.
import assert from "node:assert/strict";
import { test, putCode, call, admin, capturer, captureReq, eur, workerForFile } from "./harness.mjs";

const worker = workerForFile({}, async () => {
  for (const definition of [
    { code: "MUGS20", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order", "shipping"] },
    { code: "SAVE10", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"],
      limits: { total: 100 } },
    { code: "SHIPFREE", discount: { kind: "free_shipping" }, combines_with: ["product", "order"] },
    { code: "LONER", discount: { kind: "percent", percent: "5" } },
    { code: "VIP", discount: { kind: "percent", percent: "5" }, audience: ["dora"], combines_with: ["product", "order"] },
    // For the holds, captures and releases of stacks: a product code and an order code, capped.
    // The product code (held first) has the larger cap: a stack refused on CAP30 gives CAP50 back.
    { code: "CAP50", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 50 } },
    { code: "CAP30", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 30 } },
    { code: "KEPT", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"] },
    { code: "ONCE", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    { code: "FLOW", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"] },
    { code: "FLOWTOO", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"] },
    { code: "LASTA", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 1, per_customer: 1 } },
    { code: "LASTB", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 1 } },
    { code: "PINA", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"] },
    { code: "PINB", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"] },
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

const usage = async (code) => (await call(base(), "GET", `/v1/codes/${code}`, { headers: admin })).json.usage;
const keyed = (route, key, body) => call(base(), "POST", route, { body, headers: { ...capturer, "idempotency-key": key } });

test("a stack is held, captured and released as one, one answer per code; a retry replays", async () => {
  const held = await keyed("/v1/holds", "flow-1", { codes: ["FLOWTOO", "FLOW"], ...basket, ttl_seconds: 600 });
  assert.equal(held.status, 201, held.text);
  // In the order the codes apply, each a single code's hold of its part.
  assert.deepEqual(held.json.holds.map((h) => [h.quote.code, h.state, h.quote.discount.amount, h.replayed]),
    [["FLOW", "held", "2.50", false], ["FLOWTOO", "held", "2.00", false]]);
  assert.equal(held.json.holds[1].quote.total.amount, "73.90", "FLOWTOO's basket is what FLOW left");
  const again = await keyed("/v1/holds", "flow-1", { codes: ["FLOWTOO", "FLOW"], ...basket, ttl_seconds: 600 });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.json.holds.map((h) => h.replayed), [true, true]);
  assert.deepEqual([(await usage("FLOW")).held, (await usage("FLOWTOO")).held], [1, 1]);

  // Pinned to the stack's quote as shown: it still charges the same.
  const shown = (await quote({ codes: ["FLOWTOO", "FLOW"], ...basket })).json;
  const captured = await keyed("/v1/captures", "flow-1", { codes: ["FLOWTOO", "FLOW"], ...basket, quote: shown });
  assert.equal(captured.status, 201, captured.text);
  assert.deepEqual(captured.json.receipts.map((r) => [r.quote.code, r.state, r.quote.discount.amount]),
    [["FLOW", "captured", "2.50"], ["FLOWTOO", "captured", "2.00"]]);
  for (const code of ["FLOW", "FLOWTOO"]) {
    const u = await usage(code);
    assert.deepEqual([u.total, u.held], [1, 0], code);
  }
  const notAQuote = await keyed("/v1/captures", "flow-2", { codes: ["FLOW"], ...basket, quote: {} });
  assert.equal(notAQuote.status, 400, notAQuote.text);
  assert.equal(notAQuote.json.detail, "quote: missing field `codes`");

  const released = await call(base(), "POST", "/v1/releases",
    { body: { codes: ["FLOW", "FLOWTOO"], key: "flow-1", reason: "order cancelled" }, headers: capturer });
  assert.equal(released.status, 200, released.text);
  assert.deepEqual(released.json.releases.map((r) => [r.state, r.was]), [["released", "captured"], ["released", "captured"]]);
  for (const code of ["FLOW", "FLOWTOO"]) assert.equal((await usage(code)).total, 0, code);
  const both = await call(base(), "POST", "/v1/releases",
    { body: { code: "FLOW", codes: ["FLOW"], key: "flow-1" }, headers: capturer });
  assert.equal(both.status, 400, both.text);
});

test("a stack whose second code is used up holds nothing, and the first code's counts stay as they were", async () => {
  // ONCE's one use goes to a single-code capture: the stack is refused when priced.
  const single = await captureReq(base(), "once-single", { code: "ONCE", total: eur("10.00") });
  assert.equal(single.status, 201, single.text);
  const before = await usage("KEPT");
  const r = await keyed("/v1/holds", "kept-1", { codes: ["KEPT", "ONCE"], ...basket });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(r.json.rejections.map((x) => [x.code, x.rejection]), [["ONCE", "exhausted"]]);
  assert.deepEqual(await usage("KEPT"), before);
});

test("100 racing stack holds over codes capped 30 and 50: never past a cap, and all or none", async () => {
  const race = await Promise.all(Array.from({ length: 100 }, (_, i) =>
    keyed("/v1/holds", `race-${i}`, { codes: ["CAP30", "CAP50"], ...basket })));
  const statuses = race.map((r) => r.status);
  assert.ok(statuses.every((s) => s === 201 || s === 422 || s === 409), JSON.stringify(statuses));
  const won = race.filter((r) => r.status === 201);
  assert.ok(won.length <= 30 && won.length >= 1, `${won.length} stacks held`);
  if (!statuses.includes(409)) assert.equal(won.length, 30, "every stack the caps allow");
  for (const r of won) assert.deepEqual(r.json.holds.map((h) => h.quote.code), ["CAP50", "CAP30"]);
  for (const r of race.filter((x) => x.status === 422)) {
    // CAP30's cap, or both at once: a stack priced while the first wave's CAP50 holds (of stacks
    // CAP30 then refused) are not given back yet sees CAP50 used up too (wider with shards' grants).
    assert.ok(r.json.rejections.length >= 1, r.text);
    assert.ok(r.json.rejections.every((x) => x.rejection === "exhausted"), r.text);
  }
  const [a, b] = [await usage("CAP30"), await usage("CAP50")];
  assert.equal(a.held, won.length, "CAP30 holds exactly the stacks held");
  assert.equal(b.held, won.length, "CAP50 holds exactly the stacks held: a refused stack gave its first code back");
  assert.ok(a.held <= 30 && b.held <= 50);
});

test("a capture pinned to the stack's quote refuses with quote_changed when any part changed, and captures nothing", async () => {
  const shown = (await quote({ codes: ["PINA", "PINB"], ...basket })).json;
  const held = await keyed("/v1/holds", "pin-1", { codes: ["PINA", "PINB"], ...basket });
  assert.equal(held.status, 201, held.text);
  const put = await putCode(base(), { code: "PINB", discount: { kind: "fixed", amount: eur("3.00") }, combines_with: ["product"] });
  assert.equal(put.status, 200, put.text);
  // The stack's price now is not what its holds hold (issue 32: a held code is its hold as it is,
  // never priced again): a capture pinned to it refuses for the part that differs.
  const shownNow = (await quote({ codes: ["PINA", "PINB"], ...basket })).json;
  const r = await keyed("/v1/captures", "pin-1", { codes: ["PINA", "PINB"], ...basket, quote: shownNow });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.rejection, "quote_changed");
  assert.deepEqual(r.json.rejections.map((x) => [x.code, x.rejection]), [["PINB", "quote_changed"]]);
  assert.equal(r.json.rejections[0].message, "the price changed since it was quoted: EUR 70.90 to pay then, EUR 71.90 now");
  for (const code of ["PINA", "PINB"]) {
    const u = await usage(code);
    assert.deepEqual([u.total, u.held], [1, 1], `${code}: still held, nothing captured`);
  }
  // Pinned to the quote the holds were taken at, the capture converts the holds at that price.
  const pinned = await keyed("/v1/captures", "pin-1", { codes: ["PINA", "PINB"], ...basket, quote: shown });
  assert.equal(pinned.status, 201, pinned.text);
  assert.deepEqual(pinned.json.receipts.map((x) => x.quote.discount.amount), ["2.50", "2.00"]);
});

test("100 racing stack captures over codes capped 30 and 50: exactly 30 stacks, each code's receipts matching", async () => {
  for (const definition of [
    { code: "RACE50", discount: { kind: "percent", percent: "10" }, applies_to: { categories: ["mugs"] },
      combines_with: ["order"], limits: { total: 50 } },
    { code: "RACE30", discount: { kind: "fixed", amount: eur("2.00") }, combines_with: ["product"], limits: { total: 30 } },
  ]) {
    const put = await putCode(base(), definition);
    assert.equal(put.status, 201, put.text);
  }
  // Each buyer retries a 409 (a conflict: attempts used up) under the same key, as a client does,
  // until the stack is captured or refused.
  const capture = async (i) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const r = await keyed("/v1/captures", `race-capture-${i}`, { codes: ["RACE30", "RACE50"], ...basket });
      if (r.status !== 409) return r;
    }
    throw new Error(`race-capture-${i}: still 409 after 20 tries`);
  };
  const race = await Promise.all(Array.from({ length: 100 }, (_, i) => capture(i)));
  const won = race.filter((r) => r.status === 201);
  const refused = race.filter((r) => r.status === 422);
  assert.equal(won.length, 30, race.map((r) => r.status).join(","));
  assert.equal(refused.length, 70);
  for (const r of won) {
    assert.deepEqual(r.json.receipts.map((x) => [x.quote.code, x.state]), [["RACE50", "captured"], ["RACE30", "captured"]]);
  }
  for (const r of refused) assert.deepEqual(r.json.rejections.map((x) => [x.code, x.rejection]), [["RACE30", "exhausted"]], r.text);
  const [thirty, fifty] = [await usage("RACE30"), await usage("RACE50")];
  assert.deepEqual([thirty.total, thirty.held], [30, 0], "RACE30: a use for each stack captured, none held");
  assert.deepEqual([fifty.total, fifty.held], [30, 0], "RACE50: the refused stacks gave their first code back");
  // Each code's receipts are the stacks' keys, once each.
  for (const code of ["RACE30", "RACE50"]) {
    const list = await call(base(), "GET", `/v1/codes/${code}/redemptions?limit=100`, { headers: admin });
    assert.equal(list.status, 200, list.text);
    const captured = list.json.redemptions.filter((x) => x.state === "captured").map((x) => x.idempotency_key).sort();
    assert.deepEqual(captured, won.map((r) => r.json.receipts[0].key).sort(), code);
  }
});

test("a stack holding its codes' last uses is captured, and its hold retried replays: a request's own holds are not counted against it", async () => {
  const body = { codes: ["LASTB", "LASTA"], ...basket, customer: "erin" };
  const held = await keyed("/v1/holds", "last-1", body);
  assert.equal(held.status, 201, held.text);
  const again = await keyed("/v1/holds", "last-1", body);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.json.holds.map((h) => h.replayed), [true, true]);
  // Another request is refused: the codes' one use is held.
  const other = await keyed("/v1/holds", "last-2", { ...body, customer: "fred" });
  assert.equal(other.status, 422, other.text);
  const captured = await keyed("/v1/captures", "last-1", body);
  assert.equal(captured.status, 201, captured.text);
  assert.deepEqual(captured.json.receipts.map((r) => [r.quote.code, r.state]), [["LASTA", "captured"], ["LASTB", "captured"]]);
  for (const code of ["LASTA", "LASTB"]) {
    const u = await usage(code);
    assert.deepEqual([u.total, u.held], [1, 0], code);
  }
  const replay = await keyed("/v1/captures", "last-1", body);
  assert.equal(replay.status, 200, replay.text);
  assert.ok(replay.json.receipts.every((r) => r.replayed), replay.text);
});

test("two codes of one campaign with a budget: the stack's capture records exactly its quote, also after a hold (issue 32)", async () => {
  const campaign = (id, limits) => call(base(), "PUT", `/v1/campaigns/${id}`,
    { body: { discount: { kind: "percent", percent: "50" }, limits, combines_with: ["order"] }, headers: admin });
  const addCodes = (id, codes) => call(base(), "POST", `/v1/campaigns/${id}/codes`,
    { body: { codes }, headers: { ...admin, "idempotency-key": `${id}-import` } });
  const parts = (answers) => answers.map((a) => [a.quote.code, a.quote.discount.amount]);
  for (const id of ["HALF", "HALFHELD"]) {
    assert.equal((await campaign(id, { total: 2, budget: eur("12.00"), when_budget_short: "partial" })).status, 201);
    assert.equal((await addCodes(id, [`${id}-A`, `${id}-B`])).status, 201);
  }
  // 50% of 20.00 is 10.00; the second code's 5.00 is clipped to what the budget has left: 2.00.
  const body = { codes: ["HALF-A", "HALF-B"], total: eur("20.00") };
  const quoted = await quote(body);
  assert.equal(quoted.status, 200, quoted.text);
  assert.deepEqual(quoted.json.codes.map((p) => [p.code, p.discount.amount, p.budget_clipped ?? false]),
    [["HALF-A", "10.00", false], ["HALF-B", "2.00", true]]);
  assert.equal(quoted.json.payable.amount, "8.00");
  const captured = await keyed("/v1/captures", "half-1", body);
  assert.equal(captured.status, 201, captured.text);
  assert.deepEqual(parts(captured.json.receipts), [["HALF-A", "10.00"], ["HALF-B", "2.00"]]);

  // Held, then captured under the same key: each hold converts to its part, as quoted.
  const held = { codes: ["HALFHELD-A", "HALFHELD-B"], total: eur("20.00") };
  const holds = await keyed("/v1/holds", "half-2", held);
  assert.equal(holds.status, 201, holds.text);
  assert.deepEqual(parts(holds.json.holds), [["HALFHELD-A", "10.00"], ["HALFHELD-B", "2.00"]]);
  // The campaign's two uses are held: anyone else's quote of the stack is refused.
  assert.equal((await quote(held)).status, 422);
  const converted = await keyed("/v1/captures", "half-2", held);
  assert.equal(converted.status, 201, converted.text);
  assert.deepEqual(parts(converted.json.receipts), [["HALFHELD-A", "10.00"], ["HALFHELD-B", "2.00"]]);
  assert.ok(converted.json.receipts.every((r) => r.state === "captured" && !r.replayed), converted.text);
  const replay = await keyed("/v1/captures", "half-2", held);
  assert.equal(replay.status, 200, replay.text);
  assert.deepEqual(parts(replay.json.receipts), [["HALFHELD-A", "10.00"], ["HALFHELD-B", "2.00"]]);
});
