//! The browser module: JavaScript bindings for live quotes (wasm32, feature `wasm`).
//!
//! A thin adapter and nothing more: each function reads its arguments in the
//! core's JSON shapes, calls the core, and translates the answer. No rule
//! lives here.
//!
//! - A rejection is an answer, returned as `{ ok: false, rejection, message }`.
//! - Malformed input throws a JavaScript `Error` (named `PromoInputError`)
//!   whose message starts with the field: `basket.total.currency: unknown
//!   currency "XYZ"; ...`. Its `field` property holds the field alone; for a
//!   text that is not a promo code, its `problem` says why (the core's
//!   [`InputError`] kind, with the character and its position).
//! - What the core knows that a page needs is asked of the module, never
//!   repeated: `holdTtlBounds()`, `minorUnits(currency)`,
//!   `isBasketRejection(rejection)`, `definitionFields()`.
//!
//! # Reading arguments
//!
//! An argument is what `JSON.stringify` makes of it, read by the core's
//! reader for the browser (`src/reader.rs`), which refuses exactly what the
//! server's JSON parser refuses (unknown fields included) with the same
//! messages. A basket and options that are plain data of the documented
//! shape take a faster road to the same values: a small JavaScript helper
//! (`flatten`, in `src/wasm.js`) writes their strings and integers as fields
//! into a buffer in the module's memory, and the core's own constructors
//! check them. Anything else at all (a class instance, a getter that throws,
//! an unknown field, a value a check refuses) goes the `JSON.stringify` road,
//! which gives the refusal: the fast road never refuses anything itself.
//!
//! # Answers
//!
//! The module writes an answer's fields into the same buffer, and the other
//! helper (`build`) makes its objects, in the order the core's serde shapes
//! write them (why: `docs/performance.md`, "Browser module size and speed").

use std::fmt::Write as _;

use wasm_bindgen::prelude::*;

use crate::api::QuoteOptions;
use crate::{
    Basket, Category, Code, Currency, CustomerId, InputError, Line, Money, PromoCode, PromoCodeRejected, Quote, Sku,
    Timestamp, UsageCounts,
};

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

/** What a code takes off: a percent, a fixed amount or the shipping, each optionally capped at `max`. */
export type Discount =
  | { kind: "percent"; percent: DecimalString; max?: Money | null }
  | { kind: "fixed"; amount: Money; max?: Money | null }
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

/// The separator of the fields `flatten` and `build` exchange (no field the
/// module writes contains it; `flatten` gives up on a value that does).
const SEP: char = '\u{1}';

/// The JavaScript helpers, in `src/wasm.js` (wasm-bindgen copies it next to
/// `promocodes.js`, as `snippets/.../src/wasm.js`).
///
/// Both are told where the shared buffer is on every call (this module's
/// memory, the buffer's address and size): they keep a view of it, and
/// `build` the last answer's texts, both tied to the memory they came from,
/// so two instances of the module cannot mix up buffers or answers.
#[wasm_bindgen(module = "/src/wasm.js")]
extern "C" {
    /// Writes a plain basket and options into the buffer as fields: how many bytes, or -1.
    fn flatten(basket: &JsValue, options: &JsValue, memory: &JsValue, pointer: u32, size: u32) -> i32;
    /// An answer's objects from the fields in the buffer's first `length` bytes.
    fn build(memory: &JsValue, pointer: u32, size: u32, length: u32) -> JsValue;
}

/// The most `flatten` writes (the shared buffer's size). Whatever it writes,
/// the arguments' JSON text is far below [`MAX_INPUT_LEN`]: at most 6
/// characters of JSON for each byte (an escaped control character), plus the
/// keys of at most 500 lines of 20 categories, some 800,000 characters.
const SHARED_LEN: usize = 128 * 1024;

thread_local! {
    /// The buffer `flatten` writes and `build` reads (at least `SHARED_LEN`
    /// bytes; the helpers are told where it is on every call). No Rust borrow
    /// of it is held while the helpers run, and they touch it only then.
    static SHARED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    /// This module's memory, for the helpers.
    static MEMORY: JsValue = wasm_bindgen::memory();
}

