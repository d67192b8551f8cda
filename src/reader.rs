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

use crate::api::QuoteOptions;
use crate::basket::{Basket, BasketRepr, Categories, LineRepr, Quantity};
use crate::currency::Currency;
use crate::error::{join_path, InputError};
use crate::ids::{Category, Code, CustomerId, Sku};
use crate::json::Refused;
use crate::money::{DecimalText, Money, MoneyRepr};
use crate::promo::{
    AppliesTo, DefinitionRepr, Discount, DiscountFields, KindText, LimitsRepr, PercentText, PromoCode, ScopeRepr,
    UsageLimits,
};
use crate::rules::{UsageCounts, UsageRepr};
use crate::time::Timestamp;

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
    /// The error `from_json` gives: what `json::malformed` makes of the same failure.
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
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", quoted.join(", "))
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

    // --- bytes ---

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Skips whitespace; the next byte.
    fn blank(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
        self.peek()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    /// A syntax error at byte `index`, with serde_json's line and column.
    fn syntax(&self, code: &str, index: usize) -> Fail {
        let before = &self.text[..index];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
        Fail::Syntax(format!("{code} at line {line} column {}", index - line_start))
    }

    /// serde_json's `error`: at the current position.
    fn error(&self, code: &str) -> Fail {
        self.syntax(code, self.at)
    }

    /// serde_json's `peek_error`: at the byte just peeked.
    fn peek_error(&self, code: &str) -> Fail {
        self.syntax(code, (self.at + 1).min(self.text.len()))
    }

    /// The rest of `null`, `true` or `false`.
    fn ident(&mut self, rest: &[u8]) -> Read<()> {
        for &expected in rest {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(byte) if byte != expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// serde_json's `check_recursion`, going in.
    fn enter(&mut self) -> Read<()> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.peek_error(RECURSION));
        }
        self.at += 1;
        Ok(())
    }

    // --- strings ---

    /// A string's contents, its opening quote already read.
    fn string(&mut self) -> Read<String> {
        let mut out: Vec<u8> = Vec::new();
        let mut start = self.at;
        loop {
            while self.peek().is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            match self.peek() {
                None => return Err(self.error(EOF_STRING)),
                Some(b'"') => {
                    out.extend_from_slice(&self.text[start..self.at]);
                    self.at += 1;
                    // The text is a `&str` and escapes only add whole characters.
                    return Ok(String::from_utf8(out).unwrap_or_default());
                }
                Some(b'\\') => {
                    out.extend_from_slice(&self.text[start..self.at]);
                    self.at += 1;
                    self.escape(&mut out)?;
                    start = self.at;
                }
                Some(_) => {
                    self.at += 1;
                    return Err(self.error(CONTROL));
                }
            }
        }
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Read<()> {
        let byte = match self.next() {
            Some(byte) => byte,
            None => return Err(self.error(EOF_STRING)),
        };
        let simple = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => b'\x08',
            b'f' => b'\x0c',
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error(INVALID_ESCAPE)),
        };
        out.push(simple);
        Ok(())
    }

    fn hex4(&mut self) -> Read<u16> {
        let Some(digits) = self.text.get(self.at..self.at + 4) else {
            self.at = self.text.len();
            return Err(self.error(EOF_STRING));
        };
        self.at += 4;
        let mut value = 0_u16;
        for &digit in digits {
            let nibble = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return Err(self.error(INVALID_ESCAPE)),
            };
            value = value * 16 + u16::from(nibble);
        }
        Ok(value)
    }

    /// A `\u` escape (validating: surrogates must pair).
    fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Read<()> {
        let first = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&first) {
            return Err(self.error(LONE_SURROGATE));
        }
        let code = if (0xD800..=0xDBFF).contains(&first) {
            for expected in [b'\\', b'u'] {
                match self.peek() {
                    None => return Err(self.error(EOF_STRING)),
                    Some(byte) => {
                        self.at += 1;
                        if byte != expected {
                            return Err(self.error(HEX_END));
                        }
                    }
                }
            }
            let second = self.hex4()?;
            if !(0xDC00..=0xDFFF).contains(&second) {
                return Err(self.error(LONE_SURROGATE));
            }
            ((u32::from(first - 0xD800) << 10) | u32::from(second - 0xDC00)) + 0x1_0000
        } else {
            u32::from(first)
        };
        let character = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        out.extend_from_slice(character.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }

    // --- numbers (serde_json's parser, without `float_roundtrip`) ---

    /// A number, its `-` (if any) already read.
    fn number(&mut self, positive: bool) -> Read<Number> {
        let first = match self.next() {
            Some(byte) => byte,
            None => return Err(self.error(EOF_VALUE)),
        };
        match first {
            b'0' => match self.peek() {
                Some(b'0'..=b'9') => Err(self.peek_error(INVALID_NUMBER)),
                _ => self.number_rest(positive, 0),
            },
            b'1'..=b'9' => {
                let mut significand = u64::from(first - b'0');
                loop {
                    match self.peek() {
                        Some(digit @ b'0'..=b'9') => {
                            let digit = u64::from(digit - b'0');
                            match significand.checked_mul(10).and_then(|s| s.checked_add(digit)) {
                                Some(next) => {
                                    self.at += 1;
                                    significand = next;
                                }
                                None => return self.long_integer(positive, significand).map(Number::Float),
                            }
                        }
                        _ => return self.number_rest(positive, significand),
                    }
                }
            }
            _ => Err(self.error(INVALID_NUMBER)),
        }
    }

    fn number_rest(&mut self, positive: bool, significand: u64) -> Read<Number> {
        Ok(match self.peek() {
            Some(b'.') => Number::Float(self.decimal(positive, significand, 0)?),
            Some(b'e' | b'E') => Number::Float(self.exponent(positive, significand, 0)?),
            _ if positive => Number::Unsigned(significand),
            _ => {
                let negative = (significand as i64).wrapping_neg();
                if negative >= 0 {
                    Number::Float(-(significand as f64))
                } else {
                    Number::Signed(negative)
                }
            }
        })
    }

    fn decimal(&mut self, positive: bool, mut significand: u64, exponent_before: i32) -> Read<f64> {
        self.at += 1;
        let mut exponent_after = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            let digit = u64::from(digit - b'0');
            match significand.checked_mul(10).and_then(|s| s.checked_add(digit)) {
                Some(next) => {
                    self.at += 1;
                    significand = next;
                    exponent_after -= 1;
                }
                None => {
                    while let Some(b'0'..=b'9') = self.peek() {
                        self.at += 1;
                    }
                    let exponent = exponent_before + exponent_after;
                    return match self.peek() {
                        Some(b'e' | b'E') => self.exponent(positive, significand, exponent),
                        _ => self.float_of(positive, significand, exponent),
                    };
                }
            }
        }
        if exponent_after == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(INVALID_NUMBER),
                None => self.peek_error(EOF_VALUE),
            });
        }
        let exponent = exponent_before + exponent_after;
        match self.peek() {
            Some(b'e' | b'E') => self.exponent(positive, significand, exponent),
            _ => self.float_of(positive, significand, exponent),
        }
    }

    fn exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Read<f64> {
        self.at += 1;
        let positive_exponent = match self.peek() {
            Some(b'+') => {
                self.at += 1;
                true
            }
            Some(b'-') => {
                self.at += 1;
                false
            }
            _ => true,
        };
        let mut exponent = match self.next() {
            Some(digit @ b'0'..=b'9') => i32::from(digit - b'0'),
            Some(_) => return Err(self.error(INVALID_NUMBER)),
            None => return Err(self.error(EOF_VALUE)),
        };
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            self.at += 1;
            match exponent
                .checked_mul(10)
                .and_then(|e| e.checked_add(i32::from(digit - b'0')))
            {
                Some(next) => exponent = next,
                None => {
                    if significand != 0 && positive_exponent {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    while let Some(b'0'..=b'9') = self.peek() {
                        self.at += 1;
                    }
                    return Ok(if positive { 0.0 } else { -0.0 });
                }
            }
        }
        let exponent = if positive_exponent {
            starting.saturating_add(exponent)
        } else {
            starting.saturating_sub(exponent)
        };
        self.float_of(positive, significand, exponent)
    }

    fn long_integer(&mut self, positive: bool, significand: u64) -> Read<f64> {
        let mut exponent = 0;
        loop {
            match self.peek() {
                Some(b'0'..=b'9') => {
                    self.at += 1;
                    exponent += 1;
                }
                Some(b'.') => return self.decimal(positive, significand, exponent),
                Some(b'e' | b'E') => return self.exponent(positive, significand, exponent),
                _ => return self.float_of(positive, significand, exponent),
            }
        }
    }

    fn float_of(&mut self, positive: bool, significand: u64, mut exponent: i32) -> Read<f64> {
        let mut value = significand as f64;
        loop {
            match pow10(exponent.unsigned_abs() as usize) {
                Some(pow) => {
                    if exponent >= 0 {
                        value *= pow;
                        if value.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        value /= pow;
                    }
                    break;
                }
                None => {
                    if value == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    value /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { value } else { -value })
    }

    // --- values of one type (serde_json's `deserialize_*`) ---

    /// serde_json's `peek_invalid_type`: what the value here is, for "invalid type: ...".
    fn unexpected(&mut self) -> Read<String> {
        Ok(match self.peek().unwrap_or(0) {
            b'n' => {
                self.at += 1;
                self.ident(b"ull")?;
                "null".to_owned()
            }
            b't' => {
                self.at += 1;
                self.ident(b"rue")?;
                "boolean `true`".to_owned()
            }
            b'f' => {
                self.at += 1;
                self.ident(b"alse")?;
                "boolean `false`".to_owned()
            }
            b'-' => {
                self.at += 1;
                self.number(false)?.to_string()
            }
            b'0'..=b'9' => self.number(true)?.to_string(),
            b'"' => {
                self.at += 1;
                format!("string {:?}", self.string()?)
            }
            b'[' => "sequence".to_owned(),
            b'{' => "map".to_owned(),
            _ => return Err(self.peek_error(EXPECTED_VALUE)),
        })
    }

    /// "invalid type: <what is here>, expected <expecting>".
    fn invalid_type(&mut self, expecting: &str) -> Fail {
        match self.unexpected() {
            Ok(what) => message(format!("invalid type: {what}, expected {expecting}")),
            Err(fail) => fail,
        }
    }

    /// The next byte of a value, or serde_json's end-of-input error.
    fn value_start(&mut self) -> Read<u8> {
        self.blank().ok_or_else(|| self.peek_error(EOF_VALUE))
    }

    /// `deserialize_str`: a string.
    fn str_value(&mut self, expecting: &str) -> Read<String> {
        if self.value_start()? != b'"' {
            return Err(self.invalid_type(expecting));
        }
        self.at += 1;
        self.string()
    }

    /// A string that `parse` checks (an identifier, a currency, a time).
    fn parsed<T>(&mut self, expecting: &str, parse: fn(&str) -> Result<T, InputError>) -> Read<T> {
        let text = self.str_value(expecting)?;
        parse(&text).map_err(|err| refused(Refused::at("", err)))
    }

    /// `deserialize_u64` (serde_json's `deserialize_number`): a number.
    fn number_value(&mut self, expecting: &str) -> Read<Number> {
        match self.value_start()? {
            b'-' => {
                self.at += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            _ => Err(self.invalid_type(expecting)),
        }
    }

    /// A `u64`, as serde's own visitor takes it.
    fn unsigned(&mut self) -> Read<u64> {
        match self.number_value("u64")? {
            Number::Unsigned(n) => Ok(n),
            Number::Signed(n) => Err(message(format!("invalid value: integer `{n}`, expected u64"))),
            float => Err(message(format!("invalid type: {float}, expected u64"))),
        }
    }

    /// A `bool`.
    fn boolean(&mut self) -> Read<bool> {
        match self.value_start()? {
            b't' => {
                self.at += 1;
                self.ident(b"rue")?;
                Ok(true)
            }
            b'f' => {
                self.at += 1;
                self.ident(b"alse")?;
                Ok(false)
            }
            _ => Err(self.invalid_type("a boolean")),
        }
    }

    /// An `Option`: `null` is `None`.
    fn option<T>(&mut self, read: fn(&mut Json<'a>) -> Read<T>) -> Read<Option<T>> {
        if self.blank() == Some(b'n') {
            self.at += 1;
            self.ident(b"ull")?;
            return Ok(None);
        }
        read(self).map(Some)
    }

    /// Before each element of an array: whether there is one (serde_json's `SeqAccess`).
    fn element(&mut self, first: &mut bool) -> Read<bool> {
        let peek = match self.blank() {
            Some(b']') => return Ok(false),
            Some(b',') if !*first => {
                self.at += 1;
                self.blank()
            }
            Some(byte) if *first => {
                *first = false;
                Some(byte)
            }
            Some(_) => return Err(self.peek_error(LIST_COMMA)),
            None => return Err(self.peek_error(EOF_LIST)),
        };
        match peek {
            Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
            Some(_) => Ok(true),
            None => Err(self.peek_error(EOF_VALUE)),
        }
    }

    /// After the elements of an array (serde_json's `end_seq`).
    fn end_seq(&mut self) -> Read<()> {
        match self.blank() {
            Some(b']') => {
                self.at += 1;
                Ok(())
            }
            Some(b',') => {
                self.at += 1;
                match self.blank() {
                    Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
                    _ => Err(self.peek_error(TRAILING)),
                }
            }
            Some(_) => Err(self.peek_error(TRAILING)),
            None => Err(self.peek_error(EOF_LIST)),
        }
    }

    /// A `Vec` (`deserialize_seq`).
    fn list<T>(&mut self, read: fn(&mut Json<'a>) -> Read<T>) -> Read<Vec<T>> {
        if self.value_start()? != b'[' {
            return Err(self.invalid_type("a sequence"));
        }
        self.enter()?;
        let mut items = Vec::new();
        let mut first = true;
        let ret = loop {
            match self.element(&mut first) {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(fail) => break Err(fail),
            }
            let index = items.len();
            match inside(read(self), || Seg::Index(index)) {
                Ok(item) => items.push(item),
                Err(fail) => break Err(fail),
            }
        };
        self.depth += 1;
        ret?;
        self.end_seq()?;
        Ok(items)
    }

    /// Before each key of an object: the key, if there is one (serde_json's `MapAccess`).
    fn key(&mut self, first: &mut bool) -> Read<Option<String>> {
        let peek = match self.blank() {
            Some(b'}') => return Ok(None),
            Some(b',') if !*first => {
                self.at += 1;
                self.blank()
            }
            Some(byte) if *first => {
                *first = false;
                Some(byte)
            }
            Some(_) => return Err(self.peek_error(OBJECT_COMMA)),
            None => return Err(self.peek_error(EOF_OBJECT)),
        };
        match peek {
            Some(b'"') => {
                self.at += 1;
                self.string().map(Some)
            }
            Some(b'}') => Err(self.peek_error(TRAILING_COMMA)),
            Some(_) => Err(self.peek_error(KEY_STRING)),
            None => Err(self.peek_error(EOF_VALUE)),
        }
    }

    /// The `:` after a key.
    fn colon(&mut self) -> Read<()> {
        match self.blank() {
            Some(b':') => {
                self.at += 1;
                Ok(())
            }
            Some(_) => Err(self.peek_error(EXPECTED_COLON)),
            None => Err(self.peek_error(EOF_OBJECT)),
        }
    }

    /// A struct as serde's derive reads it (`deserialize_struct`, with
    /// `deny_unknown_fields`): from an object, or an array of its fields.
    fn structure(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        match self.value_start()? {
            b'{' => {
                self.enter()?;
                let ret = self.fields(shape, slots);
                self.depth += 1;
                ret?;
                // The object's `}` is next: `fields` stopped at it.
                self.at += 1;
                Ok(())
            }
            b'[' => {
                self.enter()?;
                let ret = self.fields_in_order(shape, slots);
                self.depth += 1;
                ret?;
                self.end_seq()
            }
            _ => Err(self.invalid_type(shape.expecting)),
        }
    }

    /// derive's `visit_map`.
    fn fields(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        let mut seen = 0_u16;
        let mut first = true;
        while let Some(key) = self.key(&mut first)? {
            let Some(field) = shape.names.iter().position(|name| *name == key) else {
                let text = format!("unknown field `{key}`, expected {}", one_of(shape.names));
                return Err(Fail::At(vec![Seg::Key(key)], Refused::Message(text)));
            };
            if seen & (1 << field) != 0 {
                return Err(message(format!("duplicate field `{key}`")));
            }
            seen |= 1 << field;
            self.colon()?;
            inside(slots.read(self, field), || Seg::Key(key))?;
        }
        let missing = (0..shape.names.len()).find(|&i| (seen | shape.defaults) & (1 << i) == 0);
        match missing {
            Some(i) => Err(message(format!("missing field `{}`", shape.names[i]))),
            None => Ok(()),
        }
    }

    /// derive's `visit_seq`: the fields in order; a missing field with a default is its default.
    fn fields_in_order(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        let count = shape.names.len();
        let mut first = true;
        for field in 0..count {
            if self.element(&mut first)? {
                inside(slots.read(self, field), || Seg::Index(field))?;
            } else if shape.defaults & (1 << field) == 0 {
                return Err(message(format!(
                    "invalid length {field}, expected {} with {count} elements",
                    shape.expecting
                )));
            }
        }
        Ok(())
    }

    /// A struct's finished value, or its refusal at its own place.
    fn finish<R, T>(&mut self, shape: &Shape, mut slots: R, done: fn(R) -> Read<Result<T, Refused>>) -> Read<T>
    where
        R: Slots,
    {
        self.structure(shape, &mut slots)?;
        done(slots)?.map_err(refused)
    }

    // --- the core's types ---

    fn currency(&mut self) -> Read<Currency> {
        self.parsed(Currency::EXPECTING, Currency::from_code)
    }

    fn decimal_text(&mut self) -> Read<DecimalText> {
        self.str_value(DecimalText::EXPECTING).map(DecimalText)
    }

    fn money(&mut self) -> Read<Money> {
        const SHAPE: Shape = Shape {
            expecting: "struct MoneyRepr",
            names: &["amount", "currency"],
            defaults: 0,
        };
        #[derive(Default)]
        struct S(Option<DecimalText>, Option<Currency>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.decimal_text()?),
                    _ => self.1 = Some(json.currency()?),
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = MoneyRepr {
                amount: required(s.0)?,
                currency: required(s.1)?,
            };
            Ok(repr.finish())
        })
    }

    fn timestamp(&mut self) -> Read<Timestamp> {
        self.parsed(Timestamp::EXPECTING, Timestamp::parse)
    }

    fn code(&mut self) -> Read<Code> {
        self.parsed(Code::EXPECTING, Code::parse)
    }

    fn customer(&mut self) -> Read<CustomerId> {
        self.parsed(CustomerId::EXPECTING, CustomerId::parse)
    }

    fn sku(&mut self) -> Read<Sku> {
        self.parsed(Sku::EXPECTING, Sku::parse)
    }

    fn category(&mut self) -> Read<Category> {
        self.parsed(Category::EXPECTING, Category::parse)
    }

    fn quantity(&mut self) -> Read<Quantity> {
        let expecting = QuantityExpecting.to_string();
        let quantity = match self.number_value(&expecting)? {
            Number::Unsigned(n) => Quantity::from_u64(n),
            Number::Signed(n) => Quantity::from_i64(n),
            float => return Err(message(format!("invalid type: {float}, expected {expecting}"))),
        };
        quantity.map_err(|err| refused(Refused::at("", err)))
    }

    fn categories(&mut self) -> Read<Categories> {
        let categories = self.list(Json::category)?;
        Categories::finish(categories).map_err(refused)
    }

    fn line(&mut self) -> Read<LineRepr> {
        const SHAPE: Shape = Shape {
            expecting: "struct LineRepr",
            names: &["sku", "quantity", "unit_price", "categories"],
            defaults: 0b1000,
        };
        #[derive(Default)]
        struct S(Option<Sku>, Option<Quantity>, Option<Money>, Option<Categories>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.sku()?),
                    1 => self.1 = Some(json.quantity()?),
                    2 => self.2 = Some(json.money()?),
                    _ => self.3 = json.option(Json::categories)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(Ok(LineRepr {
                sku: required(s.0)?,
                quantity: required(s.1)?,
                unit_price: required(s.2)?,
                categories: s.3,
            }))
        })
    }

    fn basket(&mut self) -> Read<Basket> {
        const SHAPE: Shape = Shape {
            expecting: "struct BasketRepr",
            names: &["total", "lines", "shipping"],
            defaults: 0b111,
        };
        #[derive(Default)]
        struct S(Option<Money>, Option<Vec<LineRepr>>, Option<Money>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.option(Json::money)?,
                    1 => self.1 = json.option(|json| json.list(Json::line))?,
                    _ => self.2 = json.option(Json::money)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(BasketRepr {
                total: s.0,
                lines: s.1,
                shipping: s.2,
            }
            .finish())
        })
    }

    fn usage(&mut self) -> Read<UsageCounts> {
        const SHAPE: Shape = Shape {
            expecting: "struct UsageRepr",
            names: &["total", "per_customer"],
            defaults: 0,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<u64>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.unsigned()?),
                    _ => self.1 = Some(json.unsigned()?),
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = UsageRepr {
                total: required(s.0)?,
                per_customer: required(s.1)?,
            };
            Ok(repr.finish())
        })
    }

    fn options(&mut self) -> Read<QuoteOptions> {
        const SHAPE: Shape = Shape {
            expecting: "struct QuoteOptions",
            names: &["customer", "usage", "now"],
            defaults: 0b111,
        };
        #[derive(Default)]
        struct S(QuoteOptions);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0.customer = json.option(Json::customer)?,
                    1 => self.0.usage = json.option(Json::usage)?,
                    _ => self.0.now = json.option(Json::timestamp)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| Ok(Ok(s.0)))
    }

    /// The discount's `kind` (`deserialize_enum` of unit variants): a string, or `{"<kind>": null}`.
    fn kind(&mut self) -> Read<KindText> {
        match self.value_start()? {
            b'"' => {
                self.at += 1;
                let name = self.string()?;
                variant(&name)
            }
            b'{' => {
                self.enter()?;
                let ret = self.kind_object();
                self.depth += 1;
                let kind = ret?;
                match self.blank() {
                    Some(b'}') => {
                        self.at += 1;
                        Ok(kind)
                    }
                    Some(_) => Err(self.error(EXPECTED_VALUE)),
                    None => Err(self.error(EOF_OBJECT)),
                }
            }
            _ => Err(self.peek_error(EXPECTED_VALUE)),
        }
    }

    fn kind_object(&mut self) -> Read<KindText> {
        match self.blank() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.peek_error(EXPECTED_VALUE)),
            Some(_) => return Err(self.peek_error(KEY_STRING)),
            None => return Err(self.peek_error(EOF_OBJECT)),
        }
        self.at += 1;
        let name = self.string()?;
        let kind = variant(&name)?;
        self.colon()?;
        let unit = match self.value_start() {
            Ok(b'n') => {
                self.at += 1;
                self.ident(b"ull")
            }
            Ok(_) => Err(self.invalid_type("unit")),
            Err(fail) => Err(fail),
        };
        inside(unit, || Seg::Key(name))?;
        Ok(kind)
    }

    fn percent(&mut self) -> Read<PercentText> {
        let text = self.str_value(DecimalText::EXPECTING)?;
        PercentText::from_text(&text).map_err(|err| refused(Refused::at("", err)))
    }

    fn discount(&mut self) -> Read<Discount> {
        const SHAPE: Shape = Shape {
            expecting: "struct DiscountFields",
            names: &["kind", "percent", "max", "amount"],
            defaults: 0b1110,
        };
        #[derive(Default)]
        struct S(Option<KindText>, Option<PercentText>, Option<Money>, Option<Money>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.kind()?),
                    1 => self.1 = json.option(Json::percent)?,
                    2 => self.2 = json.option(Json::money)?,
                    _ => self.3 = json.option(Json::money)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let fields = DiscountFields {
                kind: required(s.0)?,
                percent: s.1,
                max: s.2,
                amount: s.3,
            };
            Ok(fields.finish())
        })
    }

    fn applies_to(&mut self) -> Read<AppliesTo> {
        const SHAPE: Shape = Shape {
            expecting: "struct ScopeRepr",
            names: &["skus", "categories"],
            defaults: 0b11,
        };
        #[derive(Default)]
        struct S(Vec<Sku>, Vec<Category>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.list(Json::sku)?,
                    _ => self.1 = json.list(Json::category)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(ScopeRepr {
                skus: s.0,
                categories: s.1,
            }
            .finish())
        })
    }

    fn limits(&mut self) -> Read<UsageLimits> {
        const SHAPE: Shape = Shape {
            expecting: "struct LimitsRepr",
            names: &["total", "per_customer"],
            defaults: 0b11,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<u64>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.option(Json::unsigned)?,
                    _ => self.1 = json.option(Json::unsigned)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(LimitsRepr {
                total: s.0,
                per_customer: s.1,
            }
            .finish())
        })
    }

    fn definition(&mut self) -> Read<PromoCode> {
        const SHAPE: Shape = Shape {
            expecting: "struct DefinitionRepr",
            names: &PromoCode::FIELDS,
            defaults: 0b1_1111_1010,
        };
        #[derive(Default)]
        struct S {
            code: Option<Code>,
            active: Option<bool>,
            discount: Option<Discount>,
            applies_to: Option<AppliesTo>,
            limits: Option<UsageLimits>,
            starts_at: Option<Timestamp>,
            ends_at: Option<Timestamp>,
            minimum: Option<Money>,
            audience: Option<Vec<CustomerId>>,
        }
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.code = Some(json.code()?),
                    1 => self.active = json.option(Json::boolean)?,
                    2 => self.discount = Some(json.discount()?),
                    3 => self.applies_to = json.option(Json::applies_to)?,
                    4 => self.limits = json.option(Json::limits)?,
                    5 => self.starts_at = json.option(Json::timestamp)?,
                    6 => self.ends_at = json.option(Json::timestamp)?,
                    7 => self.minimum = json.option(Json::money)?,
                    _ => self.audience = json.option(|json| json.list(Json::customer))?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = DefinitionRepr {
                code: required(s.code)?,
                active: s.active,
                discount: required(s.discount)?,
                applies_to: s.applies_to,
                limits: s.limits,
                starts_at: s.starts_at,
                ends_at: s.ends_at,
                minimum: s.minimum,
                audience: s.audience,
            };
            Ok(repr.finish())
        })
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
    const NAMES: &[&str] = &["percent", "fixed", "free_shipping"];
    match name {
        "percent" => Ok(KindText::Percent),
        "fixed" => Ok(KindText::Fixed),
        "free_shipping" => Ok(KindText::FreeShipping),
        _ => Err(message(format!("unknown variant `{name}`, expected {}", one_of(NAMES)))),
    }
}

#[cfg(test)]
mod tests;
