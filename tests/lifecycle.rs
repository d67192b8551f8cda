//! The redemption lifecycle: a use held while the buyer pays, captured
//! exactly as quoted, released on cancel or refund. Every time is passed in.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;

use common::*;
use promocodes::testing::{Interleave, Point};
use promocodes::{
    capture, hold, redeem, release, Basket, CaptureOptions, HoldOptions, InMemoryRedemptionStore, InputError,
    PromoCode, RedeemOptions, RedemptionError, RedemptionStore, Rejection, ReleaseError, ReservationState, Timestamp,
    UsageCounts, UsageLimits,
};

fn capped(name: &str, total: Option<u64>, per_customer: Option<u64>) -> PromoCode {
    ten_percent(name)
        .limits(UsageLimits::new(total, per_customer).unwrap())
        .build()
        .unwrap()
}

fn later(seconds: i64) -> Timestamp {
    start().checked_add_seconds(seconds).unwrap()
}

fn usage_at(store: &impl RedemptionStore, promo: &PromoCode, who: Option<&str>, now: Timestamp) -> UsageCounts {
    let who = who.map(customer);
    store.usage_for(promo.code(), who.as_ref(), now).unwrap()
}

#[test]
fn a_hold_counts_until_the_nanosecond_it_expires() {
    let promo = capped("HOLD", Some(1), Some(1));
    let store = InMemoryRedemptionStore::new();
    let alice = customer("alice");
    let held = hold(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        start(),
        &key("pi_1"),
        HoldOptions::new().ttl_seconds(120),
    )
    .unwrap();
    assert_eq!(held.state, ReservationState::Held);
    assert_eq!(held.expires_at, later(120));
    assert_eq!(held.usage, usage(1, 1));
    assert_eq!(held.quote.payable(), &eur("72.00"));
    assert!(!held.replayed);

    let just_before = held.expires_at.checked_add_nanos(-1).unwrap();
    assert_eq!(usage_at(&store, &promo, Some("alice"), just_before), usage(1, 1));
    assert_eq!(store.held(promo.code(), just_before).unwrap(), 1);
    // While it is held, the last use is taken: another buyer is refused.
    let bob = customer("bob");
    let refused = redeem(
        &promo,
        &store,
        Some(&bob),
        &basket("80.00"),
        just_before,
        RedeemOptions::new(),
    );
    assert!(matches!(refused, Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted));

    // At expires_at it counts no more, with nothing having cleaned it up.
    assert_eq!(
        usage_at(&store, &promo, Some("alice"), held.expires_at),
        UsageCounts::ZERO
    );
    let receipt = redeem(
        &promo,
        &store,
        Some(&bob),
        &basket("80.00"),
        held.expires_at,
        RedeemOptions::new(),
    )
    .unwrap();
    assert_eq!(receipt.usage, usage(1, 1));
}

#[test]
fn hold_time_to_live_is_1_second_to_1_hour_and_15_minutes_by_default() {
    assert_eq!(promocodes::DEFAULT_HOLD_TTL_SECONDS, 900);
    let promo = capped("TTL", None, None);
    let store = InMemoryRedemptionStore::new();
    let default = hold(
        &promo,
        &store,
        None,
        &basket("10.00"),
        start(),
        &key("a"),
        HoldOptions::new(),
    )
    .unwrap();
    assert_eq!(default.expires_at, later(900));
    for (ttl, ok) in [(0, false), (1, true), (3600, true), (3601, false)] {
        let result = hold(
            &promo,
            &store,
            None,
            &basket("10.00"),
            start(),
            &key(&format!("ttl-{ttl}")),
            HoldOptions::new().ttl_seconds(ttl),
        );
        match (result, ok) {
            (Ok(held), true) => assert_eq!(held.expires_at, later(ttl as i64)),
            (Err(RedemptionError::Input(InputError::HoldTtlOutOfRange { .. })), false) => {}
            (other, _) => panic!("ttl {ttl}: {other:?}"),
        }
    }
    assert_eq!(
        usage_at(&store, &promo, None, start()).total(),
        3,
        "refused holds recorded nothing"
    );
}

