use std::cmp::Ordering;
use std::fmt;

use rust_decimal::{Decimal, RoundingStrategy};

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::currency::Currency;
use super::error::InputError;

/// How promocodes rounds a computed amount to its currency's minor unit:
/// half away from zero, so EUR 0.125 becomes EUR 0.13 and JPY 2.5 becomes JPY 3.
pub const ROUNDING: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// The longest decimal text promocodes reads, in characters.
const MAX_DECIMAL_TEXT: usize = 40;

/// A non-negative amount of money in one currency, exact to the currency's minor unit.
///
/// The amount is a [`Decimal`], never a float, and always carries exactly as
/// many decimal places as its currency: EUR 8 is held and written as `8.00`,
/// JPY 150 as `150`, KWD 1.235 as `1.235`. An amount with more places than its
/// currency has is refused rather than rounded, so no input loses a cent
/// silently; amounts that promocodes computes (a percent of a total) are
/// rounded with [`ROUNDING`].
///
/// It serialises as `{"amount": "80.00", "currency": "EUR"}`: the amount is a
/// string, so no JSON reader on the way turns it into a float.
///
/// # Example
///
/// ```
/// use promocodes::{Currency, Money};
///
/// let total = Money::parse("80", Currency::EUR)?;
/// assert_eq!(total.to_string(), "EUR 80.00");
/// assert_eq!(
///     serde_json::to_string(&total)?,
///     r#"{"amount":"80.00","currency":"EUR"}"#,
/// );
///
/// // Bad input is an error, never a rounded guess.
/// assert!(Money::parse("8.001", Currency::EUR).is_err());
/// assert!(Money::parse("-1", Currency::EUR).is_err());
/// assert!(Money::parse("1.5", Currency::JPY).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    amount: Decimal,
    currency: Currency,
}

impl Money {
    /// The largest amount promocodes accepts: 10<sup>15</sup> in major units.
    /// Anything above it is bad input, not a basket.
    pub const MAX_AMOUNT: Decimal = Decimal::from_parts(0xA4C6_8000, 0x0003_8D7E, 0, false, 0);

    /// Makes an amount of money.
    ///
    /// # Errors
    ///
    /// [`InputError::NegativeAmount`] below zero,
    /// [`InputError::TooManyDecimalPlaces`] when `amount` has more decimal
    /// places than `currency` (`8.001` EUR), and [`InputError::AmountTooLarge`]
    /// above [`Money::MAX_AMOUNT`].
    pub fn new(amount: Decimal, currency: Currency) -> Result<Money, InputError> {
        if amount.is_sign_negative() && !amount.is_zero() {
            return Err(InputError::NegativeAmount {
                amount: decimal_text(amount),
            });
        }
        let max = currency.minor_units();
        if amount.scale() > max {
            return Err(InputError::TooManyDecimalPlaces {
                amount: decimal_text(amount),
                currency,
                places: amount.scale(),
                max,
            });
        }
        // At most `max` places, so in minor units exactly (a 96-bit mantissa times at most 10^4).
        let minor = amount.mantissa().unsigned_abs() * 10_u128.pow(max - amount.scale());
        if minor > Money::max_minor(currency).unsigned_abs() {
            return Err(InputError::AmountTooLarge {
                amount: decimal_text(amount),
                max: decimal_text(Money::MAX_AMOUNT),
            });
        }
        Ok(Money::of_minor(minor as i128, currency))
    }

    /// Parses a plain decimal amount such as `"80"` or `"12.50"` in `currency`.
    ///
    /// Only digits with an optional `.` and more digits are read: no sign, no
    /// exponent, no spaces, no thousands separators.
    ///
    /// # Errors
    ///
    /// [`InputError::NotADecimal`] for anything else, [`InputError::NegativeAmount`]
    /// for `"-1"`, and the errors of [`Money::new`].
    pub fn parse(amount: &str, currency: Currency) -> Result<Money, InputError> {
        Money::new(parse_decimal("amount", amount)?, currency)
    }

    /// Zero in `currency`.
    pub fn zero(currency: Currency) -> Money {
        Money::of_minor(0, currency)
    }

