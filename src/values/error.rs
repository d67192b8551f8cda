use super::time::Timestamp;

use super::currency::Currency;

/// Input that promocodes refuses to build a value from.
///
/// Every constructor and parser in the crate reports bad input with this one
/// type, so a caller can show the message as it is: each names the field and
/// the limit it broke. Nothing is ever recorded from input that fails here.
///
/// # Example
///
/// ```
/// use promocodes::{Code, InputError};
///
/// let err = Code::parse("SAVE 10").unwrap_err();
/// assert_eq!(err, InputError::CodeCharacter { character: ' ', position: 4 });
/// assert_eq!(
///     err.to_string(),
///     "promo code contains ' ' at position 4; only A-Z, 0-9, '_' and '-' are allowed",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The promo code is empty after trimming.
    #[error("promo code is empty")]
    EmptyCode,
    /// The promo code is longer than [`Code::MAX_LEN`](crate::Code::MAX_LEN).
    #[error("promo code is {length} characters long; the most is {max}")]
    CodeTooLong {
        /// Its length in characters, after trimming.
        length: usize,
        /// The most a code may have.
        max: usize,
    },
    /// The promo code has a character outside `A-Z 0-9 _ -` (after upper-casing).
    #[error("promo code contains {} at position {position}; only A-Z, 0-9, '_' and '-' are allowed", QuotedChar(*.character))]
    CodeCharacter {
        /// The first character that is not allowed.
        character: char,
        /// Its position (in characters, from 0) in the trimmed code.
        position: usize,
    },
    /// A customer identifier is empty after trimming.
    #[error("customer identifier is empty")]
    EmptyCustomer,
    /// A customer identifier is longer than [`CustomerId::MAX_LEN`](crate::CustomerId::MAX_LEN).
    #[error("customer identifier is {length} characters long; the most is {max}")]
    CustomerTooLong {
        /// Its length in characters, after trimming.
        length: usize,
        /// The most an identifier may have.
        max: usize,
    },
    /// A customer identifier contains a control character.
    #[error("customer identifier contains a control character")]
    CustomerControlCharacter,
    /// An idempotency key is empty, too long, or has a character that is not visible ASCII.
    #[error("idempotency key must be 1 to {max} visible ASCII characters")]
    InvalidIdempotencyKey {
        /// The most characters a key may have.
        max: usize,
    },
    /// Not an active ISO 4217 currency with minor units.
    #[error("unknown currency {}; expected an active ISO 4217 code such as \"EUR\"", Quoted(.code))]
    UnknownCurrency {
        /// The code as given (at most its first 8 characters).
        code: String,
    },
    /// Not a plain decimal number (digits with an optional `.` and more digits).
    #[error("{field} {} is not a decimal number such as \"12.50\"", Quoted(.input))]
    NotADecimal {
        /// Which value it was: `amount` or `percent`.
        field: &'static str,
        /// The text as given (at most its first 40 characters).
        input: String,
    },
    /// An amount of money below zero.
    #[error("amount {amount} is negative")]
    NegativeAmount {
        /// The amount as given.
        amount: String,
    },
    /// An amount with more decimal places than its currency has.
    #[error("amount {amount} has {places} decimal places, but {currency} has {max}")]
    TooManyDecimalPlaces {
        /// The amount as given.
        amount: String,
        /// Its currency.
        currency: Currency,
        /// How many decimal places it has.
        places: u32,
        /// How many its currency has.
        max: u32,
    },
    /// An amount above [`Money::MAX_AMOUNT`](crate::Money::MAX_AMOUNT).
    #[error("amount {amount} is larger than the most promocodes accepts, {max}")]
    AmountTooLarge {
        /// The amount as given.
        amount: String,
        /// The largest accepted amount.
        max: String,
    },
    /// A percent discount outside (0, 100].
    #[error("percent must be above 0 and at most 100, not {percent}")]
    PercentOutOfRange {
        /// The percent as given.
        percent: String,
    },
    /// A percent with more than [`Discount::MAX_PERCENT_PLACES`](crate::Discount::MAX_PERCENT_PLACES) decimal places.
    #[error("percent {percent} has more than {max} decimal places")]
    PercentTooPrecise {
        /// The percent as given.
        percent: String,
        /// The most decimal places a percent may have.
        max: u32,
    },
    /// An amount that must be above zero is zero: a fixed discount or a percent discount's maximum.
    #[error("{field} must be above zero")]
    ZeroAmount {
        /// The field, as in the JSON definition: `discount.amount` or `discount.max`.
        field: &'static str,
    },
    /// A usage limit of zero; limits are at least 1 (omit one for no limit).
    #[error("limits.{field} must be at least 1; omit it for no limit")]
    ZeroLimit {
        /// `total` or `per_customer`.
        field: &'static str,
    },
    /// A budget of zero; a budget is above zero (omit it for no budget).
    #[error("limits.budget must be above zero; omit it for no budget")]
    ZeroBudget,
    /// A `when_budget_short` other than `"refuse"` or `"partial"`.
    #[error("when_budget_short {} is not one of \"refuse\" or \"partial\"", Quoted(.input))]
    UnknownBudgetShort {
        /// The text as given (at most its first 40 characters).
        input: String,
    },
    /// Not an RFC 3339 time, or outside the representable years.
    #[error("{} is not an RFC 3339 time such as \"2026-12-01T00:00:00Z\"", Quoted(.input))]
    InvalidTimestamp {
        /// The text as given (at most its first 40 characters).
        input: String,
    },
    /// A validity window whose end is not after its start.
    #[error("validity window ends at {ends_at}, which is not after its start {starts_at}")]
    EmptyWindow {
        /// The window's start.
        starts_at: Timestamp,
        /// The window's end.
        ends_at: Timestamp,
    },
    /// An assigned audience with no customers; omit the audience for a public code.
    #[error("audience is empty; omit it for a public code")]
    EmptyAudience,
    /// Two amounts of one code definition in different currencies.
    #[error("{field} is in {actual}, but the code's amounts are in {expected}")]
    CurrencyMismatch {
        /// The field whose currency differs, as in the JSON definition.
        field: &'static str,
        /// The currency of the code's other amounts.
        expected: Currency,
        /// The currency of this field.
        actual: Currency,
    },
    /// Usage counts with more redemptions by one customer than in total.
    #[error("usage has {per_customer} redemptions by the customer but only {total} in total")]
    PerCustomerExceedsTotal {
        /// Redemptions of the code by anyone.
        total: u64,
        /// Redemptions of the code by the customer.
        per_customer: u64,
    },
    /// Usage counts of a campaign's code with more uses through the code than the campaign has.
    #[error("usage has {per_code} redemptions of the code but only {total} in its campaign")]
    PerCodeExceedsTotal {
        /// Redemptions of the campaign's codes by anyone.
        total: u64,
        /// Redemptions through this code.
        per_code: u64,
    },
    /// A pattern for a campaign's codes with too few `#` (random characters).
    #[error("pattern {} has {random} random characters (#); at least {min} are needed", Quoted(.pattern))]
    PatternTooFewRandom {
        /// The pattern as given.
        pattern: String,
        /// Its `#`.
        random: usize,
        /// The fewest allowed.
        min: usize,
    },
    /// A pattern whose combinations are too few for the campaign's codes:
    /// guessing one would be too easy.
    #[error("pattern {} makes {combinations} codes; {needed} (1,000,000 for each of the campaign's {codes} codes) are needed", Quoted(.pattern))]
    PatternTooSmall {
        /// The pattern as given.
        pattern: String,
        /// How many codes it can make (saturating at `u64::MAX`).
        combinations: u64,
        /// The campaign's codes after the call.
        codes: u64,
        /// The fewest combinations allowed.
        needed: u64,
    },
    /// A character a pattern or a charset may not hold: codes are letters,
    /// digits, `-` and `_` (a charset also no `-`/`_` twice, and at least two characters).
    #[error("{field} {}: {reason}", Quoted(.text))]
    InvalidPattern {
        /// `pattern` or `charset`.
        field: &'static str,
        /// What was given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A campaign that would hold more codes than allowed.
    #[error("the campaign would have {codes} codes; it may have at most {max}")]
    CampaignFull {
        /// Its codes after the call.
        codes: u64,
        /// The most it may have.
        max: u64,
    },
    /// A code named twice in one import.
    #[error("{code} is named twice")]
    CodeImportedTwice {
        /// The code.
        code: String,
    },
    /// A campaign's `uses_per_code` of zero: each code is usable at least once.
    #[error("uses_per_code must be at least 1")]
    ZeroUsesPerCode,
    /// An amount of money written `-0`: amounts have no sign.
    #[error("amount {amount} has a sign; amounts are written without one")]
    SignedZero {
        /// The amount as given.
        amount: String,
    },
    /// A sku or a category that is not 1 to `max` visible ASCII characters.
    #[error("{field} must be 1 to {max} visible ASCII characters")]
    InvalidName {
        /// `sku` or `category`.
        field: &'static str,
        /// The most characters it may have.
        max: usize,
    },
    /// A line quantity outside `1..=max`.
    #[error("quantity must be a whole number from 1 to {max}, not {quantity}")]
    QuantityOutOfRange {
        /// The quantity as given.
        quantity: String,
        /// The largest quantity a line may have.
        max: u32,
    },
    /// A count of a definition (a buy or get quantity, `max_applications`, a
    /// tier's `from`) outside `1..=max`.
    #[error("{field} must be a whole number from 1 to {max}, not {count}")]
    CountOutOfRange {
        /// The field's name: `quantity`, `max_applications`, `from`.
        field: &'static str,
        /// The count as given.
        count: String,
        /// The largest it may be.
        max: u64,
    },
    /// A tiered discount with no tiers or more than [`Tier::MAX_TIERS`](crate::Tier::MAX_TIERS).
    #[error("tiers must have 1 to 10 entries, not {count}")]
    TierCount {
        /// How many were given.
        count: usize,
    },
    /// A tier whose `from` is not what the discount's `by` measures.
    #[error("a tier's from must be {}", if *by == "subtotal" { "an amount of money when by is \"subtotal\"" } else { "a count of units when by is \"quantity\"" })]
    TierFrom {
        /// The tier's position, from 0.
        index: usize,
        /// The discount's `by`: `subtotal` or `quantity`.
        by: &'static str,
    },
    /// A tier that does not start above the tier before it.
    #[error("a tier's from must be above the from of the tier before it; tiers are strictly increasing")]
    TiersNotIncreasing {
        /// The tier's position, from 0.
        index: usize,
    },
    /// A tier whose discount is not a percent or a fixed amount.
    #[error("a tier's discount is a percent or a fixed amount")]
    TierDiscount,
    /// More items than a list may hold: lines in a basket, categories on a line,
    /// customers in an audience, skus or categories a code applies to.
    #[error("{field} may have at most {max} entries, not {count}")]
    TooMany {
        /// The list, as in the JSON shape: `lines`, `categories`, `audience`, ...
        field: &'static str,
        /// How many were given.
        count: usize,
        /// The most it may have.
        max: usize,
    },
    /// A basket whose amounts are not all in one currency.
    #[error("is in {actual}, but the basket is in {expected}; a basket has one currency")]
    MixedCurrencies {
        /// The basket's currency (its first amount's).
        expected: Currency,
        /// This amount's currency.
        actual: Currency,
    },
    /// A basket that is not exactly one of the two forms: `{total}` or `{lines, shipping?}`.
    #[error("{message}")]
    BasketForm {
        /// What is wrong with it.
        message: &'static str,
    },
    /// `applies_to` with neither skus nor categories; omit it for a code that applies to everything.
    #[error("applies_to needs at least one sku or category; omit it for a code that applies to every line")]
    EmptyScope,
    /// A hold's time to live outside 1 s to 1 h.
    #[error("a hold lasts from {min} to {max} seconds, not {seconds}")]
    HoldTtlOutOfRange {
        /// The time to live asked for, in seconds.
        seconds: String,
        /// The shortest hold, in seconds.
        min: u64,
        /// The longest hold, in seconds.
        max: u64,
    },
    /// A release reason that is too long or has control characters.
    #[error("a release reason is at most {max} characters without control characters")]
    InvalidReason {
        /// The most characters a reason may have.
        max: usize,
    },
    /// A time computed from another (`now` plus a hold's time to live) that falls past the year 9999.
    #[error("{what} falls outside the years 0000 to 9999")]
    TimeOutOfRange {
        /// What was computed.
        what: &'static str,
    },
    /// An amount charged that no quote of the basket can ask: in another
    /// currency, or above the basket's total.
    #[error("the amount charged, {charged}, cannot pay for a basket of {total}")]
    ChargedMismatch {
        /// What the payment provider charged.
        charged: crate::Money,
        /// The basket's total.
        total: crate::Money,
    },
    /// A class in `combines_with` that is not one of `product`, `order` or `shipping`.
    #[error("{} is not a class of code: \"product\", \"order\" or \"shipping\"", Quoted(.input))]
    UnknownCodeClass {
        /// The text as given (at most its first 40 characters).
        input: String,
    },
    /// A stack of codes with no code in it.
    #[error("a basket's codes name at least one code")]
    EmptyStack,
    /// An automatic promotion's `priority` above the largest one.
    #[error("priority must be a whole number from 0 to {max}, not {priority}")]
    PriorityOutOfRange {
        /// The priority as given.
        priority: u64,
        /// The largest priority.
        max: u32,
    },
    /// A definition's `shards` outside 1 to its largest value.
    #[error("shards must be a whole number from 1 to {max}, not {shards}")]
    ShardsOutOfRange {
        /// The number of shards as given.
        shards: u64,
        /// The largest number of shards.
        max: u8,
    },
    /// A campaign (or a campaign's code) said to be automatic: an automatic
    /// promotion is one code that every buyer gets without typing it.
    #[error("a campaign cannot be automatic; make one code automatic instead")]
    AutomaticCampaign,
    /// The same code listed twice in one basket's stack of codes.
    #[error("{code} is listed twice; a basket takes each code once")]
    DuplicateCode {
        /// The code listed twice.
        code: String,
    },
    /// Text that is not JSON at all (a syntax error, or it ends too early).
    #[error("not JSON: {message}")]
    NotJson {
        /// The parser's message.
        message: String,
    },
    /// A value that breaks a rule, at a place in a document: `error` is the
    /// specific variant (a percent of 0 is [`InputError::PercentOutOfRange`]),
    /// `path` where it is (`discount.percent`, `lines[3].quantity`).
    #[error("{path}: {error}")]
    Field {
        /// Where in the document, as a dotted path.
        path: String,
        /// What is wrong there.
        error: Box<InputError>,
    },
    /// Text that does not parse: malformed JSON, a wrong type, a missing or unknown field.
    ///
    /// `path` names the field (`discount.percent`, `limits.total`); it is `.`
    /// when the problem is the document as a whole.
    #[error("{}", malformed_message(path, message))]
    Malformed {
        /// Where in the document, as a dotted path.
        path: String,
        /// What is wrong there.
        message: String,
    },
}

