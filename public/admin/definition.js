// The editor's form as the core's definition, and back: what each field means, with no DOM (the
// form's values come in as an object of texts), tested under `node --test tests/js/`. Every rule on
// the definition is the browser module's (the same refusal the server gives); this only translates.
import { toLocal, toUtc } from "../lib/format.js";
import { buyXGetYFromForm, countOf, dealErrorFields, dealFieldOf, dealFormOf, firstCurrency, list, tieredFromForm } from "./deals.js";

export { countOf, list };

/** The most customer ids an audience takes (the Worker's limit). */
export const MAX_AUDIENCE = 10_000;

/** Each refusal's field path (the module's `err.field`) to the form field that shows it, first match wins. */
export const FIELD_OF = [
  [/^definition\.code/, "f-code"],
  [/^definition\.active/, "f-active"],
  [/\.currency$/, "f-currency"],
  [/^definition\.discount\.kind/, "f-kind"],
  [/^definition\.discount\.percent/, "f-percent"],
  [/^definition\.discount\.amount/, "f-amount"],
  [/^definition\.discount\.max/, "f-max"],
  [/^definition\.discount/, "f-kind"],
  [/^definition\.minimum/, "f-minimum"],
  [/^definition\.starts_at/, "f-starts"],
  [/^definition\.ends_at/, "f-ends"],
  [/^definition\.limits\.total/, "f-total"],
  [/^definition\.limits\.per_customer/, "f-per-customer"],
  [/^definition\.limits\.budget/, "f-budget"],
  [/^definition\.limits\.when_budget_short/, "f-budget-short"],
  [/^definition\.limits/, "f-budget"],
  [/^definition\.shards/, "f-shards"],
  [/^definition\.applies_to\.skus/, "f-skus"],
  [/^definition\.applies_to\.categories/, "f-categories"],
  [/^definition\.applies_to/, "f-skus"],
  [/^definition\.audience/, "f-audience"],
  [/^definition\.priority/, "f-priority"],
  [/^definition\.automatic/, "f-priority"],
  [/^definition\.first_order/, "f-first-order"],
];

/** The fields that show a refusal, in the form's order. */
export const ERROR_FIELDS = ["f-code", "f-kind", "f-percent", "f-amount", "f-currency", "f-max", "f-minimum", "f-starts", "f-ends", "f-total", "f-per-customer", "f-budget", "f-budget-short", "f-shards", "f-skus", "f-categories", "f-audience", "f-priority", "f-first-order"];

/** Every field that shows a refusal, in the form's order, with `rows` tier rows. */
export const errorFields = (rows) => [...ERROR_FIELDS.slice(0, 2), ...dealErrorFields(rows), ...ERROR_FIELDS.slice(2)];

/**
 * The form field for a refusal's field path ("definition.discount.max.amount" → "f-max",
 * "definition.discount.tiers[1].from" → "f-tier-from-1"), or undefined. A currency is the form's one.
 */
export const fieldOf = (path) =>
  (/\.currency$/.test(path ?? "") ? "f-currency" : dealFieldOf(path)) ?? FIELD_OF.find(([re]) => re.test(path ?? ""))?.[1];

/** A refusal's message without its field path ("definition.code: is empty" → "is empty"). */
export const withoutPath = (message) => String(message).replace(/^[\w.[\]]+: /, "");

/** The classes of code a definition's `combines_with` lists, in the order of application. */
export const COMBINES = ["product", "order", "shipping"];

/**
 * The definition the form describes (the core's JSON shape). `form` holds the fields' values as typed:
 * { code, active (boolean), kind, percent, amount, max, currency, minimum, starts, ends (datetime-local
 * values), total, perCustomer, budget, budgetShort, skus, categories, audience, combines (the classes
 * ticked), automatic (boolean), priority, firstOrder (boolean), shards } and, for buy X get Y and tiered, the
 * fields deals.js reads (`tiers`: an array of rows). The priority is written only for an automatic
 * promotion (left empty: the core's default, 100). Amounts stay the text typed (trimmed): the module
 * checks them, no number is made.
 */
export function definitionFromForm(form) {
  const currency = form.currency.trim().toUpperCase();
  const money = (amount) => ({ amount: amount.trim(), currency });
  let discount = { kind: form.kind };
  if (form.kind === "percent") discount.percent = form.percent.trim();
  if (form.kind === "fixed") discount.amount = money(form.amount);
  if (form.kind === "buy_x_get_y") discount = buyXGetYFromForm(form, money);
  else if (form.kind === "tiered") discount = tieredFromForm(form, money);
  else if (form.max.trim()) discount.max = money(form.max);
  const definition = { code: form.code.trim(), active: form.active, discount };
  if (form.minimum.trim()) definition.minimum = money(form.minimum);
  if (form.starts) definition.starts_at = toUtc(form.starts);
  if (form.ends) definition.ends_at = toUtc(form.ends);
  const limits = {};
  if (form.total.trim()) limits.total = countOf(form.total);
  if (form.perCustomer.trim()) limits.per_customer = countOf(form.perCustomer);
  if (form.budget.trim()) {
    limits.budget = money(form.budget);
    limits.when_budget_short = form.budgetShort;
  }
  if (Object.keys(limits).length) definition.limits = limits;
  if ((form.shards ?? "").trim()) definition.shards = countOf(form.shards);
  const skus = list(form.skus);
  const categories = list(form.categories);
  if (skus.length || categories.length) {
    definition.applies_to = {};
    if (skus.length) definition.applies_to.skus = skus;
    if (categories.length) definition.applies_to.categories = categories;
  }
  const audience = list(form.audience);
  if (audience.length) definition.audience = audience;
  const combines = COMBINES.filter((c) => form.combines.includes(c));
  if (combines.length) definition.combines_with = combines;
  if (form.automatic) {
    definition.automatic = true;
    if (form.priority.trim()) definition.priority = countOf(form.priority);
  }
  if (form.firstOrder) definition.first_order = true;
  return definition;
}

