//! The browser module: JavaScript bindings for live quotes (wasm32, feature `wasm`).
//!
//! A thin adapter and nothing more: each function reads its arguments in the
//! core's JSON shapes, calls the core, and translates the answer. No rule
//! lives here.
//!
//! - A rejection is an answer, returned as `{ ok: false, rejection, message }`.
//! - Malformed input throws a JavaScript `Error` (named `PromoInputError`)
//!   whose message starts with the field: `basket.total.currency: unknown
//!   currency "XYZ"; ...`. Its `field` property holds the field alone.
//!
//! Arguments are read through `JSON.stringify` and the core's own JSON
//! parser, so the browser refuses exactly what the server refuses (unknown
//! fields included) with the same messages.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::api::QuoteOptions;
use crate::{Basket, Code, InputError, PromoCode, PromoCodeRejected, Quote, Rejection, Timestamp, UsageCounts};

/// The longest argument accepted, in UTF-16 code units of its JSON text.
/// Anything longer is refused before it is copied into the module's memory.
pub const MAX_INPUT_LEN: u32 = 1 << 20;

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

/** What a code takes off: a percent (optionally capped), a fixed amount, or the shipping (optionally capped). */
export type Discount =
  | { kind: "percent"; percent: DecimalString; max?: Money | null }
  | { kind: "fixed"; amount: Money }
  | { kind: "free_shipping"; max?: Money | null };

/** Caps on redemptions; each at least 1, none means unlimited. */
export interface UsageLimits { total?: number | null; per_customer?: number | null; }

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
}

/** One line of a basket: 1 to 10,000 of a product at a unit price. sku and categories: 1 to 64 visible ASCII characters. */
export interface Line { sku: string; quantity: number; unit_price: Money; categories?: string[] | null; }

/** The basket being priced: one total, or up to 500 lines and optional shipping, all in one currency. */
export type Basket =
  | { total: Money; lines?: never; shipping?: never }
  | { lines: Line[]; shipping?: Money | null; total?: never };

/** How often the code has been redeemed (captured or held), overall and by this customer. */
export interface UsageCounts { total: number; per_customer: number; }

