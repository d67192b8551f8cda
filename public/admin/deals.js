// The editor's fields for the two discounts that look at the basket's units and size, buy X get Y and
// tiered, as the core's JSON and back; with no DOM (the values come in as texts), tested under
// `node --test tests/js/`. Every rule is the browser module's: this only translates, and amounts stay
// the text typed (no JS Number is ever made of money).

/** The most tiers a tiered discount takes (the core's `Tier::MAX_TIERS`). */
export const MAX_TIERS = 10;

/** A tier row as the form holds it: where it starts, a percent or a fixed amount, an optional max. */
export const emptyTier = () => ({ from: "", off: "percent", value: "", max: "" });

/** A list typed one a line, or separated by commas or semicolons: the entries, trimmed, none empty. */
export const list = (text) => String(text ?? "").split(/[\n,;]/).map((s) => s.trim()).filter(Boolean);

/** A count as typed: a number when it is digits, else the text (the module says what is wrong with it). */
export const countOf = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : String(text ?? "").trim());

/** `{skus, categories}` from two typed lists, or undefined when both are empty. */
export function scopeOf(skus, categories) {
  const s = list(skus);
  const c = list(categories);
  if (!s.length && !c.length) return undefined;
  return { ...(s.length ? { skus: s } : {}), ...(c.length ? { categories: c } : {}) };
}

/**
 * The form's values of the deal fields for a definition that has none (a new code, another kind): the
 * menus' first choices, the texts empty (their placeholders show an example).
 */
export const DEAL_DEFAULTS = {
  buyBy: "quantity", buyQuantity: "", buyAmount: "", buySkus: "", buyCategories: "",
  getQuantity: "", getSame: true, getSkus: "", getCategories: "", getOff: "percent", getPercent: "", getAmount: "",
  maxApplications: "", selection: "cheapest", tierBy: "subtotal",
};

/**
 * The `discount` of a buy X get Y from the form's values (`money(text)` makes a money object in the
 * form's currency): the buy by quantity or amount, its SKUs and categories; the get's quantity, its
 * own SKUs and categories unless "same as buy", a percent or an amount off each unit; the most
 * applications; which units are given; the largest discount.
 */
export function buyXGetYFromForm(form, money) {
  const buy = form.buyBy === "amount" ? { amount: money(form.buyAmount ?? "") } : { quantity: countOf(form.buyQuantity ?? "") };
  const buyScope = scopeOf(form.buySkus, form.buyCategories);
  if (buyScope) buy.applies_to = buyScope;
  const get = { quantity: countOf(form.getQuantity ?? "") };
  const getScope = form.getSame === false ? scopeOf(form.getSkus, form.getCategories) : undefined;
  if (getScope) get.applies_to = getScope;
  if (form.getOff === "amount") get.amount = money(form.getAmount ?? "");
  else get.percent = String(form.getPercent ?? "").trim();
  const discount = { kind: "buy_x_get_y", buy, get };
  if (String(form.maxApplications ?? "").trim()) discount.max_applications = countOf(form.maxApplications);
  discount.selection = form.selection || "cheapest";
  if (String(form.max ?? "").trim()) discount.max = money(form.max);
  return discount;
}

/**
 * The `discount` of a tiered code from the form's values: `tierBy` (subtotal: each `from` is money;
 * quantity: a count of units) and the rows of `tiers`, each a percent or a fixed amount with an
 * optional largest discount.
 */
export function tieredFromForm(form, money) {
  const by = form.tierBy === "quantity" ? "quantity" : "subtotal";
  const tiers = (form.tiers ?? []).map((row) => {
    const discount = row.off === "fixed"
      ? { kind: "fixed", amount: money(row.value ?? "") }
      : { kind: "percent", percent: String(row.value ?? "").trim() };
    if (String(row.max ?? "").trim()) discount.max = money(row.max);
    return { from: by === "quantity" ? countOf(row.from ?? "") : money(row.from ?? ""), discount };
  });
  return { kind: "tiered", by, tiers };
}

const lines = (names) => (names ?? []).join("\n");

