//! Reading the redemption answers back: a [`Released`] keeps the currency
//! its `usage.discounted` was written in, to write it so again.

use serde::{Deserialize, Deserializer};

use super::wire::{Discounted, UsageRepr};
use super::Refused;
use crate::redemption::Released;
use crate::rules::UsageCounts;
use crate::store::ReservationState;
use crate::values::{Currency, IdempotencyKey, Timestamp};

/// A usage read back, with the currency of its `discounted` when that was money.
struct UsageWritten(UsageCounts, Option<Currency>);

impl<'de> Deserialize<'de> for UsageWritten {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UsageWritten, D::Error> {
        let repr = UsageRepr::deserialize(deserializer)?;
        let currency = match &repr.discounted {
            Some(Discounted::Money(money)) => Some(money.currency()),
            _ => None,
        };
        Ok(UsageWritten(repr.finish().map_err(Refused::into_serde)?, currency))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReleasedRepr {
    key: IdempotencyKey,
    state: ReservationState,
    was: ReservationState,
    released_at: Timestamp,
    reason: Option<String>,
    usage: UsageWritten,
    replayed: bool,
}

/// A release read back keeps the currency its `usage.discounted` was written in, to write it so again.
impl<'de> Deserialize<'de> for Released {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Released, D::Error> {
        let repr: ReleasedRepr = Deserialize::deserialize(deserializer)?;
        Ok(Released {
            key: repr.key,
            state: repr.state,
            was: repr.was,
            released_at: repr.released_at,
            reason: repr.reason,
            usage: repr.usage.0,
            replayed: repr.replayed,
            currency: repr.usage.1,
        })
    }
}
