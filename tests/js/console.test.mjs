// The operator's console's pure parts: errors as sentences and the catalog's paging (public/admin/api.js),
// a definition in words (words.js), the editor's form (definition.js), the figures and the CSV
// (figures.js). Run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

process.env.TZ = "UTC";
const { explain, mergePages, definitionOf } = await import("../../public/admin/api.js");
const { automaticInWords, budgetInWords, discountInWords, usesInWords, windowInWords } = await import("../../public/admin/words.js");
const {
  audienceFromFile, countOf, definitionFromForm, errorFields, fieldOf, formFromDefinition, list, sampleOrder, withoutPath,
} = await import("../../public/admin/definition.js");
const { DEAL_DEFAULTS, MAX_TIERS, emptyTier } = await import("../../public/admin/deals.js");
const { CAMPAIGN_CSV_COLUMNS, CSV_COLUMNS, csvField, redemptionsCsv, rejectionsOf, spendingByMinute } = await import("../../public/admin/figures.js");
const { formatMoney } = await import("../../public/lib/money.js");
const { count, percent, when } = await import("../../public/lib/format.js");

const eur = (amount) => ({ amount, currency: "EUR" });

test("API errors as sentences, by status", () => {
  assert.equal(explain(0), "The server could not be reached. Check your connection, then try again.");
  assert.equal(explain(400, { detail: "bad percent" }, "definition"), "The server refused this definition: bad percent. Correct it and try again.");
  assert.match(explain(404, { type: "/problems/unknown_code" }, "campaign X"), /^This campaign does not exist or is archived/);
  assert.match(explain(404, { type: "/problems/unknown_code" }, "code"), /^This code does not exist/);
  assert.match(explain(412), /^Someone changed this code/);
  assert.match(explain(503, { detail: "down" }), /^The server failed to answer \(error 503: down\)/);
  assert.match(explain(418), /^The request failed \(error 418\)/);
});

test("one page of codes and campaigns, merged by name up to the smaller cursor", () => {
  const codes = (...names) => names.map((code) => ({ code }));
  const campaigns = (...names) => names.map((id) => ({ id }));
  const names = ({ rows, next }) => [rows.map((r) => `${r.kind}:${r.name}`).join(" "), next];
  assert.deepEqual(names(mergePages([{ kind: "code", items: codes("A", "C", "E"), next: "E" }, { kind: "campaign", items: campaigns("B", "D", "F"), next: null }], 10)),
    ["code:A campaign:B code:C campaign:D code:E", "E"]);
  assert.deepEqual(names(mergePages([{ kind: "code", items: codes("A", "C"), next: null }, { kind: "campaign", items: campaigns("B"), next: null }], 2)),
    ["code:A campaign:B", "B"]);
  assert.deepEqual(names(mergePages([{ kind: "code", items: codes("A"), next: null }, { kind: "campaign", items: [], next: null }], 2)),
    ["code:A", null]);
});

test("a lookup's extra fields are not part of the definition", () => {
  const view = { code: "A", discount: { kind: "free_shipping" }, usage: {}, remaining: 3, archived: false, assigned: true, remaining_budget: eur("1"), id: "x", codes: {} };
  assert.deepEqual(definitionOf(view), { code: "A", discount: { kind: "free_shipping" } });
});

test("a definition in the operator's words", () => {
  assert.equal(discountInWords({ discount: { kind: "percent", percent: "12.5" } }), `${percent("12.5")} off`);
  assert.equal(
    discountInWords({ discount: { kind: "fixed", amount: eur("5.00"), max: eur("5.00") }, minimum: eur("20.00"), applies_to: { skus: ["A", "B"], categories: ["mugs"] }, assigned: true }),
    `${formatMoney(eur("5.00"))} off, at most ${formatMoney(eur("5.00"))}, on ${formatMoney(eur("20.00"))} or more; only SKUs A, B and categories mugs; named customers only`,
  );
  assert.equal(discountInWords({ discount: { kind: "free_shipping" } }), "Free shipping");
  assert.equal(windowInWords({}), "Always");
  assert.equal(windowInWords({ ends_at: "2026-12-06T12:00:00Z" }), `Until ${when("2026-12-06T12:00:00Z")}`);
  assert.equal(usesInWords({ usage: { total: 1200, held: 2 }, remaining: 5 }), `${count(1198)} used · 2 held · 5 left`);
  assert.equal(budgetInWords({ limits: { budget: eur("100.00") }, usage: { discounted: eur("0.30") } }), `${formatMoney(eur("0.30"))} of ${formatMoney(eur("100.00"))}`);
  assert.equal(budgetInWords({}), "—");
});