/** The form's deal values (texts, as the two functions above read them) for a definition's discount. */
export function dealFormOf(d) {
  const form = { ...DEAL_DEFAULTS, tiers: [emptyTier()] };
  if (d?.kind === "buy_x_get_y") {
    const buy = d.buy ?? {};
    const get = d.get ?? {};
    Object.assign(form, {
      buyBy: buy.amount ? "amount" : "quantity",
      buyQuantity: buy.amount ? "" : String(buy.quantity ?? ""),
      buyAmount: buy.amount?.amount ?? "",
      buySkus: lines(buy.applies_to?.skus),
      buyCategories: lines(buy.applies_to?.categories),
      getQuantity: String(get.quantity ?? ""),
      getSame: !get.applies_to,
      getSkus: lines(get.applies_to?.skus),
      getCategories: lines(get.applies_to?.categories),
      getOff: get.amount ? "amount" : "percent",
      getPercent: get.amount ? "" : String(get.percent ?? ""),
      getAmount: get.amount?.amount ?? "",
      maxApplications: String(d.max_applications ?? ""),
      selection: d.selection ?? "cheapest",
    });
  }
  if (d?.kind === "tiered") {
    form.tierBy = d.by === "quantity" ? "quantity" : "subtotal";
    const tiers = (d.tiers ?? []).map((tier) => ({
      from: typeof tier.from === "object" && tier.from ? tier.from.amount ?? "" : String(tier.from ?? ""),
      off: tier.discount?.kind === "fixed" ? "fixed" : "percent",
      value: tier.discount?.kind === "fixed" ? tier.discount.amount?.amount ?? "" : String(tier.discount?.percent ?? ""),
      max: tier.discount?.max?.amount ?? "",
    }));
    if (tiers.length) form.tiers = tiers;
  }
  return form;
}

/** The currency of the first money object anywhere in `value` (a definition, a discount), or undefined. */
export function firstCurrency(value) {
  if (!value || typeof value !== "object") return undefined;
  if (typeof value.amount === "string" && typeof value.currency === "string") return value.currency;
  for (const inner of Object.values(value)) {
    const found = firstCurrency(inner);
    if (found) return found;
  }
  return undefined;
}

// A refusal's path inside a deal to the form field that shows it, first match wins (`$1`: a tier's index).
const DEAL_FIELDS = [
  [/^definition\.discount\.tiers\[(\d+)\]\.from/, "f-tier-from-$1"],
  [/^definition\.discount\.tiers\[(\d+)\]\.discount\.max/, "f-tier-max-$1"],
  [/^definition\.discount\.tiers\[(\d+)\]\.discount\.(percent|amount)/, "f-tier-value-$1"],
  [/^definition\.discount\.tiers\[(\d+)\]/, "f-tier-off-$1"],
  [/^definition\.discount\.tiers/, "f-tier-from-0"],
  [/^definition\.discount\.by/, "f-tier-by"],
  [/^definition\.discount\.buy\.quantity/, "f-buy-quantity"],
  [/^definition\.discount\.buy\.amount/, "f-buy-amount"],
  [/^definition\.discount\.buy\.applies_to\.categories/, "f-buy-categories"],
  [/^definition\.discount\.buy\.applies_to/, "f-buy-skus"],
  [/^definition\.discount\.buy/, "f-buy-quantity"],
  [/^definition\.discount\.get\.quantity/, "f-get-quantity"],
  [/^definition\.discount\.get\.percent/, "f-get-percent"],
  [/^definition\.discount\.get\.amount/, "f-get-amount"],
  [/^definition\.discount\.get\.applies_to\.categories/, "f-get-categories"],
  [/^definition\.discount\.get\.applies_to/, "f-get-skus"],
  [/^definition\.discount\.get/, "f-get-quantity"],
  [/^definition\.discount\.max_applications/, "f-max-applications"],
  [/^definition\.discount\.selection/, "f-selection"],
  [/^definition\.first_order/, "f-first-order"],
];

/** The form field for a refusal's path inside a buy X get Y or tiered discount, or undefined. */
export function dealFieldOf(path) {
  for (const [re, id] of DEAL_FIELDS) {
    const match = re.exec(path ?? "");
    if (match) return id.replace("$1", match[1]);
  }
  return undefined;
}

/** The fields that show a refusal of a deal, in the form's order, with `rows` tier rows. */
export function dealErrorFields(rows) {
  const tiers = [];
  for (let i = 0; i < rows; i++) tiers.push(`f-tier-from-${i}`, `f-tier-off-${i}`, `f-tier-value-${i}`, `f-tier-max-${i}`);
  return [
    "f-buy-quantity", "f-buy-amount", "f-buy-skus", "f-buy-categories", "f-get-quantity", "f-get-skus", "f-get-categories",
    "f-get-percent", "f-get-amount", "f-max-applications", "f-selection", "f-tier-by", ...tiers,
  ];
}
