//! The examples of the design articles, as tests: compare-and-set, the retry
//! loop and its budget, replays, and capture at payment time.

mod common;

use common::*;
use promocodes::testing::{FlakyStore, Interleave, Point};
use promocodes::{
    capture, redeem, CaptureOptions, InMemoryRedemptionStore, RedeemOptions, Redemption, RedemptionError,
    RedemptionStore, Rejection, UsageCounts, UsageLimits,
};

#[test]
fn a_second_record_against_spent_counts_is_stale() {
    let store = InMemoryRedemptionStore::new();
    let promo = ten_percent("SAVE10").build().unwrap();
    let quote = promo.price(&basket("80.00"), start()).unwrap();
    let alice = customer("alice");
    let write = Redemption {
        campaign: None,
        code: promo.code(),
        customer: Some(&alice),
        expected: UsageCounts::ZERO,
        idempotency_key: None,
        quote: &quote,
        now: start(),
        hold_until: None,
        after_expired_hold: None,
    };

    let first = store.record(&write).unwrap().expect("first write lands");
    let stale = store.record(&write).unwrap();

    assert_eq!(first.usage, usage(1, 1));
    assert_eq!(stale, None);
    assert_eq!(
        store.usage_for(promo.code(), Some(&alice), start()).unwrap(),
        usage(1, 1)
    );
}

#[test]
fn contention_within_the_budget_still_redeems() {
    let promo = ten_percent("CAP5")
        .limits(UsageLimits::new(Some(5), None).unwrap())
        .build()
        .unwrap();
    let store = FlakyStore::new(InMemoryRedemptionStore::new(), 2);

    let receipt = redeem(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        RedeemOptions::new().attempts(3),
    )
    .unwrap();

    assert_eq!(receipt.usage, usage(1, 0));
    assert!(!receipt.replayed);
    assert_eq!(store.inner.usage_for(promo.code(), None, start()).unwrap(), usage(1, 0));
    assert_eq!(store.writes(), 3);
}

#[test]
fn attempts_used_up_is_a_conflict_not_a_rejection() {
    let promo = ten_percent("CAP5")
        .limits(UsageLimits::new(Some(5), None).unwrap())
        .build()
        .unwrap();
    for (attempts, refusals) in [(3, 3), (3, 10), (1, 1), (5, 5)] {
        let store = FlakyStore::new(InMemoryRedemptionStore::new(), refusals);
        let err = redeem(
            &promo,
            &store,
            None,
            &basket("80.00"),
            start(),
            RedeemOptions::new().attempts(attempts),
        )
        .unwrap_err();
        match err {
            RedemptionError::Conflict(conflict) => {
                assert_eq!(conflict.attempts, attempts);
                assert_eq!(conflict.code, *promo.code());
            }
            other => panic!("expected a conflict, got {other:?}"),
        }
        assert_eq!(store.writes(), attempts, "the store saw exactly `attempts` writes");
        assert_eq!(
            store.inner.usage_for(promo.code(), None, start()).unwrap(),
            UsageCounts::ZERO
        );
    }
}

#[test]
fn default_attempts_is_three() {
    assert_eq!(promocodes::DEFAULT_ATTEMPTS, 3);
    let promo = ten_percent("CAP5").build().unwrap();
    let store = FlakyStore::new(InMemoryRedemptionStore::new(), u32::MAX);
    let err = redeem(&promo, &store, None, &basket("80.00"), start(), RedeemOptions::new()).unwrap_err();
    assert!(matches!(err, RedemptionError::Conflict(c) if c.attempts == 3));
    assert_eq!(store.writes(), 3);
}

#[test]
fn zero_attempts_is_bad_input_and_writes_nothing() {
    let promo = ten_percent("CAP5").build().unwrap();
    let store = FlakyStore::new(InMemoryRedemptionStore::new(), 0);
    let err = redeem(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        RedeemOptions::new().attempts(0),
    )
    .unwrap_err();
    assert_eq!(err, RedemptionError::Misuse(promocodes::Misuse::ZeroAttempts));
    assert_eq!(store.writes(), 0);
}

