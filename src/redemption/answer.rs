//! What a redemption answers: a receipt, a hold, a release.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::rules::{Quote, UsageCounts};
use crate::store::{Reservation, ReservationState};
use crate::values::{Currency, IdempotencyKey, Timestamp};

/// What a capture answers: the quote charged, the counts after it, and
/// whether this answer replays an earlier one.
///
/// `state` is `captured`, or `released` when a capture is retried under the
/// key of a redemption that was given back since (then `released_at` and
/// `reason` say when and why; nothing was spent again).
///
/// Serialised as `{"key": "evt_1", "state": "captured", "quote": <Quote>,
/// "usage": {"total": 1, "per_customer": 1, "discounted": <Money>},
/// "replayed": false}` (`key` only when there is one; `released_at`,
/// `reason` only when released). `usage.discounted` is money in the quote's
/// currency ([`UsageCounts::in_currency`]); it reads back from that or from
/// a decimal string.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    /// The key it was captured under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<IdempotencyKey>,
    /// `captured`, or `released` since.
    pub state: ReservationState,
    /// What was charged.
    pub quote: Quote,
    /// The counts right after the redemption (or its release).
    pub usage: UsageCounts,
    /// True when a known idempotency key answered: nothing was written.
    pub replayed: bool,
    /// When it was given back, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released_at: Option<Timestamp>,
    /// Why it was given back, if a reason was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl From<Reservation> for Receipt {
    fn from(r: Reservation) -> Receipt {
        Receipt {
            key: r.key,
            state: r.state,
            quote: r.quote,
            usage: r.usage,
            replayed: r.replayed,
            released_at: r.released_at,
            reason: r.reason,
        }
    }
}

/// What a hold answers: a use reserved for this buyer until `expires_at`.
///
/// `state` is `held` for a new hold; a replay answers with the reservation as
/// it now stands (`held`, `expired`, `captured` or `released`).
///
/// Serialised as `{"key", "state": "held", "expires_at", "quote": <Quote>, "usage", "replayed"}`,
/// `usage.discounted` as money in the quote's currency (as a [`Receipt`]'s).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hold {
    /// The hold's idempotency key: capture or release it under this key.
    pub key: IdempotencyKey,
    /// Where it is now.
    pub state: ReservationState,
    /// When it stops counting unless captured. A hold retried under the key
    /// of a use captured without a hold replays that capture, and this is
    /// when it was captured.
    pub expires_at: Timestamp,
    /// The price held for the buyer.
    pub quote: Quote,
    /// The counts right after the hold (or its last change).
    pub usage: UsageCounts,
    /// True when a known idempotency key answered: nothing was written.
    pub replayed: bool,
}

/// What a release answers: the use given back.
///
/// Serialised as `{"key", "state": "released", "was": "held" | "captured",
/// "released_at", "reason", "usage", "replayed"}` (`reason` is `null` when none was given;
/// `usage.discounted` is money in the released use's currency, as a [`Receipt`]'s; a
/// `Released` read back from JSON writes it as it was read: money when it was money, else a
/// decimal string).
#[derive(Debug, Clone)]
pub struct Released {
    /// The key that was released.
    pub key: IdempotencyKey,
    /// `released`.
    pub state: ReservationState,
    /// What it was: `held` (a checkout abandoned) or `captured` (an order cancelled or refunded).
    pub was: ReservationState,
    /// When it was released.
    pub released_at: Timestamp,
    /// Why, if a reason was given.
    pub reason: Option<String>,
    /// The counts right after the release.
    pub usage: UsageCounts,
    /// True when it had been released before: nothing changed.
    pub replayed: bool,
    /// The currency of the released use's quote, which `usage.discounted` is written in.
    pub(crate) currency: Option<Currency>,
}

impl Serialize for Receipt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Receipt", 7)?;
        if let Some(key) = &self.key {
            s.serialize_field("key", key)?;
        }
        s.serialize_field("state", &self.state)?;
        s.serialize_field("quote", &self.quote)?;
        s.serialize_field("usage", &self.usage.in_currency(self.quote.total().currency()))?;
        s.serialize_field("replayed", &self.replayed)?;
        if let Some(at) = &self.released_at {
            s.serialize_field("released_at", at)?;
        }
        if let Some(reason) = &self.reason {
            s.serialize_field("reason", reason)?;
        }
        s.end()
    }
}

impl Serialize for Hold {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Hold", 6)?;
        s.serialize_field("key", &self.key)?;
        s.serialize_field("state", &self.state)?;
        s.serialize_field("expires_at", &self.expires_at)?;
        s.serialize_field("quote", &self.quote)?;
        s.serialize_field("usage", &self.usage.in_currency(self.quote.total().currency()))?;
        s.serialize_field("replayed", &self.replayed)?;
        s.end()
    }
}

/// Equal when every field a caller sees is (the currency `usage` is written in is not one).
impl PartialEq for Released {
    fn eq(&self, other: &Released) -> bool {
        (
            &self.key,
            self.state,
            self.was,
            self.released_at,
            &self.reason,
            self.usage,
            self.replayed,
        ) == (
            &other.key,
            other.state,
            other.was,
            other.released_at,
            &other.reason,
            other.usage,
            other.replayed,
        )
    }
}

impl Eq for Released {}

impl Serialize for Released {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Released", 7)?;
        s.serialize_field("key", &self.key)?;
        s.serialize_field("state", &self.state)?;
        s.serialize_field("was", &self.was)?;
        s.serialize_field("released_at", &self.released_at)?;
        s.serialize_field("reason", &self.reason)?;
        match self.currency {
            Some(currency) => s.serialize_field("usage", &self.usage.in_currency(currency))?,
            None => s.serialize_field("usage", &self.usage)?,
        }
        s.serialize_field("replayed", &self.replayed)?;
        s.end()
    }
}
