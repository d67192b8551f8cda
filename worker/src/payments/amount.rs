//! Stripe's amounts: [`major_amount`] turns a Stripe `amount` (an integer in
//! Stripe's minor unit) into the plain decimal `promocodes::Money::parse` reads.

use std::fmt;

use promocodes::{Currency, Decimal};

// Stripe's minor units, from https://docs.stripe.com/currencies (read for this
// module: "Specify amounts in API requests", "Zero-decimal currencies",
// "Three-decimal currencies", "Special cases"). The rules implemented:
//
// - "Currencies are two-decimal currencies unless otherwise specified": every
//   code not listed below has 2 Stripe decimal places, whatever ISO says.
// - Zero-decimal ("the charge and the amount are the same"): BIF CLP DJF GNF
//   JPY KMF KRW MGA PYG RWF VND VUV XAF XOF XPF. Stripe's list also names UGX,
//   but its own special case overrides that for `amount` (next rule).
// - ISK and UGX (special cases): each "transitioned to a zero-decimal
//   currency, but backward(s) compatibility requires you to represent it as a
//   two-decimal value, where the decimal amount is always 00. For example, to
//   charge 5 ISK [5 UGX], provide an amount value of 500." So 2 Stripe places;
//   ISO 4217 gives both 0 places, so an amount not divisible by 100 (a
//   fraction of a krona or shilling, which a charge made before the change
//   may still carry) is refused as not representable, never rounded.
// - HUF and TWD (special cases): "Stripe treats HUF [TWD] as a zero-decimal
//   currency for payouts, even though you can charge two-decimal amounts."
//   The rule is about payouts only; a charge's `amount` has 2 places, as ISO.
// - Three-decimal: BHD JOD KWD OMR TND, 3 places (as ISO). Stripe asks that
//   the last digit be 0 when creating payments; an amount read back is
//   converted as it is.
//
// Where Stripe has fewer places than ISO (MGA: Stripe 0, ISO 2; IQD and LYD if
// ever seen: Stripe 2, ISO 3) the conversion is exact and only pads zeros.

/// Currencies whose Stripe `amount` is in whole units (see the rules above).
const STRIPE_ZERO_DECIMAL: [&str; 15] = [
    "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "VND", "VUV", "XAF", "XOF", "XPF",
];

/// Currencies whose Stripe `amount` is in thousandths.
const STRIPE_THREE_DECIMAL: [&str; 5] = ["BHD", "JOD", "KWD", "OMR", "TND"];

/// How many decimal places a Stripe `amount` in `currency_code` carries
/// (any case): 0 for JPY, 3 for KWD, 2 for EUR and for ISK and UGX (Stripe's
/// backwards-compatible representation), 2 for every currency Stripe does
/// not list otherwise.
pub fn stripe_decimal_places(currency_code: &str) -> u32 {
    let listed = |list: &[&str]| list.iter().any(|code| code.eq_ignore_ascii_case(currency_code));
    if listed(&STRIPE_ZERO_DECIMAL) {
        0
    } else if listed(&STRIPE_THREE_DECIMAL) {
        3
    } else {
        2
    }
}

/// Why a Stripe amount cannot become a core amount.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AmountError {
    /// The currency is not three ASCII letters.
    BadCurrencyCode {
        /// The code as received (at most 8 characters of it).
        code: String,
    },
    /// Three letters, but not an ISO 4217 currency the core knows.
    UnknownCurrency {
        /// The code, upper case.
        code: String,
    },
    /// A negative amount; Stripe amounts never are.
    Negative {
        /// The amount, in Stripe's minor unit.
        minor: i64,
        /// The code, upper case.
        currency: String,
    },
    /// The amount has a fraction that the currency's ISO 4217 minor unit
    /// cannot carry (ISK 150 is 1.50 ISK in Stripe's terms; ISK has no minor
    /// unit in ISO). Refused rather than rounded.
    NotRepresentable {
        /// The amount, in Stripe's minor unit.
        minor: i64,
        /// The code, upper case.
        currency: String,
        /// Stripe's decimal places for the currency.
        stripe_places: u32,
        /// ISO 4217's decimal places for the currency.
        iso_places: u32,
    },
}

impl fmt::Display for AmountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AmountError::BadCurrencyCode { code } => write!(f, "\"{code}\" is not a three-letter currency code"),
            AmountError::UnknownCurrency { code } => {
                write!(f, "{code} is not an ISO 4217 currency with minor units that promocodes knows")
            }
            AmountError::Negative { minor, currency } => {
                write!(f, "the Stripe amount {minor} {currency} is negative; Stripe amounts never are")
            }
            AmountError::NotRepresentable {
                minor,
                currency,
                stripe_places,
                iso_places,
            } => write!(
                f,
                "the Stripe amount {minor} {currency} is {} {currency}, which has more decimal places than the {iso_places} \
                 that ISO 4217 allows for {currency}; it is refused, not rounded",
                Decimal::new(*minor, *stripe_places)
            ),
        }
    }
}

impl std::error::Error for AmountError {}

