//! Test support for store implementers: the conformance suite every
//! [`RedemptionStore`] must pass, and [`FlakyStore`], which refuses writes on
//! demand so a compare-and-set loop can be tested without threads.
//!
//! Enabled by the `testing` feature.
//!
//! # Example
//!
//! ```
//! use promocodes::testing;
//! use promocodes::InMemoryRedemptionStore;
//!
//! // Each check gets a fresh, empty store from the closure.
//! testing::run_conformance(InMemoryRedemptionStore::new);
//! ```

use std::sync::atomic::{AtomicU32, Ordering};

mod conformance;

pub use conformance::*;

use super::{Conversion, Redemption, RedemptionStore, Release, Reservation, StoreError};
use crate::rules::UsageCounts;
use crate::values::{Code, CustomerId, IdempotencyKey, Timestamp};

/// A store that refuses its first `refusals` writes as stale, then passes
/// every call to `inner`. It counts the writes it was asked for.
///
/// # Example
///
/// ```
/// use promocodes::testing::FlakyStore;
/// use promocodes::{redeem, Basket, Code, Currency, Discount, InMemoryRedemptionStore, Money, PromoCode};
/// use promocodes::{RedeemOptions, RedemptionStore, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("CAP5")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(5), None)?)
///     .build()?;
/// let store = FlakyStore::new(InMemoryRedemptionStore::new(), 2);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
///
/// let receipt = redeem(&promo, &store, None, &basket, now, RedeemOptions::new().attempts(3))?;
/// assert_eq!(receipt.usage, UsageCounts::new(1, 0)?.with_discounted("8.00".parse()?)?);
/// assert_eq!(store.writes(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FlakyStore<S> {
    /// The store that answers once the refusals are used up.
    pub inner: S,
    refusals: u32,
    writes: AtomicU32,
}

impl<S> FlakyStore<S> {
    /// Wraps `inner`, refusing its first `refusals` writes.
    pub fn new(inner: S, refusals: u32) -> FlakyStore<S> {
        FlakyStore {
            inner,
            refusals,
            writes: AtomicU32::new(0),
        }
    }

    /// How many writes were asked for, refused or not.
    pub fn writes(&self) -> u32 {
        self.writes.load(Ordering::SeqCst)
    }
}

impl<S: RedemptionStore> RedemptionStore for FlakyStore<S> {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.inner.usage_for(code, customer, now)
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        self.inner.uses_through(campaign, code, customer, now)
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        self.inner.held(code, now)
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.convert(conversion)
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.release(release)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.inner.reservation(code, key)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let seen = self.writes.fetch_add(1, Ordering::SeqCst);
        if seen < self.refusals {
            return Ok(None);
        }
        self.inner.record(redemption)
    }
}

/// Where [`Interleave`] runs its hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Point {
    /// Inside the first [`RedemptionStore::usage_for`] (or
    /// [`uses_through`](RedemptionStore::uses_through)), before it reads.
    UsageFor,
    /// Inside the first [`RedemptionStore::record`], before it writes.
    Record,
}

/// A store that lets something else happen at one exact point of a
/// redemption: `hook` runs once, with the inner store, inside the first call
/// at `point`, and then the call goes on. This is how a race is tested
/// deterministically: the twin finishes inside the loser's first read.
///
/// # Example
///
/// ```
/// use promocodes::testing::{Interleave, Point};
/// use promocodes::{redeem, Basket, Code, Currency, Discount, InMemoryRedemptionStore, Money, PromoCode};
/// use promocodes::{RedemptionError, RedeemOptions, Rejection, Timestamp, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("LASTONE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1), None)?)
///     .build()?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// // Another buyer takes the last use between this redemption's read and its write.
/// let store = Interleave::new(InMemoryRedemptionStore::new(), Point::Record, |inner| {
///     redeem(&promo, inner, None, &basket, now, RedeemOptions::new()).expect("the other buyer redeems");
/// });
/// let err = redeem(&promo, &store, None, &basket, now, RedeemOptions::new()).unwrap_err();
/// assert!(matches!(err, RedemptionError::Rejected(r) if r.rejection() == Rejection::Exhausted));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Interleave<S, F> {
    /// The store every call goes to.
    pub inner: S,
    point: Point,
    hook: std::cell::RefCell<Option<F>>,
}

impl<S, F: FnOnce(&S)> Interleave<S, F> {
    /// Wraps `inner`; `hook` runs once, inside the first call at `point`.
    pub fn new(inner: S, point: Point, hook: F) -> Interleave<S, F> {
        Interleave {
            inner,
            point,
            hook: std::cell::RefCell::new(Some(hook)),
        }
    }

    /// Whether the hook has run.
    pub fn ran(&self) -> bool {
        self.hook.borrow().is_none()
    }

    fn at(&self, point: Point) {
        if point != self.point {
            return;
        }
        let hook = self.hook.borrow_mut().take();
        if let Some(hook) = hook {
            hook(&self.inner);
        }
    }
}

impl<S, F> std::fmt::Debug for Interleave<S, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interleave")
            .field("point", &self.point)
            .finish_non_exhaustive()
    }
}

impl<S: RedemptionStore, F: FnOnce(&S)> RedemptionStore for Interleave<S, F> {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.at(Point::UsageFor);
        self.inner.usage_for(code, customer, now)
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        self.at(Point::UsageFor);
        self.inner.uses_through(campaign, code, customer, now)
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        self.inner.held(code, now)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.inner.reservation(code, key)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        self.at(Point::Record);
        self.inner.record(redemption)
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.convert(conversion)
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.release(release)
    }
}