const FORM = {
  code: " save10 ", active: true, kind: "percent", percent: " 10 ", amount: "", max: "5", currency: "eur", minimum: "",
  starts: "2026-12-06T13:05", ends: "", total: " 100 ", perCustomer: "x1", budget: "0.1", budgetShort: "clip",
  skus: "A, B\nC", categories: "", audience: "c1;c2", combines: ["order", "product"],
};

test("the form as the core's definition: amounts stay text, counts are numbers only when digits", () => {
  assert.deepEqual(definitionFromForm(FORM), {
    code: "save10",
    active: true,
    discount: { kind: "percent", percent: "10", max: eur("5") },
    starts_at: "2026-12-06T13:05:00Z",
    limits: { total: 100, per_customer: "x1", budget: eur("0.1"), when_budget_short: "clip" },
    applies_to: { skus: ["A", "B", "C"] },
    audience: ["c1", "c2"],
    combines_with: ["product", "order"],
  });
  assert.deepEqual(definitionFromForm({ ...FORM, kind: "fixed", amount: "12345678901234567.89", max: "", total: "", perCustomer: "", budget: "", skus: "", audience: "", combines: [], starts: "" }), {
    code: "save10", active: true, discount: { kind: "fixed", amount: eur("12345678901234567.89") },
  });
});

test("a definition back to the form, and the form to the same definition", () => {
  const definition = definitionFromForm(FORM);
  const form = formFromDefinition(definition);
  assert.equal(form.currency, "EUR");
  assert.equal(form.starts, "2026-12-06T13:05");
  assert.equal(form.skus, "A\nB\nC");
  assert.deepEqual(definitionFromForm(form), definition);
  assert.equal(formFromDefinition({ discount: {} }).kind, "percent");
  assert.equal(formFromDefinition({ discount: {} }).currency, "", "no currency prefilled: a placeholder shows one");
  assert.equal(formFromDefinition({ discount: {} }).budgetShort, "refuse");
});

test("an automatic promotion in the form: the switch, its priority (only with it), and back", () => {
  const auto = definitionFromForm({ ...FORM, automatic: true, priority: " 10 " });
  assert.equal(auto.automatic, true);
  assert.equal(auto.priority, 10);
  assert.deepEqual(definitionFromForm(formFromDefinition(auto)), auto);
  // Empty: the core's default; not automatic: no priority written, whatever was typed.
  assert.equal("priority" in definitionFromForm({ ...FORM, automatic: true, priority: "" }), false);
  const typed = definitionFromForm({ ...FORM, automatic: false, priority: "10" });
  assert.equal("automatic" in typed || "priority" in typed, false);
  assert.equal(formFromDefinition({ discount: {}, priority: 7 }).priority, "");
  assert.equal(definitionFromForm({ ...FORM, automatic: true, priority: "x" }).priority, "x", "the module says what is wrong");
  assert.equal(fieldOf("definition.priority"), "f-priority");
  assert.equal(automaticInWords({ automatic: true, priority: 10 }), "Priority 10");
  assert.equal(automaticInWords({ automatic: true }), "Priority 100");
  assert.equal(automaticInWords({}), "");
});

test("a hot code's shards in the form: written when typed, kept through an edit, a code's only", () => {
  const sharded = definitionFromForm({ ...FORM, shards: " 16 " });
  assert.equal(sharded.shards, 16);
  // A sharded code opened in the editor and saved again keeps its shards (else the PUT would ask for 1).
  assert.deepEqual(definitionFromForm(formFromDefinition(sharded)), sharded);
  assert.equal("shards" in definitionFromForm({ ...FORM, shards: "" }), false, "empty: the default, 1");
  assert.equal(formFromDefinition({ discount: {}, shards: 1 }).shards, "");
  assert.equal(definitionFromForm({ ...FORM, shards: "many" }).shards, "many", "the module says what is wrong");
  assert.equal(fieldOf("definition.shards"), "f-shards");
  assert.ok(errorFields(0).includes("f-shards"));
  assert.equal(discountInWords({ discount: { kind: "percent", percent: "10" }, shards: 16 }), `${percent("10")} off; on 16 shards`);
  assert.equal(discountInWords({ discount: { kind: "percent", percent: "10" }, shards: 1 }), `${percent("10")} off`);
});

