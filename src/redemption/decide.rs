//! The one compare-and-set loop behind hold, capture and redeem: read the
//! counts, run every rule, write against exactly those counts, and on a
//! lost race decide again; a key the store already holds is settled here.

use super::error::{Misuse, RedemptionConflict, RedemptionError, RedemptionRejected};
use crate::rules::{Basket, PromoCode, PromoCodeRejected, Quote};
use crate::store::{Conversion, Redemption, RedemptionStore, Reservation, ReservationState, StoreError};
use crate::values::{CustomerId, IdempotencyKey, Timestamp};

/// What a pass of the loop is after.
#[derive(Clone, Copy)]
pub(super) enum Goal<'a> {
    Capture { pinned: Option<&'a Quote> },
    Hold { until: Timestamp },
}

/// A rule's refusal inside the loop, with the quotes a capture reports.
struct Refusal {
    rejected: PromoCodeRejected,
    stale: Option<Quote>,
    current: Option<Quote>,
}

/// Why the loop stopped without a reservation.
enum Failure {
    Rejected(Box<Refusal>),
    Conflict(RedemptionConflict),
    KeyReused(IdempotencyKey),
    Misuse(Misuse),
    Store(StoreError),
}

impl From<StoreError> for Failure {
    fn from(err: StoreError) -> Failure {
        Failure::Store(err)
    }
}

fn rejected(rejected: PromoCodeRejected, stale: Option<Quote>, current: Option<Quote>) -> Failure {
    Failure::Rejected(Box::new(Refusal {
        rejected,
        stale,
        current,
    }))
}

/// What to do with a reservation found under the key.
// Short-lived and returned at once: boxing the answer would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Settled {
    Done(Result<Reservation, Failure>),
    /// An expired hold of this customer and basket: capture afresh under its
    /// key, at the counts of the moment.
    Fresh {
        /// The hold's `expires_at`.
        expired_at: Timestamp,
    },
}

/// One redemption's request: who, what, when, under which key, after what.
pub(super) struct Attempt<'a, S: ?Sized> {
    pub(super) promo: &'a PromoCode,
    pub(super) store: &'a S,
    pub(super) customer: Option<&'a CustomerId>,
    pub(super) basket: &'a Basket,
    pub(super) now: Timestamp,
    pub(super) key: Option<&'a IdempotencyKey>,
    pub(super) goal: Goal<'a>,
}