    /// `minor` minor units of `currency`, known to be from 0 to [`Money::MAX_AMOUNT`]:
    /// the amount with exactly the currency's places.
    ///
    /// Every amount is held this way, so sums, differences and products are
    /// computed on the minor units, exactly, with integers (the same values
    /// the `Decimal` operations give, with less code in the browser module).
    fn of_minor(minor: i128, currency: Currency) -> Money {
        let bits = minor as u128;
        let amount = Decimal::from_parts(
            bits as u32,
            (bits >> 32) as u32,
            (bits >> 64) as u32,
            false,
            currency.minor_units(),
        );
        Money { amount, currency }
    }

    /// [`Money::MAX_AMOUNT`] in minor units of `currency`.
    fn max_minor(currency: Currency) -> i128 {
        // At most 10^19: a u64.
        i128::from(10_u64.pow(15 + currency.minor_units()))
    }

    /// The amount, with exactly as many decimal places as the currency has.
    pub fn amount(&self) -> Decimal {
        self.amount
    }

    /// The currency.
    pub fn currency(&self) -> Currency {
        self.currency
    }

    /// Whether the amount is zero.
    pub fn is_zero(&self) -> bool {
        self.amount.is_zero()
    }

    /// The amount as text with exactly the currency's decimal places, `"8.00"`.
    pub fn amount_text(&self) -> String {
        let mut text = String::with_capacity(24);
        self.write_amount(&mut text);
        text
    }