#[test]
fn losing_the_race_for_the_last_use_is_exhausted() {
    // The store refuses the first write because another buyer took the last
    // use in between: spend it inside the write, before the loop re-reads.
    let promo = ten_percent("LASTONE")
        .limits(UsageLimits::new(Some(1), None).unwrap())
        .build()
        .unwrap();
    let store = Interleave::new(InMemoryRedemptionStore::new(), Point::Record, |inner| {
        redeem(&promo, inner, None, &basket("10.00"), start(), RedeemOptions::new()).unwrap();
    });
    let err = redeem(&promo, &store, None, &basket("80.00"), start(), RedeemOptions::new()).unwrap_err();
    assert!(
        matches!(err, RedemptionError::Rejected(ref r) if r.rejection() == Rejection::Exhausted),
        "{err:?}"
    );
    assert!(store.ran());
    // The one use is the other buyer's: 10% of EUR 10.00.
    let after = store.inner.usage_for(promo.code(), None, start()).unwrap();
    assert_eq!(after, usage(1, 0).with_discounted("1.00".parse().unwrap()).unwrap());
}

#[test]
fn a_repeated_key_replays_and_counts_once() {
    let promo = ten_percent("SAVE10").build().unwrap();
    let store = InMemoryRedemptionStore::new();
    let cart = promo.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();
    let evt = key("evt_1");

    let first = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().idempotency_key(&evt).quoted(&cart),
    )
    .unwrap();
    let later = at("2026-12-02T11:00:00Z");
    let again = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        later,
        CaptureOptions::new().idempotency_key(&evt).quoted(&cart),
    )
    .unwrap();

    assert!(!first.replayed);
    assert!(again.replayed);
    assert_eq!(again.usage, first.usage);
    assert_eq!(
        again.quote, first.quote,
        "the replay is the first receipt, quoted_at included"
    );
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), usage(1, 0));
}

#[test]
fn a_replay_is_answered_even_once_the_cap_is_spent() {
    let promo = ten_percent("ONCE")
        .limits(UsageLimits::new(Some(1), Some(1)).unwrap())
        .build()
        .unwrap();
    let store = InMemoryRedemptionStore::new();
    let alice = customer("alice");
    let evt = key("evt_1");
    let options = RedeemOptions::new().idempotency_key(&evt);
    let first = redeem(&promo, &store, Some(&alice), &basket("80.00"), start(), options).unwrap();
    let again = redeem(&promo, &store, Some(&alice), &basket("80.00"), start(), options).unwrap();
    assert!(again.replayed);
    assert_eq!(again.usage, first.usage);
    assert_eq!(
        store.usage_for(promo.code(), Some(&alice), start()).unwrap(),
        usage(1, 1)
    );
}

#[test]
fn a_key_reused_for_another_customer_or_total_records_nothing() {
    let promo = ten_percent("SAVE10").build().unwrap();
    let store = InMemoryRedemptionStore::new();
    let (alice, bob) = (customer("alice"), customer("bob"));
    let evt = key("evt_1");
    let options = RedeemOptions::new().idempotency_key(&evt);
    redeem(&promo, &store, Some(&alice), &basket("80.00"), start(), options).unwrap();

    for (who, total) in [
        (Some(&bob), basket("80.00")),
        (Some(&alice), basket("81.00")),
        (None, basket("80.00")),
    ] {
        let err = redeem(&promo, &store, who, &total, start(), options).unwrap_err();
        assert_eq!(err, RedemptionError::IdempotencyKeyReused { key: evt.clone() });
    }
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), usage(1, 0));
}

#[test]
fn capture_on_a_spent_code_is_rejected_with_the_stale_quote() {
    let promo = ten_percent("LASTONE")
        .limits(UsageLimits::new(Some(1), None).unwrap())
        .build()
        .unwrap();
    let store = InMemoryRedemptionStore::new();
    let cart = promo.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();
    capture(&promo, &store, None, &basket("80.00"), start(), CaptureOptions::new()).unwrap();

    let refused = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().quoted(&cart),
    )
    .unwrap_err();

    match refused {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::Exhausted);
            assert_eq!(stale.quote, cart);
        }
        other => panic!("expected RedemptionRejected, got {other:?}"),
    }
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), usage(1, 0));
}

