use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::error::InputError;

/// Seconds from 0000-01-01T00:00:00Z to 1970-01-01T00:00:00Z.
const MIN_SECONDS: i64 = -62_167_219_200;
/// Seconds from 1970-01-01T00:00:00Z to 10000-01-01T00:00:00Z (exclusive end).
const END_SECONDS: i64 = 253_402_300_800;

/// An instant in time, exact to the nanosecond, written as RFC 3339 in UTC.
///
/// promocodes never reads a clock: every check is given its `now`, so the
/// same inputs always give the same answer, in a test, a browser or a Worker.
/// Parsing accepts RFC 3339 with any offset and converts to UTC; writing
/// always uses `Z`, with 0, 3, 6 or 9 fractional digits as the instant needs:
/// `2026-12-01T00:00:00Z`, `2026-12-01T00:00:00.500Z`. Years 0000 to 9999.
///
/// # Example
///
/// ```
/// use promocodes::Timestamp;
///
/// let start: Timestamp = "2026-12-01T01:00:00+01:00".parse()?;
/// assert_eq!(start.to_string(), "2026-12-01T00:00:00Z");
/// assert_eq!(Timestamp::from_unix_millis(start.as_unix_millis())?, start);
/// assert!("2026-12-01".parse::<Timestamp>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z, in `MIN_SECONDS..END_SECONDS`.
    seconds: i64,
    /// Nanoseconds into that second, below 10^9.
    nanos: u32,
}

impl Timestamp {
    /// The earliest instant: 0000-01-01T00:00:00Z.
    pub const MIN: Timestamp = Timestamp {
        seconds: MIN_SECONDS,
        nanos: 0,
    };

    /// The instant `millis` milliseconds after 1970-01-01T00:00:00Z (before it, when negative),
    /// as JavaScript's `Date.now()` gives it.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidTimestamp`] outside the years 0000 to 9999.
    pub fn from_unix_millis(millis: i64) -> Result<Timestamp, InputError> {
        let seconds = millis.div_euclid(1000);
        let nanos = millis.rem_euclid(1000) as u32 * 1_000_000;
        if !(MIN_SECONDS..END_SECONDS).contains(&seconds) {
            return Err(InputError::InvalidTimestamp {
                input: millis.to_string(),
            });
        }
        Ok(Timestamp { seconds, nanos })
    }

    /// Milliseconds since 1970-01-01T00:00:00Z (sub-millisecond digits are dropped).
    pub fn as_unix_millis(&self) -> i64 {
        self.seconds * 1000 + i64::from(self.nanos / 1_000_000)
    }

    /// Nanoseconds since 1970-01-01T00:00:00Z (negative before it).
    pub fn as_unix_nanos(&self) -> i128 {
        i128::from(self.seconds) * 1_000_000_000 + i128::from(self.nanos)
    }

    /// The instant `nanos` nanoseconds after 1970-01-01T00:00:00Z.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidTimestamp`] outside the years 0000 to 9999.
    pub fn from_unix_nanos(nanos: i128) -> Result<Timestamp, InputError> {
        let out_of_range = || InputError::InvalidTimestamp {
            input: nanos.to_string(),
        };
        let seconds = i64::try_from(nanos.div_euclid(1_000_000_000)).map_err(|_| out_of_range())?;
        if !(MIN_SECONDS..END_SECONDS).contains(&seconds) {
            return Err(out_of_range());
        }
        Ok(Timestamp {
            seconds,
            nanos: nanos.rem_euclid(1_000_000_000) as u32,
        })
    }

    /// The instant as fixed-width text that sorts as the instant does, to the
    /// nanosecond, over the whole range (years 0000 to 9999): nanoseconds
    /// since 0000-01-01T00:00:00Z, 21 digits. Stores keep times in this form
    /// where they compare or order them as text (SQLite's integers would stop
    /// at 2262).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::Timestamp;
    ///
    /// assert_eq!(Timestamp::MIN.sortable(), "000000000000000000000");
    /// let a: Timestamp = "1969-12-31T23:59:59.999999999Z".parse()?;
    /// let b: Timestamp = "2026-12-01T00:00:00Z".parse()?;
    /// assert!(a.sortable() < b.sortable());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sortable(&self) -> String {
        // Counted from the earliest instant, so that every one is positive.
        format!("{:021}", self.as_unix_nanos() - Timestamp::MIN.as_unix_nanos())
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (rounded down).
    pub fn as_unix_seconds(&self) -> i64 {
        self.seconds
    }