#[test]
fn the_same_key_replays_a_hold_as_it_now_stands() {
    let promo = capped("REPLAY", Some(5), None);
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_1");
    let first = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).unwrap();
    let again = hold(
        &promo,
        &store,
        None,
        &basket("80.00"),
        later(5),
        &pi,
        HoldOptions::new(),
    )
    .unwrap();
    assert!(again.replayed);
    assert_eq!(again.expires_at, first.expires_at, "a replay does not extend the hold");
    assert_eq!(again.quote, first.quote);
    assert_eq!(usage_at(&store, &promo, None, later(5)).total(), 1);
    let expired = hold(
        &promo,
        &store,
        None,
        &basket("80.00"),
        first.expires_at,
        &pi,
        HoldOptions::new(),
    )
    .unwrap();
    assert_eq!(
        expired.state,
        ReservationState::Expired,
        "a replay says the hold expired"
    );
    let other_basket = hold(
        &promo,
        &store,
        None,
        &basket("81.00"),
        later(5),
        &pi,
        HoldOptions::new(),
    );
    assert!(matches!(
        other_basket,
        Err(RedemptionError::IdempotencyKeyReused { .. })
    ));
}

#[test]
fn a_hold_retried_under_a_plain_captures_key_replays_the_capture_as_of_its_time() {
    let promo = capped("PLAIN", Some(5), None);
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_plain");
    // The hold's request never landed; the payment captured under the same key without one.
    let receipt = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        later(3),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    let late = hold(
        &promo,
        &store,
        None,
        &basket("80.00"),
        later(60),
        &pi,
        HoldOptions::new(),
    )
    .unwrap();
    assert!(late.replayed);
    assert_eq!(late.state, ReservationState::Captured);
    assert_eq!(late.quote, receipt.quote);
    assert_eq!(late.expires_at, later(3), "no hold was ever open after the capture");
    assert_eq!(
        usage_at(&store, &promo, None, later(60)).total(),
        1,
        "nothing more counted"
    );
}