/// Converts a Stripe `amount` (an integer in Stripe's minor unit of
/// `currency_code`, which Stripe sends lower case: `"eur"`) into a plain
/// decimal with exactly the currency's ISO 4217 decimal places, the form
/// `promocodes::Money::parse` reads in that currency: EUR 7200 is `"72.00"`,
/// JPY 1500 is `"1500"`, KWD 1250 is `"1.250"`, ISK 50000 is `"500"`.
///
/// # Errors
///
/// [`AmountError::BadCurrencyCode`], [`AmountError::UnknownCurrency`],
/// [`AmountError::Negative`], and [`AmountError::NotRepresentable`] when the
/// amount has more precision than ISO allows (ISK 150): never rounded.
pub fn major_amount(minor: i64, currency_code: &str) -> Result<String, AmountError> {
    let code = upper_currency_code(currency_code)?;
    let currency = Currency::from_code(&code).map_err(|_| AmountError::UnknownCurrency { code: code.clone() })?;
    if minor < 0 {
        return Err(AmountError::Negative { minor, currency: code });
    }
    let stripe_places = stripe_decimal_places(&code);
    let iso_places = currency.minor_units();
    // Exact: Stripe's integer over 10^stripe_places, without trailing zeros.
    let mut amount = Decimal::new(minor, stripe_places).normalize();
    if amount.scale() > iso_places {
        return Err(AmountError::NotRepresentable {
            minor,
            currency: code,
            stripe_places,
            iso_places,
        });
    }
    amount.rescale(iso_places); // only adds zeros
    Ok(amount.to_string())
}

/// Three ASCII letters, upper-cased.
fn upper_currency_code(code: &str) -> Result<String, AmountError> {
    if code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()) {
        Ok(code.to_ascii_uppercase())
    } else {
        Err(AmountError::BadCurrencyCode {
            code: code.chars().take(8).collect(),
        })
    }
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use promocodes::Money;

    fn major(minor: i64, currency: &str) -> String {
        major_amount(minor, currency).unwrap_or_else(|err| panic!("{minor} {currency}: {err}"))
    }

    #[test]
    fn two_decimal_currencies() {
        assert_eq!(major(7200, "eur"), "72.00");
        assert_eq!(major(5, "eur"), "0.05");
        assert_eq!(major(0, "usd"), "0.00");
        assert_eq!(major(123_456_789, "EUR"), "1234567.89");
    }

    #[test]
    fn zero_decimal_currencies() {
        assert_eq!(major(1500, "jpy"), "1500");
        assert_eq!(major(500, "krw"), "500");
        for code in STRIPE_ZERO_DECIMAL {
            let expected = if code == "MGA" { "500.00" } else { "500" };
            assert_eq!(major(500, &code.to_lowercase()), expected, "{code}");
        }
    }

    #[test]
    fn madagascar_ariary_is_whole_in_stripe_and_two_decimal_in_iso() {
        assert_eq!(stripe_decimal_places("mga"), 0);
        assert_eq!(Currency::from_code("MGA").unwrap().minor_units(), 2);
        assert_eq!(major(1250, "mga"), "1250.00");
    }

    #[test]
    fn three_decimal_currencies() {
        assert_eq!(major(1250, "kwd"), "1.250");
        assert_eq!(major(5124, "kwd"), "5.124");
        for code in STRIPE_THREE_DECIMAL {
            assert_eq!(major(1250, &code.to_lowercase()), "1.250", "{code}");
        }
    }

    #[test]
    fn isk_and_ugx_are_two_decimal_in_stripe_and_whole_in_iso() {
        assert_eq!(major(50_000, "isk"), "500");
        assert_eq!(major(500, "ugx"), "5");
        assert_eq!(major(0, "ugx"), "0");
        for (minor, code) in [(150, "isk"), (550, "ugx"), (1, "isk")] {
            let err = major_amount(minor, code).unwrap_err();
            assert_eq!(
                err,
                AmountError::NotRepresentable {
                    minor,
                    currency: code.to_uppercase(),
                    stripe_places: 2,
                    iso_places: 0
                }
            );
        }
        assert_eq!(
            major_amount(150, "isk").unwrap_err().to_string(),
            "the Stripe amount 150 ISK is 1.50 ISK, which has more decimal places than the 0 that ISO 4217 allows \
             for ISK; it is refused, not rounded"
        );
    }

    #[test]
    fn huf_and_twd_charges_are_two_decimal() {
        // Stripe's zero-decimal treatment of HUF and TWD is for payouts only.
        assert_eq!(major(1045, "huf"), "10.45");
        assert_eq!(major(80_045, "twd"), "800.45");
    }

    #[test]
    fn a_currency_stripe_does_not_list_is_two_decimal_even_when_iso_has_three() {
        assert_eq!(major(1234, "iqd"), "12.340");
        assert_eq!(major(1234, "clf"), "12.3400");
    }

    #[test]
    fn bad_codes_and_negative_amounts_are_refused() {
        assert_eq!(
            major_amount(100, "xyz"),
            Err(AmountError::UnknownCurrency { code: "XYZ".to_owned() })
        );
        for code in ["eu", "euro", "e1r", "", "€ur"] {
            assert!(
                matches!(major_amount(100, code), Err(AmountError::BadCurrencyCode { .. })),
                "{code}"
            );
        }
        assert_eq!(
            major_amount(-1, "eur"),
            Err(AmountError::Negative {
                minor: -1,
                currency: "EUR".to_owned()
            })
        );
        assert!(major_amount(i64::MIN, "isk").is_err());
    }

    #[test]
    fn every_known_currency_converts_to_what_money_parse_reads_exactly() {
        for currency in Currency::all() {
            let minor = 123_400;
            let text = major(minor, currency.code());
            let money = Money::parse(&text, currency).unwrap_or_else(|err| panic!("{currency} {text}: {err}"));
            assert_eq!(
                money.amount_text(),
                text,
                "{currency}: written with exactly the ISO places"
            );
            // Back to Stripe's unit: the same integer.
            let scale = Decimal::from(10i64.pow(stripe_decimal_places(currency.code())));
            assert_eq!(money.amount() * scale, Decimal::from(minor), "{currency}");
        }
    }

    #[test]
    fn the_largest_amount_converts_without_overflow() {
        assert_eq!(major(i64::MAX, "mga"), format!("{}.00", i64::MAX));
        assert_eq!(major(i64::MAX, "eur"), "92233720368547758.07");
    }

    // -- Events -----------------------------------------------------------------
}
