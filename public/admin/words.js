// A code's or a campaign's definition and counts in the operator's words, in the browser's locale
// and time zone. No DOM: tested under `node --test tests/js/`.
import { describeDiscount } from "../checkout/sentences.js";
import { capitalise, count, percent, when } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";

/**
 * A definition's discount in words: "10% off, at most €5.00, on €20.00 or more"; "Buy 2 mugs, get 1
 * free"; "10% off from €50.00 and 15% off from €100.00" (the checkout's sentences for these two).
 */
export function discountInWords(def) {
  const d = def.discount ?? {};
  let words;
  if (d.kind === "percent") {
    words = `${percent(d.percent)} off`;
  } else if (d.kind === "fixed") {
    words = `${money(d.amount)} off`;
  } else if (d.kind === "free_shipping") {
    words = "Free shipping";
  } else if (d.kind === "buy_x_get_y" || d.kind === "tiered") {
    words = capitalise(describeDiscount({ discount: d }));
  } else {
    words = String(d.kind ?? "unknown discount");
  }
  if (d.max && d.kind !== "buy_x_get_y") words += `, at most ${money(d.max)}`;
  if (def.minimum) words += `, on ${money(def.minimum)} or more`;
  const skus = def.applies_to?.skus ?? [];
  const categories = def.applies_to?.categories ?? [];
  if (skus.length || categories.length) {
    const parts = [];
    if (skus.length) parts.push(`SKUs ${skus.join(", ")}`);
    if (categories.length) parts.push(`categories ${categories.join(", ")}`);
    words += `; only ${parts.join(" and ")}`;
  }
  if (def.assigned || (Array.isArray(def.audience) && def.audience.length)) words += "; named customers only";
  if (def.first_order === true) words += "; first orders only";
  if (def.shards > 1) words += `; on ${count(def.shards)} shards`;
  return words;
}

/** The validity window in the operator's time zone. */
export function windowInWords(def) {
  if (def.starts_at && def.ends_at) return `${when(def.starts_at)} – ${when(def.ends_at)}`;
  if (def.starts_at) return `From ${when(def.starts_at)}`;
  if (def.ends_at) return `Until ${when(def.ends_at)}`;
  return "Always";
}

/** "12 used · 2 held · 86 left: the limit of 100 uses" (counts.js: used apart from held, the limit that binds). */
export { usesInWords } from "./counts.js";

/** Budget used (the discounts counting now, holds included), for codes and campaigns that have one. */
export function budgetInWords(summary) {
  const budget = summary.limits?.budget;
  if (!budget || typeof budget !== "object" || !budget.amount) return "—";
  const used = summary.usage?.discounted;
  if (used && typeof used === "object" && used.amount !== undefined) return `${money(used)} of ${money(budget)}`;
  return `${money(budget)} budget`;
}

/** Whether a definition is an automatic promotion, in words: "Priority 10", or "" (typed codes, campaigns). */
export function automaticInWords(def) {
  return def.automatic === true ? `Priority ${count(def.priority ?? 100)}` : "";
}