#[test]
fn eight_threads_racing_holds_on_a_cap_of_n_get_exactly_n() {
    const CAP: u64 = 37;
    let promo = Arc::new(capped("RACE", Some(CAP), None));
    let store = Arc::new(InMemoryRedemptionStore::new());
    let (held, exhausted, conflicts) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (promo, store) = (promo.clone(), store.clone());
            let (held, exhausted, conflicts) = (held.clone(), exhausted.clone(), conflicts.clone());
            thread::spawn(move || {
                for i in 0..50 {
                    let k = key(&format!("t{t}-{i}"));
                    match hold(&promo, &*store, None, &basket("20.00"), start(), &k, HoldOptions::new()) {
                        Ok(_) => held.fetch_add(1, Ordering::SeqCst),
                        Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted => {
                            exhausted.fetch_add(1, Ordering::SeqCst)
                        }
                        Err(RedemptionError::Conflict(_)) => conflicts.fetch_add(1, Ordering::SeqCst),
                        Err(other) => panic!("{other:?}"),
                    };
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(held.load(Ordering::SeqCst), CAP);
    assert_eq!(
        held.load(Ordering::SeqCst) + exhausted.load(Ordering::SeqCst) + conflicts.load(Ordering::SeqCst),
        400
    );
    assert_eq!(usage_at(&*store, &promo, None, start()).total(), CAP);
    assert_eq!(store.held(promo.code(), start()).unwrap(), CAP);
}

#[test]
fn capturing_a_hold_keeps_its_quote_even_if_the_definition_changed() {
    let promo = capped("SAVE10", Some(1), None);
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_1");
    let cart = basket("80.00");
    let held = hold(&promo, &store, None, &cart, start(), &pi, HoldOptions::new()).unwrap();
    assert_eq!(held.quote.payable(), &eur("72.00"));

    // An admin redefines the code at 50%, and switches it off, while the buyer pays.
    let changed = PromoCode::from_json(
        r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "50"}, "limits": {"total": 1},
            "ends_at": "2026-12-02T10:00:30Z", "active": false}"#,
    )
    .unwrap();
    let options = CaptureOptions::new().idempotency_key(&pi).quoted(&held.quote);
    let receipt = capture(&changed, &store, None, &cart, later(60), options).unwrap();
    assert_eq!(receipt.state, ReservationState::Captured);
    assert_eq!(
        receipt.quote, held.quote,
        "what the provider charged is what is recorded"
    );
    assert_eq!(receipt.quote.payable(), &eur("72.00"));
    assert_eq!(
        receipt.usage,
        usage(1, 0),
        "the held use became the capture: no second use"
    );
    assert_eq!(store.held(promo.code(), later(60)).unwrap(), 0);
    let again = capture(&changed, &store, None, &cart, later(61), options).unwrap();
    assert!(again.replayed);
    assert_eq!(again.quote, held.quote);
}

#[test]
fn a_held_key_captures_while_every_other_use_is_held_by_others() {
    let promo = capped("LAST3", Some(3), None);
    let store = InMemoryRedemptionStore::new();
    for (i, who) in ["a", "b", "c"].iter().enumerate() {
        hold(
            &promo,
            &store,
            Some(&customer(who)),
            &basket("30.00"),
            later(i as i64),
            &key(who),
            HoldOptions::new(),
        )
        .unwrap();
    }
    let d = customer("d");
    let refused = capture(
        &promo,
        &store,
        Some(&d),
        &basket("30.00"),
        later(10),
        CaptureOptions::new(),
    );
    assert!(matches!(refused, Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted));
    let b = customer("b");
    let receipt = capture(
        &promo,
        &store,
        Some(&b),
        &basket("30.00"),
        later(10),
        CaptureOptions::new().idempotency_key(&key("b")),
    )
    .unwrap();
    // Three uses of 10% off EUR 30.00.
    assert_eq!(
        receipt.usage,
        usage(3, 1).with_discounted("9.00".parse().unwrap()).unwrap()
    );
    assert_eq!(store.held(promo.code(), later(10)).unwrap(), 2);
}

#[test]
fn a_changed_basket_reruns_every_rule_but_the_caps_and_a_refusal_keeps_the_hold() {
    let promo = ten_percent("BIG")
        .limits(UsageLimits::new(Some(1), None).unwrap())
        .minimum(eur("50.00"))
        .build()
        .unwrap();
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_1");
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).unwrap();

    let refused = capture(
        &promo,
        &store,
        None,
        &basket("40.00"),
        later(1),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap_err();
    match refused {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::BelowMinimum);
            assert_eq!(stale.quote, held.quote, "the refusal carries the hold's quote");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(store.held(promo.code(), later(1)).unwrap(), 1, "the hold stays");

    // Pinned to the quote the buyer was shown for the changed basket, the refusal carries that one.
    let shown = promo.price(&basket("40.00"), start()).unwrap();
    let refused = capture(
        &promo,
        &store,
        None,
        &basket("40.00"),
        later(1),
        CaptureOptions::new().idempotency_key(&pi).quoted(&shown),
    )
    .unwrap_err();
    match refused {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::BelowMinimum);
            assert_eq!(stale.quote, shown, "the refusal carries the quote the buyer was shown");
            assert_ne!(stale.quote, held.quote);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(store.held(promo.code(), later(1)).unwrap(), 1, "the hold still stays");

    // The cap is full (this hold is its one use), yet a bigger basket captures: the use is this buyer's.
    let receipt = capture(
        &promo,
        &store,
        None,
        &basket("60.00"),
        later(2),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert_eq!(receipt.quote.payable(), &eur("54.00"));
    assert_eq!(
        receipt.usage,
        usage(1, 0).with_discounted("6.00".parse().unwrap()).unwrap()
    );
    // The captured use counts the discount it took, not the one its hold reserved.
    assert_eq!(
        usage_at(&store, &promo, None, later(3)).discounted(),
        "6.00".parse().unwrap()
    );
}

#[test]
fn capturing_under_an_expired_holds_key_is_a_fresh_capture() {
    let promo = capped("ONE", Some(1), None);
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_late");
    let held = hold(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        &pi,
        HoldOptions::new().ttl_seconds(10),
    )
    .unwrap();
    // The hold expired and somebody else took the only use.
    redeem(
        &promo,
        &store,
        None,
        &basket("80.00"),
        held.expires_at,
        RedeemOptions::new(),
    )
    .unwrap();
    let refused = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        held.expires_at,
        CaptureOptions::new().idempotency_key(&pi),
    );
    assert!(matches!(refused, Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted));

    let roomy = capped("ROOMY", Some(5), None);
    let pi = key("pi_roomy");
    let held = hold(
        &roomy,
        &store,
        None,
        &basket("80.00"),
        start(),
        &pi,
        HoldOptions::new().ttl_seconds(10),
    )
    .unwrap();
    let receipt = capture(
        &roomy,
        &store,
        None,
        &basket("80.00"),
        held.expires_at,
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert!(!receipt.replayed);
    assert_eq!(receipt.usage, usage(1, 0), "counted once, at the counts of the moment");
}

#[test]
fn an_expired_holds_key_names_its_redemption_forever() {
    let promo = capped("KEYED", Some(10), None);
    let store = InMemoryRedemptionStore::new();
    let alice = customer("alice");
    let mallory = customer("mallory");
    let pi = key("pi_kept");
    let held = hold(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        start(),
        &pi,
        HoldOptions::new().ttl_seconds(10),
    )
    .unwrap();
    let after = held.expires_at;

    // Another customer, or another basket, under the expired hold's key: refused, nothing recorded.
    for (who, total) in [(Some(&mallory), "80.00"), (None, "80.00"), (Some(&alice), "500.00")] {
        let err = capture(
            &promo,
            &store,
            who,
            &basket(total),
            after,
            CaptureOptions::new().idempotency_key(&pi),
        )
        .unwrap_err();
        assert!(
            matches!(&err, RedemptionError::IdempotencyKeyReused { key } if key == &pi),
            "{who:?} {total}: {err:?}"
        );
        assert_eq!(usage_at(&store, &promo, None, after), UsageCounts::ZERO);
        let kept = store.reservation(promo.code(), &pi).unwrap().unwrap();
        assert_eq!(
            kept.state_at(after),
            ReservationState::Expired,
            "the key still names the hold"
        );
    }

    // The hold's own customer and basket: a fresh capture, which names the hold it follows.
    let receipt = capture(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        after,
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert_eq!(receipt.state, ReservationState::Captured);
    assert!(!receipt.replayed);
    let named = store.reservation(promo.code(), &pi).unwrap().unwrap();
    assert_eq!(named.hold_expired_at, Some(held.expires_at));
    // From then on the key names that capture: mallory is still refused.
    let err = capture(
        &promo,
        &store,
        Some(&mallory),
        &basket("80.00"),
        after,
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap_err();
    assert!(matches!(err, RedemptionError::IdempotencyKeyReused { .. }));
    assert_eq!(usage_at(&store, &promo, Some("alice"), after), usage(1, 1));
}

#[test]
fn a_pinned_capture_refuses_a_changed_price_after_every_other_rule() {
    let promo = capped("SAVE10", Some(5), None);
    let store = InMemoryRedemptionStore::new();
    let shown = promo.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();
    let half = PromoCode::from_json(
        r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "50"}, "limits": {"total": 5}}"#,
    )
    .unwrap();
    let pi = key("pi_1");
    let err = capture(
        &half,
        &store,
        None,
        &basket("80.00"),
        later(5),
        CaptureOptions::new().idempotency_key(&pi).quoted(&shown),
    )
    .unwrap_err();
    match err {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::QuoteChanged);
            assert_eq!(stale.quote, shown, "the stale quote is the one the buyer was shown");
            let current = stale.current.expect("the current quote");
            assert_eq!(current.payable(), &eur("40.00"));
            assert!(stale.rejected.message().contains("EUR 72.00") && stale.rejected.message().contains("EUR 40.00"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        usage_at(&store, &promo, None, later(5)),
        UsageCounts::ZERO,
        "nothing recorded"
    );
    assert_eq!(store.reservation(promo.code(), &pi).unwrap(), None, "not even the key");

    // Another rule refusing comes first.
    let expired = PromoCode::from_json(
        r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "50"}, "ends_at": "2026-12-01T00:00:00Z"}"#,
    )
    .unwrap();
    let err = capture(
        &expired,
        &store,
        None,
        &basket("80.00"),
        later(5),
        CaptureOptions::new().quoted(&shown),
    )
    .unwrap_err();
    assert!(matches!(err, RedemptionError::Rejected(r) if r.rejection() == Rejection::Expired));

    // The same price captures, and records the price as priced now.
    let receipt = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        later(5),
        CaptureOptions::new().quoted(&shown),
    )
    .unwrap();
    assert!(receipt.quote.charges_as(&shown));
}

