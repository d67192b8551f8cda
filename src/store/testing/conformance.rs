//! The conformance suite: every clause of the [`RedemptionStore`] contract,
//! each a function that panics naming the clause a store breaks.

use super::super::{Conversion, Redemption, RedemptionStore, Release, Reservation, ReservationState};
use crate::rules::{Basket, Discount, PromoCode, Quote, UsageCounts};
use crate::values::{Code, Currency, CustomerId, IdempotencyKey, Money, Timestamp};
use rust_decimal::Decimal;

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

/// A hold counts, overall and for its customer, up to the nanosecond before
/// its `expires_at` and not from that instant on, with nothing cleaning it up.
pub fn holds_count_until_the_instant_they_expire<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("HOLDS");
    let alice = customer("alice");
    let expires = at(60);
    let just_before = expires.checked_add_nanos(-1).expect("in range");
    let held = record(
        store,
        &hold_write(&code, &quote, Some(&alice), UsageCounts::ZERO, &key("h1"), expires),
    )
    .expect("a hold against (0, 0) lands");
    assert_eq!(held.state, ReservationState::Held);
    assert_eq!(held.expires_at, Some(expires));
    assert_eq!(held.usage, usage(1, 1), "a hold counts from the moment it is written");

    assert_eq!(
        usage_at(store, &code, Some(&alice), just_before),
        usage(1, 1),
        "1 ns before expiry it counts"
    );
    assert_eq!(store.held(&code, just_before).expect("answers"), 1);
    assert_eq!(
        usage_at(store, &code, Some(&alice), expires),
        UsageCounts::ZERO,
        "at expires_at it no longer counts"
    );
    assert_eq!(store.held(&code, expires).expect("answers"), 0);

    let stale = record(
        store,
        &Redemption {
            campaign: None,
            now: just_before,
            ..write(&code, &quote, None, UsageCounts::ZERO, None)
        },
    );
    assert_eq!(stale, None, "before expiry the hold is part of the expected counts");
    let after = record(
        store,
        &Redemption {
            campaign: None,
            now: expires,
            ..write(&code, &quote, None, UsageCounts::ZERO, None)
        },
    )
    .expect("at expiry the counts without the hold are the ones to compare");
    assert_eq!(after.usage, usage(1, 0));
    assert_eq!(
        usage_at(store, &code, None, just_before),
        usage(2, 0),
        "reads take their own now"
    );
}

