//! The one decision loop behind [`redeem`](crate::redeem), [`capture`](crate::capture)
//! and [`hold`](crate::hold), and behind their async forms: a state machine
//! that does no I/O.
//!
//! A [`Decision`] says what it needs from the store next ([`Step`]), and is
//! resumed with the store's answer ([`Answer`]). Reading the counts, running
//! every rule, the compare-and-set write, re-deciding after a lost race,
//! settling a known key and converting a hold all live here, once; the two
//! drivers, [`drive`] (a [`RedemptionStore`]) and [`drive_async`] (an
//! [`AsyncRedemptionStore`]), only carry steps to the store and answers back.

use std::mem;

use crate::basket::Basket;
use crate::error::InputError;
use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::promo::PromoCode;
use crate::redeem::{rejected, Failure, RedemptionConflict};
use crate::rules::{PromoCodeRejected, Quote, UsageCounts};
use crate::store::StoreError;
use crate::store::{AsyncRedemptionStore, Conversion, Redemption, RedemptionStore, Reservation, ReservationState};
use crate::time::Timestamp;

/// What a pass of the loop is after.
#[derive(Clone, Copy)]
pub(crate) enum Goal<'a> {
    Capture { pinned: Option<&'a Quote> },
    Hold { until: Timestamp },
}

/// One redemption's request: who, what, when, under which key, after what.
#[derive(Clone, Copy)]
pub(crate) struct Request<'a> {
    pub(crate) promo: &'a PromoCode,
    pub(crate) customer: Option<&'a CustomerId>,
    pub(crate) basket: &'a Basket,
    pub(crate) now: Timestamp,
    pub(crate) key: Option<&'a IdempotencyKey>,
    pub(crate) goal: Goal<'a>,
}

/// What the decision needs from the store next, or its answer.
// Short-lived and matched at once: boxing would only add an allocation per step.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Step<'m> {
    /// [`RedemptionStore::usage_for`].
    ReadUsage {
        code: &'m Code,
        customer: Option<&'m CustomerId>,
        now: Timestamp,
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
pub(crate) enum Answer {
    /// To [`Step::ReadUsage`].
    Usage(Result<UsageCounts, StoreError>),
    /// To [`Step::ReadKey`], [`Step::Record`] and [`Step::Convert`].
    Reservation(Result<Option<Reservation>, StoreError>),
}

/// Where the decision is: the step it asked for and waits on.
// Short-lived and moved once per step: boxing the answer would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum State<'a> {
    Start,
    /// Waits on the counts.
    Reading,
    /// Waits on the compare-and-set of a new use against `expected`.
    Recording {
        expected: UsageCounts,
        quote: Quote,
    },
    /// Waits on the reservation under the key, to settle a refusal.
    ReadingKey {
        key: &'a IdempotencyKey,
    },
    /// Waits on the conversion of the hold under `key`.
    Converting {
        key: &'a IdempotencyKey,
        quote: Quote,
    },
    Done(Result<Reservation, Failure>),
    Finished,
}

/// The compare-and-set loop as a state machine: each pass reads the counts,
/// runs every rule, then asks for a write against exactly those counts. A
/// key the store already holds is settled from the write's answer, or, when
/// a rule refused, from a read of the key before the refusal is returned.
pub(crate) struct Decision<'a> {
    request: Request<'a>,
    attempts: u32,
    passes: u32,
    state: State<'a>,
    /// A rule's refusal, returned unless the key read settles otherwise.
    refusal: Option<Failure>,
}

impl<'a> Decision<'a> {
    pub(crate) fn new(request: Request<'a>, attempts: u32) -> Decision<'a> {
        Decision {
            request,
            attempts,
            passes: 0,
            state: State::Start,
            refusal: None,
        }
    }

    /// Takes the answer to the last step (`None` at the start) and says what is needed next.
    pub(crate) fn resume(&mut self, answer: Option<Answer>) -> Step<'_> {
        let state = mem::replace(&mut self.state, State::Finished);
        self.state = self.advance(state, answer);
        if let State::Done(_) = self.state {
            if let State::Done(result) = mem::replace(&mut self.state, State::Finished) {
                return Step::Done(result);
            }
        }
        let Request {
            promo,
            customer,
            now,
            key,
            goal,
            ..
        } = self.request;
        match &self.state {
            State::Reading => Step::ReadUsage {
                code: promo.code(),
                customer,
                now,
            },
            State::Recording { expected, quote } => Step::Record(Redemption {
                code: promo.code(),
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
            State::Converting { key, quote } => Step::Convert(Conversion {
                code: promo.code(),
                key,
                quote,
                now,
            }),
            State::Start | State::Done(_) | State::Finished => {
                unreachable!("a decision is resumed only until it is done")
            }
        }
    }

    fn advance(&mut self, state: State<'a>, answer: Option<Answer>) -> State<'a> {
        match (state, answer) {
            (State::Start, None) if self.attempts == 0 => State::Done(Err(Failure::Input(InputError::ZeroAttempts))),
            (State::Start, None) => self.pass(),
            (State::Reading, Some(Answer::Usage(usage))) => match usage {
                Ok(usage) => self.decide(usage),
                Err(err) => State::Done(Err(Failure::Store(err))),
            },
            (State::Recording { .. }, Some(Answer::Reservation(written))) => match (written, self.request.key) {
                (Err(err), _) => State::Done(Err(Failure::Store(err))),
                (Ok(Some(earlier)), Some(key)) if earlier.replayed => self.settle(key, earlier),
                (Ok(Some(reservation)), _) => State::Done(Ok(reservation)),
                // Stale: the counts moved between the read and the write.
                (Ok(None), _) => self.pass(),
            },
            (State::ReadingKey { key }, Some(Answer::Reservation(earlier))) => match earlier {
                Err(err) => State::Done(Err(Failure::Store(err))),
                Ok(Some(earlier)) => self.settle(key, earlier),
                Ok(None) => self.fresh(),
            },
            (State::Converting { key, .. }, Some(Answer::Reservation(converted))) => match converted {
                Err(err) => State::Done(Err(Failure::Store(err))),
                // Converted now, or by a twin a moment ago: either way this key's capture.
                Ok(Some(captured)) if !captured.replayed => State::Done(Ok(captured)),
                Ok(Some(earlier)) => self.settle(key, earlier),
                // It expired (or vanished) between the read and the write: capture afresh.
                Ok(None) => self.fresh(),
            },
            _ => unreachable!("a decision is resumed with the answer to the step it asked for"),
        }
    }

    /// A new pass, if the budget allows one.
    fn pass(&mut self) -> State<'a> {
        if self.passes == self.attempts {
            return State::Done(Err(Failure::Conflict(RedemptionConflict {
                code: self.request.promo.code().clone(),
                attempts: self.attempts,
            })));
        }
        self.passes += 1;
        State::Reading
    }

    /// A capture at the counts of the moment: the next pass, or the
    /// refusal that was waiting on the key.
    fn fresh(&mut self) -> State<'a> {
        match self.refusal.take() {
            Some(refusal) => State::Done(Err(refusal)),
            None => self.pass(),
        }
    }

    /// Every rule against the counts read: a write against exactly them, or a refusal.
    fn decide(&mut self, usage: UsageCounts) -> State<'a> {
        let Request {
            promo,
            customer,
            basket,
            now,
            goal,
            ..
        } = self.request;
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
        match self.request.key {
            Some(key) => {
                self.refusal = Some(failure);
                State::ReadingKey { key }
            }
            None => State::Done(Err(failure)),
        }
    }

