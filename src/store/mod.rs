//! The store: where redemptions are counted. The [`RedemptionStore`] trait
//! (three compare-and-set writes and their reads, no increment), the write
//! requests it is given ([`Redemption`], [`Conversion`], [`Release`]), what
//! it keeps ([`Reservation`]), the in-memory store, and, with the `testing`
//! feature, the conformance suite every store runs and its test doubles. It
//! uses the rules and values layers; it never runs a rule or reads a clock.

use std::future::Future;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::rules::{PromoCode, Quote, UsageCounts};
use crate::values::{Code, CustomerId, IdempotencyKey, Timestamp};

mod memory;
#[cfg(feature = "testing")]
pub mod testing;

pub use memory::InMemoryRedemptionStore;

/// Where a redemption is in its life.
///
/// ```text
///   hold ──► held ──(capture)──► captured ──(release)──► released
///              │ ╲                                          ▲
///              │  ╲──(release)──────────────────────────────┘
///              └──(expires_at passes)──► expired
///   capture (no hold) ──► captured
/// ```
///
/// A use counts while it is `held` (until `expires_at`) or `captured`.
/// Serialised in snake_case: `"held"`, `"captured"`, `"released"`, `"expired"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReservationState {
    /// A use reserved while the buyer pays, until its `expires_at`.
    Held,
    /// A use spent.
    Captured,
    /// A use given back (checkout abandoned, order cancelled or refunded).
    Released,
    /// A hold whose `expires_at` passed before it was captured or released.
    Expired,
}

impl ReservationState {
    /// The snake_case name: `"held"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReservationState::Held => "held",
            ReservationState::Captured => "captured",
            ReservationState::Released => "released",
            ReservationState::Expired => "expired",
        }
    }
}

/// One redemption as a store keeps it: a hold or a capture, and what became
/// of it. An idempotency key names one reservation forever.
///
/// `state` is as stored: a hold stays `held` in storage after its
/// `expires_at` until something marks it; [`state_at`](Reservation::state_at)
/// tells what it is at a given moment, and every count uses that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reservation {
    /// The key it was recorded under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<IdempotencyKey>,
    /// Who redeemed, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<CustomerId>,
    /// What the buyer is charged.
    pub quote: Quote,
    /// The counts (overall, and for its customer) right after its last change.
    pub usage: UsageCounts,
    /// Where it is in its life, as stored (records written before holds existed are captures).
    #[serde(default = "captured")]
    pub state: ReservationState,
    /// When a hold stops counting (holds only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<Timestamp>,
    /// When it was captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_at: Option<Timestamp>,
    /// When it was released.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released_at: Option<Timestamp>,
    /// Why it was released, if a reason was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What it was when it was released: `held` or `captured`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was: Option<ReservationState>,
    /// For a capture recorded under the key of a hold that had expired: when
    /// that hold expired. The hold stays in the history as `expired`; the key
    /// names this capture from then on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_expired_at: Option<Timestamp>,
    /// True when this answers a known idempotency key: nothing was written.
    #[serde(default, skip_serializing)]
    pub replayed: bool,
}

fn captured() -> ReservationState {
    ReservationState::Captured
}

impl Reservation {
    /// What it is at `now`: a stored `held` whose `expires_at <= now` is `expired`.
    pub fn state_at(&self, now: Timestamp) -> ReservationState {
        match (self.state, self.expires_at) {
            (ReservationState::Held, Some(expires_at)) if expires_at <= now => ReservationState::Expired,
            (state, _) => state,
        }
    }

    /// Whether it counts at `now`: captured, or held and not yet expired.
    pub fn counts_at(&self, now: Timestamp) -> bool {
        matches!(self.state_at(now), ReservationState::Held | ReservationState::Captured)
    }

    /// The same reservation, marked as the answer to a known key.
    pub fn replayed(self) -> Reservation {
        Reservation { replayed: true, ..self }
    }

    /// This hold, captured at `now` for `quote`, with the counts after it:
    /// what [`RedemptionStore::convert`] writes.
    pub fn captured(self, quote: &Quote, usage: UsageCounts, now: Timestamp) -> Reservation {
        Reservation {
            quote: quote.clone(),
            usage,
            state: ReservationState::Captured,
            captured_at: Some(now),
            ..self
        }
    }