/// A hold's key replays the hold; a capture under the key of an expired hold
/// replays it too, unless it names that hold: then it is a new capture at the
/// counts of the moment, the key names it, and the hold is kept.
pub fn a_hold_key_replays_and_an_expired_one_is_captured_afresh<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("HOLDKEY");
    let bob = customer("bob");
    let pi = key("pi_1");
    let expires = at(30);
    record(
        store,
        &hold_write(&code, &quote, Some(&bob), UsageCounts::ZERO, &pi, expires),
    )
    .expect("lands");
    let again = record(store, &hold_write(&code, &quote, Some(&bob), usage(1, 1), &pi, at(90))).expect("answered");
    assert!(again.replayed, "a hold under a known key is a replay");
    assert_eq!(again.expires_at, Some(expires), "a replay keeps the first expiry");
    let early_capture = record(store, &write(&code, &quote, Some(&bob), usage(1, 1), Some(&pi))).expect("answered");
    assert!(
        early_capture.replayed,
        "a record under an active hold's key writes nothing"
    );
    assert_eq!(usage_for(store, &code, Some(&bob)), usage(1, 1));

    let stale = Redemption {
        campaign: None,
        now: expires,
        after_expired_hold: Some(expires),
        ..write(&code, &quote, Some(&bob), usage(1, 1), Some(&pi))
    };
    assert!(
        record(store, &stale).is_none(),
        "a capture under an expired hold's key is compared like any other write"
    );
    assert_eq!(
        usage_at(store, &code, Some(&bob), at(29)),
        usage(1, 1),
        "a refused write changed nothing: the hold still counts before its expiry"
    );
    assert_eq!(
        store
            .reservation(&code, &pi)
            .expect("answers")
            .expect("known")
            .state_at(at(29)),
        ReservationState::Held
    );

    let unnamed = Redemption {
        campaign: None,
        now: expires,
        ..write(&code, &quote, Some(&bob), UsageCounts::ZERO, Some(&pi))
    };
    let answered = record(store, &unnamed).expect("answered");
    assert!(
        answered.replayed && answered.state_at(expires) == ReservationState::Expired,
        "a capture that does not name the expired hold is answered with it and writes nothing"
    );
    assert_eq!(usage_at(store, &code, Some(&bob), expires), UsageCounts::ZERO);
    let other_hold = Redemption {
        campaign: None,
        after_expired_hold: Some(at(31)),
        ..unnamed
    };
    assert!(
        record(store, &other_hold).expect("answered").replayed,
        "naming another expiry than the hold's writes nothing"
    );

    let later = Redemption {
        campaign: None,
        after_expired_hold: Some(expires),
        ..unnamed
    };
    let fresh = record(store, &later).expect("the expired hold's key captures afresh");
    assert!(!fresh.replayed);
    assert_eq!(fresh.state, ReservationState::Captured);
    assert_eq!(fresh.usage, usage(1, 1));
    assert_eq!(
        fresh.hold_expired_at,
        Some(expires),
        "the capture names the hold it follows"
    );
    let found = store.reservation(&code, &pi).expect("answers").expect("known");
    assert_eq!(found.state, ReservationState::Captured, "the key now names the capture");
    assert_eq!(found.hold_expired_at, Some(expires));
    let replay = record(store, &later).expect("answered");
    assert!(replay.replayed, "and a retry replays it");
    assert_eq!(usage_at(store, &code, Some(&bob), at(3600)), usage(1, 1));
}

/// Converting an active hold captures it without moving the counts; again is a replay.
pub fn conversion_captures_an_active_hold_once<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("CONVERT");
    let (_, other_quote) = fixture("CONVERT");
    let carol = customer("carol");
    let pi = key("pi_c");
    let expires = at(60);
    record(
        store,
        &hold_write(&code, &quote, Some(&carol), UsageCounts::ZERO, &pi, expires),
    )
    .expect("lands");
    let just_before = expires.checked_add_nanos(-1).expect("in range");
    let captured = convert(store, &code, &pi, &other_quote, just_before).expect("an active hold converts");
    assert!(!captured.replayed);
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.captured_at, Some(just_before));
    assert_eq!(captured.usage, usage(1, 1), "conversion does not move the counts");
    assert_eq!(
        store.held(&code, at(0)).expect("answers"),
        0,
        "a converted hold is no longer a hold"
    );
    assert_eq!(
        usage_at(store, &code, Some(&carol), at(7200)),
        usage(1, 1),
        "a capture does not expire"
    );

    let again = convert(store, &code, &pi, &quote, at(1)).expect("answered");
    assert!(again.replayed, "converting again replays");
    assert_eq!(again.state, ReservationState::Captured);
    assert_eq!(usage_for(store, &code, Some(&carol)), usage(1, 1));
}

/// An expired hold, or an unknown key, does not convert.
pub fn conversion_refuses_an_expired_or_unknown_hold<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("LATE");
    let pi = key("pi_late");
    record(store, &hold_write(&code, &quote, None, UsageCounts::ZERO, &pi, at(10))).expect("lands");
    assert_eq!(
        convert(store, &code, &pi, &quote, at(10)),
        None,
        "at expires_at the hold is gone"
    );
    assert_eq!(
        convert(store, &code, &key("pi_none"), &quote, at(0)),
        None,
        "unknown key"
    );
    assert_eq!(usage_at(store, &code, None, at(10)), UsageCounts::ZERO);
}

