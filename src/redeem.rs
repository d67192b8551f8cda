use crate::time::Timestamp;

use crate::error::InputError;
use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::money::Money;
use crate::promo::PromoCode;
use crate::rules::{PromoCodeRejected, Quote, Rejection};
use crate::store::{Receipt, Redemption, RedemptionStore, StoreError};

/// How many passes [`redeem`] and [`capture`] make before they give up with a
/// [`RedemptionConflict`].
pub const DEFAULT_ATTEMPTS: u32 = 3;

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

/// A capture refused at payment time: the rule that refused, and the quote
/// the buyer had been shown, which no longer holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("capture refused: {rejected}")]
pub struct CaptureRejected {
    /// Which rule refused, with the sentence for the buyer.
    pub rejected: PromoCodeRejected,
    /// The quote the buyer was shown (the stale one).
    pub quote: Quote,
}

impl CaptureRejected {
    /// The rule that refused.
    pub fn rejection(&self) -> Rejection {
        self.rejected.rejection()
    }
}

/// Why [`redeem`] returned no receipt. Three kinds stay apart: a rejection
/// (for the buyer), a conflict (for the operator), and bad input or a store
/// failure (for the developer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RedeemError {
    /// A rule refused; nothing was recorded.
    #[error(transparent)]
    Rejected(PromoCodeRejected),
    /// Every attempt lost its compare-and-set; nothing was recorded.
    #[error(transparent)]
    Conflict(RedemptionConflict),
    /// The idempotency key was used before for another customer or total; nothing was recorded.
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
    /// A rule refused at payment time; nothing was recorded.
    #[error(transparent)]
    Rejected(Box<CaptureRejected>),
    /// Every attempt lost its compare-and-set; nothing was recorded.
    #[error(transparent)]
    Conflict(RedemptionConflict),
    /// The idempotency key was used before for another customer or total; nothing was recorded.
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

/// Options for [`capture`]: [`RedeemOptions`] plus a total that changed since the quote.
#[derive(Debug, Clone, Copy, Default)]
#[must_use]
pub struct CaptureOptions<'a> {
    redeem: RedeemOptions<'a>,
    total: Option<Money>,
}

impl<'a> CaptureOptions<'a> {
    /// No key, [`DEFAULT_ATTEMPTS`] passes, the quoted total.
    pub fn new() -> CaptureOptions<'a> {
        CaptureOptions::default()
    }

    /// Makes the capture safe to retry under `key`.
    pub fn idempotency_key(mut self, key: &'a IdempotencyKey) -> CaptureOptions<'a> {
        self.redeem = self.redeem.idempotency_key(key);
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> CaptureOptions<'a> {
        self.redeem = self.redeem.attempts(attempts);
        self
    }

    /// Captures against `total` rather than the quoted one (the basket changed).
    pub fn total(mut self, total: Money) -> CaptureOptions<'a> {
        self.total = Some(total);
        self
    }
}