/** Everything but the definition and the basket; all optional. */
export interface QuoteOptions {
  /** The signed-in customer, if any. */
  customer?: string | null;
  /** The usage the page knows (default: none). */
  usage?: UsageCounts | null;
  /** The time to quote at (default: the browser clock). */
  now?: Rfc3339 | null;
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
  | "currency_mismatch"
  | "no_eligible_items"
  | "below_minimum"
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

/** A refusal: a stable code and a sentence for the buyer. */
export interface Rejected { ok: false; rejection: RejectionCode; message: string; }

/** The answer of `quote`. */
export type QuoteResult = { ok: true; quote: Quote } | Rejected;

/** The answer of `check`. */
export type CheckResult = { ok: true } | Rejected;

/** What every function throws for malformed input: `message` starts with the field
 * (`basket.lines[3].quantity: ...`), which `field` holds alone. */
export interface PromoInputError extends Error { name: "PromoInputError"; field: string; }
"#;

#[wasm_bindgen]
extern "C" {
    /// A promo code definition (TypeScript `Definition`).
    #[wasm_bindgen(typescript_type = "Definition")]
    pub type JsDefinition;
    /// A basket (TypeScript `Basket`).
    #[wasm_bindgen(typescript_type = "Basket")]
    pub type JsBasket;
    /// Quote options (TypeScript `QuoteOptions`).
    #[wasm_bindgen(typescript_type = "QuoteOptions")]
    pub type JsQuoteOptions;
}

/// The discriminated result: `{ok: true, quote?}` or `{ok: false, rejection, message}`.
#[derive(Serialize)]
struct Outcome<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<&'a Quote>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejection: Option<Rejection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

impl<'a> Outcome<'a> {
    fn accepted(quote: Option<&'a Quote>) -> Outcome<'a> {
        Outcome {
            ok: true,
            quote,
            rejection: None,
            message: None,
        }
    }

    fn rejected(rejected: &'a PromoCodeRejected) -> Outcome<'a> {
        Outcome {
            ok: false,
            quote: None,
            rejection: Some(rejected.rejection()),
            message: Some(rejected.message()),
        }
    }
}

/// The `Error` thrown for malformed input: `"<argument>.<path>: <message>"`,
/// exactly the core's message for the error at `argument`.
fn input_error(argument: &str, err: InputError) -> js_sys::Error {
    let err = err.at(argument);
    let field = err.path().unwrap_or(argument).to_owned();
    let error = js_sys::Error::new(&err.to_string());
    error.set_name("PromoInputError");
    // Setting a property on a fresh Error cannot fail; ignore it if it ever does.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("field"), &JsValue::from_str(&field));
    error
}

fn refused(argument: &str, message: String) -> js_sys::Error {
    input_error(
        argument,
        InputError::Malformed {
            path: ".".to_owned(),
            message,
        },
    )
}

/// What a JavaScript value is, for a message: `null`, `an array`, `a number`, ...
fn kind_of(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    if js_sys::Array::is_array(value) {
        return "an array".to_owned();
    }
    let kind = value.js_typeof().as_string().unwrap_or_default();
    match kind.as_str() {
        "undefined" => "undefined".to_owned(),
        "object" => "an object".to_owned(),
        other => format!("a {other}"),
    }
}

/// The JSON text of a JavaScript value, bounded in length.
fn json_text(argument: &str, value: &JsValue) -> Result<String, js_sys::Error> {
    let text = js_sys::JSON::stringify(value).map_err(|_| {
        refused(
            argument,
            "is not JSON data (a cycle, a BigInt, or a toJSON that throws)".to_owned(),
        )
    })?;
    let text: JsValue = text.into();
    if !text.is_string() {
        return Err(refused(argument, format!("expected JSON data, got {}", kind_of(value))));
    }
    let text: js_sys::JsString = text.unchecked_into();
    if text.length() > MAX_INPUT_LEN {
        return Err(refused(
            argument,
            format!("is {} characters of JSON; the most is {MAX_INPUT_LEN}", text.length()),
        ));
    }
    Ok(String::from(text))
}

/// Reads an object argument in its core JSON shape.
fn read<T: DeserializeOwned>(argument: &str, value: &JsValue) -> Result<T, js_sys::Error> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(refused(argument, format!("expected an object, got {}", kind_of(value))));
    }
    let text = json_text(argument, value)?;
    crate::from_json::<T>(&text).map_err(|err| input_error(argument, err))
}

fn read_options(options: Option<JsQuoteOptions>) -> Result<QuoteOptions, js_sys::Error> {
    match options {
        None => Ok(QuoteOptions::default()),
        Some(options) => read("options", &options.into()),
    }
}

/// A plain JavaScript object (not a `Map`) in the core's JSON shape: the
/// core's own JSON text, parsed by `JSON.parse` (smaller than a second serializer).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, js_sys::Error> {
    let text =
        serde_json::to_string(value).map_err(|err| js_sys::Error::new(&format!("cannot return the result: {err}")))?;
    js_sys::JSON::parse(&text).map_err(|_| js_sys::Error::new("cannot return the result"))
}

/// The time to quote at: the option, else the browser clock.
fn now(options: &QuoteOptions) -> Result<Timestamp, js_sys::Error> {
    match options.now {
        Some(now) => Ok(now),
        // `as` saturates (and maps NaN to 0): no clock value can panic here.
        None => Timestamp::from_unix_millis(js_sys::Date::now() as i64).map_err(|err| input_error("now", err)),
    }
}

/// The arguments of `quote` and `check`, read.
fn arguments(
    definition: JsDefinition,
    basket: JsBasket,
    options: Option<JsQuoteOptions>,
) -> Result<(PromoCode, Basket, QuoteOptions, Timestamp), js_sys::Error> {
    let promo: PromoCode = read("definition", &definition.into())?;
    let basket: Basket = read("basket", &basket.into())?;
    let options = read_options(options)?;
    let now = now(&options)?;
    Ok((promo, basket, options, now))
}

fn quote_with(
    promo: &PromoCode,
    basket: &Basket,
    options: &QuoteOptions,
    now: Timestamp,
) -> Result<JsValue, js_sys::Error> {
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    match promo.quote(options.customer.as_ref(), usage, basket, now) {
        Ok(quote) => to_js(&Outcome::accepted(Some(&quote))),
        Err(rejected) => to_js(&Outcome::rejected(&rejected)),
    }
}

fn check_with(
    promo: &PromoCode,
    basket: &Basket,
    options: &QuoteOptions,
    now: Timestamp,
) -> Result<JsValue, js_sys::Error> {
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    match promo.validate(options.customer.as_ref(), usage, basket, now) {
        Ok(()) => to_js(&Outcome::accepted(None)),
        Err(rejected) => to_js(&Outcome::rejected(&rejected)),
    }
}