test("lists, counts, refusal fields and audience files", () => {
  assert.deepEqual(list(" a ,b;\n\nc "), ["a", "b", "c"]);
  assert.equal(countOf(" 12 "), 12);
  assert.equal(countOf("1.5"), "1.5");
  assert.equal(fieldOf("definition.discount.max.amount"), "f-max");
  assert.equal(fieldOf("definition.minimum.currency"), "f-currency");
  assert.equal(fieldOf("definition.limits.budget.amount"), "f-budget");
  assert.equal(fieldOf("definition.applies_to"), "f-skus");
  assert.equal(fieldOf("somewhere.else"), undefined);
  assert.equal(withoutPath("definition.discount.percent: must be at most 100"), "must be at most 100");
  assert.deepEqual(audienceFromFile('customer_id,name\r\n"c1",Ann\nc2\n\n'), ["c1", "c2"]);
  assert.deepEqual(audienceFromFile("c1\nc2"), ["c1", "c2"]);
});

test("the preview's sample basket", () => {
  assert.deepEqual(sampleOrder({}, " ", "EUR"), { total: eur("0"), basket: { total: eur("0") }, customer: undefined, units: 1 });
  const scoped = sampleOrder({ applies_to: { categories: ["mugs"] }, audience: ["c1"] }, "20", "EUR");
  assert.deepEqual(scoped.basket, { lines: [{ sku: "SAMPLE", quantity: 1, unit_price: eur("20"), categories: ["mugs"] }], shipping: eur("4.90") });
  assert.equal(scoped.customer, "c1");
  assert.equal(sampleOrder({ limits: { per_customer: 1 } }, "1", "EUR").customer, "sample-customer");
});

test("a budget's spending by minute, in minor units: exact amounts, coordinates for the chart", () => {
  const minute = (discounted, returned) => ({ figures: { discounted: discounted && eur(discounted), returned: returned && eur(returned) } });
  const stats = {
    total: { discounted: eur("0.30"), returned: eur("0.10") },
    by_minute: [minute("0.10"), minute(null), minute("0.20", "0.10")],
  };
  const { amounts, ys } = spendingByMinute(stats, 2);
  assert.deepEqual(amounts, ["0.10", "0.10", "0.20"]);
  assert.deepEqual(ys, [0.1, 0.1, 0.2]);
  const big = spendingByMinute({ total: { discounted: eur("90071992547409.93") }, by_minute: [minute("0.01")] }, 2);
  assert.deepEqual(big.amounts, ["90071992547409.93"]);
});

test("rejections summed over quotes, holds and captures", () => {
  assert.deepEqual(rejectionsOf({ rejections: { quotes: { expired: 2 }, holds: { expired: 1, exhausted: 3 } } }), { expired: 3, exhausted: 3 });
  assert.deepEqual(rejectionsOf({}), {});
});

test("CSV: quoted fields, formulas neutralised, amounts as the API writes them", () => {
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("=SUM(A1)"), `"'=SUM(A1)"`);
  assert.equal(csvField("-1"), `"'-1"`);
  assert.equal(csvField(null), '""');
  const redemption = {
    seq: 1, code: "C1", idempotency_key: "k", state: "captured", customer: "c",
    quote: { total: eur("10.10"), discount: eur("1.01"), payable: eur("9.09") }, captured_at: "2026-12-06T12:00:00Z",
  };
  assert.equal(redemptionsCsv([redemption], CSV_COLUMNS),
    'seq,idempotency_key,state,customer,total,discount,payable,currency,at,reason\r\n"1","k","captured","c","10.10","1.01","9.09","EUR","2026-12-06T12:00:00Z",""\r\n');
  assert.match(redemptionsCsv([redemption], CAMPAIGN_CSV_COLUMNS), /^seq,code,idempotency_key,.*\r\n"1","C1","k",/);
});

// The deal fields of a form, as formFromDefinition gives them for a code of another kind.
const DEAL_FORM = { ...FORM, automatic: false, priority: "", firstOrder: false, shards: "", ...DEAL_DEFAULTS, tiers: [emptyTier()] };

