// How a checkout page uses the browser module; `tsc -p tests/ts` must accept it (strict).
import init, { check, normalizeCode, quote } from "../../pkg/promocodes.js";
import type { Basket, CheckResult, Definition, Quote, QuoteOptions, QuoteResult, RejectionCode } from "../../pkg/promocodes.js";

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
const options: QuoteOptions = { customer: "alice", usage: { total: 3, per_customer: 0 }, now: "2026-12-02T10:00:00Z" };

function show(result: QuoteResult): string {
  if (result.ok) {
    const q: Quote = result.quote;
    return `${q.code}: -${q.discount.amount} ${q.discount.currency}, pay ${q.payable.amount} (at ${q.quoted_at})`;
  }
  const why: RejectionCode = result.rejection;
  switch (why) {
    case "below_minimum":
    case "currency_mismatch":
    case "customer_required":
    case "customer_limit_reached":
    case "exhausted":
    case "expired":
    case "not_assigned":
    case "not_started":
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
console.log(code, shown, allowed);