    /// This instant plus `nanos` nanoseconds (minus, when negative), or `None`
    /// outside the years 0000 to 9999.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::Timestamp;
    ///
    /// let at: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    /// assert_eq!(at.checked_add_nanos(-1).unwrap().to_string(), "2026-12-02T09:59:59.999999999Z");
    /// assert_eq!(at.checked_add_seconds(900).unwrap().to_string(), "2026-12-02T10:15:00Z");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn checked_add_nanos(&self, nanos: i128) -> Option<Timestamp> {
        Timestamp::from_unix_nanos(self.as_unix_nanos().checked_add(nanos)?).ok()
    }

    /// This instant plus `seconds` (minus, when negative), or `None` outside the years 0000 to 9999.
    pub fn checked_add_seconds(&self, seconds: i64) -> Option<Timestamp> {
        self.checked_add_nanos(i128::from(seconds) * 1_000_000_000)
    }

    /// Parses RFC 3339: `2026-12-01T00:00:00Z`, `2026-12-01T01:00:00.25+01:00`.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidTimestamp`] for anything else, including leap
    /// seconds (`:60`) and dates that do not exist (`2026-02-30`).
    pub fn parse(text: &str) -> Result<Timestamp, InputError> {
        parse_rfc3339(text.as_bytes()).ok_or_else(|| InputError::InvalidTimestamp {
            input: text.chars().take(40).collect(),
        })
    }
}

impl Timestamp {
    /// What a reader expects in place of a time, for its "invalid type" message.
    pub(crate) const EXPECTING: &'static str = "an RFC 3339 time such as \"2026-12-01T00:00:00Z\"";
}

