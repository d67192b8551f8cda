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

use crate::currency::Currency;
use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::money::Money;
use crate::promo::{Discount, PromoCode};
use crate::rules::{Quote, UsageCounts};
use crate::store::{Redemption, RedemptionStore, Reservation, StoreError};

/// A store that refuses its first `refusals` writes as stale, then passes
/// every call to `inner`. It counts the writes it was asked for.
///
/// # Example
///
/// ```
/// use promocodes::testing::FlakyStore;
/// use promocodes::{redeem, Code, Currency, Discount, InMemoryRedemptionStore, Money, PromoCode};
/// use promocodes::{RedeemOptions, RedemptionStore, Timestamp, UsageCounts, UsageLimits};
///
/// let promo = PromoCode::builder(Code::parse("CAP5")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(5), None)?)
///     .build()?;
/// let store = FlakyStore::new(InMemoryRedemptionStore::new(), 2);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let total = Money::parse("80", Currency::EUR)?;
///
/// let receipt = redeem(&promo, &store, None, &total, now, RedeemOptions::new().attempts(3))?;
/// assert_eq!(receipt.usage, UsageCounts::new(1, 0)?);
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
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError> {
        self.inner.usage_for(code, customer)
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

/// Runs every conformance check, each on a fresh store from `new_store`.
///
/// # Panics
///
/// On the first check the store fails, with a message naming the contract clause.
pub fn run_conformance<S: RedemptionStore>(new_store: impl Fn() -> S) {
    record_is_compare_and_set(&new_store());
    usage_is_compared_as_one_value(&new_store());
    known_key_replays_without_incrementing(&new_store());
    reservation_reads_keys_per_code(&new_store());
    codes_count_apart(&new_store());
    anonymous_redemptions_count_only_in_total(&new_store());
}

fn fixture(code: &str) -> (Code, Quote) {
    let promo = PromoCode::builder(
        Code::parse(code).expect("valid code"),
        Discount::percent(10.into()).expect("10%"),
    )
    .build()
    .expect("valid definition");
    let total = Money::parse("80.00", Currency::EUR).expect("valid money");
    let now = "2026-12-02T10:00:00Z".parse().expect("valid time");
    let quote = promo.price(&total, now).expect("priced");
    (promo.code().clone(), quote)
}

fn usage(total: u64, per_customer: u64) -> UsageCounts {
    UsageCounts::new(total, per_customer).expect("valid usage")
}

fn customer(name: &str) -> CustomerId {
    CustomerId::parse(name).expect("valid customer")
}

fn key(text: &str) -> IdempotencyKey {
    IdempotencyKey::parse(text).expect("valid key")
}

fn write<'a>(
    code: &'a Code,
    quote: &'a Quote,
    customer: Option<&'a CustomerId>,
    expected: UsageCounts,
    key: Option<&'a IdempotencyKey>,
) -> Redemption<'a> {
    Redemption {
        code,
        customer,
        expected,
        idempotency_key: key,
        quote,
    }
}

fn record<S: RedemptionStore>(store: &S, redemption: &Redemption<'_>) -> Option<Reservation> {
    store.record(redemption).expect("the store answers")
}

fn usage_for<S: RedemptionStore>(store: &S, code: &Code, customer: Option<&CustomerId>) -> UsageCounts {
    store.usage_for(code, customer).expect("the store answers")
}

/// A write against spent counts is stale and changes nothing.
pub fn record_is_compare_and_set<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SAVE10");
    let alice = customer("alice");
    assert_eq!(
        usage_for(store, &code, Some(&alice)),
        UsageCounts::ZERO,
        "a new code has no usage"
    );

    let first = record(store, &write(&code, &quote, Some(&alice), UsageCounts::ZERO, None))
        .expect("the first write against (0, 0) lands");
    assert_eq!(first.usage, usage(1, 1), "the write returns the counts after it");
    assert!(!first.replayed, "a new write is not a replay");
    assert_eq!(first.customer.as_ref(), Some(&alice));
    assert_eq!(first.quote, quote, "the reservation keeps the quote");

    let stale = record(store, &write(&code, &quote, Some(&alice), UsageCounts::ZERO, None));
    assert_eq!(stale, None, "a second write against (0, 0) must be stale");
    assert_eq!(
        usage_for(store, &code, Some(&alice)),
        usage(1, 1),
        "a stale write changes nothing"
    );

    let ahead = record(store, &write(&code, &quote, Some(&alice), usage(5, 1), None));
    assert_eq!(ahead, None, "a write against counts the store never had is stale");
    assert_eq!(usage_for(store, &code, Some(&alice)), usage(1, 1));
}