/// Release gives a hold or a capture back once; again replays; an unknown key is `None`.
pub fn release_gives_back_holds_and_captures_once<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("RELEASE");
    let dan = customer("dan");
    let (h, c, e) = (key("hold"), key("capture"), key("expired"));
    record(
        store,
        &hold_write(&code, &quote, Some(&dan), UsageCounts::ZERO, &h, at(60)),
    )
    .expect("lands");
    record(store, &write(&code, &quote, Some(&dan), usage(1, 1), Some(&c))).expect("lands");
    record(store, &hold_write(&code, &quote, None, usage(2, 0), &e, at(5))).expect("lands");
    assert_eq!(usage_for(store, &code, Some(&dan)), usage(3, 2));

    let released = release(store, &code, &h, at(1), Some("checkout abandoned")).expect("known key");
    assert!(!released.replayed);
    assert_eq!(released.state, ReservationState::Released);
    assert_eq!(released.was, Some(ReservationState::Held));
    assert_eq!(released.released_at, Some(at(1)));
    assert_eq!(released.reason.as_deref(), Some("checkout abandoned"));
    assert_eq!(released.usage, usage(2, 1), "the counts after the release");
    let again = release(store, &code, &h, at(2), Some("another reason")).expect("known key");
    assert!(again.replayed, "releasing again is a replay");
    assert_eq!(
        again.released_at,
        Some(at(1)),
        "a replay answers as the first release did"
    );
    assert_eq!(again.reason.as_deref(), Some("checkout abandoned"));
    assert_eq!(again.usage, released.usage);

    let refunded = release(store, &code, &c, at(3), None).expect("known key");
    assert_eq!(refunded.was, Some(ReservationState::Captured));
    assert_eq!(refunded.usage, usage(1, 0));
    assert_eq!(usage_at(store, &code, Some(&dan), at(3)), usage(1, 0));

    let late = release(store, &code, &e, at(6), None).expect("known key");
    assert_eq!(
        late.was,
        Some(ReservationState::Held),
        "an expired hold is released as a hold"
    );
    assert_eq!(
        late.usage,
        UsageCounts::ZERO,
        "it no longer counted, so nothing else moves"
    );
    assert_eq!(release(store, &code, &key("never"), at(0), None), None, "unknown key");
    assert_eq!(
        convert(store, &code, &h, &quote, at(2)).map(|r| (r.replayed, r.state)),
        Some((true, ReservationState::Released)),
        "a released hold does not convert; its key replays as released"
    );
    let retried = record(store, &write(&code, &quote, Some(&dan), usage(0, 0), Some(&c))).expect("answered");
    assert!(
        retried.replayed && retried.state == ReservationState::Released,
        "a released capture never spends again"
    );
    assert_eq!(usage_at(store, &code, Some(&dan), at(6)), UsageCounts::ZERO);
}

/// A release and a capture of one hold, in either order: the counts match the records.
pub fn release_and_capture_racing_leave_counts_that_match_the_records<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("RACE");
    let eve = customer("eve");
    let (first, second) = (key("release-first"), key("capture-first"));
    record(
        store,
        &hold_write(&code, &quote, Some(&eve), UsageCounts::ZERO, &first, at(60)),
    )
    .expect("lands");
    record(
        store,
        &hold_write(&code, &quote, Some(&eve), usage(1, 1), &second, at(60)),
    )
    .expect("lands");

    // The release lands between the capture's read (an active hold) and its write.
    release(store, &code, &first, at(1), Some("cancelled")).expect("known");
    let lost = convert(store, &code, &first, &quote, at(1)).expect("answered");
    assert!(
        lost.replayed && lost.state == ReservationState::Released,
        "the capture sees the release"
    );

    // The capture lands between the release's read and its write.
    convert(store, &code, &second, &quote, at(1)).expect("converts");
    let refunded = release(store, &code, &second, at(2), Some("refunded")).expect("known");
    assert_eq!(
        refunded.was,
        Some(ReservationState::Captured),
        "the release gives the capture back"
    );

    assert_eq!(usage_at(store, &code, Some(&eve), at(2)), UsageCounts::ZERO);
    assert_eq!(store.held(&code, at(2)).expect("answers"), 0);
}