#[test]
fn release_gives_back_a_hold_or_a_capture_once() {
    let promo = capped("ONCE", Some(2), Some(1));
    let store = InMemoryRedemptionStore::new();
    let alice = customer("alice");
    let pi = key("pi_1");
    hold(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        start(),
        &pi,
        HoldOptions::new(),
    )
    .unwrap();
    let abandoned = release(&store, promo.code(), &pi, later(1), Some("checkout abandoned")).unwrap();
    assert_eq!(
        (abandoned.state, abandoned.was),
        (ReservationState::Released, ReservationState::Held)
    );
    assert_eq!(abandoned.released_at, later(1));
    assert_eq!(abandoned.reason.as_deref(), Some("checkout abandoned"));
    assert_eq!(abandoned.usage, UsageCounts::ZERO);
    assert!(!abandoned.replayed);
    let again = release(&store, promo.code(), &pi, later(2), None).unwrap();
    assert!(again.replayed);
    assert_eq!(again.released_at, abandoned.released_at, "the same answer");
    assert_eq!(again.usage, abandoned.usage);

    // A capture retried under the released key replays it as released: no second use.
    let retried = capture(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        later(3),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert!(retried.replayed);
    assert_eq!(retried.state, ReservationState::Released);
    assert_eq!(usage_at(&store, &promo, Some("alice"), later(3)), UsageCounts::ZERO);

    // Alice's one use is hers again; a refund gives it back again.
    let order = key("pi_2");
    capture(
        &promo,
        &store,
        Some(&alice),
        &basket("80.00"),
        later(4),
        CaptureOptions::new().idempotency_key(&order),
    )
    .unwrap();
    assert_eq!(usage_at(&store, &promo, Some("alice"), later(4)), usage(1, 1));
    let refunded = release(&store, promo.code(), &order, later(5), Some("refunded")).unwrap();
    assert_eq!(refunded.was, ReservationState::Captured);
    assert_eq!(usage_at(&store, &promo, Some("alice"), later(5)), UsageCounts::ZERO);

    let unknown = release(&store, promo.code(), &key("pi_never"), later(6), None).unwrap_err();
    assert!(matches!(unknown, ReleaseError::UnknownKey { .. }));
    let long = "x".repeat(201);
    let bad = release(&store, promo.code(), &order, later(6), Some(&long)).unwrap_err();
    assert!(matches!(
        bad,
        ReleaseError::Input(InputError::InvalidReason { max: 200 })
    ));
}

#[test]
fn a_duplicate_delivery_racing_its_twin_is_replayed_not_refused() {
    let promo = capped("LASTONE", Some(1), None);
    let cart = basket("80.00");
    let evt = key("evt_twin");
    // The twin (same key) lands inside the loser's first read of the counts and takes the last use.
    let store = Interleave::new(InMemoryRedemptionStore::new(), Point::UsageFor, |inner| {
        capture(
            &promo,
            inner,
            None,
            &cart,
            start(),
            CaptureOptions::new().idempotency_key(&evt),
        )
        .unwrap();
    });
    let receipt = capture(
        &promo,
        &store,
        None,
        &cart,
        start(),
        CaptureOptions::new().idempotency_key(&evt),
    )
    .unwrap();
    assert!(store.ran());
    assert!(receipt.replayed, "the loser gets the twin's receipt, not `exhausted`");
    assert_eq!(receipt.usage, usage(1, 0));

    // The same for a per-customer cap.
    let promo = capped("ONEEACH", None, Some(1));
    let alice = customer("alice");
    let store = Interleave::new(InMemoryRedemptionStore::new(), Point::UsageFor, |inner| {
        redeem(
            &promo,
            inner,
            Some(&alice),
            &cart,
            start(),
            RedeemOptions::new().idempotency_key(&evt),
        )
        .unwrap();
    });
    let receipt = redeem(
        &promo,
        &store,
        Some(&alice),
        &cart,
        start(),
        RedeemOptions::new().idempotency_key(&evt),
    )
    .unwrap();
    assert!(receipt.replayed);
}

#[test]
fn holds_captures_and_releases_racing_never_leave_counts_that_differ_from_the_records() {
    let promo = Arc::new(capped("CHURN", Some(40), Some(3)));
    let store = Arc::new(InMemoryRedemptionStore::new());
    let now = later(10);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (promo, store) = (promo.clone(), store.clone());
            thread::spawn(move || {
                // How many holds, captures and releases went through; every other answer must be one
                // a racing write may get (a rejection, a conflict, a key reused, a key not yet known).
                let mut done = [0_u32; 3];
                for i in 0..60 {
                    let who = customer(&format!("c{}", (t * 7 + i) % 12));
                    let k = key(&format!("k{}", (t * 60 + i) % 150));
                    let cart = basket("25.00");
                    // Some keys are shared between threads: holds, captures and releases of one key race.
                    match i % 4 {
                        0 => match hold(&promo, &*store, Some(&who), &cart, now, &k, HoldOptions::new()) {
                            Ok(_) => done[0] += 1,
                            Err(RedemptionError::Rejected(_) | RedemptionError::Conflict(_)) => {}
                            Err(RedemptionError::IdempotencyKeyReused { .. }) => {}
                            Err(other) => panic!("hold: {other}"),
                        },
                        1 | 2 => match capture(
                            &promo,
                            &*store,
                            Some(&who),
                            &cart,
                            now,
                            CaptureOptions::new().idempotency_key(&k),
                        ) {
                            Ok(_) => done[1] += 1,
                            Err(RedemptionError::Rejected(_) | RedemptionError::Conflict(_)) => {}
                            Err(RedemptionError::IdempotencyKeyReused { .. }) => {}
                            Err(other) => panic!("capture: {other}"),
                        },
                        _ => match release(&*store, promo.code(), &k, now, Some("cancelled")) {
                            Ok(_) => done[2] += 1,
                            Err(ReleaseError::UnknownKey { .. }) => {}
                            Err(other) => panic!("release: {other}"),
                        },
                    }
                }
                done
            })
        })
        .collect();
    let mut done = [0_u32; 3];
    for t in threads {
        for (total, n) in done.iter_mut().zip(t.join().unwrap()) {
            *total += n;
        }
    }
    assert!(
        done.iter().all(|&n| n > 0),
        "holds, captures and releases all went through: {done:?}"
    );
    let mut counted = 0;
    let mut per_customer = std::collections::HashMap::new();
    for k in 0..150 {
        if let Some(r) = store.reservation(promo.code(), &key(&format!("k{k}"))).unwrap() {
            if r.counts_at(now) {
                counted += 1;
                *per_customer.entry(r.customer.clone().unwrap()).or_insert(0_u64) += 1;
            }
        }
    }
    assert_eq!(usage_at(&*store, &promo, None, now).total(), counted);
    assert!(counted <= 40, "the cap held: {counted}");
    for (who, n) in per_customer {
        assert_eq!(
            store.usage_for(promo.code(), Some(&who), now).unwrap().per_customer(),
            n,
            "{who}"
        );
        assert!(n <= 3);
    }
}

