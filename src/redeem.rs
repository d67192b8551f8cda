use serde::{Deserialize, Serialize};

use crate::basket::Basket;
use crate::error::InputError;
use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::money::Money;
use crate::promo::PromoCode;
use crate::rules::{PromoCodeRejected, Quote, UsageCounts};
use crate::store::{Conversion, Redemption, RedemptionStore, Release, Reservation, ReservationState, StoreError};
use crate::time::Timestamp;

/// How many passes [`redeem`], [`capture`] and [`hold`] make before they give
/// up with a [`RedemptionConflict`].
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// How long a hold lasts unless told otherwise: 15 minutes.
pub const DEFAULT_HOLD_TTL_SECONDS: u64 = 15 * 60;
/// The shortest hold: 1 second.
pub const MIN_HOLD_TTL_SECONDS: u64 = 1;
/// The longest hold: 1 hour.
pub const MAX_HOLD_TTL_SECONDS: u64 = 60 * 60;
/// The most characters a release reason may have.
pub const MAX_REASON_LEN: usize = 200;

/// Every pass lost its compare-and-set: the code is so contended that
/// `attempts` honest tries could not land a write.
///
/// This is an answer for the operator, not the buyer: nothing is wrong with
/// the code or the basket. Let it bubble up so the payment provider
/// redelivers (or the client retries with the same idempotency key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("redemption of {code} conflicted {attempts} times in a row; retry with the same idempotency key")]
pub struct RedemptionConflict {
    /// The contended code.
    pub code: Code,
    /// How many writes were tried.
    pub attempts: u32,
}

/// A capture refused at payment time: the rule that refused, the quote the
/// buyer had been shown (which no longer holds), and for
/// [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged) what pricing
/// gives now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("capture refused: {rejected}")]
pub struct CaptureRejected {
    /// Which rule refused, with the sentence for the buyer.
    pub rejected: PromoCodeRejected,
    /// The stale quote: the one the capture was pinned to, else the hold's,
    /// else the basket as priced without the rules (or without the code, when
    /// even pricing refuses).
    pub quote: Quote,
    /// For `quote_changed`: the quote pricing gives now.
    pub current: Option<Quote>,
}

impl CaptureRejected {
    /// The rule that refused.
    pub fn rejection(&self) -> crate::Rejection {
        self.rejected.rejection()
    }
}

/// Why [`redeem`] or [`hold`] returned no answer. Three kinds stay apart: a
/// rejection (for the buyer), a conflict (for the operator), and bad input or
/// a store failure (for the developer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RedeemError {
    /// A rule refused; nothing was recorded.
    #[error(transparent)]
    Rejected(PromoCodeRejected),
    /// Every attempt lost its compare-and-set; nothing was recorded.
    #[error(transparent)]
    Conflict(RedemptionConflict),
    /// The idempotency key was used before for another customer or basket; nothing was recorded.
    #[error("idempotency key {key} was already used for a different redemption")]
    IdempotencyKeyReused {
        /// The reused key.
        key: IdempotencyKey,
    },
    /// The request itself is invalid; nothing was recorded.
    #[error(transparent)]
    Input(InputError),
    /// The store failed; whether anything was recorded is for the store to say.
    #[error(transparent)]
    Store(StoreError),
}

/// Why [`capture`] returned no receipt: as [`RedeemError`], with the stale
/// quote on a rejection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// A rule refused at payment time, or the price changed; nothing was recorded.
    #[error(transparent)]
    Rejected(Box<CaptureRejected>),
    /// Every attempt lost its compare-and-set; nothing was recorded.
    #[error(transparent)]
    Conflict(RedemptionConflict),
    /// The idempotency key was used before for another customer or basket; nothing was recorded.
    #[error("idempotency key {key} was already used for a different redemption")]
    IdempotencyKeyReused {
        /// The reused key.
        key: IdempotencyKey,
    },
    /// The request itself is invalid; nothing was recorded.
    #[error(transparent)]
    Input(InputError),
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

/// Why [`release`] gave nothing back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReleaseError {
    /// Nothing was ever recorded under this key for this code. Not a rejection:
    /// the caller named something that does not exist.
    #[error("no hold or redemption of {code} is recorded under idempotency key {key}")]
    UnknownKey {
        /// The code.
        code: Code,
        /// The key asked for.
        key: IdempotencyKey,
    },
    /// The request itself is invalid (a reason too long); nothing was changed.
    #[error(transparent)]
    Input(InputError),
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

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

