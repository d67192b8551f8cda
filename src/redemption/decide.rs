//! The one compare-and-set loop behind hold, capture and redeem, in their
//! blocking and their async forms: read the counts, run every rule, write
//! against exactly those counts, and on a lost race decide again; a key the
//! store already holds is settled here.
//!
//! The loop is a state machine that does no I/O. A [`Decision`] says what it
//! needs from the store next ([`Step`]) and is resumed with the store's
//! answer ([`Answer`]). Every rule, every retry and every settlement of a
//! known key lives in it, once; the two drivers, [`drive`] (a
//! [`RedemptionStore`]) and [`drive_async`] (an [`AsyncRedemptionStore`]),
//! only carry steps to the store and answers back.
//!
//! Each pass may start from the store's hint
//! ([`RedemptionStore::usage_hint`]): counts it believes current without
//! asking its storage, such as what its last write found (a store that
//! compares under a lock sees the counts a stale write lost to, and the
//! next pass can write on them). Only for a write: the write compares them
//! as it compares a read, and a stale write or a refusal on hinted counts
//! is decided again on a read, in the same pass; counts a write of the
//! decision has found stale are never tried again as a hint. An attempt is
//! used up by a stale write on a read, as without a hint. So a hint saves a
//! round trip when it is right, costs one when it is wrong, and never
//! changes an answer.

use std::mem;

use rust_decimal::Decimal;

use super::error::{Misuse, RedemptionConflict, RedemptionError, RedemptionRejected};
use crate::rules::{Basket, PromoCode, PromoCodeRejected, Quote, UsageCounts};
use crate::store::{
    AsyncRedemptionStore, Conversion, Redemption, RedemptionStore, Reservation, ReservationState, StoreError,
};
use crate::values::{Code, CustomerId, IdempotencyKey, Timestamp};

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

fn rejected(rejected: PromoCodeRejected, stale: Option<Quote>, current: Option<Quote>) -> Failure {
    Failure::Rejected(Box::new(Refusal {
        rejected,
        stale,
        current,
    }))
}

/// One redemption's request: who, what, when, under which key, after what.
#[derive(Clone, Copy)]
pub(super) struct Attempt<'a> {
    pub(super) promo: &'a PromoCode,
    pub(super) customer: Option<&'a CustomerId>,
    pub(super) basket: &'a Basket,
    pub(super) now: Timestamp,
    pub(super) key: Option<&'a IdempotencyKey>,
    pub(super) goal: Goal<'a>,
}

impl<'a> Attempt<'a> {
    /// The loop for up to `attempts` passes, against a blocking store: the
    /// reservation written or answered, or the one error a caller sees.
    pub(super) fn decide<S: RedemptionStore + ?Sized>(
        self,
        store: &S,
        attempts: u32,
    ) -> Result<Reservation, RedemptionError> {
        drive(Decision::new(self, attempts), store).map_err(|failure| self.error(failure))
    }

