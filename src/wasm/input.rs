//! Reading arguments: the JSON road through the core's reader, and the plain-data
//! road through `flatten`'s fields and the core's constructors.

use super::*;

/// The `Error` thrown for malformed input: `"<argument>.<path>: <message>"`,
/// exactly the core's message for the error at `argument`.
pub(super) fn input_error(argument: &str, err: InputError) -> js_sys::Error {
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
pub(super) fn set(object: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(key), value);
}

/// `{ kind, ... }` (TypeScript `CodeProblem`) for an error about a promo code's text, else `None`.
/// A character is written as its code point (it may be the separator).
pub(super) fn code_problem(err: &InputError) -> Option<JsValue> {
    let (kind, a, b) = match *err {
        InputError::EmptyCode => ("empty_code", 0, 0),
        InputError::CodeTooLong { length, max } => ("code_too_long", length, max),
        InputError::CodeCharacter { character, position } => ("code_character", character as usize, position),
        _ => return None,
    };
    let mut out = String::from("p");
    field(&mut out, kind);
    let _ = write!(out, "{SEP}{a}{SEP}{b}");
    Some(answer(&out))
}

pub(super) fn refused(argument: &str, message: String) -> js_sys::Error {
    input_error(
        argument,
        InputError::Malformed {
            path: ".".to_owned(),
            message,
        },
    )
}

/// What a JavaScript value is, for a message: `null`, `an array`, `a number`, ...
pub(super) fn kind_of(value: &JsValue) -> String {
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
pub(super) fn json_text(argument: &str, value: &JsValue) -> Result<String, js_sys::Error> {
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
pub(super) fn read<T>(
    argument: &str,
    value: &JsValue,
    read: fn(&str) -> Result<T, InputError>,
) -> Result<T, js_sys::Error> {
    let text = object_text(argument, value)?;
    read(&text).map_err(|err| input_error(argument, err))
}

/// The JSON text of an object argument (not of each type `read` reads: one copy of it).
fn object_text(argument: &str, value: &JsValue) -> Result<String, js_sys::Error> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(refused(argument, format!("expected an object, got {}", kind_of(value))));
    }
    json_text(argument, value)
}

/// A basket and its options, as read.
pub(super) type Read = std::rc::Rc<(Basket, QuoteOptions)>;

thread_local! {
    /// The fields `flatten` wrote last and what they read as (`None` when refused): a page quotes
    /// one basket many times (each code the buyer types, and the stack of them), and the same
    /// fields read the same.
    static LAST_PLAIN: std::cell::RefCell<(Vec<u8>, Option<Read>)> = const { std::cell::RefCell::new((Vec::new(), None)) };
}

/// The basket and the options: the fast road for plain data (not read again when its fields are
/// the ones read last), else their JSON text.
pub(super) fn basket_and_options(basket: &JsValue, options: Option<&JsValue>) -> Result<Read, js_sys::Error> {
    // `Some(null)` (only Rust can pass it; JavaScript's null is `None`) is refused by the JSON road.
    let absent = options.is_some_and(|options| options.is_null() || options.is_undefined());
    if !absent {
        let undefined = JsValue::UNDEFINED;
        let options = options.unwrap_or(&undefined);
        let written = with_buffer(|memory, pointer, _| flatten(basket, options, memory, pointer, SHARED_LEN as u32));
        let read = usize::try_from(written).ok().and_then(|written| {
            with_shared(|shared| {
                let fields = shared.get(..written)?;
                LAST_PLAIN.with(|last| {
                    let mut last = last.borrow_mut();
                    if last.0 != fields {
                        last.0.clear();
                        last.0.extend_from_slice(fields);
                        last.1 = std::str::from_utf8(fields).ok().and_then(plain).map(Read::new);
                    }
                    last.1.clone()
                })
            })
        });
        if let Some(read) = read {
            return Ok(read);
        }
    }
    let basket = read("basket", basket, crate::json::reader::basket)?;
    let options = match options {
        None => QuoteOptions::default(),
        Some(options) => read("options", options, crate::json::reader::options)?,
    };
    Ok(Read::new((options.basket(basket), options)))
}

/// The fields `flatten` wrote, in order (each after a separator).
pub(super) struct Fields<'a>(&'a str);

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
pub(super) fn plain(fields: &str) -> Option<(Basket, QuoteOptions)> {
    let mut fields = Fields(fields);
    let total = fields.maybe(Fields::money)?;
    let lines = fields.maybe(|fields| (0..fields.number()?).map(|_| fields.line()).collect())?;
    let shipping = fields.maybe(Fields::money)?;
    let basket = Basket::from_parts(total, lines, shipping).ok()?;
    let options = QuoteOptions {
        customer: fields.maybe(|fields| CustomerId::parse(fields.next()?).ok())?,
        usage: fields.maybe(|fields| UsageCounts::new(fields.number()?, fields.number()?).ok())?,
        now: fields.maybe(|fields| Timestamp::parse(fields.next()?).ok())?,
        customer_orders: None,
    };
    fields.0.is_empty().then_some((basket, options))
}

/// A stack's list of usage counts from `stackOptions`'s fields (its length, then each one's
/// total and per-customer count), built by the constructor the JSON road's reader finishes with;
/// `None` for anything it refuses.
pub(super) fn usage_list(written: usize) -> Option<Vec<UsageCounts>> {
    with_shared(|shared| {
        let mut fields = Fields(std::str::from_utf8(shared.get(..written)?).ok()?);
        let mut list = Vec::new();
        for _ in 0..fields.number()? {
            list.push(UsageCounts::new(fields.number()?, fields.number()?).ok()?);
        }
        fields.0.is_empty().then_some(list)
    })
}

/// The time to quote at: the option, else the browser clock.
pub(super) fn now(options: &QuoteOptions) -> Result<Timestamp, js_sys::Error> {
    match options.now {
        Some(now) => Ok(now),
        // `as` saturates (and maps NaN to 0): no clock value can panic here.
        None => Timestamp::from_unix_millis(js_sys::Date::now() as i64).map_err(|err| input_error("now", err)),
    }
}