    /// This reservation given back at `release.now` for `release.reason`, with
    /// the counts after it (`was` says whether it was held or captured): what
    /// [`RedemptionStore::release`] writes.
    pub fn released(self, release: &Release<'_>, was: ReservationState, usage: UsageCounts) -> Reservation {
        Reservation {
            usage,
            state: ReservationState::Released,
            released_at: Some(release.now),
            reason: release.reason.map(str::to_owned),
            was: Some(was),
            ..self
        }
    }
}

impl Redemption<'_> {
    /// Whether this write may take `earlier`'s key: a capture that names the
    /// hold recorded under it ([`Redemption::after_expired_hold`]), which has
    /// expired at [`Redemption::now`]. Otherwise a known key is answered with
    /// its reservation and nothing is written.
    pub fn follows_expired_hold(&self, earlier: &Reservation) -> bool {
        self.hold_until.is_none()
            && self.after_expired_hold.is_some()
            && self.after_expired_hold == earlier.expires_at
            && earlier.state_at(self.now) == ReservationState::Expired
    }

    /// The reservation this write records, with `usage`, the counts right
    /// after it: a hold until `hold_until`, or a capture at `now`. What
    /// [`RedemptionStore::record`] stores and answers.
    pub fn reservation(&self, usage: UsageCounts) -> Reservation {
        Reservation {
            key: self.idempotency_key.cloned(),
            customer: self.customer.cloned(),
            quote: self.quote.clone(),
            usage,
            state: match self.hold_until {
                Some(_) => ReservationState::Held,
                None => ReservationState::Captured,
            },
            expires_at: self.hold_until,
            captured_at: self.hold_until.is_none().then_some(self.now),
            released_at: None,
            reason: None,
            was: None,
            hold_expired_at: self.after_expired_hold,
            replayed: false,
        }
    }
}

/// A new use a store is asked to write (a capture, or a hold when
/// `hold_until` is set), against the counts it was validated on.
///
/// `expected` is what [`RedemptionStore::usage_for`] said at `now` when the
/// rules were checked; the write happens only if the counts at `now` are
/// still exactly that.
#[derive(Debug, Clone, Copy)]
pub struct Redemption<'a> {
    /// The code being redeemed.
    pub code: &'a Code,
    /// For a campaign's code, the campaign's id: the write then compares and
    /// counts the code's uses with the campaign's (see
    /// [`RedemptionStore::uses_through`]). `None` for any other code.
    pub campaign: Option<&'a Code>,
    /// Who redeems it, if known.
    pub customer: Option<&'a CustomerId>,
    /// The counts the decision was made against.
    pub expected: UsageCounts,
    /// The retry key, if the caller has one (a hold always has one).
    pub idempotency_key: Option<&'a IdempotencyKey>,
    /// What the buyer pays.
    pub quote: &'a Quote,
    /// The moment of the write: counts and expiries are read at it.
    pub now: Timestamp,
    /// `Some(expires_at)` for a hold, `None` for a capture.
    pub hold_until: Option<Timestamp>,
    /// For a capture under the key of a hold that has expired: that hold's
    /// `expires_at`. The caller has checked that the capture is for the
    /// hold's customer and basket; the store records the capture as a new
    /// reservation under the key (if the key still names that hold, expired
    /// at `now`) and keeps the hold in its history. `None` otherwise: then a
    /// known key is always answered with its reservation, marked `replayed`.
    pub after_expired_hold: Option<Timestamp>,
}

/// Turns the hold under `key` into a captured redemption, if it is still
/// held and unexpired at `now` (and, with `expected`, only if the counts
/// are still exactly those).
///
/// The captured use counts `quote`'s discount where the hold counted its
/// own: a capture of a hold with another basket changes the budget's sum.
#[derive(Debug, Clone, Copy)]
pub struct Conversion<'a> {
    /// The code.
    pub code: &'a Code,
    /// The hold's key.
    pub key: &'a IdempotencyKey,
    /// What the capture charges: the hold's quote, or the quote of a changed basket.
    pub quote: &'a Quote,
    /// The moment of the capture.
    pub now: Timestamp,
    /// For a capture that changes what a budget counts (another basket, on
    /// a budgeted code): the counts, for the hold's customer at `now`, that
    /// the new discount was checked against. The conversion is then a
    /// compare-and-set: a store whose counts differ changes nothing and
    /// answers `None`. `None`: no comparison.
    pub expected: Option<UsageCounts>,
}

/// Gives back the use recorded under `key`.
#[derive(Debug, Clone, Copy)]
pub struct Release<'a> {
    /// The code.
    pub code: &'a Code,
    /// The key of the hold or capture to give back.
    pub key: &'a IdempotencyKey,
    /// The moment of the release.
    pub now: Timestamp,
    /// Why (at most 200 characters), if known.
    pub reason: Option<&'a str>,
}

