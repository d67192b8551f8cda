//! What a redemption answers: a receipt, a hold, a release.

use serde::{Deserialize, Serialize};

use crate::rules::{Quote, UsageCounts};
use crate::store::{Reservation, ReservationState};
use crate::values::{IdempotencyKey, Timestamp};

/// What a capture answers: the quote charged, the counts after it, and
/// whether this answer replays an earlier one.
///
/// `state` is `captured`, or `released` when a capture is retried under the
/// key of a redemption that was given back since (then `released_at` and
/// `reason` say when and why; nothing was spent again).
///
/// Serialised as `{"key": "evt_1", "state": "captured", "quote": <Quote>,
/// "usage": {"total": 1, "per_customer": 1}, "replayed": false}` (`key` only
/// when there is one; `released_at`, `reason` only when released).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
/// Serialised as `{"key", "state": "held", "expires_at", "quote": <Quote>, "usage", "replayed"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
/// "released_at", "reason", "usage", "replayed"}` (`reason` is `null` when none was given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
}