fn malformed_message(path: &str, message: &str) -> String {
    if path == "." || path.is_empty() {
        message.to_owned()
    } else {
        format!("{path}: {message}")
    }
}

impl InputError {
    /// Where in a document the error is (`lines[3].quantity`), when it is about one field.
    pub fn path(&self) -> Option<&str> {
        match self {
            InputError::Field { path, .. } | InputError::Malformed { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The specific error, without the place: the innermost of nested [`InputError::Field`]s.
    pub fn kind(&self) -> &InputError {
        match self {
            InputError::Field { error, .. } => error.kind(),
            other => other,
        }
    }

    /// What is wrong, without the place: [`Display`](std::fmt::Display) of [`kind`](InputError::kind),
    /// or a [`Malformed`](InputError::Malformed) error's message.
    pub fn message(&self) -> String {
        match self.kind() {
            InputError::Malformed { message, .. } => message.clone(),
            other => other.to_string(),
        }
    }

    /// This error at `path` inside a document: wraps it in [`InputError::Field`]
    /// (or prefixes the path it already has).
    pub fn at(self, path: &str) -> InputError {
        match self {
            InputError::Field { path: inner, error } => InputError::Field {
                path: join_path(path, &inner),
                error,
            },
            InputError::Malformed { path: inner, message } => InputError::Malformed {
                path: join_path(path, &inner),
                message,
            },
            other => InputError::Field {
                path: join_path(path, ""),
                error: Box::new(other),
            },
        }
    }
}

/// `outer` then `inner` as one dotted path; `.` and empty mean the root.
/// Text in quotes, escaped exactly as `{:?}` writes a `str` (`"a\"b"`), without linking
/// `str`'s `Debug` (and the panic paths its slicing brings): 2 KB of the browser module.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write as _;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                // `str`'s Debug leaves a single quote alone; `char::escape_debug` escapes it.
                '\'' => f.write_char(c)?,
                _ => write!(f, "{}", c.escape_debug())?,
            }
        }
        f.write_char('"')
    }
}