/// A store that could not answer: the third outcome, neither stale nor a rejection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The backend failed (I/O, a poisoned lock, a database error).
    #[error("{store} store failed: {message}")]
    Backend {
        /// Which store, `"in-memory"` or `"sqlite"`.
        store: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Where redemptions are counted. It has no increment.
///
/// A code's counts at a moment `now` are its captured redemptions plus its
/// holds still active at `now` (`expires_at > now`), overall and per
/// customer, whether or not anything has marked the expired ones yet. Every
/// read and every write takes its `now`; a store never reads a clock.
///
/// Each of its three writes is one atomic compare-and-set:
///
/// - [`record`](RedemptionStore::record) writes a new use (a capture or a
///   hold) only if the counts at `now` are still exactly
///   [`Redemption::expected`] (total and per customer compared as one value),
///   and otherwise returns `Ok(None)` and changes nothing;
/// - [`convert`](RedemptionStore::convert) turns a hold into a capture only
///   if it is still held and unexpired at `now`;
/// - [`release`](RedemptionStore::release) gives a held or captured use back.
///
/// A conforming store:
///
/// - compares and writes, and stores the idempotency key, in one atomic step
///   (for a database: one transaction, the key behind a unique constraint);
/// - answers a key it already holds with its reservation as it now stands,
///   marked `replayed`, and writes nothing. The one exception is a capture
///   that names the expired hold it follows
///   ([`Redemption::after_expired_hold`]): it is recorded as a new capture
///   under the key, and the hold stays in the history as `expired`. A key
///   names one redemption forever: whether such a capture is for the hold's
///   customer and basket is the caller's check ([`capture`](crate::capture)
///   makes it);
/// - keeps keys per code;
/// - counts a campaign's codes together: a write that names a campaign
///   ([`Redemption::campaign`]) compares and moves the campaign's counts
///   (every code of it: total, per customer, the discounts) and the code's
///   own uses, as one value ([`uses_through`](RedemptionStore::uses_through)).
///   A campaign's counts are apart from those of a code that has its id.
///   A store keeps the campaign with the reservation: a conversion (its
///   `expected` read through the campaign) and a release move both.
///
/// The suite in `promocodes::testing` (feature `testing`) checks all of this for
/// any implementation.
pub trait RedemptionStore {
    /// The counts for `code` at `now`: overall, and for `customer` (0 without
    /// one), and the sum of the discounts of the uses counted.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError>;

    /// The counts for `code` of `campaign` at `now`: the campaign's (the
    /// uses of all of its codes, overall and for `customer`, and the sum of
    /// their discounts) with the uses of `code` itself
    /// ([`UsageCounts::code_uses`]), one value for a write naming the
    /// campaign to compare.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError>;

    /// The counts a decision on `promo` is made on: [`usage_for`](RedemptionStore::usage_for)
    /// its code, or for a campaign's code [`uses_through`](RedemptionStore::uses_through)
    /// its campaign. What an adapter shows or quotes with.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn usage_of(
        &self,
        promo: &PromoCode,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        match promo.campaign() {
            Some(campaign) => self.uses_through(campaign, promo.code(), customer, now),
            None => self.usage_for(promo.code(), customer, now),
        }
    }

    /// Counts the store believes are those of `code` (of `campaign`, if it
    /// names one) for `customer` at `now`, without asking its storage: a
    /// cache of what its own reads and writes saw, for a store whose reads
    /// cost a round trip. `None` (the default) when it has none.
    ///
    /// The decision loop may start each pass from them, so a store that
    /// learns from a stale write the counts it lost to (one that compares
    /// under a lock sees them) saves the next pass's read. They need not be
    /// current: the write compares them as it compares a read, and a stale
    /// write or a refusal on them is decided again on
    /// [`usage_for`](RedemptionStore::usage_for) (or
    /// [`uses_through`](RedemptionStore::uses_through)) in the same pass, as
    /// is a pass whose hint is counts a write of the decision already found
    /// stale. A wrong hint costs a round trip and never changes an answer.
    fn usage_hint(
        &self,
        code: &Code,
        campaign: Option<&Code>,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Option<UsageCounts> {
        let _ = (code, campaign, customer, now);
        None
    }

    /// How many of `code`'s counted uses at `now` are holds.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError>;

    /// The reservation recorded under `key` for `code`, if any, as it now stands, marked `replayed`.
    ///
    /// A read: it settles nothing by itself, since every write checks again.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError>;

    /// Writes `redemption` if the counts at `redemption.now` are still `redemption.expected`.
    ///
    /// Returns the new reservation; the earlier one, marked `replayed`, for a
    /// known key (unless this capture names the hold under the key in
    /// [`Redemption::after_expired_hold`] and that hold has expired at `now`:
    /// then the capture is recorded under the key and the hold kept as
    /// `expired`); or `None` when the counts moved (stale), having changed
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError>;

    /// Captures the hold under `conversion.key` with `conversion.quote`, if it
    /// is still held and unexpired at `conversion.now` (and, when
    /// `conversion.expected` is set, the counts for the hold's customer are
    /// still exactly those). The use counts do not move: the hold already
    /// counted; the discount counted becomes `conversion.quote`'s.
    ///
    /// Returns the captured reservation; the reservation marked `replayed`
    /// when it is already captured or released; `None` when there is no such
    /// key, the hold has expired, or the counts moved (stale), having
    /// changed nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError>;

    /// Gives back the use recorded under `release.key`: a hold (still active
    /// or expired) or a capture becomes `released`, with the time and the
    /// reason, and the counts drop by one overall and for its customer if it
    /// counted at `release.now`.
    ///
    /// Returns the released reservation; the reservation marked `replayed` if
    /// it was released before; `None` for an unknown key.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError>;
}

macro_rules! delegate_store {
    ($($target:ty),*) => {$(
        impl<S: RedemptionStore + ?Sized> RedemptionStore for $target {
            fn usage_for(
                &self,
                code: &Code,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> Result<UsageCounts, StoreError> {
                (**self).usage_for(code, customer, now)
            }

            fn uses_through(
                &self,
                campaign: &Code,
                code: &Code,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> Result<UsageCounts, StoreError> {
                (**self).uses_through(campaign, code, customer, now)
            }

            fn usage_hint(
                &self,
                code: &Code,
                campaign: Option<&Code>,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> Option<UsageCounts> {
                (**self).usage_hint(code, campaign, customer, now)
            }

            fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
                (**self).held(code, now)
            }

            fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
                (**self).reservation(code, key)
            }

            fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
                (**self).record(redemption)
            }

            fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
                (**self).convert(conversion)
            }

            fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
                (**self).release(release)
            }
        }
    )*};
}

