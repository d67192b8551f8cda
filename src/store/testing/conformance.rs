//! The conformance suite: every clause of the [`RedemptionStore`] contract,
//! each a function that panics naming the clause a store breaks.
//!
//! Here: the fixtures and the checks of plain uses (compare-and-set, keys,
//! codes apart); by topic, the holds' ([`holds`]), the discount sum's
//! ([`budgets`]) and the campaigns' ([`campaigns`]).

use super::super::{Conversion, Redemption, RedemptionStore, Release, Reservation, ReservationState};
use crate::rules::{Basket, Discount, PromoCode, Quote, UsageCounts};
use crate::values::{Code, Currency, CustomerId, IdempotencyKey, Money, Timestamp};
use rust_decimal::Decimal;

mod budgets;
mod campaigns;
mod holds;

pub use budgets::*;
pub use campaigns::*;
pub use holds::*;

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
    holds_count_until_the_instant_they_expire(&new_store());
    a_hold_key_replays_and_an_expired_one_is_captured_afresh(&new_store());
    conversion_captures_an_active_hold_once(&new_store());
    conversion_refuses_an_expired_or_unknown_hold(&new_store());
    release_gives_back_holds_and_captures_once(&new_store());
    release_and_capture_racing_leave_counts_that_match_the_records(&new_store());
    the_discount_sum_is_part_of_the_compared_value(&new_store());
    each_count_is_compared_apart_from_the_discount_sum(&new_store());
    holds_reserve_their_discount_and_releases_give_it_back(&new_store());
    a_conversion_with_expected_counts_is_a_compare_and_set(&new_store());
    a_campaign_counts_its_codes_together_as_one_value(&new_store());
    a_campaign_is_apart_from_a_code_of_its_name(&new_store());
    a_campaign_code_holds_converts_and_releases_through_its_campaign(&new_store());
}

fn fixture(code: &str) -> (Code, Quote) {
    let promo = PromoCode::builder(
        Code::parse(code).expect("valid code"),
        Discount::percent(10.into()).expect("10%"),
    )
    .build()
    .expect("valid definition");
    let basket = Basket::from(Money::parse("80.00", Currency::EUR).expect("valid money"));
    let quote = promo.price(&basket, at(0)).expect("priced");
    (promo.code().clone(), quote)
}

/// `seconds` after 2026-12-02T10:00:00Z (negative: before).
/// The fixture's code priced on a basket of `total` EUR (10% off).
fn quote_of(code: &str, total: &str) -> Quote {
    let promo = PromoCode::builder(
        Code::parse(code).expect("valid code"),
        Discount::percent(10.into()).expect("10%"),
    )
    .build()
    .expect("valid definition");
    let basket = Basket::from(Money::parse(total, Currency::EUR).expect("valid money"));
    promo.price(&basket, at(0)).expect("priced")
}

/// `text` as a decimal.
fn amount(text: &str) -> Decimal {
    text.parse().expect("a decimal")
}

fn at(seconds: i64) -> Timestamp {
    let start: Timestamp = "2026-12-02T10:00:00Z".parse().expect("valid time");
    start.checked_add_seconds(seconds).expect("in range")
}

/// Counts of `total` uses, `per_customer` by the customer, each of the
/// fixture's quote (EUR 8.00 off).
fn usage(total: u64, per_customer: u64) -> UsageCounts {
    UsageCounts::new(total, per_customer)
        .and_then(|u| u.with_discounted(rust_decimal::Decimal::new(800, 2) * rust_decimal::Decimal::from(total)))
        .expect("valid usage")
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
        campaign: None,
        code,
        customer,
        expected,
        idempotency_key: key,
        quote,
        now: at(0),
        hold_until: None,
        after_expired_hold: None,
    }
}

fn hold_write<'a>(
    code: &'a Code,
    quote: &'a Quote,
    customer: Option<&'a CustomerId>,
    expected: UsageCounts,
    key: &'a IdempotencyKey,
    until: Timestamp,
) -> Redemption<'a> {
    Redemption {
        campaign: None,
        idempotency_key: Some(key),
        hold_until: Some(until),
        ..write(code, quote, customer, expected, None)
    }
}

fn record<S: RedemptionStore>(store: &S, redemption: &Redemption<'_>) -> Option<Reservation> {
    store.record(redemption).expect("the store answers")
}

fn usage_for<S: RedemptionStore>(store: &S, code: &Code, customer: Option<&CustomerId>) -> UsageCounts {
    usage_at(store, code, customer, at(0))
}

fn usage_at<S: RedemptionStore>(store: &S, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> UsageCounts {
    store.usage_for(code, customer, now).expect("the store answers")
}

fn convert<S: RedemptionStore>(
    store: &S,
    code: &Code,
    key: &IdempotencyKey,
    quote: &Quote,
    now: Timestamp,
) -> Option<Reservation> {
    store
        .convert(&Conversion {
            code,
            key,
            quote,
            now,
            expected: None,
        })
        .expect("the store answers")
}

fn release<S: RedemptionStore>(
    store: &S,
    code: &Code,
    key: &IdempotencyKey,
    now: Timestamp,
    reason: Option<&str>,
) -> Option<Reservation> {
    store
        .release(&Release { code, key, now, reason })
        .expect("the store answers")
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
    assert_eq!(
        first.state,
        ReservationState::Captured,
        "a write without hold_until is a capture"
    );
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
    assert_eq!(first.key.as_ref(), Some(&evt), "the reservation keeps its key");

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