    /// The same loop against an async store: the same steps, awaited, in
    /// the store's turn on the code ([`AsyncRedemptionStore::turn`]).
    pub(super) async fn decide_async<S: AsyncRedemptionStore + ?Sized>(
        self,
        store: &S,
        attempts: u32,
    ) -> Result<Reservation, RedemptionError> {
        let _turn = store.turn(self.promo.code(), self.promo.campaign()).await;
        drive_async(Decision::new(self, attempts), store)
            .await
            .map_err(|failure| self.error(failure))
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
}

/// What the decision needs from the store next, or its answer.
// Short-lived and matched at once: boxing would only add an allocation per step.
#[allow(clippy::large_enum_variant)]
enum Step<'m> {
    /// [`RedemptionStore::usage_for`], or for a campaign's code [`RedemptionStore::uses_through`];
    /// when `hint`, the store's [`RedemptionStore::usage_hint`] first, if it has one.
    ReadUsage {
        code: &'m Code,
        campaign: Option<&'m Code>,
        customer: Option<&'m CustomerId>,
        now: Timestamp,
        hint: bool,
    },
    /// [`RedemptionStore::reservation`].
    ReadKey { code: &'m Code, key: &'m IdempotencyKey },
    /// [`RedemptionStore::record`].
    Record(Redemption<'m>),
    /// [`RedemptionStore::convert`].
    Convert(Conversion<'m>),
    /// The decision is made.
    Done(Result<Reservation, Failure>),
}

/// The store's answer to the last [`Step`].
// Short-lived and matched at once: boxing would only add an allocation per step.
#[allow(clippy::large_enum_variant)]
enum Answer {
    /// To [`Step::ReadUsage`]: the counts, and whether they are the store's hint.
    Usage(Result<UsageCounts, StoreError>, bool),
    /// To [`Step::ReadKey`], [`Step::Record`] and [`Step::Convert`].
    Reservation(Result<Option<Reservation>, StoreError>),
}

/// Where the decision is: the step it asked for and waits on.
// Short-lived and moved once per step: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum State<'a> {
    Start,
    /// Waits on the counts (the store's hint, when `hint`).
    Reading {
        hint: bool,
    },
    /// Waits on the compare-and-set of a new use against `expected`.
    Recording {
        expected: UsageCounts,
        quote: Quote,
    },
    /// Waits on the reservation under the key, to settle a refusal.
    ReadingKey {
        key: &'a IdempotencyKey,
    },
    /// Waits on the conversion of `held`, the hold under `key`, compared
    /// against `expected` when the capture changes what the budget counts.
    Converting {
        key: &'a IdempotencyKey,
        held: Reservation,
        quote: Quote,
        expected: Option<UsageCounts>,
    },
    Done(Result<Reservation, Failure>),
    Finished,
}

/// The compare-and-set loop as a state machine: each pass reads the counts,
/// runs every rule, then asks for a write against exactly those counts. A
/// key the store already holds is settled from the write's answer, or, when
/// a rule refused, from a read of the key before the refusal is returned.
struct Decision<'a> {
    attempt: Attempt<'a>,
    attempts: u32,
    passes: u32,
    state: State<'a>,
    /// A rule's refusal, returned unless the read of the key settles otherwise.
    refusal: Option<Failure>,
    /// Set once the key is found to name an expired hold of this customer
    /// and basket: that hold's `expires_at`.
    after_expired_hold: Option<Timestamp>,
    /// The counts this pass read (a conversion that changes a budget's sum
    /// is compared against them).
    usage: Option<UsageCounts>,
    /// Whether `usage` is the store's hint, not a read.
    hinted: bool,
    /// The counts each stale write was compared against (at most two a
    /// pass): never tried again as a hint.
    stale: Vec<UsageCounts>,
}

/// What to do with a reservation found under the key.
// Short-lived and returned at once: boxing the answer would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Settled<'a> {
    /// The next state.
    Next(State<'a>),
    /// An expired hold of this customer and basket: capture afresh under its
    /// key, at the counts of the moment.
    Fresh {
        /// The hold's `expires_at`.
        expired_at: Timestamp,
    },
}

impl<'a> Decision<'a> {
    fn new(attempt: Attempt<'a>, attempts: u32) -> Decision<'a> {
        Decision {
            attempt,
            attempts,
            passes: 0,
            state: State::Start,
            refusal: None,
            after_expired_hold: None,
            usage: None,
            hinted: false,
            stale: Vec::new(),
        }
    }

    /// Takes the answer to the last step (`None` at the start) and says what is needed next.
    fn resume(&mut self, answer: Option<Answer>) -> Step<'_> {
        let state = mem::replace(&mut self.state, State::Finished);
        self.state = self.advance(state, answer);
        if let State::Done(_) = self.state {
            if let State::Done(result) = mem::replace(&mut self.state, State::Finished) {
                return Step::Done(result);
            }
        }
        let Attempt {
            promo,
            customer,
            now,
            key,
            goal,
            ..
        } = self.attempt;
        match &self.state {
            State::Reading { hint } => Step::ReadUsage {
                code: promo.code(),
                campaign: promo.campaign(),
                customer,
                now,
                hint: *hint,
            },
            State::Recording { expected, quote } => Step::Record(Redemption {
                after_expired_hold: self.after_expired_hold,
                code: promo.code(),
                campaign: promo.campaign(),
                customer,
                expected: *expected,
                idempotency_key: key,
                quote,
                now,
                hold_until: match goal {
                    Goal::Hold { until } => Some(until),
                    Goal::Capture { .. } => None,
                },
            }),
            State::ReadingKey { key } => Step::ReadKey {
                code: promo.code(),
                key,
            },
            State::Converting {
                key, quote, expected, ..
            } => Step::Convert(Conversion {
                code: promo.code(),
                key,
                quote,
                now,
                expected: *expected,
            }),
            State::Start | State::Done(_) | State::Finished => {
                unreachable!("a decision is resumed only until it is done")
            }
        }
    }