    /// Appends the amount's text to `out`, as `Decimal`'s `Display` writes it,
    /// digit by digit rather than through the formatting machinery.
    pub(crate) fn write_amount(&self, out: &mut String) {
        let places = self.currency.minor_units() as usize;
        // At most 10^19 minor units (20 digits), a point and a leading 0, written from the end.
        let mut text = [b'0'; 24];
        let mut at = text.len();
        let mut rest = u64::try_from(self.minor()).unwrap_or_default();
        let mut written = 0;
        while rest > 0 || written <= places {
            if written == places && places > 0 {
                at -= 1;
                text[at] = b'.';
            }
            at -= 1;
            text[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            written += 1;
        }
        out.push_str(std::str::from_utf8(&text[at..]).unwrap_or_default());
    }

    /// `percent` percent of this amount, rounded to the minor unit with [`ROUNDING`].
    ///
    /// Returns `None` only if the product does not fit a [`Decimal`], which no
    /// amount up to [`Money::MAX_AMOUNT`] and percent up to 100 reaches.
    pub fn checked_percent(&self, percent: Decimal) -> Option<Money> {
        let raw = self.amount.checked_mul(percent)?.checked_div(Decimal::ONE_HUNDRED)?;
        let mut rounded = raw.round_dp_with_strategy(self.currency.minor_units(), ROUNDING);
        rounded.rescale(self.currency.minor_units());
        Some(Money {
            amount: rounded,
            currency: self.currency,
        })
    }

    /// A discount's `percent` percent of this amount (above 0, at most 100, at
    /// most [`Discount::MAX_PERCENT_PLACES`](crate::Discount::MAX_PERCENT_PLACES)
    /// places, as a [`Discount`](crate::Discount) holds it): what
    /// [`checked_percent`](Money::checked_percent) gives, computed exactly on
    /// the minor units and rounded half away from zero.
    pub(crate) fn percent_of(&self, percent: Decimal) -> Money {
        // At most 10^19 minor units times a mantissa of at most 10^6: no overflow.
        let numerator = self.minor() * percent.mantissa();
        let denominator = 100 * 10_i128.pow(percent.scale());
        // 64-bit division when it fits (128-bit division is slow in wasm).
        let (quotient, remainder) = match (u64::try_from(numerator), u64::try_from(denominator)) {
            (Ok(n), Ok(d)) => (i128::from(n / d), i128::from(n % d)),
            _ => (numerator / denominator, numerator % denominator),
        };
        let rounded = if 2 * remainder >= denominator {
            quotient + 1
        } else {
            quotient
        };
        Money::of_minor(rounded, self.currency)
    }

    /// This amount minus `other`, or `None` when the currencies differ or the
    /// result would be negative.
    pub fn checked_sub(&self, other: &Money) -> Option<Money> {
        if self.currency != other.currency || other.minor() > self.minor() {
            return None;
        }
        Some(Money::of_minor(self.minor() - other.minor(), self.currency))
    }

    /// This amount plus `other`, or `None` when the currencies differ or the
    /// sum is above [`Money::MAX_AMOUNT`].
    pub fn checked_add(&self, other: &Money) -> Option<Money> {
        if self.currency != other.currency {
            return None;
        }
        let sum = self.minor() + other.minor();
        (sum <= Money::max_minor(self.currency)).then(|| Money::of_minor(sum, self.currency))
    }

    /// The smaller of two amounts in one currency (`self` when they differ in currency).
    pub(crate) fn min_same(self, other: Money) -> Money {
        if self.currency == other.currency && other.minor() < self.minor() {
            other
        } else {
            self
        }
    }

    /// This amount times `quantity`, or `None` above [`Money::MAX_AMOUNT`].
    pub fn checked_mul(&self, quantity: u32) -> Option<Money> {
        let product = self.minor() * i128::from(quantity);
        (product <= Money::max_minor(self.currency)).then(|| Money::of_minor(product, self.currency))
    }

    /// The amount in minor units (cents for EUR): `EUR 8.00` is 800.
    pub fn minor(&self) -> i128 {
        // Always held with exactly the currency's places, so the mantissa is the minor-unit count.
        self.amount.mantissa()
    }

    /// `minor` minor units of `currency`; `None` below zero or above [`Money::MAX_AMOUNT`].
    pub fn from_minor(minor: i128, currency: Currency) -> Option<Money> {
        (0..=Money::max_minor(currency))
            .contains(&minor)
            .then(|| Money::of_minor(minor, currency))
    }

    /// Compares two amounts of one currency; `None` across currencies.
    pub fn partial_cmp_same(&self, other: &Money) -> Option<Ordering> {
        (self.currency == other.currency).then(|| self.minor().cmp(&other.minor()))
    }
}

/// Reads a plain decimal: ASCII digits, optionally a `.` and at least one more digit.
pub(crate) fn parse_decimal(field: &'static str, text: &str) -> Result<Decimal, InputError> {
    let not_a_decimal = || InputError::NotADecimal {
        field,
        input: text.chars().take(MAX_DECIMAL_TEXT).collect(),
    };
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        bytes => (false, bytes),
    };
    // Digits, then optionally one `.` and more digits (plain loops: this runs on every amount).
    let mut point = digits.len();
    let mut plain = text.len() <= MAX_DECIMAL_TEXT;
    let mut i = 0;
    while i < digits.len() {
        match digits[i] {
            b'.' if point == digits.len() => point = i,
            b'0'..=b'9' => {}
            _ => plain = false,
        }
        i += 1;
    }
    if !plain || point == 0 || point + 1 == digits.len() {
        return Err(not_a_decimal());
    }
    let (whole, fraction) = digits.split_at(point);
    let value = exact_decimal(whole, fraction.get(1..).unwrap_or_default()).ok_or_else(not_a_decimal)?;
    if negative {
        return Err(if value.is_zero() {
            InputError::SignedZero {
                amount: text.to_owned(),
            }
        } else {
            InputError::NegativeAmount {
                amount: text.to_owned(),
            }
        });
    }
    Ok(value)
}

/// The decimal `whole.fraction` (ASCII digits), as `Decimal::from_str_exact`
/// reads it: every digit kept, the fraction's length as the scale; `None`
/// when it does not fit a `Decimal` exactly (a mantissa of 2^96 or more, or
/// more than 28 places).
fn exact_decimal(whole: &[u8], fraction: &[u8]) -> Option<Decimal> {
    let scale = u32::try_from(fraction.len()).ok().filter(|&places| places <= 28)?;
    let mut mantissa = 0_u128;
    if whole.len() + fraction.len() <= 19 {
        // Fits a u64: 64-bit arithmetic (128-bit multiplication is a call in wasm).
        let mut small = 0_u64;
        for &digit in whole.iter().chain(fraction) {
            small = small * 10 + u64::from(digit - b'0');
        }
        mantissa = u128::from(small);
    } else {
        for &digit in whole.iter().chain(fraction) {
            // Below 2^96 before, so below 2^100 after: no overflow.
            mantissa = mantissa * 10 + u128::from(digit - b'0');
            if mantissa >> 96 != 0 {
                return None;
            }
        }
    }
    (mantissa >> 96 == 0).then(|| {
        Decimal::from_parts(
            mantissa as u32,
            (mantissa >> 32) as u32,
            (mantissa >> 64) as u32,
            false,
            scale,
        )
    })
}

