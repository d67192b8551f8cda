// How a checkout page uses the browser module; `tsc -p tests/ts` must accept it (strict).
import init, {
  check, definitionFields, holdTtlBounds, isBasketRejection, minorUnits, normalizeCode, quote, PromoCode, PromoStack,
} from "../../pkg/promocodes.js";
import type {
  Basket, CheckResult, CodeProblem, Definition, Hold, HoldTtlBounds, PromoInputError, Quote, QuoteLine, QuoteOptions,
  QuoteResult, RejectionCode, CodeClass, StackOptions, StackResult,
} from "../../pkg/promocodes.js";

await init();

const definition: Definition = {
  code: "SAVE10",
  discount: { kind: "percent", percent: "10", max: { amount: "20.00", currency: "EUR" } },
  limits: { total: 1000, per_customer: 1 },
  starts_at: "2026-12-01T00:00:00Z",
  ends_at: "2027-01-01T00:00:00Z",
  minimum: { amount: "50.00", currency: "EUR" },
};
const fixed: Definition = { code: "FIVE", discount: { kind: "fixed", amount: { amount: "5.00", currency: "EUR" } } };
const basket: Basket = { total: { amount: "80.00", currency: "EUR" } };
const lines: Basket = {
  lines: [
    { sku: "MUG", quantity: 2, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] },
    { sku: "BEANS", quantity: 1, unit_price: { amount: "8.50", currency: "EUR" } },
  ],
  shipping: { amount: "4.90", currency: "EUR" },
};
const mugs: Definition = {
  code: "MUGS15", active: true, discount: { kind: "percent", percent: "15" }, applies_to: { categories: ["mugs"] },
};
const shipping: Definition = { code: "SHIP", discount: { kind: "free_shipping", max: { amount: "5.00", currency: "EUR" } } };
const options: QuoteOptions = { customer: "alice", usage: { total: 3, per_customer: 0 }, now: "2026-12-02T10:00:00Z" };

function show(result: QuoteResult): string {
  if (result.ok) {
    const q: Quote = result.quote;
    return `${q.code}: -${q.discount.amount} ${q.discount.currency}, pay ${q.payable.amount} (at ${q.quoted_at})`;
  }
  const why: RejectionCode = result.rejection;
  switch (why) {
    case "below_minimum":
    case "budget_exhausted":
    case "currency_mismatch":
    case "customer_required":
    case "customer_limit_reached":
    case "exhausted":
    case "expired":
    case "not_assigned":
    case "not_started":
    case "inactive":
    case "no_eligible_items":
    case "not_enough_items":
    case "not_first_order":
    case "not_combinable":
    case "quote_changed":
      return result.message;
  }
}

const code: string = normalizeCode(" save10 ");
const shown: string = show(quote(definition, basket, options));
show(quote(fixed, basket)); // options are optional
show(quote(fixed, basket, null));
show(quote(fixed, basket, { customer: null, now: null }));
const checked: CheckResult = check(definition, basket, { now: "2026-12-02T10:00:00Z" });
const allowed: boolean = checked.ok;
if (!checked.ok) {
  const message: string = checked.message;
  console.log(message);
}
try {
  quote(definition, { total: { amount: "8x", currency: "EUR" } });
} catch (e) {
  if (e instanceof Error) console.log(e.message); // "basket.total: amount \"8x\" is not a decimal ..."
}
// Parse once, quote many baskets; free the handle (or `using promo = ...`).
const promo: PromoCode = PromoCode.parse(mugs);
const split: QuoteResult = promo.quote(lines, { now: "2026-12-02T10:00:00Z" });
if (split.ok) {
  const parts: QuoteLine[] = split.quote.lines ?? [];
  const shippingOff: string | undefined = split.quote.shipping?.discount.amount;
  console.log(parts.map((l) => `${l.sku}: -${l.discount.amount}`), shippingOff, split.quote.note);
}
const promoCode: string = promo.code;
promo.free();
{
  using scoped = PromoCode.parse(shipping);
  scoped.check(lines);
}
try {
  quote(mugs, { lines: [{ sku: "MUG", quantity: 0, unit_price: { amount: "1.00", currency: "EUR" } }] });
} catch (e) {
  const err = e as PromoInputError;
  console.log(err.name, err.field); // "PromoInputError", "basket.lines[0].quantity"
}
const held: Hold = { key: "pi_1", state: "held", expires_at: "2026-12-02T10:15:00Z", quote: {
  code: "MUGS15", total: basket.total, discount: basket.total, payable: basket.total, quoted_at: "2026-12-02T10:00:00Z",
}, usage: { total: 1, per_customer: 0, discounted: basket.total }, replayed: false };
// What the core knows, asked of the module instead of repeated on the page.
const bounds: HoldTtlBounds = holdTtlBounds();
const ttl: number = Math.min(Math.max(120, bounds.min), bounds.max) || bounds.default;
const places: number | undefined = minorUnits("EUR");
const digits: number = minorUnits("JPY") ?? 2;
const aboutTheBasket: boolean = isBasketRejection("below_minimum");
const fields: (keyof Definition)[] = definitionFields();
try {
  normalizeCode("SAVE 10");
} catch (e) {
  const problem: CodeProblem | undefined = (e as PromoInputError).problem;
  if (problem?.kind === "code_character") {
    const at: number = problem.position;
    const what: string = problem.character;
    console.log(at, what);
  } else if (problem?.kind === "code_too_long") {
    console.log(problem.length, problem.max);
  }
}
// Several codes in one basket: each code's part, or every code that refused and why.
const stackOptions: StackOptions = { now: "2026-12-02T10:00:00Z", usage: [{ total: 3, per_customer: 0 }] };
const stacked: StackResult = (() => {
  using stack = PromoStack.parse([mugs, { ...shipping, combines_with: ["product"] }]);
  return stack.quote(basket, stackOptions);
})();
if (stacked.ok) {
  for (const part of stacked.quote.codes) {
    const cls: CodeClass = part.class;
    console.log(part.code, cls, part.discount.amount);
  }
  console.log(stacked.quote.payable.amount);
} else {
  for (const r of stacked.rejections) console.log(r.code, r.rejection, r.with ?? "", r.message);
}
// Automatic promotions (GET /v1/automatic's) offered beside the typed codes.
const offered: Definition[] = [{ code: "SHIP50", discount: { kind: "free_shipping" }, automatic: true, priority: 10 }];
const withAutomatic: StackResult = (() => {
  using stack = PromoStack.parse([], offered);
  return stack.quote(basket, stackOptions);
})();
if (withAutomatic.ok) {
  for (const part of withAutomatic.quote.codes) console.log(part.code, part.automatic === true);
  for (const s of withAutomatic.quote.skipped ?? []) {
    const why: RejectionCode = s.rejection;
    console.log(s.code, why, s.detail);
  }
}
console.log(code, shown, allowed, promoCode, held.state, ttl, places, digits, aboutTheBasket, fields);
