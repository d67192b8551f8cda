// A code's or a campaign's counts as the operator reads them: uses captured apart from holds ("2 used
// · 1 held · 97 left"), which limit leaves that many, the budget's parts (spent, held, left) and a
// campaign's summary in one sentence. No DOM: tested under `node --test tests/js/`.
//
// Every count here is the API's (the core's `remaining`, `remaining_budget`, `usage`); this only
// names the limit whose count `remaining` is, and splits the money the usage already gives. Money
// stays decimal text (BigInt minor units, public/lib/money.js), never a JS number.
import { count, plural } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";

const DECIMAL = /^[+-]?\d+(?:\.(\d+))?$/;
const placesOf = (amount) => (DECIMAL.exec(String(amount).trim())?.[1] ?? "").length;
const minor = (amount, places) => {
  const [whole, fraction = ""] = String(amount).trim().replace(/^\+/, "").split(".");
  const negative = whole.startsWith("-");
  const units = BigInt(whole.replace("-", "")) * 10n ** BigInt(places) + BigInt(fraction.padEnd(places, "0") || "0");
  return negative ? -units : units;
};
const fromMinor = (units, places) => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative ? `-${text}` : text;
};

/**
 * The uses of a code or a campaign (its lookup or summary): `used` (captured: the API's `total` less
 * its holds), `held`, and, when a limit bounds them, `left` with `limit`, the limit that leaves that
 * many: `{ kind: "total" | "budget" | "codes", words }` ("the limit of 150 uses", "the €300.00
 * budget", "its 100 codes"). A campaign's codes bound it too: each code `uses_per_code` times.
 */
export function usesOf(summary) {
  const total = summary.usage?.total ?? 0;
  const held = summary.usage?.held ?? 0;
  const result = { used: Math.max(0, total - held), held, left: undefined, limit: undefined };
  const cap = summary.limits?.total;
  const budget = summary.limits?.budget;
  if (typeof summary.remaining === "number") {
    result.left = summary.remaining;
    const underCap = typeof cap === "number" ? Math.max(0, cap - total) : undefined;
    const capWords = { kind: "total", words: `the limit of ${count(cap)} ${plural(cap, "use", "uses")}` };
    if (underCap === summary.remaining) result.limit = capWords;
    else if (budget) result.limit = { kind: "budget", words: `the ${money(budget)} budget` };
    else if (underCap !== undefined) result.limit = capWords;
  }
  if (summary.codes && typeof summary.codes.count === "number") {
    const perCode = summary.uses_per_code ?? 1;
    const room = Math.max(0, summary.codes.count * perCode - total);
    if (result.left === undefined || room < result.left) {
      const codes = `${count(summary.codes.count)} ${plural(summary.codes.count, "code", "codes")}`;
      result.left = room;
      result.limit = { kind: "codes", words: summary.codes.count ? `its ${codes}` : "no codes yet" };
    }
  }
  return result;
}

/** "2 used · 1 held · 97 left: the €300.00 budget" (held left out when none; left when bounded). */
export function usesInWords(summary) {
  const { used, held, left, limit } = usesOf(summary);
  const parts = [`${count(used)} used`];
  if (held) parts.push(`${count(held)} held`);
  if (left !== undefined) parts.push(`${count(left)} left`);
  return `${parts.join(" · ")}${limit ? `: ${limit.words}` : ""}`;
}

/**
 * A budget's parts, or null without one: `budget`, `spent` (the discounts of captured uses), `held`
 * (of active holds: the API's `held_discounted`), `left` (`remaining_budget`), each a money, and
 * each part's share of the budget in tenths of a percent (`shares`, whole numbers for the bar's widths).
 */
export function budgetOf(summary) {
  const budget = summary.limits?.budget;
  if (!budget?.amount) return null;
  const { currency } = budget;
  const counted = summary.usage?.discounted?.amount ?? "0";
  const heldAmount = summary.usage?.held_discounted?.amount ?? "0";
  const leftAmount = summary.remaining_budget?.amount ?? budget.amount;
  const places = Math.max(...[budget.amount, counted, heldAmount, leftAmount].map(placesOf));
  const whole = minor(budget.amount, places);
  const held = minor(heldAmount, places);
  const spent = minor(counted, places) - held;
  const share = (units) => (whole > 0n ? Number((units * 1000n) / whole) : 0);
  const part = (units) => ({ amount: fromMinor(units, places), currency });
  return {
    budget,
    spent: part(spent),
    held: part(held),
    left: { amount: leftAmount, currency },
    shares: { spent: Math.min(1000, share(spent)), held: Math.min(1000 - Math.min(1000, share(spent)), share(held)) },
  };
}

/** The budget's parts in words: ["€120.00 spent", "€30.00 held", "€150.00 left of €300.00"]. */
export function budgetInParts(parts) {
  return [`${money(parts.spent)} spent`, `${money(parts.held)} held`, `${money(parts.left)} left of ${money(parts.budget)}`];
}

/**
 * A campaign's summary in one sentence: "Active: 20% off, always, 100 codes of 1 use each; 2 used ·
 * 1 held · 97 left: its 100 codes." `discount` and `window` are the definition's in words (words.js).
 */
export function campaignInWords(summary, discount, window) {
  const state = summary.active === false ? "Switched off" : "Active";
  const codes = summary.codes?.count ?? 0;
  const perCode = summary.uses_per_code ?? 1;
  const each = `${count(codes)} ${plural(codes, "code", "codes")} of ${count(perCode)} ${plural(perCode, "use", "uses")} each`;
  return `${state}: ${discount}, ${window.charAt(0).toLowerCase()}${window.slice(1)}, ${each}; ${usesInWords(summary)}.`;
}

/** A code's summary: "10% off. Valid: Always. 2 used · 1 held · 97 left: the limit of 100 uses. Active." */
export function codeInWords(summary, discount, window) {
  const state = summary.active === false ? "Switched off" : "Active";
  return `${discount}. Valid: ${window}. ${usesInWords(summary)}. ${state}.`;
}
