use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::de::{self, Deserializer, Visitor};
use serde::{Serialize, Serializer};

use crate::error::InputError;

/// An instant in time, exact to the nanosecond, written as RFC 3339 in UTC.
///
/// promocodes never reads a clock: every check is given its `now`, so the
/// same inputs always give the same answer, in a test, a browser or a Worker.
/// Parsing accepts any RFC 3339 offset and converts to UTC; writing always
/// uses `Z`: `2026-12-01T00:00:00Z`.
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
pub struct Timestamp(DateTime<Utc>);

impl Timestamp {
    /// The instant `millis` milliseconds after 1970-01-01T00:00:00Z (before it, when negative),
    /// as JavaScript's `Date.now()` gives it.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidTimestamp`] outside the years chrono can represent.
    pub fn from_unix_millis(millis: i64) -> Result<Timestamp, InputError> {
        DateTime::from_timestamp_millis(millis)
            .map(Timestamp)
            .ok_or_else(|| InputError::InvalidTimestamp {
                input: millis.to_string(),
            })
    }

    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub fn as_unix_millis(&self) -> i64 {
        self.0.timestamp_millis()
    }

    /// Parses RFC 3339 (`2026-12-01T00:00:00Z`, `2026-12-01T01:00:00+01:00`).
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidTimestamp`] for anything else.
    pub fn parse(text: &str) -> Result<Timestamp, InputError> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| Timestamp(t.with_timezone(&Utc)))
            .map_err(|_| InputError::InvalidTimestamp {
                input: text.chars().take(40).collect(),
            })
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.to_rfc3339_opts(SecondsFormat::AutoSi, true))
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

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        struct TimeVisitor;

        impl Visitor<'_> for TimeVisitor {
            type Value = Timestamp;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 time such as \"2026-12-01T00:00:00Z\"")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Timestamp, E> {
                Timestamp::parse(v).map_err(E::custom)
            }
        }

        deserializer.deserialize_str(TimeVisitor)
    }
}