/// The sum of the discounts counted is part of the one value a write
/// compares: the right counts with a stale sum change nothing.
pub fn the_discount_sum_is_part_of_the_compared_value<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMCAS");
    let first = record(store, &write(&code, &quote, None, UsageCounts::ZERO, None)).expect("lands");
    assert_eq!(first.usage.discounted(), amount("8.00"), "a use counts its discount");
    let stale_sum = usage(1, 0).with_discounted(amount("5.00")).expect("valid");
    assert_eq!(
        record(store, &write(&code, &quote, None, stale_sum, None)),
        None,
        "a write against the right counts but a stale discount sum is stale"
    );
    assert_eq!(usage_for(store, &code, None), usage(1, 0), "and changed nothing");
    let second = record(store, &write(&code, &quote, None, usage(1, 0), None)).expect("the current value lands");
    assert_eq!(second.usage, usage(2, 0));
    let small = quote_of("SUMCAS", "10.00");
    let third = record(store, &write(&code, &small, None, usage(2, 0), None)).expect("lands");
    assert_eq!(
        third.usage.discounted(),
        amount("17.00"),
        "the sum adds each use's own discount"
    );
}

/// The total and the customer's count are each compared on their own: a
/// write against the right discount sum but another total, or another count
/// for the customer, is stale (each use moves the sum too, so only such a
/// write tells a store that compares the counts from one that compares the
/// sum alone).
pub fn each_count_is_compared_apart_from_the_discount_sum<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("EACHCAS");
    let alice = customer("alice");
    record(store, &write(&code, &quote, Some(&alice), UsageCounts::ZERO, None)).expect("lands");
    let eight = amount("8.00");
    for (total, mine, what) in [(2, 1, "total"), (1, 0, "customer's count")] {
        let other = UsageCounts::new(total, mine)
            .and_then(|u| u.with_discounted(eight))
            .expect("valid");
        assert_eq!(
            record(store, &write(&code, &quote, Some(&alice), other, None)),
            None,
            "a write against the right discount sum but another {what} is stale"
        );
    }
    assert_eq!(
        usage_for(store, &code, Some(&alice)),
        usage(1, 1),
        "and the stale writes changed nothing"
    );
}

/// A hold reserves its discount until it expires; a release gives it back;
/// a conversion counts the captured quote's discount in place of the hold's.
pub fn holds_reserve_their_discount_and_releases_give_it_back<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMHOLD");
    let (a, b, c) = (key("a"), key("b"), key("c"));
    record(store, &hold_write(&code, &quote, None, UsageCounts::ZERO, &a, at(60))).expect("lands");
    record(store, &hold_write(&code, &quote, None, usage(1, 0), &b, at(30))).expect("lands");
    assert_eq!(
        usage_for(store, &code, None).discounted(),
        amount("16.00"),
        "holds reserve"
    );
    assert_eq!(
        usage_at(store, &code, None, at(30)).discounted(),
        amount("8.00"),
        "an expired hold's discount no longer counts"
    );
    let cheaper = quote_of("SUMHOLD", "50.00");
    let captured = convert(store, &code, &a, &cheaper, at(1)).expect("converts");
    assert_eq!(
        captured.usage.discounted(),
        amount("13.00"),
        "the capture counts its own discount (5.00) with the other hold's 8.00"
    );
    assert_eq!(usage_at(store, &code, None, at(30)).discounted(), amount("5.00"));
    release(store, &code, &b, at(2), None).expect("released");
    assert_eq!(
        usage_at(store, &code, None, at(2)).discounted(),
        amount("5.00"),
        "a release gives a hold's back"
    );
    release(store, &code, &a, at(3), Some("refund")).expect("released");
    assert_eq!(
        usage_at(store, &code, None, at(3)),
        UsageCounts::ZERO,
        "a release gives a capture's back"
    );
    record(store, &write(&code, &quote, None, UsageCounts::ZERO, Some(&c))).expect("the money is there again");
    assert_eq!(usage_at(store, &code, None, at(3)).discounted(), amount("8.00"));
}

