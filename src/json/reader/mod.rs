//! The browser module's reader of the core's JSON shapes.
//!
//! It reads a definition, a basket or quote options from JSON text (what
//! `JSON.stringify` makes of a page's value) and refuses exactly what
//! [`from_json`](crate::from_json) refuses, with the same [`InputError`]:
//! the same variant, path and message. `from_json` is serde_json driving the
//! derived `Deserialize` impls through `serde_path_to_error`; that generic
//! machinery, instantiated for every type, was most of the browser module's
//! size. This reader does the same work in one small piece of code.
//!
//! It is built to follow `from_json` step by step:
//!
//! - it reads in the order serde_json does, lazily, so the first error it
//!   meets is the one serde_json meets: an unknown field stops it before the
//!   next field is looked at, a string is decoded only when it is read;
//! - a struct is read as serde's derive reads it, from an object (unknown,
//!   duplicate and missing fields refused in derive's order) or from an array
//!   of its fields in order; an `Option` field is `null` or absent;
//! - a value of the wrong type gets serde_json's "invalid type: ..., expected
//!   ..." message, syntax errors (a lone surrogate in a `\u` escape, a
//!   discount `kind` that is neither a string nor an object) serde_json's
//!   message and position;
//! - once a value's fields are read, the core's own checks (the `finish`
//!   functions, [`Refused`]) decide, as they do after serde.
//!
//! The unit tests below hold it to that: every vector, and many generated
//! documents, must give `from_json`'s answer exactly.

use std::fmt::{self, Write as _};

mod deals;
mod lexer;
mod numbers;
mod shapes;
mod structure;

use super::api::QuoteOptions;
use super::wire::{
    from_count, BasketRepr, BuyRepr, Categories, DecimalText, DefinitionRepr, DiscountFields, Discounted, GetRepr,
    KindText, LimitsRepr, LineRepr, MoneyRepr, PercentText, Quantity, ScopeRepr, TierRepr, UsageRepr, FROM_EXPECTING,
};
use super::Refused;
use crate::rules::{AppliesTo, Basket, Discount, PromoCode, TierFrom, UsageCounts, UsageLimits};
use crate::values::{join_path, Category, Code, Currency, CustomerId, InputError, Money, Sku, Timestamp};

/// Reads a definition (`PromoCode`), as `from_json::<PromoCode>` does.
pub(crate) fn definition(text: &str) -> Result<PromoCode, InputError> {
    Json::new(text).document(Json::definition)
}

/// Reads a basket, as `from_json::<Basket>` does.
pub(crate) fn basket(text: &str) -> Result<Basket, InputError> {
    Json::new(text).document(Json::basket)
}

/// Reads quote options, as `from_json::<QuoteOptions>` does.
pub(crate) fn options(text: &str) -> Result<QuoteOptions, InputError> {
    Json::new(text).document(Json::options)
}

/// Reads a code's usage, as `from_json::<UsageCounts>` does.
pub(crate) fn usage(text: &str) -> Result<UsageCounts, InputError> {
    Json::new(text).document(Json::usage)
}

/// Why reading stopped.
enum Fail {
    /// Not JSON (serde_json's syntax and end-of-input errors), with its
    /// position: `InputError::NotJson`.
    Syntax(String),
    /// A value refused at a place: the place's segments, innermost first
    /// (each level adds its own on the way out), and why.
    At(Vec<Seg>, Refused),
}

/// One step of a path, as `serde_path_to_error` names it.
enum Seg {
    /// A field, or the variant of an enum written as an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

type Read<T> = Result<T, Fail>;

impl Fail {
    /// The error `from_json` gives: what the path-tracking `serde_json` read makes of the same failure.
    fn into_input_error(self) -> InputError {
        match self {
            Fail::Syntax(message) => InputError::NotJson { message },
            Fail::At(segments, refused) => {
                let path = path_text(&segments);
                match refused {
                    Refused::Invalid(relative, error) => InputError::Field {
                        path: join_path(&path, &relative),
                        error: Box::new(error),
                    },
                    Refused::Message(message) => InputError::Malformed { path, message },
                }
            }
        }
    }
}

/// `serde_path_to_error`'s `Path` display: `.` for the root, `a.b[2].c` otherwise.
fn path_text(innermost_first: &[Seg]) -> String {
    if innermost_first.is_empty() {
        return ".".to_owned();
    }
    let mut path = String::new();
    for (i, seg) in innermost_first.iter().rev().enumerate() {
        match seg {
            Seg::Index(index) => {
                let _ = write!(path, "[{index}]");
            }
            Seg::Key(key) => {
                if i > 0 {
                    path.push('.');
                }
                path.push_str(key);
            }
        }
    }
    path
}

/// A refusal of the value being read, at its own place.
fn refused(refused: Refused) -> Fail {
    Fail::At(Vec::new(), refused)
}

/// One of serde's messages about the value being read (`Error::custom`).
fn message(text: String) -> Fail {
    refused(Refused::Message(text))
}

/// `read`'s failure, one step further inside (when it is about a value).
fn inside<T>(read: Read<T>, seg: impl FnOnce() -> Seg) -> Read<T> {
    read.map_err(|fail| match fail {
        Fail::At(mut segments, why) => {
            segments.push(seg());
            Fail::At(segments, why)
        }
        syntax => syntax,
    })
}

/// serde's `OneOf`: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
fn one_of(names: &[&str]) -> String {
    match names {
        [one] => format!("`{one}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => {
            let mut text = "one of ".to_owned();
            for (i, name) in names.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                text.push_str(&format!("{sep}`{name}`"));
            }
            text
        }
    }
}