#[test]
fn a_promo_code_that_exists_is_valid() {
    // Bad values cannot be built: every constructor checks.
    assert!(promocodes::Discount::percent((-10).into()).is_err());
    assert!(promocodes::Discount::percent(150.into()).is_err());
    assert!(promocodes::Discount::fixed(eur("0")).is_err());
    assert!(promocodes::Audience::assigned([]).is_err());
    // And from_json returns the specific variants, at the field.
    let err = PromoCode::from_json(r#"{"code": "X", "discount": {"kind": "percent", "percent": "-10"}}"#).unwrap_err();
    assert_eq!(err.path(), Some("discount.percent"));
    assert!(matches!(err.kind(), InputError::PercentOutOfRange { .. }), "{err:?}");
    let err = PromoCode::from_json(
        r#"{"code": "X", "discount": {"kind": "fixed", "amount": {"amount": "0", "currency": "EUR"}}}"#,
    )
    .unwrap_err();
    assert!(matches!(err.kind(), InputError::ZeroAmount { .. }), "{err:?}");
    let err =
        PromoCode::from_json(r#"{"code": "X", "discount": {"kind": "percent", "percent": "10"}, "audience": []}"#)
            .unwrap_err();
    assert_eq!(err.kind(), &InputError::EmptyAudience);
    let err = PromoCode::from_json(
        r#"{"code": "X", "discount": {"kind": "fixed", "amount": {"amount": "5", "currency": "XYZ"}}}"#,
    )
    .unwrap_err();
    assert!(matches!(err.kind(), InputError::UnknownCurrency { .. }), "{err:?}");
    // Every quote of a valid code is sane: no negative discount, nothing above the total.
    let full = PromoCode::from_json(r#"{"code": "ALL", "discount": {"kind": "percent", "percent": "100"}}"#).unwrap();
    let quote = full.quote(None, UsageCounts::ZERO, &basket("9.99"), start()).unwrap();
    assert_eq!(quote.payable(), &eur("0.00"));
}

#[test]
fn an_inactive_code_refuses_quotes_and_captures_but_not_recorded_holds() {
    let promo = capped("KILL", Some(5), None);
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_1");
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).unwrap();
    let off = promo.with_active(false);
    assert_eq!(
        off.check(None, UsageCounts::ZERO, &basket("80.00"), start()),
        Some(Rejection::Inactive)
    );
    let refused = capture(&off, &store, None, &basket("80.00"), later(1), CaptureOptions::new());
    assert!(matches!(refused, Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Inactive));
    let receipt = capture(
        &off,
        &store,
        None,
        &basket("80.00"),
        later(1),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert_eq!(
        receipt.quote, held.quote,
        "a hold recorded before the switch is not affected"
    );
    let on = off.with_active(true);
    capture(&on, &store, None, &basket("80.00"), later(2), CaptureOptions::new()).unwrap();
    assert_eq!(usage_at(&store, &promo, None, later(2)).total(), 2);
}

#[test]
fn holds_and_receipts_keep_the_lines_and_the_split() {
    let promo = PromoCode::from_json(r#"{"code": "MUGS15", "discount": {"kind": "percent", "percent": "15"}, "applies_to": {"categories": ["mugs"]}}"#).unwrap();
    let cart = Basket::from_json(
        r#"{"lines": [{"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
                      {"sku": "BEANS", "quantity": 1, "unit_price": {"amount": "8.50", "currency": "EUR"}}],
            "shipping": {"amount": "4.90", "currency": "EUR"}}"#,
    )
    .unwrap();
    let store = InMemoryRedemptionStore::new();
    let pi = key("pi_lines");
    let held = hold(&promo, &store, None, &cart, start(), &pi, HoldOptions::new()).unwrap();
    let lines = held.quote.lines().unwrap();
    assert_eq!(lines[0].discount, eur("3.75"));
    assert_eq!(lines[1].discount, eur("0.00"));
    assert_eq!(held.quote.shipping().unwrap().discount, eur("0.00"));
    let receipt = capture(
        &promo,
        &store,
        None,
        &cart,
        later(1),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert_eq!(receipt.quote, held.quote);
    let replay = capture(
        &promo,
        &store,
        None,
        &cart,
        later(2),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .unwrap();
    assert!(replay.replayed);
    assert_eq!(replay.quote.lines(), held.quote.lines());
    let json = serde_json::to_value(&replay).unwrap();
    assert_eq!(json["quote"]["lines"][0]["discount"]["amount"], "3.75");
    assert_eq!(json["quote"]["shipping"]["amount"]["amount"], "4.90");
}

#[test]
fn a_capture_pinned_to_the_amount_charged_refuses_another_price() {
    let promo = capped("SAVE10", Some(5), None);
    let store = InMemoryRedemptionStore::new();
    let receipt = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().charged(eur("72.00")),
    )
    .unwrap();
    assert_eq!(receipt.quote.payable(), &eur("72.00"));
    let err = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().charged(eur("75.00")),
    )
    .unwrap_err();
    match err {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::QuoteChanged);
            assert_eq!(
                stale.quote.payable(),
                &eur("75.00"),
                "the stale quote charges what was charged"
            );
            assert_eq!(stale.current.unwrap().payable(), &eur("72.00"));
        }
        other => panic!("{other:?}"),
    }
    let more = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().charged(eur("81.00")),
    );
    assert!(matches!(
        more,
        Err(RedemptionError::Input(InputError::ChargedMismatch { .. }))
    ));
    let yen = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().charged(money("72", "JPY")),
    );
    assert!(matches!(
        yen,
        Err(RedemptionError::Input(InputError::ChargedMismatch { .. }))
    ));
    assert_eq!(
        usage_at(&store, &promo, None, start()).total(),
        1,
        "only the first capture counted"
    );
}
