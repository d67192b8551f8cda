use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::error::InputError;
use super::iso4217::{CODES, COUNT, MINOR_UNITS, TABLE};

/// An ISO 4217 currency and the number of its minor units.
///
/// Every active currency that has minor units is known (EUR and USD have 2,
/// JPY has 0, KWD has 3, CLF has 4, ...). A `Currency` is obtained by parsing
/// its three-letter code; there is no way to make one that is not in the table,
/// so every `Currency` knows how many decimal places its amounts carry.
///
/// It serialises as its code, `"EUR"`.
///
/// # Example
///
/// ```
/// use promocodes::Currency;
///
/// let yen: Currency = "JPY".parse()?;
/// assert_eq!(yen.code(), "JPY");
/// assert_eq!(yen.minor_units(), 0);
/// assert_eq!(Currency::KWD.minor_units(), 3);
/// assert!("XYZ".parse::<Currency>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency {
    /// Index into the ISO 4217 table.
    index: u16,
}

impl Currency {
    /// The euro, with 2 minor units.
    pub const EUR: Currency = Currency::known("EUR");
    /// The US dollar, with 2 minor units.
    pub const USD: Currency = Currency::known("USD");
    /// The pound sterling, with 2 minor units.
    pub const GBP: Currency = Currency::known("GBP");
    /// The Swiss franc, with 2 minor units.
    pub const CHF: Currency = Currency::known("CHF");
    /// The Japanese yen, with no minor units.
    pub const JPY: Currency = Currency::known("JPY");
    /// The Kuwaiti dinar, with 3 minor units.
    pub const KWD: Currency = Currency::known("KWD");

    /// Looks up a code that is known to be in the table, at compile time.
    const fn known(code: &str) -> Currency {
        let wanted = code.as_bytes();
        let mut i = 0;
        while i < TABLE.len() {
            let have = TABLE[i].0.as_bytes();
            if have[0] == wanted[0] && have[1] == wanted[1] && have[2] == wanted[2] {
                return Currency { index: i as u16 };
            }
            i += 1;
        }
        panic!("currency code missing from the ISO 4217 table");
    }

    /// Parses an ISO 4217 code. Codes are upper case, exactly as ISO writes them.
    ///
    /// # Errors
    ///
    /// [`InputError::UnknownCurrency`] when the code is not an active ISO 4217
    /// currency with minor units.
    pub fn from_code(code: &str) -> Result<Currency, InputError> {
        // A binary search of the sorted table, on the three letters as one number (which sorts alike).
        if let [a, b, c] = *code.as_bytes() {
            let wanted = key(a, b, c);
            let (mut low, mut high) = (0, COUNT);
            while low < high {
                let middle = (low + high) / 2;
                let have = match CODES.as_bytes().get(3 * middle..3 * middle + 3) {
                    Some(&[a, b, c]) => key(a, b, c),
                    _ => break,
                };
                match have.cmp(&wanted) {
                    std::cmp::Ordering::Less => low = middle + 1,
                    std::cmp::Ordering::Greater => high = middle,
                    std::cmp::Ordering::Equal => return Ok(Currency { index: middle as u16 }),
                }
            }
        }
        Err(InputError::UnknownCurrency {
            code: code.chars().take(8).collect(),
        })
    }

    /// The three-letter code, `"EUR"`.
    pub fn code(self) -> &'static str {
        code_at(usize::from(self.index))
    }

    /// How many decimal places an amount in this currency has: 2 for EUR, 0 for JPY.
    pub fn minor_units(self) -> u32 {
        u32::from(MINOR_UNITS[usize::from(self.index)])
    }

    /// What a reader expects in place of a currency, for its "invalid type" message.
    pub(crate) const EXPECTING: &'static str = "an ISO 4217 currency code such as \"EUR\"";

    /// Every known currency, in code order.
    pub fn all() -> impl ExactSizeIterator<Item = Currency> {
        (0..COUNT).map(|index| Currency { index: index as u16 })
    }
}

/// Three bytes as one number, ordered as the bytes are.
fn key(a: u8, b: u8, c: u8) -> u32 {
    u32::from_be_bytes([0, a, b, c])
}

/// The code of the table's `index`th currency.
fn code_at(index: usize) -> &'static str {
    CODES.get(3 * index..3 * index + 3).unwrap_or_default()
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Currency {
    type Err = InputError;

    fn from_str(s: &str) -> Result<Currency, InputError> {
        Currency::from_code(s)
    }
}

impl Serialize for Currency {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}