test("buy X get Y in the form: the JSON the API takes, and back to the same form", () => {
  const form = {
    ...DEAL_FORM, kind: "buy_x_get_y", percent: "", max: " 30.00 ", skus: "", audience: "", combines: [], total: "", perCustomer: "", budget: "",
    buyQuantity: " 2 ", buyCategories: "mugs", getQuantity: "1", getPercent: " 100 ", maxApplications: " 2 ", selection: "most_expensive",
  };
  const definition = definitionFromForm(form);
  assert.deepEqual(definition, {
    code: "save10", active: true, starts_at: "2026-12-06T13:05:00Z",
    discount: {
      kind: "buy_x_get_y", buy: { quantity: 2, applies_to: { categories: ["mugs"] } }, get: { quantity: 1, percent: "100" },
      max_applications: 2, selection: "most_expensive", max: eur("30.00"),
    },
  });
  const back = formFromDefinition(definition);
  assert.deepEqual(back, { ...form, code: "save10", currency: "EUR", budgetShort: "refuse", max: "30.00", buyQuantity: "2", getPercent: "100", maxApplications: "2" });
  assert.deepEqual(definitionFromForm(back), definition);

  // Buy by amount; the get with its own SKUs, an amount off each; "same as buy" ignores the lists typed.
  const spend = {
    ...form, buyBy: "amount", buyQuantity: "7", buyAmount: "30.00", buyCategories: "", buySkus: "GRINDER", getSame: false, getSkus: "BEANS; FILTERS",
    getOff: "amount", getPercent: "50", getAmount: "12345678901234567.89", maxApplications: "", selection: "cheapest", max: "",
  };
  const deal = definitionFromForm(spend).discount;
  assert.deepEqual(deal, {
    kind: "buy_x_get_y", buy: { amount: eur("30.00"), applies_to: { skus: ["GRINDER"] } },
    get: { quantity: 1, applies_to: { skus: ["BEANS", "FILTERS"] }, amount: eur("12345678901234567.89") }, selection: "cheapest",
  });
  assert.deepEqual(definitionFromForm(formFromDefinition({ code: "X", discount: deal })).discount, deal);
  assert.equal(formFromDefinition({ discount: deal }).currency, "EUR");
  assert.equal(definitionFromForm({ ...spend, getSame: true }).discount.get.applies_to, undefined);
  assert.equal(definitionFromForm({ ...form, buyQuantity: "two" }).discount.buy.quantity, "two", "the module says what is wrong");
});

test("a tiered discount in the form: subtotal or items, percent or amount per tier, and back", () => {
  const rows = [
    { from: "50.00", off: "percent", value: "10", max: "" },
    { from: "100.00", off: "percent", value: " 15 ", max: "20.00" },
    { from: "200.00", off: "fixed", value: "40.00", max: "" },
  ];
  const form = { ...DEAL_FORM, kind: "tiered", currency: "usd", max: "5", skus: "", audience: "", combines: [], total: "", perCustomer: "", budget: "", starts: "", tiers: rows };
  const definition = definitionFromForm(form);
  const usd = (amount) => ({ amount, currency: "USD" });
  assert.deepEqual(definition.discount, {
    kind: "tiered", by: "subtotal", tiers: [
      { from: usd("50.00"), discount: { kind: "percent", percent: "10" } },
      { from: usd("100.00"), discount: { kind: "percent", percent: "15", max: usd("20.00") } },
      { from: usd("200.00"), discount: { kind: "fixed", amount: usd("40.00") } },
    ],
  }, "no `max` beside the tiers: a tiered code has none");
  const back = formFromDefinition(definition);
  assert.equal(back.currency, "USD");
  assert.deepEqual(back.tiers, [rows[0], { ...rows[1], value: "15" }, rows[2]]);
  assert.deepEqual(definitionFromForm(back), definition);

  const items = definitionFromForm({ ...form, tierBy: "quantity", tiers: [{ from: "3", off: "percent", value: "10", max: "" }, { from: "5 items", off: "percent", value: "20", max: "" }] });
  assert.deepEqual(items.discount.tiers.map((t) => t.from), [3, "5 items"]);
  assert.deepEqual(formFromDefinition(items).tiers[0], { from: "3", off: "percent", value: "10", max: "" });
  assert.equal(formFromDefinition(items).tierBy, "quantity");
  assert.deepEqual(formFromDefinition({ discount: { kind: "percent", percent: "5" } }).tiers, [emptyTier()]);
  assert.equal(MAX_TIERS, 10);
});

test("first order only: the flag written only when ticked, and read back", () => {
  const first = definitionFromForm({ ...DEAL_FORM, audience: "", firstOrder: true });
  assert.equal(first.first_order, true);
  assert.equal(formFromDefinition(first).firstOrder, true);
  assert.equal("first_order" in definitionFromForm(DEAL_FORM), false);
  assert.equal(formFromDefinition({ discount: {}, first_order: false }).firstOrder, false);
  assert.equal(sampleOrder(first, "10", "EUR").customer, "sample-customer");
  assert.equal(sampleOrder(first, "10", "EUR").orders, 0);
  assert.equal(discountInWords({ discount: { kind: "percent", percent: "10" }, first_order: true }), `${percent("10")} off; first orders only`);
});