/// A conversion that names the counts it was checked against lands only
/// while they are still exactly those.
pub fn a_conversion_with_expected_counts_is_a_compare_and_set<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMCONV");
    let erin = customer("erin");
    let pi = key("pi_e");
    record(
        store,
        &hold_write(&code, &quote, Some(&erin), UsageCounts::ZERO, &pi, at(60)),
    )
    .expect("lands");
    let checked = usage_for(store, &code, Some(&erin));
    record(store, &write(&code, &quote, None, usage(1, 0), None)).expect("another buyer's use lands");
    let bigger = quote_of("SUMCONV", "100.00");
    let stale = store
        .convert(&Conversion {
            code: &code,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(checked),
        })
        .expect("the store answers");
    assert_eq!(stale, None, "the counts moved since the check: stale");
    assert_eq!(store.held(&code, at(1)).expect("answers"), 1, "the hold stays");
    assert_eq!(usage_at(store, &code, Some(&erin), at(1)).discounted(), amount("16.00"));
    let current = usage_at(store, &code, Some(&erin), at(1));
    let captured = store
        .convert(&Conversion {
            code: &code,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(current),
        })
        .expect("the store answers")
        .expect("against the current counts it converts");
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.usage.discounted(), amount("18.00"));
    assert_eq!(captured.usage.total(), 2);
}

/// Counts read through campaign `CAMP`: `total` uses of its codes,
/// `per_customer` by the customer, `uses` through the code, EUR 8.00 each.
fn through(total: u64, per_customer: u64, uses: u64) -> UsageCounts {
    usage(total, per_customer).with_code_uses(uses).expect("valid usage")
}

/// A write of campaign `campaign`'s code.
fn campaign_write<'a>(
    campaign: &'a Code,
    code: &'a Code,
    quote: &'a Quote,
    customer: Option<&'a CustomerId>,
    expected: UsageCounts,
    key: Option<&'a IdempotencyKey>,
) -> Redemption<'a> {
    Redemption {
        campaign: Some(campaign),
        ..write(code, quote, customer, expected, key)
    }
}

fn through_at<S: RedemptionStore>(
    store: &S,
    campaign: &Code,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> UsageCounts {
    store
        .uses_through(campaign, code, customer, now)
        .expect("the store answers")
}

/// A campaign's codes share its counts: a use of one code moves the
/// campaign's total, the customer's campaign-wide count and the discount
/// sum read through every other code, and the code's own uses; a write of
/// another code against counts read before it is stale, and so is a write
/// whose code's uses are stale though the campaign's are right.
pub fn a_campaign_counts_its_codes_together_as_one_value<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("CAMP").expect("valid id");
    let (a, quote_a) = fixture("CAMP-A");
    let (b, quote_b) = fixture("CAMP-B");
    let alice = customer("alice");
    let fresh = through_at(store, &campaign, &b, Some(&alice), at(0));
    assert_eq!(
        fresh,
        through(0, 0, 0),
        "a campaign with no use reads zero, through any code"
    );
    let first = record(
        store,
        &campaign_write(&campaign, &a, &quote_a, Some(&alice), through(0, 0, 0), None),
    )
    .expect("the first use of the campaign lands");
    assert_eq!(
        first.usage,
        through(1, 1, 1),
        "the use counts for the campaign and the code"
    );
    assert_eq!(
        through_at(store, &campaign, &b, Some(&alice), at(0)),
        through(1, 1, 0),
        "another code of the campaign reads the campaign's counts and its own uses"
    );
    assert_eq!(
        record(
            store,
            &campaign_write(&campaign, &b, &quote_b, Some(&alice), fresh, None)
        ),
        None,
        "a write of another code against the counts before that use is stale"
    );
    assert_eq!(
        record(
            store,
            &campaign_write(&campaign, &a, &quote_a, None, through(1, 0, 0), None)
        ),
        None,
        "the right campaign counts with a stale use count of the code are stale"
    );
    assert_eq!(
        through_at(store, &campaign, &a, Some(&alice), at(0)),
        through(1, 1, 1),
        "and the stale writes changed nothing"
    );
    let second = record(
        store,
        &campaign_write(&campaign, &b, &quote_b, None, through(1, 0, 0), None),
    )
    .expect("against the current counts the other code lands");
    assert_eq!(second.usage, through(2, 0, 1));
    assert_eq!(
        through_at(store, &campaign, &a, Some(&alice), at(0)),
        through(2, 1, 1),
        "the campaign counts both codes' uses"
    );
}