    fn advance(&mut self, state: State<'a>, answer: Option<Answer>) -> State<'a> {
        let store_failed = |err| State::Done(Err(Failure::Store(err)));
        match (state, answer) {
            (State::Start, None) if self.attempts == 0 => State::Done(Err(Failure::Misuse(Misuse::ZeroAttempts))),
            (State::Start, None) => self.pass(),
            (State::Reading { .. }, Some(Answer::Usage(usage, hinted))) => match usage {
                // The hint is what a write just found stale: read instead.
                Ok(usage) if hinted && self.stale.contains(&usage) => self.read_instead(),
                Ok(usage) => {
                    self.usage = Some(usage);
                    self.hinted = hinted;
                    self.decide(usage)
                }
                Err(err) => store_failed(err),
            },
            (State::Recording { expected, .. }, Some(Answer::Reservation(written))) => {
                match (written, self.attempt.key) {
                    (Err(err), _) => store_failed(err),
                    (Ok(Some(earlier)), Some(key)) if earlier.replayed => {
                        let settled = self.settle(key, earlier);
                        self.then(settled)
                    }
                    (Ok(Some(reservation)), _) => State::Done(Ok(reservation)),
                    (Ok(None), _) => {
                        self.stale.push(expected);
                        if self.hinted {
                            // Stale on the store's hint: read, in the same pass.
                            self.read_instead()
                        } else {
                            // Stale: the counts moved between the read and the write.
                            self.pass()
                        }
                    }
                }
            }
            (State::ReadingKey { key }, Some(Answer::Reservation(earlier))) => match earlier {
                Err(err) => store_failed(err),
                Ok(Some(earlier)) => {
                    let settled = self.settle(key, earlier);
                    self.then(settled)
                }
                Ok(None) => self.refused(),
            },
            (
                State::Converting {
                    key, held, expected, ..
                },
                Some(Answer::Reservation(converted)),
            ) => {
                let settled = match converted {
                    Err(err) => return store_failed(err),
                    // Converted now, or by a twin a moment ago: either way this key's capture.
                    Ok(Some(captured)) if !captured.replayed => return State::Done(Ok(captured)),
                    Ok(Some(earlier)) => self.settle(key, earlier),
                    // Stale on the store's hint: read, in the same pass.
                    Ok(None) if expected.is_some() && self.hinted => {
                        self.stale.extend(expected);
                        return self.read_instead();
                    }
                    // Stale (the budget's sum moved) or expired: decide again.
                    Ok(None) if expected.is_some() => {
                        self.stale.extend(expected);
                        return self.pass();
                    }
                    // It expired between the read and the write: capture afresh, if for its basket.
                    Ok(None) => self.after_expiry(key, &held),
                };
                self.then(settled)
            }
            _ => unreachable!("a decision is resumed with the answer to the step it asked for"),
        }
    }

    /// A new pass, if the budget allows one.
    fn pass(&mut self) -> State<'a> {
        if self.passes == self.attempts {
            return State::Done(Err(Failure::Conflict(RedemptionConflict {
                code: self.attempt.promo.code().clone(),
                attempts: self.attempts,
            })));
        }
        self.passes += 1;
        State::Reading { hint: true }
    }