delegate_store!(&S, Arc<S>, Box<S>);

/// A process's turn on one code's counts
/// ([`AsyncRedemptionStore::turn`]): the turn lasts until it is dropped.
///
/// # Example
///
/// A store that queues its decisions per code hands out what keeps its
/// queue taken (the PostgreSQL store: a tokio `OwnedMutexGuard` per code);
/// the turn keeps it alive, and gives it back when dropped:
///
/// ```
/// use std::sync::Arc;
///
/// use promocodes::Turn;
///
/// let taken = Arc::new(());
/// let turn = Turn::holding(Arc::clone(&taken));
/// assert_eq!(Arc::strong_count(&taken), 2, "held by the turn");
/// drop(turn);
/// assert_eq!(Arc::strong_count(&taken), 1, "given back");
/// assert!(format!("{:?}", Turn::free()).contains("free"));
/// ```
#[must_use = "the turn ends when it is dropped"]
pub struct Turn(Option<Box<dyn Send>>);

impl Turn {
    /// No queue: the decision runs at once.
    pub fn free() -> Turn {
        Turn(None)
    }

    /// A turn that lasts as long as `guard` lives (a mutex guard, a
    /// semaphore permit).
    pub fn holding(guard: impl Send + 'static) -> Turn {
        Turn(Some(Box::new(guard)))
    }
}

impl std::fmt::Debug for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Turn(held)" } else { "Turn(free)" })
    }
}