impl<S: RedemptionStore + ?Sized> Attempt<'_, S> {
    /// Runs the loop for up to `attempts` passes: the reservation written or
    /// answered, or the one error a caller sees.
    pub(super) fn decide(&self, attempts: u32) -> Result<Reservation, RedemptionError> {
        self.run(attempts).map_err(|failure| self.error(failure))
    }

    /// The one mapping of the loop's failures to [`RedemptionError`]. A
    /// rejection carries the stale quote: the one a capture is pinned to,
    /// else the one the refusal names, else the basket priced without the
    /// rules (or without the code, when even pricing refuses).
    fn error(&self, failure: Failure) -> RedemptionError {
        match failure {
            Failure::Rejected(refusal) => {
                let Refusal {
                    rejected,
                    stale,
                    current,
                } = *refusal;
                let pinned = match self.goal {
                    Goal::Capture { pinned } => pinned,
                    Goal::Hold { .. } => None,
                };
                let quote = stale
                    .or_else(|| pinned.cloned())
                    .or_else(|| self.promo.price(self.basket, self.now).ok())
                    .unwrap_or_else(|| Quote::undiscounted(self.promo.code(), self.basket, self.now));
                RedemptionError::Rejected(Box::new(RedemptionRejected {
                    rejected,
                    quote,
                    current,
                }))
            }
            Failure::Conflict(conflict) => RedemptionError::Conflict(conflict),
            Failure::KeyReused(key) => RedemptionError::IdempotencyKeyReused { key },
            Failure::Misuse(misuse) => RedemptionError::Misuse(misuse),
            Failure::Store(store) => RedemptionError::Store(store),
        }
    }

    /// The compare-and-set loop: each pass re-reads the counts, re-runs every
    /// rule, then writes against exactly those counts. A key the store already
    /// holds is settled from the write's answer, or, when a rule refused, from
    /// a read of the key before the refusal is returned.
    fn run(&self, attempts: u32) -> Result<Reservation, Failure> {
        if attempts == 0 {
            return Err(Failure::Misuse(Misuse::ZeroAttempts));
        }
        let code = self.promo.code();
        // Set once the key is found to name an expired hold of this customer and basket.
        let mut after_expired_hold = None;
        for _ in 0..attempts {
            // A known key needs no read of its own here: the write answers with its record
            // (atomically), and a refusal looks the key up before it is returned.
            let usage = self.store.usage_for(code, self.customer, self.now)?;
            let quote = match self.promo.quote(self.customer, usage, self.basket, self.now) {
                Ok(quote) => quote,
                Err(refused) => return self.refuse(rejected(refused, None, None)),
            };
            if let Goal::Capture { pinned: Some(shown) } = self.goal {
                if !shown.charges_as(&quote) {
                    let refused = PromoCodeRejected::quote_changed(shown, &quote);
                    return self.refuse(rejected(refused, Some(shown.clone()), Some(quote)));
                }
            }
            let written = self.store.record(&Redemption {
                after_expired_hold,
                code,
                customer: self.customer,
                expected: usage,
                idempotency_key: self.key,
                quote: &quote,
                now: self.now,
                hold_until: match self.goal {
                    Goal::Hold { until } => Some(until),
                    Goal::Capture { .. } => None,
                },
            })?;
            match (written, self.key) {
                (Some(earlier), Some(key)) if earlier.replayed => match self.settle(key, earlier) {
                    Settled::Done(answer) => return answer,
                    Settled::Fresh { expired_at } => {
                        after_expired_hold = Some(expired_at);
                        continue;
                    }
                },
                (Some(reservation), _) => return Ok(reservation),
                (None, _) => continue,
            }
        }
        Err(Failure::Conflict(RedemptionConflict {
            code: code.clone(),
            attempts,
        }))
    }

    fn earlier(&self) -> Result<Option<(&IdempotencyKey, Reservation)>, StoreError> {
        match self.key {
            Some(key) => Ok(self.store.reservation(self.promo.code(), key)?.map(|r| (key, r))),
            None => Ok(None),
        }
    }

    /// A refusal, unless the key has a record by now: a duplicate delivery
    /// that lost the race to its twin gets the twin's answer, not a rejection.
    fn refuse(&self, failure: Failure) -> Result<Reservation, Failure> {
        if let Some((key, earlier)) = self.earlier()? {
            if let Settled::Done(answer) = self.settle(key, earlier) {
                return answer;
            }
        }
        Err(failure)
    }

    /// The answer for a key that already names a reservation. A key names one
    /// redemption forever: another customer, or another basket (but for the
    /// capture of an active hold), is a reused key.
    fn settle(&self, key: &IdempotencyKey, earlier: Reservation) -> Settled {
        let reused = || Settled::Done(Err(Failure::KeyReused(key.clone())));
        if earlier.customer.as_ref() != self.customer {
            return reused();
        }
        match (self.goal, earlier.state_at(self.now)) {
            (Goal::Hold { .. }, _)
            | (Goal::Capture { .. }, ReservationState::Captured | ReservationState::Released) => {
                if earlier.quote.is_for(self.basket) {
                    Settled::Done(Ok(earlier.replayed()))
                } else {
                    reused()
                }
            }
            (Goal::Capture { .. }, ReservationState::Expired) => self.after_expiry(key, &earlier),
            (Goal::Capture { pinned }, _) => self.convert(key, earlier, pinned),
        }
    }

    /// A capture under the key of an expired hold: afresh, if it is for the
    /// hold's basket (the customer is checked already), else a reused key.
    fn after_expiry(&self, key: &IdempotencyKey, expired: &Reservation) -> Settled {
        match expired.expires_at {
            Some(expired_at) if expired.quote.is_for(self.basket) => Settled::Fresh { expired_at },
            _ => Settled::Done(Err(Failure::KeyReused(key.clone()))),
        }
    }

    /// Captures an active hold: the same basket takes the hold's quote as it
    /// is; a changed basket runs every rule but the kill switch and the caps.
    fn convert(&self, key: &IdempotencyKey, held: Reservation, pinned: Option<&Quote>) -> Settled {
        let quote = if held.quote.is_for(self.basket) {
            held.quote.clone()
        } else {
            match self.promo.validate_held(self.customer, self.basket, self.now) {
                Ok(quote) => quote,
                // The stale quote is the one the buyer was shown, if the capture names it.
                Err(refused) => {
                    let stale = pinned.cloned().unwrap_or(held.quote);
                    return Settled::Done(Err(rejected(refused, Some(stale), None)));
                }
            }
        };
        if let Some(shown) = pinned {
            if !shown.charges_as(&quote) {
                return Settled::Done(Err(rejected(
                    PromoCodeRejected::quote_changed(shown, &quote),
                    Some(shown.clone()),
                    Some(quote),
                )));
            }
        }
        let converted = self.store.convert(&Conversion {
            code: self.promo.code(),
            key,
            quote: &quote,
            now: self.now,
        });
        match converted {
            Err(err) => Settled::Done(Err(Failure::Store(err))),
            // Converted now, or by a twin a moment ago: either way this key's capture.
            Ok(Some(captured)) if !captured.replayed => Settled::Done(Ok(captured)),
            Ok(Some(earlier)) => self.settle(key, earlier),
            // It expired between the read and the write: capture afresh, if for its basket.
            Ok(None) => self.after_expiry(key, &held),
        }
    }
}