    /// The answer for a key that already names a reservation.
    fn settle(&mut self, key: &'a IdempotencyKey, earlier: Reservation) -> State<'a> {
        let Request {
            customer,
            basket,
            now,
            goal,
            ..
        } = self.request;
        let reused = || State::Done(Err(Failure::KeyReused(key.clone())));
        if earlier.customer.as_ref() != customer {
            return reused();
        }
        match (goal, earlier.state_at(now)) {
            (Goal::Hold { .. }, _)
            | (Goal::Capture { .. }, ReservationState::Captured | ReservationState::Released) => {
                if earlier.quote.is_for(basket) {
                    State::Done(Ok(earlier.replayed()))
                } else {
                    reused()
                }
            }
            // An expired hold: capture afresh, at the counts of the moment.
            (Goal::Capture { .. }, ReservationState::Expired) => self.fresh(),
            (Goal::Capture { pinned }, _) => self.convert(key, earlier, pinned),
        }
    }

    /// Captures an active hold: the same basket takes the hold's quote as it
    /// is; a changed basket runs every rule but the kill switch and the caps.
    fn convert(&mut self, key: &'a IdempotencyKey, held: Reservation, pinned: Option<&Quote>) -> State<'a> {
        let Request {
            promo,
            customer,
            basket,
            now,
            ..
        } = self.request;
        let quote = if held.quote.is_for(basket) {
            held.quote.clone()
        } else {
            match promo.validate_held(customer, basket, now) {
                Ok(quote) => quote,
                // The stale quote is the one the buyer was shown, if the capture names it.
                Err(refused) => {
                    let stale = pinned.cloned().unwrap_or(held.quote);
                    return State::Done(Err(rejected(refused, Some(stale), None)));
                }
            }
        };
        if let Some(shown) = pinned {
            if !shown.charges_as(&quote) {
                return State::Done(Err(rejected(
                    PromoCodeRejected::quote_changed(shown, &quote),
                    Some(shown.clone()),
                    Some(quote),
                )));
            }
        }
        State::Converting { key, quote }
    }
}

/// Runs `decision` against a blocking store.
pub(crate) fn drive<S: RedemptionStore + ?Sized>(
    mut decision: Decision<'_>,
    store: &S,
) -> Result<Reservation, Failure> {
    let mut answer = None;
    loop {
        answer = Some(match decision.resume(answer.take()) {
            Step::ReadUsage { code, customer, now } => Answer::Usage(store.usage_for(code, customer, now)),
            Step::ReadKey { code, key } => Answer::Reservation(store.reservation(code, key)),
            Step::Record(redemption) => Answer::Reservation(store.record(&redemption)),
            Step::Convert(conversion) => Answer::Reservation(store.convert(&conversion)),
            Step::Done(result) => return result,
        });
    }
}

/// Runs `decision` against an async store: the same steps, awaited.
pub(crate) async fn drive_async<S: AsyncRedemptionStore + ?Sized>(
    mut decision: Decision<'_>,
    store: &S,
) -> Result<Reservation, Failure> {
    let mut answer = None;
    loop {
        answer = Some(match decision.resume(answer.take()) {
            Step::ReadUsage { code, customer, now } => Answer::Usage(store.usage_for(code, customer, now).await),
            Step::ReadKey { code, key } => Answer::Reservation(store.reservation(code, key).await),
            Step::Record(redemption) => Answer::Reservation(store.record(&redemption).await),
            Step::Convert(conversion) => Answer::Reservation(store.convert(&conversion).await),
            Step::Done(result) => return result,
        });
    }
}