test("the module's refusals of the new kinds land on their field, a tier's on its row", () => {
  // The paths as the browser module names them (PromoCode.parse's err.field).
  const cases = {
    "definition.discount.tiers[1].from": "f-tier-from-1",
    "definition.discount.tiers[0].from.amount": "f-tier-from-0",
    "definition.discount.tiers[2].discount.percent": "f-tier-value-2",
    "definition.discount.tiers[0].discount.amount.amount": "f-tier-value-0",
    "definition.discount.tiers[9].discount.max.amount": "f-tier-max-9",
    "definition.discount.tiers[3].discount": "f-tier-off-3",
    "definition.discount.tiers": "f-tier-from-0",
    "definition.discount.tiers[0].from.currency": "f-currency",
    "definition.discount.by": "f-tier-by",
    "definition.discount.buy.quantity": "f-buy-quantity",
    "definition.discount.buy.amount": "f-buy-amount",
    "definition.discount.buy.applies_to.skus[0]": "f-buy-skus",
    "definition.discount.buy.applies_to.categories[0]": "f-buy-categories",
    "definition.discount.buy": "f-buy-quantity",
    "definition.discount.get.quantity": "f-get-quantity",
    "definition.discount.get.percent": "f-get-percent",
    "definition.discount.get.amount.amount": "f-get-amount",
    "definition.discount.get.applies_to.categories[0]": "f-get-categories",
    "definition.discount.get.applies_to.skus[0]": "f-get-skus",
    "definition.discount.max_applications": "f-max-applications",
    "definition.discount.selection": "f-selection",
    "definition.discount.max.amount": "f-max",
    "definition.first_order": "f-first-order",
    "definition.discount.percent": "f-percent",
  };
  for (const [path, id] of Object.entries(cases)) assert.equal(fieldOf(path), id, path);
  const ids = errorFields(2);
  assert.ok(ids.includes("f-tier-max-1") && !ids.includes("f-tier-from-2"));
  assert.ok(ids.indexOf("f-kind") < ids.indexOf("f-buy-quantity") && ids.indexOf("f-buy-quantity") < ids.indexOf("f-currency"), "in the form's order");
});

test("buy X get Y and tiers in the operator's words; the sample basket holds one application", () => {
  const mugs = { categories: ["mugs"] };
  const deal = { kind: "buy_x_get_y", buy: { quantity: 2, applies_to: mugs }, get: { quantity: 1, percent: "100" }, selection: "cheapest", max: eur("30.00") };
  assert.equal(discountInWords({ discount: deal }), `Buy 2 mugs, get 1 free (at most ${formatMoney(eur("30.00"))})`);
  const tiered = { kind: "tiered", by: "subtotal", tiers: [{ from: eur("50.00"), discount: { kind: "percent", percent: "10" } }, { from: eur("100.00"), discount: { kind: "percent", percent: "15" } }] };
  assert.equal(discountInWords({ discount: tiered }), `10% off from ${formatMoney(eur("50.00"))} and 15% off from ${formatMoney(eur("100.00"))}`);
  const byItems = { kind: "tiered", by: "quantity", tiers: [{ from: 3, discount: { kind: "fixed", amount: eur("5.00") } }] };
  assert.equal(discountInWords({ discount: byItems, applies_to: mugs }), `${formatMoney(eur("5.00"))} off from 3 items; only categories mugs`);

  const sample = sampleOrder({ discount: deal }, "12.50", "EUR");
  assert.equal(sample.units, 3);
  assert.deepEqual(sample.basket.lines, [{ sku: "SAMPLE", quantity: 3, unit_price: eur("12.50"), categories: ["mugs"] }]);
  const split = sampleOrder({ discount: { ...deal, buy: { amount: eur("30.00"), applies_to: { skus: ["GRINDER"] } }, get: { quantity: 2, percent: "50", applies_to: { skus: ["BEANS"] } } } }, "40", "EUR");
  assert.deepEqual(split.basket.lines.map((l) => [l.sku, l.quantity]), [["GRINDER", 1], ["BEANS", 2]]);
  assert.equal(split.units, 3);
});