/// Total and per-customer counts are one condition: another customer's
/// redemption makes a pending write stale.
pub fn usage_is_compared_as_one_value<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("ONEVALUE");
    let (alice, bob) = (customer("alice"), customer("bob"));
    record(store, &write(&code, &quote, Some(&alice), UsageCounts::ZERO, None)).expect("alice lands");

    assert_eq!(usage_for(store, &code, Some(&bob)), usage(1, 0));
    let stale = record(store, &write(&code, &quote, Some(&bob), UsageCounts::ZERO, None));
    assert_eq!(stale, None, "bob's write against (0, 0) is stale once alice redeemed");

    let bobs = record(store, &write(&code, &quote, Some(&bob), usage(1, 0), None)).expect("bob lands on (1, 0)");
    assert_eq!(bobs.usage, usage(2, 1));
    assert_eq!(usage_for(store, &code, Some(&alice)), usage(2, 1));
    assert_eq!(usage_for(store, &code, None), usage(2, 0));
}

/// A known key answers with the earlier reservation, marked replayed, and increments nothing.
pub fn known_key_replays_without_incrementing<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("REPLAY");
    let alice = customer("alice");
    let evt = key("evt_1");
    let first = record(
        store,
        &write(&code, &quote, Some(&alice), UsageCounts::ZERO, Some(&evt)),
    )
    .expect("lands");
    assert!(!first.replayed);

    for expected in [usage(1, 1), UsageCounts::ZERO, usage(7, 0)] {
        let again = record(store, &write(&code, &quote, Some(&alice), expected, Some(&evt)))
            .expect("a known key is answered, whatever the expected counts");
        assert!(again.replayed, "a known key is a replay");
        assert_eq!(again.usage, first.usage, "a replay carries the first usage");
        assert_eq!(again.quote, first.quote, "a replay carries the first quote");
        assert_eq!(again.customer, first.customer);
    }
    assert_eq!(
        usage_for(store, &code, Some(&alice)),
        usage(1, 1),
        "replays increment nothing"
    );

    let other = record(store, &write(&code, &quote, None, usage(1, 0), Some(&key("evt_2")))).expect("a new key lands");
    assert_eq!(other.usage, usage(2, 0));
}

/// `reservation` finds a key's reservation, for that code only.
pub fn reservation_reads_keys_per_code<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("KEYED");
    let (other_code, other_quote) = fixture("OTHER");
    let evt = key("evt_shared");
    assert_eq!(store.reservation(&code, &evt).expect("answers"), None);

    let first = record(store, &write(&code, &quote, None, UsageCounts::ZERO, Some(&evt))).expect("lands");
    let found = store
        .reservation(&code, &evt)
        .expect("answers")
        .expect("the key is known now");
    assert!(found.replayed);
    assert_eq!(found.usage, first.usage);
    assert_eq!(found.quote, first.quote);

    assert_eq!(
        store.reservation(&other_code, &evt).expect("answers"),
        None,
        "keys are per code"
    );
    let elsewhere = record(
        store,
        &write(&other_code, &other_quote, None, UsageCounts::ZERO, Some(&evt)),
    )
    .expect("the same key lands on another code");
    assert!(!elsewhere.replayed);
    assert_eq!(usage_for(store, &other_code, None), usage(1, 0));
}

/// Each code has its own counters.
pub fn codes_count_apart<S: RedemptionStore>(store: &S) {
    let (first, quote) = fixture("FIRST");
    let (second, _) = fixture("SECOND");
    record(store, &write(&first, &quote, None, UsageCounts::ZERO, None)).expect("lands");
    record(store, &write(&first, &quote, None, usage(1, 0), None)).expect("lands");
    assert_eq!(usage_for(store, &first, None), usage(2, 0));
    assert_eq!(usage_for(store, &second, None), UsageCounts::ZERO);
}

/// A redemption without a customer moves the total and no customer's count.
pub fn anonymous_redemptions_count_only_in_total<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("ANON");
    let alice = customer("alice");
    let anon = record(store, &write(&code, &quote, None, UsageCounts::ZERO, None)).expect("lands");
    assert_eq!(anon.usage, usage(1, 0));
    assert_eq!(anon.customer, None);
    assert_eq!(usage_for(store, &code, Some(&alice)), usage(1, 0));
    let hers = record(store, &write(&code, &quote, Some(&alice), usage(1, 0), None)).expect("lands");
    assert_eq!(hers.usage, usage(2, 1));
}
