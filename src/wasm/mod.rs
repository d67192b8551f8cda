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
//! reader for the browser (`src/json/reader/`), which refuses exactly what the
//! server's JSON parser refuses (unknown fields included) with the same
//! messages. A basket and options that are plain data of the documented
//! shape take a faster road to the same values: a small JavaScript helper
//! (`flatten`, in `src/wasm.js`) writes their strings and integers as fields
//! into a buffer in the module's memory, and the core's own constructors
//! check them. Anything else at all (a class instance, a getter that throws,
//! an unknown field, a value a check refuses) goes the `JSON.stringify` road,
//! which gives the refusal: the fast road never refuses anything itself.
//! The fields read last are kept with what they read as, so the same basket
//! and options are not read twice in a row; a stack's list of usage counts
//! takes the same road (`stackOptions`) when each is plain.
//!
//! # Answers
//!
//! The module writes an answer's fields into the same buffer, and the other
//! helper (`build`) makes its objects, in the order the core's serde shapes
//! write them (why: `docs/performance.md`, "Browser module size and speed").

/// The module's allocator: talc, smaller than Rust's default for wasm32 (dlmalloc). Not in the
/// crate's own unit tests, which link the crate a second time (its dev-dependency on itself), allocator and all.
#[cfg(not(test))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use std::fmt::Write as _;

use wasm_bindgen::prelude::*;

use crate::api::QuoteOptions;
use crate::{
    Basket, Category, Code, Currency, CustomerId, InputError, Line, Money, PromoCode, PromoCodeRejected, Quote, Sku,
    Timestamp, UsageCounts,
};

mod answer;
mod input;
mod types;

use answer::*;
use input::*;

/// The longest argument accepted, in UTF-16 code units of its JSON text.
/// Anything longer is refused before it is copied into the module's memory.
pub const MAX_INPUT_LEN: u32 = 1 << 20;

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
    /// A stack's options as `[the one-code options, each code's usage, fields]`: `usage` taken out
    /// when it is an array (and written into the buffer as fields when plain: how many bytes, else
    /// -1), else `[options, undefined, -1]`.
    #[wasm_bindgen(js_name = stackOptions)]
    fn stack_options(options: &JsValue, memory: &JsValue, pointer: u32, size: u32) -> js_sys::Array;
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