// serde_json's syntax error messages (its `ErrorCode` display).
const EOF_LIST: &str = "EOF while parsing a list";
const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";
const EOF_VALUE: &str = "EOF while parsing a value";
const EXPECTED_COLON: &str = "expected `:`";
const LIST_COMMA: &str = "expected `,` or `]`";
const OBJECT_COMMA: &str = "expected `,` or `}`";
const EXPECTED_IDENT: &str = "expected ident";
const EXPECTED_VALUE: &str = "expected value";
const INVALID_ESCAPE: &str = "invalid escape";
const INVALID_NUMBER: &str = "invalid number";
const OUT_OF_RANGE: &str = "number out of range";
const CONTROL: &str = "control character (\\u0000-\\u001F) found while parsing a string";
const KEY_STRING: &str = "key must be a string";
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
const TRAILING_COMMA: &str = "trailing comma";
const TRAILING: &str = "trailing characters";
const HEX_END: &str = "unexpected end of hex escape";
const RECURSION: &str = "recursion limit exceeded";

/// A JSON number as serde_json parses it (without `float_roundtrip`).
#[derive(Clone, Copy)]
enum Number {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

impl fmt::Display for Number {
    /// As serde_json's invalid-type messages show it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Unsigned(n) => write!(f, "integer `{n}`"),
            Number::Signed(n) => write!(f, "integer `{n}`"),
            Number::Float(x) => write!(f, "floating point `{}`", zmij::Buffer::new().format(*x)),
        }
    }
}

/// `10^exponent` rounded to the nearest `f64`: serde_json's table of powers
/// of ten (its literals `1e0` to `1e308`), computed exactly rather than stored.
fn pow10(exponent: usize) -> Option<f64> {
    if exponent > 308 {
        return None;
    }
    // 10^exponent exactly, in little-endian 32-bit limbs.
    let mut limbs: Vec<u32> = vec![1];
    for _ in 0..exponent {
        let mut carry = 0_u64;
        for limb in &mut limbs {
            let product = u64::from(*limb) * 10 + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    let bit = |i: usize| limbs[i / 32] >> (i % 32) & 1 == 1;
    let width = limbs.len() * 32 - limbs.last().map_or(32, |top| top.leading_zeros() as usize);
    // The top 64 bits, with a sticky bit for any set bit below them: converting
    // that to `f64` rounds (to nearest, ties to even) exactly as the whole would.
    let shift = width.saturating_sub(64);
    let mut top = (shift..width).rev().fold(0_u64, |acc, i| acc << 1 | u64::from(bit(i)));
    if (0..shift).any(bit) {
        top |= 1;
    }
    // 2^shift is exact (shift <= 960).
    Some(top as f64 * f64::from_bits((1023 + shift as u64) << 52))
}

/// Which fields a struct has, as serde's derive declares them.
struct Shape {
    /// `struct MoneyRepr`: what derive's visitor says it expects.
    expecting: &'static str,
    /// The field names, in declaration order.
    names: &'static [&'static str],
    /// Bit `i` set: field `i` has `#[serde(default)]`.
    defaults: u16,
}

/// A struct being read: where each field's value goes.
trait Slots {
    /// Reads field `field`'s value from `json`.
    fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()>;
}

/// A field that the shape says is required, after the shape's checks.
fn required<T>(slot: Option<T>) -> Read<T> {
    slot.ok_or_else(|| message("missing field".to_owned()))
}

/// The JSON text being read, and where.
struct Json<'a> {
    text: &'a [u8],
    at: usize,
    /// serde_json's remaining recursion depth.
    depth: u8,
}

impl<'a> Json<'a> {
    fn new(text: &'a str) -> Json<'a> {
        Json {
            text: text.as_bytes(),
            at: 0,
            depth: 128,
        }
    }

    /// A whole document: the value, then nothing but whitespace.
    fn document<T>(mut self, read: fn(&mut Json<'a>) -> Read<T>) -> Result<T, InputError> {
        let value = read(&mut self).and_then(|value| match self.blank() {
            Some(_) => Err(self.peek_error(TRAILING)),
            None => Ok(value),
        });
        value.map_err(Fail::into_input_error)
    }
}

/// What the quantity visitor expects, as text.
struct QuantityExpecting;

impl fmt::Display for QuantityExpecting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Quantity::expecting(f)
    }
}

/// A discount kind by name, or derive's unknown-variant error.
fn variant(name: &str) -> Read<KindText> {
    const NAMES: &[&str] = &["percent", "fixed", "free_shipping", "buy_x_get_y", "tiered"];
    match name {
        "percent" => Ok(KindText::Percent),
        "fixed" => Ok(KindText::Fixed),
        "free_shipping" => Ok(KindText::FreeShipping),
        "buy_x_get_y" => Ok(KindText::BuyXGetY),
        "tiered" => Ok(KindText::Tiered),
        _ => Err(message(format!("unknown variant `{name}`, expected {}", one_of(NAMES)))),
    }
}

#[cfg(test)]
mod tests;