/// Runs `with` on the shared buffer.
fn with_shared<T>(with: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    SHARED.with(|shared| {
        let mut shared = shared.borrow_mut();
        if shared.is_empty() {
            shared.resize(SHARED_LEN, 0);
        }
        with(&mut shared)
    })
}

/// Calls a helper with this module's memory and the shared buffer's address and size.
fn with_buffer<T>(call: impl FnOnce(&JsValue, u32, u32) -> T) -> T {
    let (pointer, size) = with_shared(|shared| (shared.as_ptr() as u32, shared.len() as u32));
    MEMORY.with(|memory| call(memory, pointer, size))
}

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

/// The `Error` thrown for malformed input: `"<argument>.<path>: <message>"`,
/// exactly the core's message for the error at `argument`.
fn input_error(argument: &str, err: InputError) -> js_sys::Error {
    let err = err.at(argument);
    let field = err.path().unwrap_or(argument).to_owned();
    let error = js_sys::Error::new(&err.to_string());
    error.set_name("PromoInputError");
    set(&error, "field", &JsValue::from_str(&field));
    if let Some(problem) = code_problem(err.kind()) {
        set(&error, "problem", &problem);
    }
    error
}

/// Sets `object[key]`. Setting a property on a fresh object cannot fail; ignored if it ever does.
fn set(object: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(key), value);
}

/// `{ kind, ... }` (TypeScript `CodeProblem`) for an error about a promo code's text, else `None`.
/// A character is written as its code point (it may be the separator).
fn code_problem(err: &InputError) -> Option<JsValue> {
    let (kind, a, b) = match *err {
        InputError::EmptyCode => ("empty_code", 0, 0),
        InputError::CodeTooLong { length, max } => ("code_too_long", length, max),
        InputError::CodeCharacter { character, position } => ("code_character", character as usize, position),
        _ => return None,
    };
    Some(answer(&format!("p{SEP}{kind}{SEP}{a}{SEP}{b}")))
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

/// Reads an object argument from its JSON text with `read` (one of the reader's functions).
fn read<T>(argument: &str, value: &JsValue, read: fn(&str) -> Result<T, InputError>) -> Result<T, js_sys::Error> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(refused(argument, format!("expected an object, got {}", kind_of(value))));
    }
    let text = json_text(argument, value)?;
    read(&text).map_err(|err| input_error(argument, err))
}

/// The basket and the options: the fast road for plain data, else their JSON text.
fn basket_and_options(basket: &JsValue, options: Option<&JsValue>) -> Result<(Basket, QuoteOptions), js_sys::Error> {
    // `Some(null)` (only Rust can pass it; JavaScript's null is `None`) is refused by the JSON road.
    let absent = options.is_some_and(|options| options.is_null() || options.is_undefined());
    if !absent {
        let undefined = JsValue::UNDEFINED;
        let options = options.unwrap_or(&undefined);
        let written = with_buffer(|memory, pointer, _| flatten(basket, options, memory, pointer, SHARED_LEN as u32));
        let read = usize::try_from(written)
            .ok()
            .and_then(|written| with_shared(|shared| plain(std::str::from_utf8(shared.get(..written)?).ok()?)));
        if let Some(read) = read {
            return Ok(read);
        }
    }
    let basket = read("basket", basket, crate::json::reader::basket)?;
    let options = match options {
        None => QuoteOptions::default(),
        Some(options) => read("options", options, crate::json::reader::options)?,
    };
    Ok((basket, options))
}

/// The fields `flatten` wrote, in order (each after a separator).
struct Fields<'a>(&'a str);