/// `promo`'s quote of the basket and options read from `basket` and `options` (its check alone,
/// unless `price`): one function for the four ways in, the one-shot and the parsed code's.
fn judged(
    promo: &PromoCode,
    basket: &JsValue,
    options: Option<&JsValue>,
    price: bool,
) -> Result<JsValue, js_sys::Error> {
    let read = basket_and_options(basket, options)?;
    let (basket, options) = (&read.0, &read.1);
    let now = now(options)?;
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    let customer = options.customer.as_ref();
    Ok(match price {
        true => match promo.quote(customer, usage, basket, now) {
            Ok(quote) => accepted(&quote),
            Err(refusal) => rejected(&refusal),
        },
        false => match promo.validate(customer, usage, basket, now) {
            Ok(()) => answer("c"),
            Err(refusal) => rejected(&refusal),
        },
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
    judged(
        &self::definition(definition)?,
        &basket,
        options.as_ref().map(AsRef::as_ref),
        true,
    )
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
    judged(
        &self::definition(definition)?,
        &basket,
        options.as_ref().map(AsRef::as_ref),
        false,
    )
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
    let mut out = String::from("h");
    for seconds in [
        crate::MIN_HOLD_TTL_SECONDS,
        crate::MAX_HOLD_TTL_SECONDS,
        crate::DEFAULT_HOLD_TTL_SECONDS,
    ] {
        let _ = write!(out, "{SEP}{seconds}");
    }
    answer(&out)
}

/// How many decimal places an amount in `currency` has: 2 for `"EUR"`, 0 for `"JPY"`, 3 for `"KWD"`
/// (the core's ISO 4217 table); `undefined` for anything but an active ISO 4217 code (any value
/// at all may be passed).
#[wasm_bindgen(js_name = minorUnits)]
pub fn minor_units(#[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue) -> Option<u32> {
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
        judged(&self.promo, &basket, options.as_ref().map(AsRef::as_ref), true)
    }

    /// Checks the rules against `basket`, as the one-shot `check(definition, basket, options)` does.
    #[wasm_bindgen(unchecked_return_type = "CheckResult")]
    pub fn check(&self, basket: JsBasket, options: Option<JsQuoteOptions>) -> Result<JsValue, js_sys::Error> {
        judged(&self.promo, &basket, options.as_ref().map(AsRef::as_ref), false)
    }
}

#[wasm_bindgen]
extern "C" {
    /// The definitions of a stack's codes (TypeScript `Definition[]`).
    #[wasm_bindgen(typescript_type = "Definition[]")]
    pub type JsDefinitions;
    /// A stack's quote options (TypeScript `StackOptions`).
    #[wasm_bindgen(typescript_type = "StackOptions")]
    pub type JsStackOptions;
}

/// The definitions in `value`, an array (`name[i]` names a field in an error).
fn definition_list(name: &str, value: JsValue) -> Result<Vec<PromoCode>, js_sys::Error> {
    if !js_sys::Array::is_array(&value) {
        return Err(refused(name, format!("expected an array, got {}", kind_of(&value))));
    }
    let array: js_sys::Array = value.unchecked_into();
    let mut codes = Vec::new();
    for (i, definition) in array.iter().enumerate() {
        codes.push(read(
            &format!("{name}[{i}]"),
            &definition,
            crate::json::reader::definition,
        )?);
    }
    Ok(codes)
}

/// Several codes for one basket, parsed once: `PromoStack.parse([definitions], [automatic]?)`, in
/// the order the buyer entered them (the core's [`Stack`](crate::Stack): at most 5 codes, each
/// once), and the automatic promotions offered beside them, if any.
///
/// ```js
/// const stack = PromoStack.parse([save10, shipFree]); // throws a PromoInputError like PromoCode.parse
/// stack.quote(basket, { now, usage: [save10Usage, shipFreeUsage] });
/// // { ok: true, quote: { codes: [{ code, class, discount, ... }], total, discount, payable, ... } }
/// // | { ok: false, rejections: [{ code, rejection, with?, message }] }
/// stack.free();                                      // or `using stack = PromoStack.parse(...)`
/// const auto = PromoStack.parse([save10], promotions); // promotions: GET /v1/automatic's
/// auto.quote(basket, { now });
/// // { ok: true, quote: { codes: [{ code, class, automatic?: true, ... }], ..., skipped?: [{ code, rejection, detail }] } }
/// ```
#[wasm_bindgen(js_name = PromoStack)]
pub struct StackHandle {
    stack: crate::Stack,
}

#[wasm_bindgen(js_class = PromoStack)]
impl StackHandle {
    /// Parses and checks every definition (`definitions[i]` names a field in an error), then the
    /// list itself: 1 to 5 codes, none twice. With `automatic` (the promotions of
    /// `GET /v1/automatic`, `automatic[i]` naming a field in an error; at most 20), the stack
    /// offers them beside the typed codes as the Worker does (the core's
    /// `Stack::with_automatic`): the typed list may then be empty, and `options.usage` lists the
    /// typed codes, then the automatic ones as given.
    pub fn parse(definitions: JsDefinitions, automatic: Option<JsDefinitions>) -> Result<StackHandle, js_sys::Error> {
        let codes = definition_list("definitions", definitions.into())?;
        let stack = match automatic {
            None => crate::Stack::new(codes).map_err(|err| input_error("definitions", err))?,
            Some(automatic) => {
                let offered = definition_list("automatic", automatic.into())?;
                crate::Stack::with_automatic(codes, offered).map_err(|err| match err {
                    crate::InputError::TooMany { field: "automatic", .. } => input_error("automatic", err),
                    _ => input_error("definitions", err),
                })?
            }
        };
        Ok(StackHandle { stack })
    }

    /// Prices `basket` with every code, touching no counter: `{ ok: true, quote }` with each
    /// code's part in the order they apply, or `{ ok: false, rejections }` naming every code
    /// that refused. `options.usage[i]` is the `i`-th code's usage (past its end: no redemptions).
    #[wasm_bindgen(unchecked_return_type = "StackResult")]
    pub fn quote(&self, basket: JsBasket, options: Option<JsStackOptions>) -> Result<JsValue, js_sys::Error> {
        // `customer` and `now` as a single code's options are read (the fast road when plain), the
        // usage as a list of a single code's usage.
        let options: JsValue = options.map_or(JsValue::UNDEFINED, Into::into);
        let split = with_buffer(|memory, pointer, _| stack_options(&options, memory, pointer, SHARED_LEN as u32));
        let (rest, list) = (split.get(0), split.get(1));
        // The plain list's fields, read before the basket's take the buffer.
        let written = split.get(2).as_f64().unwrap_or(-1.0);
        let plain_usage = if written >= 0.0 {
            usage_list(written as usize)
        } else {
            None
        };
        let given = !(rest.is_undefined() || rest.is_null());
        let basket_read = basket_and_options(&basket, given.then_some(&rest))?;
        let (basket, options) = (&basket_read.0, &basket_read.1);
        if options.usage.is_some() {
            let message = "usage must be a list of usage counts, one for each code as listed";
            return Err(refused("options", message.to_owned()));
        }
        let mut usage = plain_usage.unwrap_or_default();
        if usage.is_empty() && !list.is_undefined() {
            let list: js_sys::Array = list.unchecked_into();
            for (i, counts) in list.iter().enumerate() {
                usage.push(read(
                    &format!("options.usage[{i}]"),
                    &counts,
                    crate::json::reader::usage,
                )?);
            }
        }
        let now = now(options)?;
        Ok(match self.stack.quote(options.customer.as_ref(), &usage, basket, now) {
            Ok(quote) => stacked(&quote),
            Err(refused) => stack_rejected(&refused),
        })
    }
}