/// Redeems `promo` once for `customer` and `total`, at `now`.
///
/// Each pass re-reads the counts, re-runs every rule against them, prices,
/// and asks the store to write against exactly the counts it read. A lost
/// race with room left succeeds on the next pass; a lost race for the last
/// use is refused on the next pass with [`Rejection::Exhausted`]. A known
/// idempotency key answers with the earlier receipt, marked `replayed`, and
/// increments nothing.
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
/// use promocodes::{redeem, Code, Currency, CustomerId, Discount, IdempotencyKey, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, RedeemError, RedeemOptions, Rejection, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("ONCE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1000), Some(1))?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let alice = CustomerId::parse("alice")?;
/// let total = Money::parse("80", Currency::EUR)?;
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let key = IdempotencyKey::parse("evt_1")?;
///
/// let receipt = redeem(&promo, &store, Some(&alice), &total, now, RedeemOptions::new().idempotency_key(&key))?;
/// assert_eq!(receipt.usage, UsageCounts::new(1, 1)?);
///
/// // The provider redelivers the same event: the same receipt, nothing counted twice.
/// let again = redeem(&promo, &store, Some(&alice), &total, now, RedeemOptions::new().idempotency_key(&key))?;
/// assert!(again.replayed);
/// assert_eq!(again.usage, receipt.usage);
///
/// // A new payment by alice is refused: one per customer.
/// let err = redeem(&promo, &store, Some(&alice), &total, now, RedeemOptions::new()).unwrap_err();
/// assert!(matches!(err, RedeemError::Rejected(r) if r.rejection() == Rejection::CustomerLimitReached));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn redeem<S: RedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    total: &Money,
    now: Timestamp,
    options: RedeemOptions<'_>,
) -> Result<Receipt, RedeemError> {
    if options.attempts == 0 {
        return Err(RedeemError::Input(InputError::ZeroAttempts));
    }
    let code = promo.code();
    let key = options.idempotency_key;
    if let Some(key) = key {
        if let Some(earlier) = store.reservation(code, key).map_err(RedeemError::Store)? {
            return replay(earlier, key, customer, total);
        }
    }
    for _ in 0..options.attempts {
        let usage = store.usage_for(code, customer).map_err(RedeemError::Store)?;
        let quote = promo
            .quote(customer, usage, total, now)
            .map_err(RedeemError::Rejected)?;
        let written = store
            .record(&Redemption {
                code,
                customer,
                expected: usage,
                idempotency_key: key,
                quote: &quote,
            })
            .map_err(RedeemError::Store)?;
        match (written, key) {
            (Some(reservation), Some(key)) if reservation.replayed => return replay(reservation, key, customer, total),
            (Some(reservation), _) => return Ok(reservation.into_receipt()),
            (None, _) => continue,
        }
    }
    Err(RedeemError::Conflict(RedemptionConflict {
        code: code.clone(),
        attempts: options.attempts,
    }))
}

fn replay(
    earlier: crate::store::Reservation,
    key: &IdempotencyKey,
    customer: Option<&CustomerId>,
    total: &Money,
) -> Result<Receipt, RedeemError> {
    if !earlier.is_same_request(customer, total) {
        return Err(RedeemError::IdempotencyKeyReused { key: key.clone() });
    }
    Ok(Receipt {
        replayed: true,
        ..earlier.into_receipt()
    })
}

/// Captures a quoted redemption when the money moves.
///
/// Every rule runs again, through [`redeem`], against the counts and the
/// clock of this moment and against [`CaptureOptions::total`] if the basket
/// changed. The code may have run out, expired, or the basket may have
/// dropped below the minimum while the buyer was paying: then the capture is
/// refused with the stale quote, and nothing is recorded.
///
/// # Errors
///
/// [`CaptureError::Rejected`] carries the [`CaptureRejected`] with the rule and the
/// stale quote; the rest as for [`redeem`], and [`CaptureError::Input`] when
/// the quote is for another code.
///
/// # Example
///
/// ```
/// use promocodes::{capture, CaptureError, CaptureOptions, Code, Currency, Discount, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, Rejection, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("LASTONE")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(1), None)?)
///     .build()?;
/// let store = InMemoryRedemptionStore::new();
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let cart = promo.quote(None, UsageCounts::ZERO, &Money::parse("80", Currency::EUR)?, now)?;
///
/// capture(&promo, &store, &cart, None, now, CaptureOptions::new())?; // someone else pays first
/// let refused = capture(&promo, &store, &cart, None, now, CaptureOptions::new()).unwrap_err();
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
    quoted: &Quote,
    customer: Option<&CustomerId>,
    now: Timestamp,
    options: CaptureOptions<'_>,
) -> Result<Receipt, CaptureError> {
    if quoted.code() != promo.code() {
        return Err(CaptureError::Input(InputError::QuoteForOtherCode {
            code: promo.code().to_string(),
            quoted: quoted.code().to_string(),
        }));
    }
    let total = options.total.as_ref().unwrap_or(quoted.total());
    redeem(promo, store, customer, total, now, options.redeem).map_err(|err| match err {
        RedeemError::Rejected(rejected) => CaptureError::Rejected(Box::new(CaptureRejected {
            rejected,
            quote: quoted.clone(),
        })),
        RedeemError::Conflict(conflict) => CaptureError::Conflict(conflict),
        RedeemError::IdempotencyKeyReused { key } => CaptureError::IdempotencyKeyReused { key },
        RedeemError::Input(input) => CaptureError::Input(input),
        RedeemError::Store(store) => CaptureError::Store(store),
    })
}