/// A campaign's counts are its own: a plain code with the campaign's id,
/// or with the name of one of its codes, counts apart.
pub fn a_campaign_is_apart_from_a_code_of_its_name<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("APART").expect("valid id");
    let (code, quote) = fixture("APART-1");
    let (plain, plain_quote) = fixture("APART");
    record(
        store,
        &campaign_write(&campaign, &code, &quote, None, through(0, 0, 0), None),
    )
    .expect("lands");
    assert_eq!(
        usage_for(store, &plain, None),
        UsageCounts::ZERO,
        "a plain code named as the campaign is not the campaign"
    );
    record(store, &write(&plain, &plain_quote, None, UsageCounts::ZERO, None))
        .expect("the plain code has its own counts");
    assert_eq!(
        through_at(store, &campaign, &code, None, at(0)),
        through(1, 0, 1),
        "the plain code's use is not the campaign's"
    );
}

/// A hold of a campaign's code counts for the campaign and the code until
/// it expires; its key is the code's; a conversion compares (and a release
/// gives back) the counts through the campaign.
pub fn a_campaign_code_holds_converts_and_releases_through_its_campaign<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("HOLDS").expect("valid id");
    let (a, quote_a) = fixture("HOLDS-A");
    let (b, quote_b) = fixture("HOLDS-B");
    let dora = customer("dora");
    let (pi, other) = (key("pi_c"), key("pi_d"));
    let hold = Redemption {
        idempotency_key: Some(&pi),
        hold_until: Some(at(60)),
        ..campaign_write(&campaign, &a, &quote_a, Some(&dora), through(0, 0, 0), None)
    };
    let held = record(store, &hold).expect("the hold lands");
    assert_eq!(held.state, ReservationState::Held);
    assert_eq!(
        through_at(store, &campaign, &a, Some(&dora), at(1)),
        through(1, 1, 1),
        "a hold counts for the campaign and its code"
    );
    assert_eq!(
        through_at(store, &campaign, &a, Some(&dora), at(60)),
        through(0, 0, 0).with_discounted(Decimal::ZERO).expect("valid"),
        "until it expires"
    );
    assert!(
        store.reservation(&b, &pi).expect("answers").is_none(),
        "the key is the code's, not the campaign's"
    );
    let checked = through_at(store, &campaign, &a, Some(&dora), at(1));
    let other_hold = Redemption {
        idempotency_key: Some(&pi),
        hold_until: Some(at(60)),
        ..campaign_write(&campaign, &b, &quote_b, None, through(1, 0, 0), None)
    };
    let on_b = record(store, &other_hold).expect("the same key on another code is another use");
    assert!(!on_b.replayed, "a new hold on the other code");
    let bigger = quote_of("HOLDS-A", "100.00");
    let stale = store
        .convert(&Conversion {
            code: &a,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(checked),
        })
        .expect("the store answers");
    assert_eq!(stale, None, "another code's use moved the campaign's counts: stale");
    let current = through_at(store, &campaign, &a, Some(&dora), at(1));
    assert_eq!(current, through(2, 1, 1));
    let captured = store
        .convert(&Conversion {
            code: &a,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(current),
        })
        .expect("the store answers")
        .expect("against the counts read through the campaign it converts");
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.usage.code_uses(), 1, "the capture counts through the code");
    assert_eq!(captured.usage.total(), 2);
    assert_eq!(captured.usage.discounted(), amount("18.00"));
    let released = release(store, &a, &pi, at(2), Some("refunded")).expect("known");
    assert_eq!(released.was, Some(ReservationState::Captured));
    assert_eq!(
        released.usage,
        through(1, 0, 0),
        "a release gives the use back to the campaign and to the code"
    );
    assert!(
        release(store, &b, &other, at(2), None).is_none(),
        "an unknown key of the code releases nothing"
    );
    release(store, &b, &pi, at(2), None).expect("the other code's hold is released");
    assert_eq!(
        through_at(store, &campaign, &b, Some(&dora), at(2)),
        through(0, 0, 0).with_discounted(Decimal::ZERO).expect("valid"),
        "everything given back"
    );
}