#[test]
fn a_changed_total_below_the_minimum_is_refused_at_capture() {
    let promo = ten_percent("BIG").minimum(eur("50.00")).build().unwrap();
    let store = InMemoryRedemptionStore::new();
    let cart = promo.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();

    let refused = capture(
        &promo,
        &store,
        None,
        &basket("40.00"),
        start(),
        CaptureOptions::new().quoted(&cart),
    )
    .unwrap_err();

    match refused {
        RedemptionError::Rejected(stale) => {
            assert_eq!(stale.rejection(), Rejection::BelowMinimum);
            assert_eq!(stale.quote, cart, "the stale quote is the one the buyer saw");
            assert_eq!(
                stale.rejected.message(),
                "this code needs a basket of at least EUR 50.00"
            );
        }
        other => panic!("expected RedemptionRejected, got {other:?}"),
    }
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), UsageCounts::ZERO);

    let receipt = capture(&promo, &store, None, &basket("60.00"), start(), CaptureOptions::new()).unwrap();
    assert_eq!(
        receipt.quote.payable(),
        &eur("54.00"),
        "capture prices the changed total"
    );
}

#[test]
fn capture_when_the_code_expired_while_paying() {
    let promo = ten_percent("XMAS").ends_at(at("2026-12-25T00:00:00Z")).build().unwrap();
    let store = InMemoryRedemptionStore::new();
    let cart = promo
        .quote(None, UsageCounts::ZERO, &basket("80.00"), at("2026-12-24T23:59:00Z"))
        .unwrap();
    let err = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        at("2026-12-25T00:00:00Z"),
        CaptureOptions::new().quoted(&cart),
    )
    .unwrap_err();
    assert!(matches!(err, RedemptionError::Rejected(ref s) if s.rejection() == Rejection::Expired));
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), UsageCounts::ZERO);
}

#[test]
fn capture_refuses_a_quote_for_another_code() {
    let promo = ten_percent("SAVE10").build().unwrap();
    let other = ten_percent("OTHER").build().unwrap();
    let store = InMemoryRedemptionStore::new();
    let cart = other.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();
    let err = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().quoted(&cart),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        RedemptionError::Misuse(promocodes::Misuse::QuoteForOtherCode { .. })
    ));
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), UsageCounts::ZERO);
}

#[test]
fn a_store_failure_is_neither_stale_nor_a_rejection() {
    struct Broken;
    fn fire<T>() -> Result<T, promocodes::StoreError> {
        Err(promocodes::StoreError::Backend {
            store: "broken",
            message: "disk on fire".to_owned(),
        })
    }
    impl RedemptionStore for Broken {
        fn usage_for(
            &self,
            _: &promocodes::Code,
            _: Option<&promocodes::CustomerId>,
            _: promocodes::Timestamp,
        ) -> Result<UsageCounts, promocodes::StoreError> {
            Ok(UsageCounts::ZERO)
        }
        fn uses_through(
            &self,
            _: &promocodes::Code,
            _: &promocodes::Code,
            _: Option<&promocodes::CustomerId>,
            _: promocodes::Timestamp,
        ) -> Result<UsageCounts, promocodes::StoreError> {
            Ok(UsageCounts::ZERO)
        }
        fn held(&self, _: &promocodes::Code, _: promocodes::Timestamp) -> Result<u64, promocodes::StoreError> {
            Ok(0)
        }
        fn reservation(
            &self,
            _: &promocodes::Code,
            _: &promocodes::IdempotencyKey,
        ) -> Result<Option<promocodes::Reservation>, promocodes::StoreError> {
            Ok(None)
        }
        fn record(&self, _: &Redemption<'_>) -> Result<Option<promocodes::Reservation>, promocodes::StoreError> {
            fire()
        }
        fn convert(
            &self,
            _: &promocodes::Conversion<'_>,
        ) -> Result<Option<promocodes::Reservation>, promocodes::StoreError> {
            fire()
        }
        fn release(
            &self,
            _: &promocodes::Release<'_>,
        ) -> Result<Option<promocodes::Reservation>, promocodes::StoreError> {
            fire()
        }
    }
    let promo = ten_percent("SAVE10").build().unwrap();
    let err = redeem(&promo, &Broken, None, &basket("80.00"), start(), RedeemOptions::new()).unwrap_err();
    assert!(matches!(err, RedemptionError::Store(_)));
    assert_eq!(err.to_string(), "broken store failed: disk on fire");
}

#[test]
fn the_in_memory_store_passes_the_conformance_suite() {
    promocodes::testing::run_conformance(InMemoryRedemptionStore::new);
}