/// A character in single quotes, escaped exactly as `{:?}` writes a `char` (`'\''`), through
/// the same escaping as [`Quoted`].
pub(crate) struct QuotedChar(pub(crate) char);

impl std::fmt::Display for QuotedChar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            // `char`'s Debug leaves a double quote alone; `char::escape_debug` escapes it.
            '"' => f.write_str("'\"'"),
            c => write!(f, "'{}'", c.escape_debug()),
        }
    }
}

pub(crate) fn join_path(outer: &str, inner: &str) -> String {
    let outer = if outer == "." { "" } else { outer };
    let inner = if inner == "." { "" } else { inner };
    match (outer.is_empty(), inner.is_empty()) {
        (true, true) => ".".to_owned(),
        (true, false) => inner.to_owned(),
        (false, true) => outer.to_owned(),
        (false, false) if inner.starts_with('[') => format!("{outer}{inner}"),
        (false, false) => format!("{outer}.{inner}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Quoted, QuotedChar};

    /// Quotes, escapes, controls, combining and invisible marks, private use, emoji.
    const TRICKY: &[&str] = &[
        "",
        "EUR",
        "a\"b'c\\d",
        "\0\t\r\n\u{7f}\u{1b}",
        "\u{301}a\u{301}",
        "\u{200d}\u{feff}\u{ad}\u{2028}",
        "é ü 中文 🎉 \u{e000} \u{10ffff} \u{fffd}",
        "2026-12-01T00:00:00Z\u{0}",
    ];

    #[test]
    fn quoted_writes_what_debug_writes() {
        for text in TRICKY {
            assert_eq!(Quoted(text).to_string(), format!("{text:?}"));
            for c in text.chars().chain(['\'', '"', '\\']) {
                assert_eq!(QuotedChar(c).to_string(), format!("{c:?}"), "{}", u32::from(c));
            }
        }
    }

    // proptest is a native dev-dependency only (not for wasm32's browser tests).
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn quoted_writes_what_debug_writes_for_any_text(text: String, c: char) {
            proptest::prop_assert_eq!(Quoted(&text).to_string(), format!("{text:?}"));
            proptest::prop_assert_eq!(QuotedChar(c).to_string(), format!("{c:?}"));
        }
    }
}
