use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::money::Money;
use crate::rules::{Quote, UsageCounts};

/// One redemption a store is asked to write, against the counts it was validated on.
///
/// `expected` is what [`RedemptionStore::usage_for`] said when the rules
/// were checked; the write happens only if the counts are still exactly
/// that. The quote is kept with the idempotency key so that a replay can
/// answer with the very receipt the first write got.
#[derive(Debug, Clone, Copy)]
pub struct Redemption<'a> {
    /// The code being redeemed.
    pub code: &'a Code,
    /// Who redeems it, if known.
    pub customer: Option<&'a CustomerId>,
    /// The counts the decision was made against.
    pub expected: UsageCounts,
    /// The retry key, if the caller has one.
    pub idempotency_key: Option<&'a IdempotencyKey>,
    /// What the buyer pays.
    pub quote: &'a Quote,
}

/// A redemption a store has written (or, with `replayed`, had written before).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reservation {
    /// Who redeemed, if known.
    pub customer: Option<CustomerId>,
    /// What was charged.
    pub quote: Quote,
    /// The counts right after this redemption was written.
    pub usage: UsageCounts,
    /// True when this answers a known idempotency key: nothing was incremented.
    pub replayed: bool,
}

impl Reservation {
    /// Whether a request for `customer` and `total` is the same redemption as
    /// this one. A key reused for anything else is
    /// [`RedeemError::IdempotencyKeyReused`](crate::RedeemError::IdempotencyKeyReused).
    pub fn is_same_request(&self, customer: Option<&CustomerId>, total: &Money) -> bool {
        self.customer.as_ref() == customer && self.quote.total() == total
    }

    /// The receipt this reservation stands for.
    pub fn into_receipt(self) -> Receipt {
        Receipt {
            quote: self.quote,
            usage: self.usage,
            replayed: self.replayed,
        }
    }
}

/// What a buyer gets for a redemption: the quote charged, the counts after
/// it, and whether this answer replays an earlier one.
///
/// Serialised as `{"quote": <Quote>, "usage": {"total": 1, "per_customer": 1}, "replayed": false}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    /// What was charged.
    pub quote: Quote,
    /// The counts right after the redemption.
    pub usage: UsageCounts,
    /// True when a known idempotency key answered: nothing was incremented.
    pub replayed: bool,
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
/// Its only write, [`record`](RedemptionStore::record), is a compare-and-set:
/// it increments the counts only if they are still exactly
/// [`Redemption::expected`] (total and per customer compared as one value)
/// and otherwise returns `Ok(None)` and changes nothing. A conforming store:
///
/// - compares, increments and stores the idempotency key in one atomic step
///   (for a database: one transaction, the key behind a unique constraint);
/// - answers a key it already holds with the earlier reservation, marked
///   `replayed`, and increments nothing, whatever `expected` says;
/// - keeps keys per code.
///
/// The suite in `promocodes::testing` (feature `testing`) checks all of this for
/// any implementation.
pub trait RedemptionStore {
    /// The counts for `code`: overall, and for `customer` (0 without one).
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError>;

    /// The reservation recorded under `key` for `code`, if any, marked `replayed`.
    ///
    /// A read: it settles nothing by itself, since `record` checks the key again.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer.
    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError>;

    /// Writes `redemption` if the counts are still `redemption.expected`.
    ///
    /// Returns the new reservation; the earlier one, marked `replayed`, for a
    /// known key; or `None` when the counts moved (stale), having changed nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot answer; then nothing is recorded.
    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError>;
}

impl<S: RedemptionStore + ?Sized> RedemptionStore for &S {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError> {
        (**self).usage_for(code, customer)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        (**self).reservation(code, key)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        (**self).record(redemption)
    }
}

impl<S: RedemptionStore + ?Sized> RedemptionStore for Arc<S> {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError> {
        (**self).usage_for(code, customer)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        (**self).reservation(code, key)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        (**self).record(redemption)
    }
}
