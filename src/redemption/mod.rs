//! Redemption: [`hold`], [`capture`], [`release`] and [`redeem`], the one
//! compare-and-set loop they share (one private `decide` module), what they answer and how
//! they fail. It drives a [`RedemptionStore`] with the rules' decisions; it
//! uses the store, rules and values layers, and never reads a clock.

mod answer;
mod decide;
mod error;
mod options;

pub use answer::{Hold, Receipt, Released};
pub use error::{Misuse, RedemptionConflict, RedemptionError, RedemptionRejected, ReleaseError};
pub use options::{CaptureOptions, HoldOptions, RedeemOptions};

use decide::{Attempt, Goal};

use crate::rules::{Basket, PromoCode, Quote};
use crate::store::{AsyncRedemptionStore, RedemptionStore, Release, Reservation, ReservationState, StoreError};
use crate::values::{Code, CustomerId, IdempotencyKey, InputError, Timestamp};

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
/// [`RedemptionError::Rejected`] when a rule refuses, [`RedemptionError::Conflict`]
/// when every pass lost its write, [`RedemptionError::IdempotencyKeyReused`],
/// [`RedemptionError::Misuse`] ([`Misuse::ZeroAttempts`]) for zero attempts, [`RedemptionError::Store`]. In every
/// case but a store failure, nothing was recorded.
///
/// # Example
///
/// ```
/// use promocodes::{redeem, Basket, Code, Currency, CustomerId, Discount, IdempotencyKey, InMemoryRedemptionStore};
/// use promocodes::{Money, PromoCode, RedemptionError, RedeemOptions, Rejection, Timestamp, UsageCounts, UsageLimits};
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
/// assert_eq!(receipt.usage, UsageCounts::new(1, 1)?.with_discounted("8.00".parse()?)?);
///
/// // The provider redelivers the same event: the same receipt, nothing counted twice.
/// let again = redeem(&promo, &store, Some(&alice), &basket, now, RedeemOptions::new().idempotency_key(&key))?;
/// assert!(again.replayed);
/// assert_eq!(again.usage, receipt.usage);
///
/// // A new payment by alice is refused: one per customer.
/// let err = redeem(&promo, &store, Some(&alice), &basket, now, RedeemOptions::new()).unwrap_err();
/// assert!(matches!(err, RedemptionError::Rejected(r) if r.rejection() == Rejection::CustomerLimitReached));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn redeem<S: RedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    options: RedeemOptions<'_>,
) -> Result<Receipt, RedemptionError> {
    redeem_attempt(promo, customer, basket, now, options)
        .decide(store, options.attempts)
        .map(Receipt::from)
}

/// [`redeem`] over an [`AsyncRedemptionStore`]: the same decision, each
/// store call awaited.
///
/// # Errors
///
/// As [`redeem`].
pub async fn redeem_async<S: AsyncRedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    options: RedeemOptions<'_>,
) -> Result<Receipt, RedemptionError> {
    redeem_attempt(promo, customer, basket, now, options)
        .decide_async(store, options.attempts)
        .await
        .map(Receipt::from)
}

fn redeem_attempt<'a>(
    promo: &'a PromoCode,
    customer: Option<&'a CustomerId>,
    basket: &'a Basket,
    now: Timestamp,
    options: RedeemOptions<'a>,
) -> Attempt<'a> {
    Attempt {
        promo,
        customer,
        basket,
        now,
        key: options.idempotency_key,
        goal: Goal::Capture { pinned: None },
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
///   [`RedemptionError::IdempotencyKeyReused`]); the hold stays in the store's
///   history as `expired`, and the capture's record names it
///   ([`Reservation::hold_expired_at`](crate::Reservation::hold_expired_at)).
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
/// [`RedemptionError::Rejected`] carries the [`RedemptionRejected`] with the rule and the
/// stale quote; the rest as for [`redeem`]; [`RedemptionError::Misuse`]
/// ([`Misuse::QuoteForOtherCode`]) when the pinned quote is for another code, and
/// [`RedemptionError::Input`] when the amount [`charged`](CaptureOptions::charged)
/// is in another currency than the basket or above its total.
///
/// # Example
///
/// ```
/// use promocodes::{capture, Basket, RedemptionError, CaptureOptions, Code, Currency, Discount, InMemoryRedemptionStore};
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
///     RedemptionError::Rejected(stale) => {
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
) -> Result<Receipt, RedemptionError> {
    let charged = charged_quote(promo, basket, now, options)?;
    capture_attempt(promo, customer, basket, now, options, charged.as_ref())
        .decide(store, options.redeem.attempts)
        .map(Receipt::from)
}

/// [`capture`] over an [`AsyncRedemptionStore`]: the same decision, each
/// store call awaited.
///
/// # Errors
///
/// As [`capture`].
pub async fn capture_async<S: AsyncRedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    options: CaptureOptions<'_>,
) -> Result<Receipt, RedemptionError> {
    let charged = charged_quote(promo, basket, now, options)?;
    capture_attempt(promo, customer, basket, now, options, charged.as_ref())
        .decide_async(store, options.redeem.attempts)
        .await
        .map(Receipt::from)
}