impl fmt::Debug for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Money({} {})", self.currency, self.amount)
    }
}

/// `EUR 80.00`: the code, a space, and the amount with the currency's places.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.currency, decimal_text(self.amount))
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Money", 2)?;
        s.serialize_field("amount", &self.amount_text())?;
        s.serialize_field("currency", &self.currency)?;
        s.end()
    }
}

/// Splits `total` (at most the sum of `weights`) in proportion to `weights`:
/// each part rounded down, then one more unit to each of the largest
/// remainders, ties by position. The parts add up to `total` exactly and no
/// part exceeds its weight.
/// `decimal` as `Decimal`'s `Display` writes it (a `-` for a negative sign, then every place of
/// its scale: `"0.050"`), digit by digit: the browser module then links no `Display` of
/// `Decimal` (and the `concat` and `ArrayString` it brings).
pub(crate) fn decimal_text(decimal: Decimal) -> String {
    let places = decimal.scale() as usize;
    // At most 29 digits, a point, a leading 0 and a sign, written from the end.
    let mut text = [b'0'; 32];
    let mut at = text.len();
    let mut rest = decimal.mantissa().unsigned_abs();
    let mut written = 0;
    while rest > 0 || written <= places {
        if written == places && places > 0 {
            at -= 1;
            text[at] = b'.';
        }
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        written += 1;
    }
    if decimal.is_sign_negative() {
        at -= 1;
        text[at] = b'-';
    }
    std::str::from_utf8(&text[at..]).unwrap_or_default().to_owned()
}

pub(crate) fn largest_remainder(total: i128, weights: &[i128]) -> Vec<i128> {
    let sum: i128 = weights.iter().sum();
    if sum <= 0 || total <= 0 {
        return vec![0; weights.len()];
    }
    let total = total.min(sum);
    // Each part and its remainder from one division (a division of i128 is a call on wasm32).
    let mut parts = Vec::with_capacity(weights.len());
    let mut remainders = Vec::with_capacity(weights.len());
    for w in weights {
        let share = total * w;
        let part = share / sum;
        parts.push(part);
        remainders.push(share - part * sum);
    }
    let mut left = total - parts.iter().sum::<i128>();
    if left == 0 {
        return parts;
    }
    let mut order: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0).collect();
    // Largest remainder first, ties in line order: a stable insertion sort
    // (at most Basket::MAX_LINES lines; far less code than the library's sorts).
    for sorted in 1..order.len() {
        let mut at = sorted;
        while at > 0 && remainders[order[at - 1]] < remainders[order[at]] {
            order.swap(at - 1, at);
            at -= 1;
        }
    }
    for i in order {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    parts
}