/// Reads `N` ASCII digits at `at` as a number.
fn digits(bytes: &[u8], at: usize, n: usize) -> Option<u32> {
    let field = bytes.get(at..at + n)?;
    field.iter().try_fold(0_u32, |acc, b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

fn parse_rfc3339(b: &[u8]) -> Option<Timestamp> {
    let separators = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(i, c)| b.get(i) != Some(&c)) || !matches!(b.get(10), Some(b'T' | b't')) {
        return None;
    }
    let (year, month, day) = (digits(b, 0, 4)?, digits(b, 5, 2)?, digits(b, 8, 2)?);
    let (hour, minute, second) = (digits(b, 11, 2)?, digits(b, 14, 2)?, digits(b, 17, 2)?);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut at = 19;
    let mut nanos = 0_u32;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let count = at - start;
        if count == 0 || count > 9 {
            return None;
        }
        nanos = digits(b, start, count)? * 10_u32.pow((9 - count) as u32);
    }
    let offset = match b.get(at..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] if rest.len() == 5 && rest[2] == b':' => {
            let (h, m) = (digits(rest, 0, 2)?, digits(rest, 3, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = i64::from(h * 60 + m);
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    let days = days_from_civil(i64::from(year), month, day);
    let seconds = days * 86_400 + i64::from(hour * 3600 + minute * 60 + second) - offset * 60;
    (MIN_SECONDS..END_SECONDS)
        .contains(&seconds)
        .then_some(Timestamp { seconds, nanos })
}

fn is_leap(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = civil_from_days(self.seconds.div_euclid(86_400));
        let of_day = self.seconds.rem_euclid(86_400);
        let (hour, minute, second) = (of_day / 3600, of_day / 60 % 60, of_day % 60);
        write!(f, "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}")?;
        let nanos = self.nanos;
        if nanos == 0 {
            // Whole seconds carry no fraction.
        } else if nanos.is_multiple_of(1_000_000) {
            write!(f, ".{:03}", nanos / 1_000_000)?;
        } else if nanos.is_multiple_of(1_000) {
            write!(f, ".{:06}", nanos / 1_000)?;
        } else {
            write!(f, ".{nanos:09}")?;
        }
        f.write_str("Z")
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({self})")
    }
}

impl FromStr for Timestamp {
    type Err = InputError;

    fn from_str(s: &str) -> Result<Timestamp, InputError> {
        Timestamp::parse(s)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sortable_text_sorts_as_times_do_to_the_nanosecond() {
        let times = [
            "0000-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00Z",
            "2026-12-02T10:00:00Z",
            "2026-12-02T10:00:00.000000001Z",
            "2262-04-11T23:47:16.854775808Z",
            "9999-12-31T23:59:59.999999999Z",
        ];
        let keys: Vec<String> = times
            .iter()
            .map(|t| t.parse::<Timestamp>().unwrap().sortable())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
        assert!(keys.iter().all(|k| k.len() == 21), "{keys:?}");
        // The text stores hold today: nanoseconds since 0000-01-01.
        let unix_epoch: Timestamp = "1970-01-01T00:00:00Z".parse().unwrap();
        assert_eq!(unix_epoch.sortable(), "062167219200000000000");
    }

    #[test]
    fn known_instants() {
        let cases = [
            ("1970-01-01T00:00:00Z", 0),
            ("2026-12-01T00:00:00Z", 1_796_083_200_000),
            ("2024-02-29T12:30:15.250Z", 1_709_209_815_250),
            ("1969-12-31T23:59:59.999Z", -1),
            ("0000-01-01T00:00:00Z", MIN_SECONDS * 1000),
            ("9999-12-31T23:59:59.999Z", END_SECONDS * 1000 - 1),
        ];
        for (text, millis) in cases {
            let t = Timestamp::parse(text).unwrap();
            assert_eq!(t.as_unix_millis(), millis, "{text}");
            assert_eq!(t.to_string(), text);
            assert_eq!(Timestamp::from_unix_millis(millis).unwrap(), t);
        }
    }

    #[test]
    fn offsets_convert_to_utc_and_fractions_keep_their_digits() {
        assert_eq!(
            Timestamp::parse("2026-12-01T01:30:00+01:30").unwrap().to_string(),
            "2026-12-01T00:00:00Z"
        );
        assert_eq!(
            Timestamp::parse("2026-11-30T23:00:00-01:00").unwrap().to_string(),
            "2026-12-01T00:00:00Z"
        );
        assert_eq!(
            Timestamp::parse("2026-12-01t00:00:00.5z").unwrap().to_string(),
            "2026-12-01T00:00:00.500Z"
        );
        assert_eq!(
            Timestamp::parse("2026-12-01T00:00:00.000001Z").unwrap().to_string(),
            "2026-12-01T00:00:00.000001Z"
        );
        assert_eq!(
            Timestamp::parse("2026-12-01T00:00:00.123456789Z").unwrap().to_string(),
            "2026-12-01T00:00:00.123456789Z"
        );
    }

    #[test]
    fn refuses_what_is_not_rfc3339() {
        for bad in [
            "",
            "2026-12-01",
            "2026-12-01T00:00:00",
            "2026-12-01 00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T00:60:00Z",
            "2026-12-01T00:00:60Z",
            "2026-12-01T00:00:00.Z",
            "2026-12-01T00:00:00.1234567890Z",
            "2026-12-01T00:00:00+0100",
            "2026-12-01T00:00:00+24:00",
            "+2026-12-01T00:00:00Z",
            "２０２６-12-01T00:00:00Z",
            "2026-12-01T00:00:00ZZ",
            "0000-01-01T00:00:00+00:01",
        ] {
            assert!(Timestamp::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Timestamp::from_unix_millis(END_SECONDS * 1000).is_err());
        assert!(Timestamp::from_unix_millis(i64::MIN).is_err());
    }

    #[test]
    fn ordering_follows_time() {
        let a = Timestamp::parse("2026-12-01T00:00:00.999Z").unwrap();
        let b = Timestamp::parse("2026-12-01T00:00:01Z").unwrap();
        let c = Timestamp::parse("1969-12-31T23:59:59.5Z").unwrap();
        assert!(c < a && a < b);
    }
}