/// Checks a capture's pinned quote, and makes the quote that charges
/// [`CaptureOptions::charged`] when no quote is pinned.
fn charged_quote(
    promo: &PromoCode,
    basket: &Basket,
    now: Timestamp,
    options: CaptureOptions<'_>,
) -> Result<Option<Quote>, RedemptionError> {
    if let Some(quoted) = options.quoted {
        if quoted.code() != promo.code() {
            return Err(RedemptionError::Misuse(Misuse::QuoteForOtherCode {
                code: promo.code().to_string(),
                quoted: quoted.code().to_string(),
            }));
        }
    }
    match (options.quoted, options.charged) {
        (None, Some(amount)) => Ok(Some(
            Quote::charging(promo.code(), basket, amount, now).map_err(RedemptionError::Input)?,
        )),
        _ => Ok(None),
    }
}

fn capture_attempt<'a>(
    promo: &'a PromoCode,
    customer: Option<&'a CustomerId>,
    basket: &'a Basket,
    now: Timestamp,
    options: CaptureOptions<'a>,
    charged: Option<&'a Quote>,
) -> Attempt<'a> {
    Attempt {
        promo,
        customer,
        basket,
        now,
        key: options.redeem.idempotency_key,
        goal: Goal::Capture {
            pinned: options.quoted.or(charged),
        },
    }
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
/// As [`redeem`]; [`RedemptionError::Input`] for a time to live outside 1 s to 1 h.
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
) -> Result<Hold, RedemptionError> {
    let (attempt, until) = hold_attempt(promo, customer, basket, now, key, options)?;
    Ok(hold_answer(key, now, until, attempt.decide(store, options.attempts)?))
}

/// [`hold`] over an [`AsyncRedemptionStore`]: the same decision, each store
/// call awaited.
///
/// # Errors
///
/// As [`hold`].
pub async fn hold_async<S: AsyncRedemptionStore + ?Sized>(
    promo: &PromoCode,
    store: &S,
    customer: Option<&CustomerId>,
    basket: &Basket,
    now: Timestamp,
    key: &IdempotencyKey,
    options: HoldOptions,
) -> Result<Hold, RedemptionError> {
    let (attempt, until) = hold_attempt(promo, customer, basket, now, key, options)?;
    Ok(hold_answer(
        key,
        now,
        until,
        attempt.decide_async(store, options.attempts).await?,
    ))
}

/// A hold's attempt, and when the hold would expire.
fn hold_attempt<'a>(
    promo: &'a PromoCode,
    customer: Option<&'a CustomerId>,
    basket: &'a Basket,
    now: Timestamp,
    key: &'a IdempotencyKey,
    options: HoldOptions,
) -> Result<(Attempt<'a>, Timestamp), RedemptionError> {
    let ttl = check_hold_ttl(options.ttl_seconds).map_err(RedemptionError::Input)?;
    let until = now
        .checked_add_seconds(ttl as i64)
        .ok_or(RedemptionError::Input(InputError::TimeOutOfRange {
            what: "the hold's expiry",
        }))?;
    let attempt = Attempt {
        promo,
        customer,
        basket,
        now,
        key: Some(key),
        goal: Goal::Hold { until },
    };
    Ok((attempt, until))
}

fn hold_answer(key: &IdempotencyKey, now: Timestamp, until: Timestamp, reservation: Reservation) -> Hold {
    Hold {
        key: key.clone(),
        state: reservation.state_at(now),
        // A key that names a use captured without a hold: its hold, had there been one, ended then.
        expires_at: reservation.expires_at.or(reservation.captured_at).unwrap_or(until),
        quote: reservation.quote,
        usage: reservation.usage,
        replayed: reservation.replayed,
    }
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
    let request = release_request(code, key, now, reason)?;
    released(&request, store.release(&request))
}

/// [`release`] over an [`AsyncRedemptionStore`].
///
/// # Errors
///
/// As [`release`].
pub async fn release_async<S: AsyncRedemptionStore + ?Sized>(
    store: &S,
    code: &Code,
    key: &IdempotencyKey,
    now: Timestamp,
    reason: Option<&str>,
) -> Result<Released, ReleaseError> {
    let request = release_request(code, key, now, reason)?;
    released(&request, store.release(&request).await)
}

fn release_request<'a>(
    code: &'a Code,
    key: &'a IdempotencyKey,
    now: Timestamp,
    reason: Option<&'a str>,
) -> Result<Release<'a>, ReleaseError> {
    if let Some(reason) = reason {
        check_reason(reason).map_err(ReleaseError::Input)?;
    }
    Ok(Release { code, key, now, reason })
}

fn released(request: &Release<'_>, answer: Result<Option<Reservation>, StoreError>) -> Result<Released, ReleaseError> {
    let released = answer
        .map_err(ReleaseError::Store)?
        .ok_or_else(|| ReleaseError::UnknownKey {
            code: request.code.clone(),
            key: request.key.clone(),
        })?;
    Ok(Released {
        key: request.key.clone(),
        state: released.state,
        was: released.was.unwrap_or(ReservationState::Held),
        released_at: released.released_at.unwrap_or(request.now),
        reason: released.reason,
        usage: released.usage,
        replayed: released.replayed,
        currency: Some(released.quote.total().currency()),
    })
}