/** The form's values (texts, as `definitionFromForm` reads them) for a definition. */
export function formFromDefinition(definition) {
  const d = definition.discount ?? {};
  return {
    code: definition.code ?? "",
    active: definition.active !== false,
    kind: d.kind ?? "percent",
    percent: String(d.percent ?? ""),
    amount: d.amount?.amount ?? "",
    max: d.max?.amount ?? "",
    currency: firstCurrency(d) ?? definition.minimum?.currency ?? definition.limits?.budget?.currency ?? "",
    minimum: definition.minimum?.amount ?? "",
    starts: definition.starts_at ? toLocal(definition.starts_at) : "",
    ends: definition.ends_at ? toLocal(definition.ends_at) : "",
    total: String(definition.limits?.total ?? ""),
    perCustomer: String(definition.limits?.per_customer ?? ""),
    budget: definition.limits?.budget?.amount ?? "",
    budgetShort: definition.limits?.when_budget_short ?? "refuse",
    skus: (definition.applies_to?.skus ?? []).join("\n"),
    categories: (definition.applies_to?.categories ?? []).join("\n"),
    audience: (definition.audience ?? []).join("\n"),
    combines: COMBINES.filter((c) => (definition.combines_with ?? []).includes(c)),
    automatic: definition.automatic === true,
    priority: definition.automatic === true ? String(definition.priority ?? "") : "",
    firstOrder: definition.first_order === true,
    shards: definition.shards > 1 ? String(definition.shards) : "",
    ...dealFormOf(d),
  };
}

/**
 * The customer ids of an audience file: one a line, the first column of a CSV (quotes removed), a
 * header row ("customer", "customer_id" or "id") left out.
 */
export function audienceFromFile(text) {
  const ids = text.split(/\r?\n/).map((line) => line.split(",")[0].trim().replace(/^"|"$/g, "")).filter(Boolean);
  return /^(customer|customer_id|id)$/i.test(ids[0] ?? "") ? ids.slice(1) : ids;
}

/** The preview's sample shipping (with a basket of lines). */
export const SAMPLE_SHIPPING = "4.90";

/**
 * The preview's sample basket: a total of `amount` (the text typed, "0" when empty), or one line of
 * the first SKU or category the code applies to at that price, plus the sample shipping. A buy X get
 * Y's basket holds enough units at that price for one application: its buy's quantity (one unit for
 * an amount) and its get's, on a second line when the get has its own SKUs or categories. Also the
 * customer to quote for (the first of the audience, or a sample one for a per-customer limit or a
 * first order), `orders` (0 for a first-order code: the customer's earlier orders) and `units`.
 */
export function sampleOrder(definition, amount, currency) {
  const total = { amount: amount.trim() || "0", currency };
  const d = definition.discount ?? {};
  const deal = d.kind === "buy_x_get_y";
  const whole = (n) => (Number.isInteger(n) && n > 0 && n <= 1000 ? n : 1);
  const lineOf = (scope, sku, quantity) => {
    const category = scope?.categories?.[0] ?? definition.applies_to?.categories?.[0];
    return { sku: scope?.skus?.[0] ?? definition.applies_to?.skus?.[0] ?? sku, quantity, unit_price: total, ...(category ? { categories: [category] } : {}) };
  };
  let basket = { total };
  let units = 1;
  if (deal) {
    const bought = d.buy?.amount ? 1 : whole(d.buy?.quantity);
    const given = whole(d.get?.quantity);
    units = bought + given;
    const lines = d.get?.applies_to
      ? [lineOf(d.buy?.applies_to, "SAMPLE", bought), lineOf(d.get.applies_to, "SAMPLE-GET", given)]
      : [lineOf(d.buy?.applies_to, "SAMPLE", units)];
    basket = { lines, shipping: { amount: SAMPLE_SHIPPING, currency } };
  } else if (definition.applies_to) {
    basket = { lines: [lineOf(undefined, "SAMPLE", 1)], shipping: { amount: SAMPLE_SHIPPING, currency } };
  }
  const customer = definition.audience?.[0] ?? (definition.limits?.per_customer || definition.first_order ? "sample-customer" : undefined);
  return { total, basket, customer, units, ...(definition.first_order ? { orders: 0 } : {}) };
}
