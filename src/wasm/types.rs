//! The module's TypeScript declarations: the core's JSON shapes, as the page sees them.

use wasm_bindgen::prelude::*;

// The API's shapes (Money, Definition, Basket, Quote, ...): generated from docs/openapi.json, itself
// generated from the Rust types, by `npm run generate` in clients/typescript (a test there fails
// when this file is stale).
#[wasm_bindgen(typescript_custom_section)]
const TS_SHAPES: &str = include_str!("shapes.d.ts");

// The module's own shapes: its options, its answers' envelopes, its errors.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A decimal number written as a string: "80.00", "12.5". Never a float. */
export type DecimalString = string;
/** An RFC 3339 time: "2026-12-02T10:00:00Z". */
export type Rfc3339 = string;

/** The usage a page knows of a code: `total` and `per_customer` (`UsageCounts` as the API answers
 * it fits; `discounted`, a decimal string or money, and `per_code` may be left out). */
export type UsageInput = Pick<UsageCounts, "total" | "per_customer"> & {
  discounted?: UsageCounts["discounted"] | null;
  per_code?: UsageCounts["per_code"] | null;
};

/** Everything but the definition and the basket; all optional. */
export interface QuoteOptions {
  /** The signed-in customer, if any. */
  customer?: string | null;
  /** The usage the page knows (default: none). */
  usage?: UsageInput | null;
  /** The time to quote at (default: the browser clock). */
  now?: Rfc3339 | null;
  /** The orders the customer placed before, as the shop's server says (a first-order code needs it). */
  customer_orders?: number | null;
}

/** A stack's options: all optional. `usage[i]` is the usage of the `i`-th code as listed (a code
 * past its end: no redemptions). */
export interface StackOptions {
  customer?: string | null;
  /** Each code's usage: the typed codes as listed, then the automatic promotions as given. */
  usage?: UsageInput[] | null;
  now?: Rfc3339 | null;
  customer_orders?: number | null;
}

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