impl<'a> Fields<'a> {
    fn next(&mut self) -> Option<&'a str> {
        // Plain loops and slice patterns: this runs for every field.
        let bytes = self.0.as_bytes();
        let [SEP_BYTE, ..] = bytes else { return None };
        let mut end = 1;
        while end < bytes.len() && bytes[end] != SEP_BYTE {
            end += 1;
        }
        // The separator is ASCII, so both ends are character boundaries.
        let (field, rest) = (self.0.get(1..end)?, self.0.get(end..)?);
        self.0 = rest;
        Some(field)
    }

    /// Whether an optional value follows (`=`) or not (`-`).
    fn present(&mut self) -> Option<bool> {
        match self.next()?.as_bytes() {
            [b'='] => Some(true),
            [b'-'] => Some(false),
            _ => None,
        }
    }

    fn number(&mut self) -> Option<u64> {
        self.next()?.parse().ok()
    }

    fn maybe<T>(&mut self, read: fn(&mut Fields<'a>) -> Option<T>) -> Option<Option<T>> {
        match self.present()? {
            true => read(self).map(Some),
            false => Some(None),
        }
    }

    fn money(&mut self) -> Option<Money> {
        let amount = self.next()?;
        Money::parse(amount, Currency::from_code(self.next()?).ok()?).ok()
    }

    fn line(&mut self) -> Option<Line> {
        let sku = Sku::parse(self.next()?).ok()?;
        let quantity = u32::try_from(self.number()?).ok()?;
        let unit_price = self.money()?;
        let categories = self.maybe(|fields| {
            let count = fields.number()?;
            (0..count)
                .map(|_| Category::parse(fields.next()?).ok())
                .collect::<Option<Vec<_>>>()
        })?;
        let line = Line::new(sku, quantity, unit_price).ok()?;
        match categories {
            Some(categories) => line.with_categories(categories).ok(),
            None => Some(line),
        }
    }
}

/// A basket and options from `flatten`'s fields, built by the same
/// constructors as the JSON road; `None` for anything they refuse.
fn plain(fields: &str) -> Option<(Basket, QuoteOptions)> {
    let mut fields = Fields(fields);
    let total = fields.maybe(Fields::money)?;
    let lines = fields.maybe(|fields| (0..fields.number()?).map(|_| fields.line()).collect())?;
    let shipping = fields.maybe(Fields::money)?;
    let basket = Basket::from_parts(total, lines, shipping).ok()?;
    let options = QuoteOptions {
        customer: fields.maybe(|fields| CustomerId::parse(fields.next()?).ok())?,
        usage: fields.maybe(|fields| UsageCounts::new(fields.number()?, fields.number()?).ok())?,
        now: fields.maybe(|fields| parse_now(fields.next()?))?,
    };
    fields.0.is_empty().then_some((basket, options))
}

thread_local! {
    /// The last `now` read and its text: a page quotes at one `now` many times.
    static LAST_NOW: std::cell::RefCell<Option<(String, Timestamp)>> = const { std::cell::RefCell::new(None) };
}

/// `now` as `Timestamp::parse` reads it, not read again when it is the text read last.
fn parse_now(text: &str) -> Option<Timestamp> {
    LAST_NOW.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((last_text, at)) = &*last {
            if last_text == text {
                return Some(*at);
            }
        }
        let at = Timestamp::parse(text).ok()?;
        *last = Some((text.to_owned(), at));
        Some(at)
    })
}

/// The time to quote at: the option, else the browser clock.
fn now(options: &QuoteOptions) -> Result<Timestamp, js_sys::Error> {
    match options.now {
        Some(now) => Ok(now),
        // `as` saturates (and maps NaN to 0): no clock value can panic here.
        None => Timestamp::from_unix_millis(js_sys::Date::now() as i64).map_err(|err| input_error("now", err)),
    }
}

/// The separator, as a byte.
const SEP_BYTE: u8 = SEP as u8;

/// The separator, as text.
const SEP_TEXT: &str = "\u{1}";

fn field(out: &mut String, text: &str) {
    out.push_str(SEP_TEXT);
    out.push_str(text);
}

fn money_fields(out: &mut String, money: &Money) {
    out.push_str(SEP_TEXT);
    money.write_amount(out);
    field(out, money.currency().code());
}

thread_local! {
    /// The last time written, and its text: a page quotes at one `now` many times.
    static LAST_TIME: std::cell::RefCell<Option<(Timestamp, String)>> = const { std::cell::RefCell::new(None) };
}