/// The currency a definition's amounts agree on, checking each against the first.
pub(crate) fn agreed_currency(amounts: &[(&'static str, Option<&Money>)]) -> Result<Option<Currency>, InputError> {
    let mut agreed: Option<Currency> = None;
    for (field, amount) in amounts {
        let Some(amount) = amount else { continue };
        match agreed {
            None => agreed = Some(amount.currency()),
            Some(expected) if expected != amount.currency() => {
                return Err(InputError::CurrencyMismatch {
                    field,
                    expected,
                    actual: amount.currency(),
                })
            }
            Some(_) => {}
        }
    }
    Ok(agreed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_remainder_adds_up_and_breaks_ties_by_order() {
        // EUR 10.00 over 3.33, 3.33, 3.34: 3.33 + 3.33 + 3.34.
        assert_eq!(largest_remainder(1000, &[333, 333, 334]), vec![333, 333, 334]);
        // One cent over three equal lines goes to the first.
        assert_eq!(largest_remainder(1, &[100, 100, 100]), vec![1, 0, 0]);
        assert_eq!(largest_remainder(2, &[100, 100, 100]), vec![1, 1, 0]);
        // Ineligible lines (weight 0) get nothing.
        assert_eq!(largest_remainder(50, &[0, 100, 0, 100]), vec![0, 25, 0, 25]);
        assert_eq!(largest_remainder(0, &[1, 2]), vec![0, 0]);
        assert_eq!(largest_remainder(5, &[0, 0]), vec![0, 0]);
    }

    #[test]
    fn max_amount_is_ten_to_the_fifteenth() {
        assert_eq!(Money::MAX_AMOUNT, Decimal::from(1_000_000_000_000_000_i64));
    }

    #[test]
    fn amounts_are_written_with_the_currency_places() {
        let eur = Money::parse("8", Currency::EUR).unwrap();
        assert_eq!(eur.amount_text(), "8.00");
        let jpy = Money::parse("150", Currency::JPY).unwrap();
        assert_eq!(jpy.amount_text(), "150");
        let kwd = Money::parse("1.235", Currency::KWD).unwrap();
        assert_eq!(kwd.amount_text(), "1.235");
        let kwd = Money::parse("1.2", Currency::KWD).unwrap();
        assert_eq!(kwd.amount_text(), "1.200");
    }

    #[test]
    fn parse_refuses_what_is_not_a_plain_decimal() {
        for bad in [
            "", ".", "1.", ".5", "1e3", "+1", " 1", "1 ", "1,00", "0x10", "NaN", "1.2.3", "--1",
        ] {
            assert!(
                matches!(Money::parse(bad, Currency::EUR), Err(InputError::NotADecimal { .. })),
                "{bad:?} should not parse"
            );
        }
        assert!(matches!(
            Money::parse("-0.01", Currency::EUR),
            Err(InputError::NegativeAmount { .. })
        ));
        assert!(matches!(
            Money::parse("-0", Currency::EUR),
            Err(InputError::SignedZero { .. })
        ));
        assert!(matches!(
            Money::parse("-0.00", Currency::EUR),
            Err(InputError::SignedZero { .. })
        ));
        assert!(matches!(
            Money::parse("1000000000000000.01", Currency::EUR),
            Err(InputError::AmountTooLarge { .. })
        ));
        assert!(matches!(
            Money::parse(&"9".repeat(41), Currency::EUR),
            Err(InputError::NotADecimal { .. })
        ));
        assert!(matches!(
            Money::parse("99999999999999999999999999999999", Currency::EUR),
            Err(InputError::NotADecimal { .. })
        ));
    }

    /// Amounts of every size and every number of places, a few at random (a fixed seed).
    fn amounts() -> Vec<Money> {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let currencies = [Currency::JPY, Currency::EUR, Currency::KWD, "CLF".parse().unwrap()];
        let mut amounts = Vec::new();
        for currency in currencies {
            let max = Money::max_minor(currency);
            for minor in [0, 1, 5, 49, 50, 99, 100, 12_345, max / 3, max - 1, max] {
                amounts.push(Money::from_minor(minor, currency).unwrap());
            }
            for _ in 0..300 {
                let minor = (next() as i128 % max) >> (next() % 60);
                amounts.push(Money::from_minor(minor.abs(), currency).unwrap());
            }
        }
        amounts
    }

    /// The integer arithmetic gives what `Decimal`'s operations give (what it replaced).
    #[test]
    fn minor_unit_arithmetic_is_decimal_arithmetic() {
        let amounts = amounts();
        let exact = |d: Decimal, c: Currency| {
            let mut d = d;
            d.rescale(c.minor_units());
            (d <= Money::MAX_AMOUNT).then(|| d.to_string())
        };
        for pair in amounts.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let text = |m: Option<Money>| m.map(|m| m.amount_text());
            if a.currency() == b.currency() {
                assert_eq!(text(a.checked_add(&b)), exact(a.amount() + b.amount(), a.currency()));
                let difference = (a.amount() >= b.amount()).then(|| (a.amount() - b.amount()).to_string());
                assert_eq!(
                    text(a.checked_sub(&b)),
                    difference.map(|_| exact(a.amount() - b.amount(), a.currency()).unwrap())
                );
                assert_eq!(a.partial_cmp_same(&b), Some(a.amount().cmp(&b.amount())));
                assert_eq!(
                    a.min_same(b).amount_text(),
                    exact(a.amount().min(b.amount()), a.currency()).unwrap()
                );
            }
            for quantity in [0, 1, 3, 10_000, u32::MAX] {
                let product = a.amount() * Decimal::from(quantity);
                assert_eq!(text(a.checked_mul(quantity)), exact(product, a.currency()));
            }
        }
    }

    /// The decimals `parse_decimal` reads are the ones `Decimal::from_str_exact` reads (what it replaced).
    #[test]
    fn exact_decimal_is_from_str_exact() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut texts: Vec<String> = [
            "0",
            "00",
            "0.0",
            "80",
            "80.00",
            "0080.00",
            "1.005",
            "79228162514264337593543950335",
            "79228162514264337593543950336",
            "7922816251426433759354395033.5",
            "7922816251426433759354395033.6",
            "0.0000000000000000000000000001",
            "0.00000000000000000000000000001",
            "1.0000000000000000000000000000",
            "10000000000000000000000000000",
            "99999999999999999999999999999999",
            "000000000000000000000000000000001",
            "1.00000000000000000000000000000",
            "123456789012345678.9",
            "12345678901234567",
            "123456789012345678",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        for _ in 0..20_000 {
            let whole = 1 + next(30) as usize;
            let text: String = (0..whole).map(|_| char::from(b'0' + next(10) as u8)).collect();
            let text = match next(3) {
                0 => text,
                _ => {
                    let fraction: String = (0..1 + next(32)).map(|_| char::from(b'0' + next(10) as u8)).collect();
                    format!("{text}.{fraction}")
                }
            };
            if text.len() <= MAX_DECIMAL_TEXT {
                texts.push(text);
            }
        }
        for text in texts {
            let ours = parse_decimal("amount", &text).ok();
            let theirs = Decimal::from_str_exact(&text).ok();
            assert_eq!(
                ours.map(|d| (d.mantissa(), d.scale())),
                theirs.map(|d| (d.mantissa(), d.scale())),
                "{text}"
            );
        }
    }

    #[test]
    fn decimal_text_writes_what_display_writes() {
        let mut cases: Vec<Decimal> = [
            "0",
            "-0",
            "0.00",
            "-0.00",
            "5",
            "0.05",
            "-0.05",
            "12.50",
            "100",
            "0.0001",
            "79228162514264337593543950335",
            "-79228162514264337593543950335",
            "0.0000000000000000000000000001",
            "7.9228162514264337593543950335",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        let mut negative_zero = Decimal::new(0, 3);
        negative_zero.set_sign_negative(true);
        cases.push(negative_zero);
        for amount in amounts() {
            cases.push(amount.amount());
        }
        for d in cases {
            assert_eq!(decimal_text(d), d.to_string(), "{d:?}");
        }
    }

    // proptest is a native dev-dependency only (not for wasm32's browser tests).
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn decimal_text_writes_what_display_writes_for_any_decimal(lo: u32, mid: u32, hi: u32, negative: bool, scale in 0_u32..=28) {
            let d = Decimal::from_parts(lo, mid, hi, negative, scale);
            proptest::prop_assert_eq!(decimal_text(d), d.to_string());
        }
    }

    #[test]
    fn write_amount_writes_amount_text() {
        for amount in amounts() {
            let mut out = String::from("x");
            amount.write_amount(&mut out);
            // What `Decimal`'s own display writes, with the currency's places.
            assert_eq!(out, format!("x{}", amount.amount()));
        }
    }

    /// A discount's percent of any amount is what `checked_percent` gives.
    #[test]
    fn percent_of_is_checked_percent() {
        let percents: Vec<Decimal> = [
            "0.0001", "0.5", "1", "10", "12.5", "15", "33.3333", "49.9999", "50", "99.9999", "100",
        ]
        .iter()
        .map(|p| p.parse::<Decimal>().unwrap().normalize())
        .collect();
        for amount in amounts() {
            for percent in &percents {
                let expected = amount.checked_percent(*percent).unwrap();
                let got = amount.percent_of(*percent);
                assert_eq!(got.amount_text(), expected.amount_text(), "{percent}% of {amount}");
                assert_eq!(got, expected);
            }
        }
    }

    #[test]
    fn percent_rounds_half_away_from_zero() {
        let total = Money::parse("0.25", Currency::EUR).unwrap();
        let half = total.checked_percent(Decimal::from(50)).unwrap();
        assert_eq!(half.amount_text(), "0.13");
        let yen = Money::parse("5", Currency::JPY).unwrap();
        assert_eq!(yen.checked_percent(Decimal::from(50)).unwrap().amount_text(), "3");
    }
}