/// Prices `basket` with the code `definition`, touching no counter.
///
/// Returns `{ ok: true, quote }`, or `{ ok: false, rejection, message }` for
/// the first rule that refuses. `options.now` defaults to the browser clock,
/// `options.usage` to no redemptions.
///
/// Throws an `Error` naming the field for malformed input.
#[wasm_bindgen(js_name = quote, unchecked_return_type = "QuoteResult")]
pub fn quote(
    definition: JsDefinition,
    basket: JsBasket,
    options: Option<JsQuoteOptions>,
) -> Result<JsValue, js_sys::Error> {
    let (promo, basket, options, now) = arguments(definition, basket, options)?;
    quote_with(&promo, &basket, &options, now)
}

/// Checks the code's rules against `basket` without pricing it.
///
/// Returns `{ ok: true }`, or `{ ok: false, rejection, message }` for the
/// first rule that refuses.
///
/// Throws an `Error` naming the field for malformed input.
#[wasm_bindgen(js_name = check, unchecked_return_type = "CheckResult")]
pub fn check(
    definition: JsDefinition,
    basket: JsBasket,
    options: Option<JsQuoteOptions>,
) -> Result<JsValue, js_sys::Error> {
    let (promo, basket, options, now) = arguments(definition, basket, options)?;
    check_with(&promo, &basket, &options, now)
}

/// The code as the engine stores it: trimmed and upper-cased (`" save10 "` is `"SAVE10"`).
///
/// Throws an `Error` for an empty code, one that is too long, or one with a
/// character outside `A-Z 0-9 _ -`.
#[wasm_bindgen(js_name = normalizeCode)]
pub fn normalize_code(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<String, js_sys::Error> {
    if !text.is_string() {
        return Err(refused("code", format!("expected a string, got {}", kind_of(&text))));
    }
    let text: js_sys::JsString = text.unchecked_into();
    if text.length() > MAX_INPUT_LEN {
        return Err(refused(
            "code",
            format!(
                "is {} characters long; the most accepted is {MAX_INPUT_LEN}",
                text.length()
            ),
        ));
    }
    Code::parse(&String::from(text))
        .map(|code| code.as_str().to_owned())
        .map_err(|err| input_error("code", err))
}

/// A definition parsed once, to quote many baskets: `PromoCode.parse(definition)`.
///
/// ```js
/// const promo = PromoCode.parse(definition); // throws a PromoInputError like quote() does
/// promo.quote(basket, { now });              // { ok: true, quote } | { ok: false, rejection, message }
/// promo.free();                              // or `using promo = PromoCode.parse(...)`
/// ```
#[wasm_bindgen(js_name = PromoCode)]
pub struct PromoHandle {
    promo: PromoCode,
}

#[wasm_bindgen(js_class = PromoCode)]
impl PromoHandle {
    /// Parses and checks `definition` once (the same refusals as `quote`).
    pub fn parse(definition: JsDefinition) -> Result<PromoHandle, js_sys::Error> {
        let promo: PromoCode = read("definition", &definition.into())?;
        Ok(PromoHandle { promo })
    }

    /// The normalised code.
    #[wasm_bindgen(getter)]
    pub fn code(&self) -> String {
        self.promo.code().as_str().to_owned()
    }

    /// Prices `basket`, as the one-shot `quote(definition, basket, options)` does.
    #[wasm_bindgen(unchecked_return_type = "QuoteResult")]
    pub fn quote(&self, basket: JsBasket, options: Option<JsQuoteOptions>) -> Result<JsValue, js_sys::Error> {
        let basket: Basket = read("basket", &basket.into())?;
        let options = read_options(options)?;
        let now = now(&options)?;
        quote_with(&self.promo, &basket, &options, now)
    }

    /// Checks the rules against `basket`, as the one-shot `check(definition, basket, options)` does.
    #[wasm_bindgen(unchecked_return_type = "CheckResult")]
    pub fn check(&self, basket: JsBasket, options: Option<JsQuoteOptions>) -> Result<JsValue, js_sys::Error> {
        let basket: Basket = read("basket", &basket.into())?;
        let options = read_options(options)?;
        let now = now(&options)?;
        check_with(&self.promo, &basket, &options, now)
    }
}