    /// The pass again on a read: what was decided on the store's hint
    /// did not stand (a stale write, or a refusal that a read must confirm).
    fn read_instead(&mut self) -> State<'a> {
        self.hinted = false;
        State::Reading { hint: false }
    }

    /// The refusal that waited on the read of the key, as it is.
    fn refused(&mut self) -> State<'a> {
        match self.refusal.take() {
            Some(refusal) => State::Done(Err(refusal)),
            None => unreachable!("the key is read only to settle a refusal"),
        }
    }

    /// Where a settlement leads: on a capture afresh, the next pass (named
    /// after the expired hold), unless a refusal waits on the key, which
    /// then stands.
    fn then(&mut self, settled: Settled<'a>) -> State<'a> {
        match settled {
            Settled::Next(state) => state,
            Settled::Fresh { .. } if self.refusal.is_some() => self.refused(),
            Settled::Fresh { expired_at } => {
                self.after_expired_hold = Some(expired_at);
                self.pass()
            }
        }
    }

    /// Every rule against the counts read: a write against exactly them, or a refusal.
    fn decide(&mut self, usage: UsageCounts) -> State<'a> {
        let Attempt {
            promo,
            customer,
            basket,
            now,
            goal,
            ..
        } = self.attempt;
        let quote = match promo.quote(customer, usage, basket, now) {
            Ok(quote) => quote,
            Err(refused) => return self.refuse(rejected(refused, None, None)),
        };
        if let Goal::Capture { pinned: Some(shown) } = goal {
            if !shown.charges_as(&quote) {
                let refused = PromoCodeRejected::quote_changed(shown, &quote);
                return self.refuse(rejected(refused, Some(shown.clone()), Some(quote)));
            }
        }
        State::Recording { expected: usage, quote }
    }

    /// A refusal, unless the key has a record by now: a duplicate delivery
    /// that lost the race to its twin gets the twin's answer, not a rejection.
    fn refuse(&mut self, failure: Failure) -> State<'a> {
        if self.hinted {
            return self.read_instead();
        }
        match self.attempt.key {
            Some(key) => {
                self.refusal = Some(failure);
                State::ReadingKey { key }
            }
            None => State::Done(Err(failure)),
        }
    }

    /// The answer for a key that already names a reservation. A key names one
    /// redemption forever: another customer, or another basket (but for the
    /// capture of an active hold), is a reused key.
    fn settle(&mut self, key: &'a IdempotencyKey, earlier: Reservation) -> Settled<'a> {
        let Attempt {
            customer,
            basket,
            now,
            goal,
            ..
        } = self.attempt;
        let reused = || Settled::Next(State::Done(Err(Failure::KeyReused(key.clone()))));
        if earlier.customer.as_ref() != customer {
            return reused();
        }
        match (goal, earlier.state_at(now)) {
            (Goal::Hold { .. }, _)
            | (Goal::Capture { .. }, ReservationState::Captured | ReservationState::Released) => {
                if earlier.quote.is_for(basket) {
                    Settled::Next(State::Done(Ok(earlier.replayed())))
                } else {
                    reused()
                }
            }
            (Goal::Capture { .. }, ReservationState::Expired) => self.after_expiry(key, &earlier),
            (Goal::Capture { pinned }, _) => Settled::Next(self.convert(key, earlier, pinned)),
        }
    }

    /// A capture under the key of an expired hold: afresh, if it is for the
    /// hold's basket (the customer is checked already), else a reused key.
    fn after_expiry(&self, key: &IdempotencyKey, expired: &Reservation) -> Settled<'a> {
        match expired.expires_at {
            Some(expired_at) if expired.quote.is_for(self.attempt.basket) => Settled::Fresh { expired_at },
            _ => Settled::Next(State::Done(Err(Failure::KeyReused(key.clone())))),
        }
    }

    /// Captures an active hold: the same basket takes the hold's quote as it
    /// is; a changed basket runs every rule but the kill switch and the caps,
    /// and must fit the budget less every other use (the write then compares
    /// the counts this pass read).
    fn convert(&self, key: &'a IdempotencyKey, held: Reservation, pinned: Option<&Quote>) -> State<'a> {
        let Attempt {
            promo,
            customer,
            basket,
            now,
            ..
        } = self.attempt;
        let mut expected = None;
        let quote = if held.quote.is_for(basket) {
            held.quote.clone()
        } else {
            let limits = promo.limits();
            let left = match (limits.budget(), self.usage) {
                (Some(_), Some(usage)) => {
                    expected = Some(usage);
                    let others = usage.discounted() - held.quote.discount().amount();
                    let others = usage.with_discounted(others.max(Decimal::ZERO)).unwrap_or(usage);
                    limits.remaining_budget(others)
                }
                _ => None,
            };
            match promo.validate_held(customer, basket, now, left) {
                Ok(quote) => quote,
                // The budget's rest came from the store's hint: a read must confirm the refusal.
                Err(_) if expected.is_some() && self.hinted => return State::Reading { hint: false },
                // The stale quote is the one the buyer was shown, if the capture names it.
                Err(refused) => {
                    let stale = pinned.cloned().unwrap_or(held.quote);
                    return State::Done(Err(rejected(refused, Some(stale), None)));
                }
            }
        };
        if let Some(shown) = pinned {
            if !shown.charges_as(&quote) {
                if expected.is_some() && self.hinted {
                    return State::Reading { hint: false };
                }
                return State::Done(Err(rejected(
                    PromoCodeRejected::quote_changed(shown, &quote),
                    Some(shown.clone()),
                    Some(quote),
                )));
            }
        }
        State::Converting {
            key,
            held,
            quote,
            expected,
        }
    }
}