/// Options for [`redeem`]: an idempotency key and the attempt budget.
#[derive(Debug, Clone, Copy)]
#[must_use]
pub struct RedeemOptions<'a> {
    idempotency_key: Option<&'a IdempotencyKey>,
    attempts: u32,
}

impl Default for RedeemOptions<'_> {
    fn default() -> Self {
        RedeemOptions {
            idempotency_key: None,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

impl<'a> RedeemOptions<'a> {
    /// No key, [`DEFAULT_ATTEMPTS`] passes.
    pub fn new() -> RedeemOptions<'a> {
        RedeemOptions::default()
    }

    /// Makes the redemption safe to retry under `key`.
    pub fn idempotency_key(mut self, key: &'a IdempotencyKey) -> RedeemOptions<'a> {
        self.idempotency_key = Some(key);
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> RedeemOptions<'a> {
        self.attempts = attempts;
        self
    }
}

/// Options for [`capture`]: [`RedeemOptions`] plus the quote the buyer was shown.
#[derive(Debug, Clone, Copy, Default)]
#[must_use]
pub struct CaptureOptions<'a> {
    redeem: RedeemOptions<'a>,
    quoted: Option<&'a Quote>,
    charged: Option<Money>,
}

impl<'a> CaptureOptions<'a> {
    /// No key, [`DEFAULT_ATTEMPTS`] passes, not pinned to a quote.
    pub fn new() -> CaptureOptions<'a> {
        CaptureOptions::default()
    }

    /// Makes the capture safe to retry under `key`; the key of an active hold converts it.
    pub fn idempotency_key(mut self, key: &'a IdempotencyKey) -> CaptureOptions<'a> {
        self.redeem = self.redeem.idempotency_key(key);
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> CaptureOptions<'a> {
        self.redeem = self.redeem.attempts(attempts);
        self
    }

    /// Pins the capture to the quote the buyer was shown (what the payment
    /// provider charged): if pricing now gives another discount or amount to
    /// pay, the capture is refused with
    /// [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged).
    pub fn quoted(mut self, quote: &'a Quote) -> CaptureOptions<'a> {
        self.quoted = Some(quote);
        self
    }

    /// Pins the capture to the amount the payment provider charged, when
    /// that is all it reports: as [`quoted`](CaptureOptions::quoted) with
    /// the quote that charges `amount` for the basket (its discount is the
    /// basket total minus `amount`). Refused with
    /// [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged) when
    /// pricing now asks another amount; [`CaptureError::Input`] when `amount`
    /// is in another currency than the basket or above its total. With
    /// [`quoted`](CaptureOptions::quoted) too, the quote is what is pinned.
    pub fn charged(mut self, amount: Money) -> CaptureOptions<'a> {
        self.charged = Some(amount);
        self
    }
}

/// Options for [`hold`]: how long the hold lasts and the attempt budget.
#[derive(Debug, Clone, Copy)]
#[must_use]
pub struct HoldOptions {
    ttl_seconds: u64,
    attempts: u32,
}

impl Default for HoldOptions {
    fn default() -> Self {
        HoldOptions {
            ttl_seconds: DEFAULT_HOLD_TTL_SECONDS,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

impl HoldOptions {
    /// 15 minutes, [`DEFAULT_ATTEMPTS`] passes.
    pub fn new() -> HoldOptions {
        HoldOptions::default()
    }

    /// How long the hold lasts, from [`MIN_HOLD_TTL_SECONDS`] to [`MAX_HOLD_TTL_SECONDS`].
    pub fn ttl_seconds(mut self, seconds: u64) -> HoldOptions {
        self.ttl_seconds = seconds;
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> HoldOptions {
        self.attempts = attempts;
        self
    }
}

/// What a pass of the loop is after.
#[derive(Clone, Copy)]
enum Goal<'a> {
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
    Input(InputError),
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
struct Attempt<'a, S: ?Sized> {
    promo: &'a PromoCode,
    store: &'a S,
    customer: Option<&'a CustomerId>,
    basket: &'a Basket,
    now: Timestamp,
    key: Option<&'a IdempotencyKey>,
    goal: Goal<'a>,
}

impl<S: RedemptionStore + ?Sized> Attempt<'_, S> {
    /// The compare-and-set loop: each pass re-reads the counts, re-runs every
    /// rule, then writes against exactly those counts. A key the store already
    /// holds is settled from the write's answer, or, when a rule refused, from
    /// a read of the key before the refusal is returned.
    fn run(&self, attempts: u32) -> Result<Reservation, Failure> {
        if attempts == 0 {
            return Err(Failure::Input(InputError::ZeroAttempts));
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

/// Redeems `promo` once for `customer` and `basket`, at `now`.
///
/// Each pass re-reads the counts, re-runs every rule, prices, and asks the
/// store to write against exactly the counts it read. A lost race with room
/// left succeeds on the next pass; a lost race for the last use is refused on
/// the next pass with [`Rejection::Exhausted`](crate::Rejection::Exhausted).
/// A known idempotency key answers with the earlier receipt, marked
/// `replayed`, and increments nothing; the key of an active [`hold`] captures
/// it (see [`capture`]).
///
/// # Errors
///
/// [`RedeemError::Rejected`] when a rule refuses, [`RedeemError::Conflict`]
/// when every pass lost its write, [`RedeemError::IdempotencyKeyReused`],
/// [`RedeemError::Input`] for zero attempts, [`RedeemError::Store`]. In every
/// case but a store failure, nothing was recorded.
///
/// # Example
///
/// ```
/// use promocodes::{redeem, Basket, Code, Currency, CustomerId, Discount, IdempotencyKey, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, RedeemError, RedeemOptions, Rejection, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("ONCE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1000), Some(1))?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let alice = CustomerId::parse("alice")?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let key = IdempotencyKey::parse("evt_1")?;
///
/// let receipt = redeem(&promo, &store, Some(&alice), &basket, now, RedeemOptions::new().idempotency_key(&key))?;
/// assert_eq!(receipt.usage, UsageCounts::new(1, 1)?);
///
/// // The provider redelivers the same event: the same receipt, nothing counted twice.
/// let again = redeem(&promo, &store, Some(&alice), &basket, now, RedeemOptions::new().idempotency_key(&key))?;
/// assert!(again.replayed);
/// assert_eq!(again.usage, receipt.usage);
///
/// // A new payment by alice is refused: one per customer.
/// let err = redeem(&promo, &store, Some(&alice), &basket, now, RedeemOptions::new()).unwrap_err();
/// assert!(matches!(err, RedeemError::Rejected(r) if r.rejection() == Rejection::CustomerLimitReached));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn redeem<S: RedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    options: RedeemOptions<'_>,
) -> Result<Receipt, RedeemError> {
    let attempt = Attempt {
        promo,
        store,
        customer,
        basket,
        now,
        key: options.idempotency_key,
        goal: Goal::Capture { pinned: None },
    };
    attempt.run(options.attempts).map(Receipt::from).map_err(redeem_error)
}

fn redeem_error(failure: Failure) -> RedeemError {
    match failure {
        Failure::Rejected(refusal) => RedeemError::Rejected(refusal.rejected),
        Failure::Conflict(conflict) => RedeemError::Conflict(conflict),
        Failure::KeyReused(key) => RedeemError::IdempotencyKeyReused { key },
        Failure::Input(input) => RedeemError::Input(input),
        Failure::Store(store) => RedeemError::Store(store),
    }
}

/// Captures a redemption when the money moves.
///
/// - **Without a hold**, every rule runs again, as in [`redeem`], against the
///   counts and the clock of this moment: the code may have run out, expired,
///   or the basket may have dropped below the minimum while the buyer was
///   paying. Then the capture is refused with the stale quote, and nothing is
///   recorded.
/// - **Under the key of an active [`hold`]**, the hold becomes the capture in
///   one atomic write. With the held basket, no rule runs again (the use was
///   reserved for this buyer) and the receipt carries the hold's quote
///   exactly, even if the definition changed since. With another basket,
///   every rule but the kill switch and the caps runs again; a refusal carries
///   the quote the capture is pinned to, else the hold's, and leaves the hold
///   as it is. Under the key of an expired hold, it is a fresh capture at the
///   counts of the moment, for the hold's customer and basket only (a key
///   names one redemption forever: anything else is
///   [`CaptureError::IdempotencyKeyReused`]); the hold stays in the store's
///   history as `expired`, and the capture's record names it
///   ([`Reservation::hold_expired_at`]).
/// - **Pinned** ([`CaptureOptions::quoted`]) to the quote the buyer was shown,
///   it is refused with [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged)
///   when pricing now gives another discount or amount to pay, after every
///   other rule.
/// - **Retried** under its key, it answers with the receipt as the
///   redemption now stands (`released`, if it was given back): it never
///   spends a second use.
///
/// # Errors
///
/// [`CaptureError::Rejected`] carries the [`CaptureRejected`] with the rule and the
/// stale quote; the rest as for [`redeem`], and [`CaptureError::Input`] when
/// the pinned quote is for another code.
///
/// # Example
///
/// ```
/// use promocodes::{capture, Basket, CaptureError, CaptureOptions, Code, Currency, Discount, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, Rejection, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("LASTONE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1), None)?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let shown = promo.quote(None, UsageCounts::ZERO, &basket, now)?;
///
/// capture(&promo, &store, None, &basket, now, CaptureOptions::new())?; // someone else pays first
/// let refused = capture(&promo, &store, None, &basket, now, CaptureOptions::new().quoted(&shown)).unwrap_err();
/// match refused {
///     CaptureError::Rejected(stale) => {
///         assert_eq!(stale.rejection(), Rejection::Exhausted);
///         assert_eq!(stale.quote.payable().to_string(), "EUR 72.00");
///     }
///     other => panic!("expected a rejection, got {other}"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn capture<S: RedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    options: CaptureOptions<'_>,
) -> Result<Receipt, CaptureError> {
    if let Some(quoted) = options.quoted {
        if quoted.code() != promo.code() {
            return Err(CaptureError::Input(InputError::QuoteForOtherCode {
                code: promo.code().to_string(),
                quoted: quoted.code().to_string(),
            }));
        }
    }
    let charged = match (options.quoted, options.charged) {
        (None, Some(amount)) => Some(Quote::charging(promo.code(), basket, amount, now).map_err(CaptureError::Input)?),
        _ => None,
    };
    let pinned = options.quoted.or(charged.as_ref());
    let attempt = Attempt {
        promo,
        store,
        customer,
        basket,
        now,
        key: options.redeem.idempotency_key,
        goal: Goal::Capture { pinned },
    };
    attempt
        .run(options.redeem.attempts)
        .map(Receipt::from)
        .map_err(|failure| match failure {
            Failure::Rejected(refusal) => {
                let Refusal {
                    rejected,
                    stale,
                    current,
                } = *refusal;
                let quote = stale
                    .or_else(|| pinned.cloned())
                    .or_else(|| promo.price(basket, now).ok())
                    .unwrap_or_else(|| Quote::undiscounted(promo.code(), basket, now));
                CaptureError::Rejected(Box::new(CaptureRejected {
                    rejected,
                    quote,
                    current,
                }))
            }
            Failure::Conflict(conflict) => CaptureError::Conflict(conflict),
            Failure::KeyReused(key) => CaptureError::IdempotencyKeyReused { key },
            Failure::Input(input) => CaptureError::Input(input),
            Failure::Store(store) => CaptureError::Store(store),
        })
}

/// A hold's time to live, if it is from [`MIN_HOLD_TTL_SECONDS`] to [`MAX_HOLD_TTL_SECONDS`].
pub(crate) fn check_hold_ttl(seconds: u64) -> Result<u64, InputError> {
    if (MIN_HOLD_TTL_SECONDS..=MAX_HOLD_TTL_SECONDS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(InputError::HoldTtlOutOfRange {
            seconds: seconds.to_string(),
            min: MIN_HOLD_TTL_SECONDS,
            max: MAX_HOLD_TTL_SECONDS,
        })
    }
}

/// A release's reason, if it has at most [`MAX_REASON_LEN`] characters and none is a control character.
pub(crate) fn check_reason(reason: &str) -> Result<(), InputError> {
    if reason.chars().count() > MAX_REASON_LEN || reason.chars().any(char::is_control) {
        return Err(InputError::InvalidReason { max: MAX_REASON_LEN });
    }
    Ok(())
}

/// Holds one use of `promo` for `customer` while the buyer pays, under `key`.
///
/// Every rule runs exactly as in [`redeem`] (the same compare-and-set loop,
/// the same attempt budget, the same three outcomes). On success the hold
/// counts in the code's usage, overall and for its customer, from `now`
/// until it is captured ([`capture`] under the same key), released
/// ([`release`]), or its `expires_at` (`now` + the time to live) passes.
/// The same key again replays the hold as it now stands.
///
/// # Errors
///
/// As [`redeem`]; [`RedeemError::Input`] for a time to live outside 1 s to 1 h.
///
/// # Example
///
/// ```
/// use promocodes::{capture, hold, Basket, CaptureOptions, Code, Currency, Discount, HoldOptions, IdempotencyKey};
/// use promocodes::{InMemoryRedemptionStore, Money, PromoCode, RedemptionStore, ReservationState, Timestamp, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("LASTONE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1), None)?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let pi = IdempotencyKey::parse("pi_1")?;
///
/// let held = hold(&promo, &store, None, &basket, now, &pi, HoldOptions::new().ttl_seconds(600))?;
/// assert_eq!(held.expires_at.to_string(), "2026-12-02T10:10:00Z");
/// assert_eq!(store.usage_for(promo.code(), None, now)?.total(), 1);
///
/// // Ten minutes later the hold no longer counts, whether or not anything cleaned it up.
/// assert_eq!(store.usage_for(promo.code(), None, held.expires_at)?.total(), 0);
///
/// // Paid within the hold: the capture converts it.
/// let paid_at = now.checked_add_seconds(60).unwrap();
/// let receipt = capture(&promo, &store, None, &basket, paid_at, CaptureOptions::new().idempotency_key(&pi))?;
/// assert_eq!(receipt.state, ReservationState::Captured);
/// assert_eq!(receipt.quote, held.quote);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hold<S: RedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    key: &IdempotencyKey,
    options: HoldOptions,
) -> Result<Hold, RedeemError> {
    let ttl = check_hold_ttl(options.ttl_seconds).map_err(RedeemError::Input)?;
    let until = now
        .checked_add_seconds(ttl as i64)
        .ok_or(RedeemError::Input(InputError::TimeOutOfRange {
            what: "the hold's expiry",
        }))?;
    let attempt = Attempt {
        promo,
        store,
        customer,
        basket,
        now,
        key: Some(key),
        goal: Goal::Hold { until },
    };
    let reservation = attempt.run(options.attempts).map_err(redeem_error)?;
    Ok(Hold {
        key: key.clone(),
        state: reservation.state_at(now),
        // A key that names a use captured without a hold: its hold, had there been one, ended then.
        expires_at: reservation.expires_at.or(reservation.captured_at).unwrap_or(until),
        quote: reservation.quote,
        usage: reservation.usage,
        replayed: reservation.replayed,
    })
}

/// Gives back the use recorded under `key`: a hold (checkout abandoned) or
/// a captured redemption (order cancelled or refunded).
///
/// Counts drop by one, overall and for the customer, in one atomic write
/// (a hold that already expired no longer counted: it is marked released
/// and the counts stay). The reservation stays, marked released with `now`
/// and `reason`. Releasing again replays the same answer and changes
/// nothing; a capture retried under a released key replays it as released.
///
/// # Errors
///
/// [`ReleaseError::UnknownKey`] when nothing is recorded under `key` (not a
/// rejection); [`ReleaseError::Input`] for a reason over 200 characters or
/// with control characters; [`ReleaseError::Store`].
///
/// # Example
///
/// ```
/// use promocodes::{capture, release, Basket, CaptureOptions, Code, Currency, CustomerId, Discount};
/// use promocodes::{IdempotencyKey, InMemoryRedemptionStore, Money, PromoCode, ReservationState, Timestamp};
/// use promocodes::{UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("ONCE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(None, Some(1))?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let alice = CustomerId::parse("alice")?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let order = IdempotencyKey::parse("pi_1")?;
///
/// capture(&promo, &store, Some(&alice), &basket, now, CaptureOptions::new().idempotency_key(&order))?;
/// let refunded = release(&store, promo.code(), &order, now, Some("refunded"))?;
/// assert_eq!(refunded.was, ReservationState::Captured);
/// assert_eq!(refunded.usage, UsageCounts::ZERO);
///
/// // Alice's one use is hers again.
/// let next = IdempotencyKey::parse("pi_2")?;
/// capture(&promo, &store, Some(&alice), &basket, now, CaptureOptions::new().idempotency_key(&next))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn release<S: RedemptionStore + ?Sized>(
    store: &S,
    code: &Code,
    key: &IdempotencyKey,
    now: Timestamp,
    reason: Option<&str>,
) -> Result<Released, ReleaseError> {
    if let Some(reason) = reason {
        check_reason(reason).map_err(ReleaseError::Input)?;
    }
    let released = store
        .release(&Release { code, key, now, reason })
        .map_err(ReleaseError::Store)?
        .ok_or_else(|| ReleaseError::UnknownKey {
            code: code.clone(),
            key: key.clone(),
        })?;
    Ok(Released {
        key: key.clone(),
        state: released.state,
        was: released.was.unwrap_or(ReservationState::Held),
        released_at: released.released_at.unwrap_or(now),
        reason: released.reason,
        usage: released.usage,
        replayed: released.replayed,
    })
}