/// [`RedemptionStore`] for async services: the same six calls under the
/// same contract, each answering with a future, for a store that talks to a
/// database over the network (tokio, a pool of connections) and must not
/// block its runtime while it waits.
///
/// [`redeem_async`](crate::redeem_async), [`capture_async`](crate::capture_async),
/// [`hold_async`](crate::hold_async) and [`release_async`](crate::release_async)
/// drive it with the very decision loop [`redeem`](crate::redeem) and the others
/// run over a [`RedemptionStore`]: one loop, two drivers, so no rule or retry step
/// exists twice. The futures are `Send`, so a redemption can run on a
/// multi-threaded runtime (`tokio::spawn`).
///
/// Each write is still one atomic compare-and-set: a future that is dropped
/// before it completes must leave either the whole write or nothing.
///
/// # Example
///
/// The in-memory store implements both traits (its futures are ready at once):
///
/// ```
/// use promocodes::{capture_async, Basket, CaptureOptions, Code, Currency, Discount, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, Timestamp, UsageCounts};
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out; } }
/// # }
/// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
/// let store = InMemoryRedemptionStore::new();
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
///
/// // In an async fn: `capture_async(...).await?`.
/// let receipt = block_on(capture_async(&promo, &store, None, &basket, now, CaptureOptions::new()))?;
/// assert_eq!(receipt.usage, UsageCounts::new(1, 0)?.with_discounted("8.00".parse()?)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait AsyncRedemptionStore {
    /// As [`RedemptionStore::usage_for`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn usage_for(
        &self,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send;

    /// As [`RedemptionStore::uses_through`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send;

    /// As [`RedemptionStore::usage_hint`]: counts the store believes
    /// current, from memory (no await), or `None` (the default).
    fn usage_hint(
        &self,
        code: &Code,
        campaign: Option<&Code>,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Option<UsageCounts> {
        let _ = (code, campaign, customer, now);
        None
    }

    /// This process's turn on the counts of `code` (of `campaign`, for a
    /// campaign's code, whose codes share its counts): the async decision
    /// loop waits for it before its first read and holds it until its
    /// answer, so that one process's decisions on one code queue here, in
    /// memory, instead of racing each other at the storage. The default is
    /// no queue ([`Turn::free`]).
    ///
    /// A turn is not a lock of the counts: other processes do not wait on
    /// it, and the caps stay exact without it (every write is still a
    /// compare-and-set). It saves the herd of a hot code: when many tasks
    /// of one process capture it at once, each write that lands makes every
    /// other task's counts stale, and without a queue they all read, decide
    /// and write again. A store whose reads and writes are cheap (the
    /// in-memory one) needs none.
    fn turn(&self, code: &Code, campaign: Option<&Code>) -> impl Future<Output = Turn> + Send {
        let _ = (code, campaign);
        std::future::ready(Turn::free())
    }

    /// As [`RedemptionStore::held`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn held(&self, code: &Code, now: Timestamp) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// As [`RedemptionStore::reservation`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn reservation(
        &self,
        code: &Code,
        key: &IdempotencyKey,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send;

    /// As [`RedemptionStore::record`]: the compare-and-set of a new use.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn record(
        &self,
        redemption: &Redemption<'_>,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send;

    /// As [`RedemptionStore::convert`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn convert(
        &self,
        conversion: &Conversion<'_>,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send;

    /// As [`RedemptionStore::release`].
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn release(&self, release: &Release<'_>) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send;
}

macro_rules! delegate_async_store {
    ($($target:ty),*) => {$(
        impl<S: AsyncRedemptionStore + ?Sized + Sync + Send> AsyncRedemptionStore for $target {
            fn usage_for(
                &self,
                code: &Code,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send {
                (**self).usage_for(code, customer, now)
            }

            fn uses_through(
                &self,
                campaign: &Code,
                code: &Code,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send {
                (**self).uses_through(campaign, code, customer, now)
            }

            fn usage_hint(
                &self,
                code: &Code,
                campaign: Option<&Code>,
                customer: Option<&CustomerId>,
                now: Timestamp,
            ) -> Option<UsageCounts> {
                (**self).usage_hint(code, campaign, customer, now)
            }

            fn turn(&self, code: &Code, campaign: Option<&Code>) -> impl Future<Output = Turn> + Send {
                (**self).turn(code, campaign)
            }

            fn held(&self, code: &Code, now: Timestamp) -> impl Future<Output = Result<u64, StoreError>> + Send {
                (**self).held(code, now)
            }

            fn reservation(
                &self,
                code: &Code,
                key: &IdempotencyKey,
            ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
                (**self).reservation(code, key)
            }

            fn record(
                &self,
                redemption: &Redemption<'_>,
            ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
                (**self).record(redemption)
            }

            fn convert(
                &self,
                conversion: &Conversion<'_>,
            ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
                (**self).convert(conversion)
            }

            fn release(
                &self,
                release: &Release<'_>,
            ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
                (**self).release(release)
            }
        }
    )*};
}

delegate_async_store!(&S, Arc<S>, Box<S>);