/// Appends `at` as RFC 3339 (its `Display`).
fn time_field(out: &mut String, at: Timestamp) {
    out.push_str(SEP_TEXT);
    LAST_TIME.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((time, text)) if *time == at => out.push_str(text),
            _ => {
                let text = at.to_string();
                out.push_str(&text);
                *last = Some((at, text));
            }
        }
    });
}

/// `{ ok: true, quote }`, in `Quote`'s serde shape.
fn accepted(quote: &Quote) -> JsValue {
    let mut out = String::with_capacity(160);
    out.push('q');
    field(&mut out, quote.code().as_str());
    for money in [quote.total(), quote.discount(), quote.payable()] {
        money_fields(&mut out, money);
    }
    time_field(&mut out, quote.quoted_at());
    match quote.lines() {
        Some(lines) => {
            field(&mut out, "=");
            out.push_str(SEP_TEXT);
            let _ = write!(out, "{}", lines.len());
            for line in lines {
                field(&mut out, line.sku.as_str());
                money_fields(&mut out, &line.amount);
                money_fields(&mut out, &line.discount);
            }
        }
        None => field(&mut out, "-"),
    }
    match quote.shipping() {
        Some(shipping) => {
            field(&mut out, "=");
            money_fields(&mut out, &shipping.amount);
            money_fields(&mut out, &shipping.discount);
        }
        None => field(&mut out, "-"),
    }
    match quote.note() {
        Some(note) => {
            field(&mut out, "=");
            field(&mut out, note);
        }
        None => field(&mut out, "-"),
    }
    answer(&out)
}

thread_local! {
    /// The number of the last answer and its fields: the number changes only
    /// when the fields do.
    static LAST_ANSWER: std::cell::RefCell<(u32, String)> = const { std::cell::RefCell::new((0, String::new())) };
}

/// The answer whose fields are `fields`, made by `build`.
///
/// The buffer holds the answer's number (4 bytes, little-endian), then its
/// fields. The number is the one before when the fields are the same as the
/// answer before, byte for byte: `build` then makes the objects again from the
/// texts it decoded for that number instead of decoding the bytes.
fn answer(fields: &str) -> JsValue {
    let number = LAST_ANSWER.with(|last| {
        let mut last = last.borrow_mut();
        if last.1 != fields {
            last.0 = last.0.wrapping_add(1);
            last.1.clear();
            last.1.push_str(fields);
        }
        last.0
    });
    let length = 4 + fields.len();
    with_shared(|shared| {
        // Far larger than any answer (500 lines of some 150 bytes); grown if ever needed.
        if shared.len() < length {
            shared.resize(length, 0);
        }
        shared[..4].copy_from_slice(&number.to_le_bytes());
        shared[4..length].copy_from_slice(fields.as_bytes());
    });
    with_buffer(|memory, pointer, size| build(memory, pointer, size, length as u32))
}

/// `{ ok: false, rejection, message }`.
fn rejected(rejected: &PromoCodeRejected) -> JsValue {
    let mut out = String::from("r");
    field(&mut out, rejected.rejection().code());
    field(&mut out, rejected.message());
    answer(&out)
}

fn quote_with(promo: &PromoCode, basket: &Basket, options: &QuoteOptions) -> Result<JsValue, js_sys::Error> {
    let now = now(options)?;
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    Ok(match promo.quote(options.customer.as_ref(), usage, basket, now) {
        Ok(quote) => accepted(&quote),
        Err(refusal) => rejected(&refusal),
    })
}

fn check_with(promo: &PromoCode, basket: &Basket, options: &QuoteOptions) -> Result<JsValue, js_sys::Error> {
    let now = now(options)?;
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    Ok(match promo.validate(options.customer.as_ref(), usage, basket, now) {
        Ok(()) => answer("c"),
        Err(refusal) => rejected(&refusal),
    })
}

