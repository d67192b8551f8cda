//! The module's TypeScript declarations: the core's JSON shapes, as the page sees them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A decimal number written as a string: "80.00", "12.5". Never a float. */
export type DecimalString = string;
/** An active ISO 4217 currency code: "EUR", "JPY", "KWD". */
export type CurrencyCode = string;
/** An RFC 3339 time: "2026-12-02T10:00:00Z". */
export type Rfc3339 = string;

/** An amount in a currency, exact to the currency's minor unit. */
export interface Money { amount: DecimalString; currency: CurrencyCode; }

/** What a code takes off: a percent, a fixed amount or the shipping, each optionally capped at `max`;
 * buy X get Y (units given at a percent or an amount off each); or tiers, the highest reached applying. */
export type Discount =
  | { kind: "percent"; percent: DecimalString; max?: Money | null }
  | { kind: "fixed"; amount: Money; max?: Money | null }
  | { kind: "free_shipping"; max?: Money | null }
  | {
      kind: "buy_x_get_y";
      /** What each application needs bought: 1 to 1,000 units, or an amount spent on units not given. */
      buy: { quantity?: number | null; amount?: Money | null; applies_to?: AppliesTo | null };
      /** What each application gives: 1 to 1,000 units (of the buy's lines by default) at a percent
       * (100 is free) or an amount off each. */
      get: { quantity: number; applies_to?: AppliesTo | null; percent?: DecimalString | null; amount?: Money | null };
      max_applications?: number | null;
      selection?: "cheapest" | "most_expensive" | null;
      max?: Money | null;
    }
  | {
      kind: "tiered";
      /** What the tiers measure over the eligible lines: money (`from` a Money) or units (`from` a count). */
      by: "subtotal" | "quantity";
      /** 1 to 10 tiers, `from` strictly increasing; each a percent or a fixed discount. */
      tiers: { from: TierFrom; discount: Discount }[];
    };

/** Where a tier starts (or what is missing to reach it): money, or a count of units. */
export type TierFrom = Money | number;

/** Caps on redemptions (each at least 1, none means unlimited) and on the money given away: a budget
 * above zero in the code's currency, and what a discount that does not fit what is left does
 * (`refuse`, the default, or `partial`: take off what is left). */
export interface UsageLimits {
  total?: number | null;
  per_customer?: number | null;
  budget?: Money | null;
  when_budget_short?: "refuse" | "partial" | null;
}

/** The lines a code applies to: a line is eligible when its sku or any of its categories is listed. */
export interface AppliesTo { skus?: string[] | null; categories?: string[] | null; }

/** A promo code definition, the core's JSON shape. Only `code` and `discount` are required. */
export interface Definition {
  code: string;
  /** Switched on (default true); an inactive code is refused with `inactive`. */
  active?: boolean | null;
  discount: Discount;
  /** Only these lines; omit for every line. */
  applies_to?: AppliesTo | null;
  limits?: UsageLimits | null;
  /** First valid moment (inclusive). */
  starts_at?: Rfc3339 | null;
  /** First moment no longer valid (exclusive). */
  ends_at?: Rfc3339 | null;
  /** The smallest eligible subtotal. */
  minimum?: Money | null;
  /** Only these customers may use it; omit for a public code. */
  audience?: string[] | null;
  /** The classes of code it may share a basket with (default none); two codes combine only when each
   * lists the other's class. */
  combines_with?: CodeClass[] | null;
  /** Only a customer's first order (default false): quotes need `customer` and `customer_orders`. */
  first_order?: boolean | null;
}

/** What a code discounts, and when it applies in a stack: product codes (with `applies_to`) first,
 * then order codes, then shipping codes (free shipping). */
export type CodeClass = "product" | "order" | "shipping";

/** One line of a basket: 1 to 10,000 of a product at a unit price. sku and categories: 1 to 64 visible ASCII characters. */
export interface Line { sku: string; quantity: number; unit_price: Money; categories?: string[] | null; }

/** The basket being priced: one total, or up to 500 lines and optional shipping, all in one currency. */
export type Basket =
  | { total: Money; lines?: never; shipping?: never }
  | { lines: Line[]; shipping?: Money | null; total?: never };

/** How often the code has been redeemed (captured or held), overall and by this customer, and the
 * sum of those uses' discounts in the code's currency (a decimal string or a money object, as
 * `GET /v1/codes/{code}` shows it; default none). */
export interface UsageCounts { total: number; per_customer: number; discounted?: DecimalString | Money | null; per_code?: number | null; }

/** Everything but the definition and the basket; all optional. */
export interface QuoteOptions {
  /** The signed-in customer, if any. */
  customer?: string | null;
  /** The usage the page knows (default: none). */
  usage?: UsageCounts | null;
  /** The time to quote at (default: the browser clock). */
  now?: Rfc3339 | null;
  /** The orders the customer placed before, as the shop's server says (a first-order code needs it). */
  customer_orders?: number | null;
}