/// Runs `decision` against a blocking store.
fn drive<S: RedemptionStore + ?Sized>(mut decision: Decision<'_>, store: &S) -> Result<Reservation, Failure> {
    let mut answer = None;
    loop {
        answer = Some(match decision.resume(answer.take()) {
            Step::ReadUsage {
                code,
                campaign,
                customer,
                now,
                hint,
            } => match hint.then(|| store.usage_hint(code, campaign, customer, now)).flatten() {
                Some(hinted) => Answer::Usage(Ok(hinted), true),
                None => Answer::Usage(
                    match campaign {
                        None => store.usage_for(code, customer, now),
                        Some(campaign) => store.uses_through(campaign, code, customer, now),
                    },
                    false,
                ),
            },
            Step::ReadKey { code, key } => Answer::Reservation(store.reservation(code, key)),
            Step::Record(redemption) => Answer::Reservation(store.record(&redemption)),
            Step::Convert(conversion) => Answer::Reservation(store.convert(&conversion)),
            Step::Done(result) => return result,
        });
    }
}

/// Runs `decision` against an async store: the same steps, awaited.
async fn drive_async<S: AsyncRedemptionStore + ?Sized>(
    mut decision: Decision<'_>,
    store: &S,
) -> Result<Reservation, Failure> {
    let mut answer = None;
    loop {
        answer = Some(match decision.resume(answer.take()) {
            Step::ReadUsage {
                code,
                campaign,
                customer,
                now,
                hint,
            } => match hint.then(|| store.usage_hint(code, campaign, customer, now)).flatten() {
                Some(hinted) => Answer::Usage(Ok(hinted), true),
                None => Answer::Usage(
                    match campaign {
                        None => store.usage_for(code, customer, now).await,
                        Some(campaign) => store.uses_through(campaign, code, customer, now).await,
                    },
                    false,
                ),
            },
            Step::ReadKey { code, key } => Answer::Reservation(store.reservation(code, key).await),
            Step::Record(redemption) => Answer::Reservation(store.record(&redemption).await),
            Step::Convert(conversion) => Answer::Reservation(store.convert(&conversion).await),
            Step::Done(result) => return result,
        });
    }
}