/// A definition argument.
fn definition(definition: JsDefinition) -> Result<PromoCode, js_sys::Error> {
    read("definition", &definition.into(), crate::json::reader::definition)
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
    let promo = self::definition(definition)?;
    let (basket, options) = basket_and_options(&basket, options.as_ref().map(AsRef::as_ref))?;
    quote_with(&promo, &basket, &options)
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
    let promo = self::definition(definition)?;
    let (basket, options) = basket_and_options(&basket, options.as_ref().map(AsRef::as_ref))?;
    check_with(&promo, &basket, &options)
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

/// How long a hold may last, in seconds: `{ min: 1, max: 3600, default: 900 }`, the core's
/// [`MIN_HOLD_TTL_SECONDS`](crate::MIN_HOLD_TTL_SECONDS),
/// [`MAX_HOLD_TTL_SECONDS`](crate::MAX_HOLD_TTL_SECONDS) and
/// [`DEFAULT_HOLD_TTL_SECONDS`](crate::DEFAULT_HOLD_TTL_SECONDS).
#[wasm_bindgen(js_name = holdTtlBounds, unchecked_return_type = "HoldTtlBounds")]
pub fn hold_ttl_bounds() -> JsValue {
    answer(&format!(
        "h{SEP}{}{SEP}{}{SEP}{}",
        crate::MIN_HOLD_TTL_SECONDS,
        crate::MAX_HOLD_TTL_SECONDS,
        crate::DEFAULT_HOLD_TTL_SECONDS
    ))
}

/// How many decimal places an amount in `currency` has: 2 for `"EUR"`, 0 for `"JPY"`, 3 for `"KWD"`
/// (the core's ISO 4217 table); `undefined` for anything but an active ISO 4217 code (any value
/// at all may be passed).
#[wasm_bindgen(js_name = minorUnits)]
pub fn minor_units(#[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue) -> Option<u32> {
    Currency::from_code(&currency.as_string()?)
        .ok()
        .map(Currency::minor_units)
}

/// Whether a refusal with this rejection code was decided by the basket (its currency, its
/// lines, its subtotal) rather than by the code or the customer: those rules are checked after
/// every rule about the customer, so such a refusal also says the customer may use the code.
/// `false` for anything else (any value at all may be passed: a Worker's answer without one).
#[wasm_bindgen(js_name = isBasketRejection)]
pub fn is_basket_rejection(#[wasm_bindgen(unchecked_param_type = "string")] rejection: JsValue) -> bool {
    let Some(rejection) = rejection.as_string() else {
        return false;
    };
    // Only the rejections about the basket are compared (`from_code` would compare all of them).
    crate::Rejection::ALL
        .into_iter()
        .filter(|r| r.is_about_the_basket())
        .any(|r| r.code() == rejection)
}

/// The fields of a definition (TypeScript `Definition`), in the order the core writes them: what
/// `quote` and `PromoCode.parse` accept in a definition, any other field being refused.
#[wasm_bindgen(js_name = definitionFields, unchecked_return_type = "(keyof Definition)[]")]
pub fn definition_fields() -> JsValue {
    let mut out = String::from("f");
    for name in PromoCode::FIELDS {
        field(&mut out, name);
    }
    answer(&out)
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
        Ok(PromoHandle {
            promo: self::definition(definition)?,
        })
    }

    /// The normalised code.
    #[wasm_bindgen(getter)]
    pub fn code(&self) -> String {
        self.promo.code().as_str().to_owned()
    }

    /// Prices `basket`, as the one-shot `quote(definition, basket, options)` does.
    #[wasm_bindgen(unchecked_return_type = "QuoteResult")]
    pub fn quote(&self, basket: JsBasket, options: Option<JsQuoteOptions>) -> Result<JsValue, js_sys::Error> {
        let (basket, options) = basket_and_options(&basket, options.as_ref().map(AsRef::as_ref))?;
        quote_with(&self.promo, &basket, &options)
    }

    /// Checks the rules against `basket`, as the one-shot `check(definition, basket, options)` does.
    #[wasm_bindgen(unchecked_return_type = "CheckResult")]
    pub fn check(&self, basket: JsBasket, options: Option<JsQuoteOptions>) -> Result<JsValue, js_sys::Error> {
        let (basket, options) = basket_and_options(&basket, options.as_ref().map(AsRef::as_ref))?;
        check_with(&self.promo, &basket, &options)
    }
}