/** A line of a quote: its amount and its part of the discount. */
export interface QuoteLine { sku: string; amount: Money; discount: Money; }

/** A priced basket. `discount` + `payable` = `total`, exactly; for a basket with lines, the parts in
 * `lines` and `shipping` add up to `discount` exactly (largest-remainder split). */
export interface Quote {
  code: string;
  total: Money;
  discount: Money;
  payable: Money;
  quoted_at: Rfc3339;
  lines?: QuoteLine[];
  shipping?: { amount: Money; discount: Money };
  /** Why the code takes less than it might (free shipping on a basket without shipping). */
  note?: string;
  /** A budget that takes a partial discount clipped it to what was left... */
  budget_clipped?: true;
  /** ...from this discount. */
  desired?: Money;
  /** A tiered code's tier reached. */
  tier?: { index: number; from: TierFrom };
  /** A tiered code below its top tier: the next tier and what is missing ("spend EUR 20.00 more"). */
  next_tier?: { index: number; from: TierFrom; missing: TierFrom };
}

/** Why a code does not apply, in the order the rules are checked (`quote_changed` only answers a pinned capture). */
export type RejectionCode =
  | "inactive"
  | "customer_required"
  | "not_assigned"
  | "not_started"
  | "expired"
  | "exhausted"
  | "customer_limit_reached"
  | "not_first_order"
  | "currency_mismatch"
  | "no_eligible_items"
  | "not_enough_items"
  | "budget_exhausted"
  | "below_minimum"
  | "not_combinable"
  | "quote_changed";

/** Where a held or captured use is in its life. */
export type ReservationState = "held" | "captured" | "released" | "expired";

/** A use held for the buyer while they pay (what `POST /v1/holds` answers). */
export interface Hold {
  key: string;
  state: ReservationState;
  expires_at: Rfc3339;
  quote: Quote;
  usage: UsageCounts;
  replayed: boolean;
}

/** A stack's options: all optional. `usage[i]` is the usage of the `i`-th code as listed (a code
 * past its end: no redemptions). */
export interface StackOptions {
  customer?: string | null;
  usage?: UsageCounts[] | null;
  now?: Rfc3339 | null;
  customer_orders?: number | null;
}

/** One code's part of a stack's quote: what it took off the basket the codes before it left
 * (`lines` and `shipping` carry the amounts it applied to, and its parts of its discount). */
export interface StackPart {
  code: string;
  class: CodeClass;
  discount: Money;
  lines?: QuoteLine[];
  shipping?: { amount: Money; discount: Money };
  note?: string;
  budget_clipped?: true;
  desired?: Money;
}

/** A basket priced with several codes: each code's part in the order they applied; `lines` and
 * `shipping` carry each line's summed discount. `discount` + `payable` = `total`, exactly. */
export interface StackQuote {
  codes: StackPart[];
  total: Money;
  discount: Money;
  payable: Money;
  quoted_at: Rfc3339;
  lines?: QuoteLine[];
  shipping?: { amount: Money; discount: Money };
}

/** One code of a stack that refused; `with` names the code it cannot combine with (`not_combinable`). */
export interface StackRefusal { code: string; rejection: RejectionCode; with?: string; message: string; }

/** The answer of `PromoStack.quote`. */
export type StackResult = { ok: true; quote: StackQuote } | { ok: false; rejections: StackRefusal[] };

/** A refusal: a stable code and a sentence for the buyer. */
export interface Rejected { ok: false; rejection: RejectionCode; message: string; }

/** The answer of `quote`. */
export type QuoteResult = { ok: true; quote: Quote } | Rejected;

/** The answer of `check`. */
export type CheckResult = { ok: true } | Rejected;

/** Why a text is not a promo code. `position` counts characters (code points) from 0 in the
 * trimmed text; `length` is the trimmed text's length in characters, `max` the most a code has. */
export type CodeProblem =
  | { kind: "empty_code" }
  | { kind: "code_too_long"; length: number; max: number }
  | { kind: "code_character"; character: string; position: number };

/** What every function throws for malformed input: `message` starts with the field
 * (`basket.lines[3].quantity: ...`), which `field` holds alone. `problem` says what is wrong for a
 * page to word itself: set when the text is not a promo code (`normalizeCode`, a definition's code). */
export interface PromoInputError extends Error { name: "PromoInputError"; field: string; problem?: CodeProblem; }

/** How long a hold may last, in seconds: the shortest, the longest and the default (`holdTtlBounds`). */
export interface HoldTtlBounds { min: number; max: number; default: number; }
"#;
