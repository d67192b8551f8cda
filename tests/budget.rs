//! A money budget: the sum of the discounts counted is part of the counts a
//! decision is made on and a write compares, so a budget holds as a cap does.

mod common;

use std::sync::{Arc, Barrier};
use std::thread;

use common::*;
use promocodes::{
    capture, hold, redeem, release, BudgetShort, CaptureOptions, HoldOptions, InMemoryRedemptionStore, PromoCode,
    RedeemOptions, RedemptionError, RedemptionStore, Rejection, UsageCounts, UsageLimits,
};
use rust_decimal::Decimal;

fn later(seconds: i64) -> promocodes::Timestamp {
    start().checked_add_seconds(seconds).unwrap()
}

fn amount(text: &str) -> Decimal {
    text.parse().expect("a decimal")
}

/// 10% off, a budget of `budget` EUR, short budgets handled as `mode`.
fn budgeted(name: &str, budget: &str, mode: BudgetShort) -> PromoCode {
    ten_percent(name)
        .limits(UsageLimits::UNLIMITED.with_budget(eur(budget), mode).unwrap())
        .build()
        .unwrap()
}

fn spent(store: &InMemoryRedemptionStore, promo: &PromoCode) -> Decimal {
    store.usage_for(promo.code(), None, start()).unwrap().discounted()
}

fn rejection(err: RedemptionError) -> Rejection {
    match err {
        RedemptionError::Rejected(r) => r.rejection(),
        other => panic!("not a rejection: {other:?}"),
    }
}

#[test]
fn at_the_edge_refuse_and_partial_differ_only_when_short() {
    for mode in [BudgetShort::Refuse, BudgetShort::Partial] {
        let promo = budgeted("EDGE", "20.00", mode);
        let left = |discounted: &str| {
            UsageCounts::new(1, 0)
                .unwrap()
                .with_discounted(amount(discounted))
                .unwrap()
        };
        // Exactly what is left: 8.00 of 8.00.
        let exact = promo.quote(None, left("12.00"), &basket("80.00"), start()).unwrap();
        assert_eq!(exact.discount(), &eur("8.00"), "{mode:?}");
        assert!(!exact.budget_clipped());
        assert_eq!(exact.desired(), None);
        // One minor unit short.
        let short = promo.quote(None, left("12.01"), &basket("80.00"), start());
        match mode {
            BudgetShort::Refuse => {
                let refused = short.unwrap_err();
                assert_eq!(refused.rejection(), Rejection::BudgetExhausted);
                assert_eq!(refused.message(), "only EUR 7.99 is left in this promotion's budget");
            }
            _ => {
                let clipped = short.unwrap();
                assert_eq!(clipped.discount(), &eur("7.99"));
                assert_eq!(clipped.payable(), &eur("72.01"));
                assert!(clipped.budget_clipped());
                assert_eq!(clipped.desired(), Some(&eur("8.00")));
            }
        }
        // Nothing left is exhausted in both modes.
        let none = promo.quote(None, left("20.00"), &basket("80.00"), start()).unwrap_err();
        assert_eq!(none.rejection(), Rejection::BudgetExhausted, "{mode:?}");
        assert_eq!(none.message(), "this promotion's budget is used up");
    }
}

#[test]
fn redeeming_spends_the_budget_and_a_release_gives_it_back() {
    let promo = budgeted("SPEND", "20.00", BudgetShort::Refuse);
    let store = InMemoryRedemptionStore::new();
    let options = RedeemOptions::new();
    redeem(&promo, &store, None, &basket("80.00"), start(), options).unwrap();
    redeem(&promo, &store, None, &basket("80.00"), start(), options).unwrap();
    assert_eq!(spent(&store, &promo), amount("16.00"));
    let refused = redeem(&promo, &store, None, &basket("80.00"), start(), options).unwrap_err();
    assert_eq!(rejection(refused), Rejection::BudgetExhausted);
    // A smaller basket fits what is left.
    redeem(&promo, &store, None, &basket("40.00"), start(), options).unwrap();
    assert_eq!(spent(&store, &promo), amount("20.00"));

    let pi = key("pi_1");
    let refused = hold(&promo, &store, None, &basket("10.00"), start(), &pi, HoldOptions::new()).unwrap_err();
    assert_eq!(
        rejection(refused),
        Rejection::BudgetExhausted,
        "nothing left, even for EUR 1.00"
    );
    assert_eq!(
        store.usage_for(promo.code(), None, start()).unwrap().total(),
        3,
        "and nothing recorded"
    );
}

#[test]
fn a_hold_reserves_its_discount_until_captured_released_or_expired() {
    let promo = budgeted("RESERVE", "10.00", BudgetShort::Refuse);
    let store = InMemoryRedemptionStore::new();
    let (a, b) = (key("pi_a"), key("pi_b"));
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &a, HoldOptions::new()).unwrap();
    assert_eq!(spent(&store, &promo), amount("8.00"), "a hold reserves its discount");
    let refused = hold(&promo, &store, None, &basket("80.00"), start(), &b, HoldOptions::new()).unwrap_err();
    assert_eq!(rejection(refused), Rejection::BudgetExhausted);
    release(&store, promo.code(), &a, start(), Some("canceled")).unwrap();
    assert_eq!(spent(&store, &promo), Decimal::ZERO, "a release gives it back");
    hold(&promo, &store, None, &basket("80.00"), start(), &b, HoldOptions::new()).unwrap();
    // After the hold's time to live, its money is free again.
    let after = held.expires_at.checked_add_seconds(3600).unwrap();
    assert_eq!(
        store.usage_for(promo.code(), None, after).unwrap().discounted(),
        Decimal::ZERO
    );
}

#[test]
fn capturing_a_hold_with_another_basket_must_fit_the_budget_less_every_other_use() {
    for mode in [BudgetShort::Refuse, BudgetShort::Partial] {
        let promo = budgeted("REBASKET", "20.00", mode);
        let store = InMemoryRedemptionStore::new();
        let (a, b) = (key("pi_a"), key("pi_b"));
        hold(&promo, &store, None, &basket("80.00"), start(), &a, HoldOptions::new()).unwrap();
        hold(&promo, &store, None, &basket("80.00"), start(), &b, HoldOptions::new()).unwrap();
        // The budget is full (16.00 of 20.00 held). A: 15.00 wanted; 12.00 is the budget less B's 8.00.
        let bigger = capture(
            &promo,
            &store,
            None,
            &basket("150.00"),
            later(1),
            CaptureOptions::new().idempotency_key(&a),
        );
        match mode {
            BudgetShort::Refuse => {
                assert_eq!(rejection(bigger.unwrap_err()), Rejection::BudgetExhausted);
                assert_eq!(spent(&store, &promo), amount("16.00"), "the hold stays as it was");
            }
            _ => {
                let receipt = bigger.unwrap();
                assert_eq!(receipt.quote.discount(), &eur("12.00"));
                assert!(receipt.quote.budget_clipped());
                assert_eq!(receipt.quote.desired(), Some(&eur("15.00")));
                assert_eq!(spent(&store, &promo), amount("20.00"));
            }
        }
        // A smaller basket always fits: its discount replaces the hold's.
        let smaller = capture(
            &promo,
            &store,
            None,
            &basket("50.00"),
            later(1),
            CaptureOptions::new().idempotency_key(&b),
        )
        .unwrap();
        assert_eq!(smaller.quote.discount(), &eur("5.00"));
    }
}

#[test]
fn a_capture_pinned_to_a_quote_the_budget_now_clips_is_quote_changed() {
    let promo = budgeted("PINNED", "20.00", BudgetShort::Partial);
    let store = InMemoryRedemptionStore::new();
    let shown = promo.quote(None, UsageCounts::ZERO, &basket("80.00"), start()).unwrap();
    // Meanwhile others spend 15.00: 5.00 is left.
    redeem(&promo, &store, None, &basket("150.00"), start(), RedeemOptions::new()).unwrap();
    let refused = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().quoted(&shown),
    )
    .unwrap_err();
    match refused {
        RedemptionError::Rejected(r) => {
            assert_eq!(r.rejection(), Rejection::QuoteChanged);
            assert_eq!(r.quote, shown, "the stale quote is the one shown");
            let current = r.current.expect("the current quote");
            assert_eq!(current.discount(), &eur("5.00"));
            assert!(current.budget_clipped());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(spent(&store, &promo), amount("15.00"), "nothing recorded");
}

/// 8 threads × 40 redemptions of EUR 7.00 each against a budget of EUR 100.00.
fn race(promo: &PromoCode) -> (usize, Decimal) {
    const THREADS: usize = 8;
    let store = Arc::new(InMemoryRedemptionStore::new());
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let (promo, store, barrier) = (promo.clone(), Arc::clone(&store), Arc::clone(&barrier));
            thread::spawn(move || {
                barrier.wait();
                let mut receipts = 0;
                for _ in 0..40 {
                    match redeem(&promo, &*store, None, &basket("70.00"), start(), RedeemOptions::new()) {
                        Ok(_) => receipts += 1,
                        Err(RedemptionError::Rejected(r)) => assert_eq!(r.rejection(), Rejection::BudgetExhausted),
                        Err(RedemptionError::Conflict(_)) => {}
                        Err(other) => panic!("{other:?}"),
                    }
                }
                receipts
            })
        })
        .collect();
    let receipts = handles.into_iter().map(|h| h.join().unwrap()).sum();
    (receipts, spent(&store, promo))
}

#[test]
fn eight_threads_never_pass_a_budget_and_partial_ends_at_it_exactly() {
    let (receipts, spent) = race(&budgeted("RACE", "100.00", BudgetShort::Refuse));
    assert_eq!(
        (receipts, spent),
        (14, amount("98.00")),
        "14 × 7.00 fit; the 15th does not"
    );

    let (receipts, spent) = race(&budgeted("RACEPART", "100.00", BudgetShort::Partial));
    assert_eq!(
        (receipts, spent),
        (15, amount("100.00")),
        "14 × 7.00, then 2.00 clipped"
    );
}

/// A fixed 7.00 off with a budget of 100.00 in `mode`.
fn seven_off(mode: BudgetShort) -> PromoCode {
    PromoCode::builder(code("SEVEN"), promocodes::Discount::fixed(eur("7.00")).unwrap())
        .limits(UsageLimits::UNLIMITED.with_budget(eur("100.00"), mode).unwrap())
        .build()
        .unwrap()
}

#[test]
fn remaining_counts_the_budget_in_full_size_uses_and_redeeming_agrees() {
    for mode in [BudgetShort::Refuse, BudgetShort::Partial] {
        let promo = seven_off(mode);
        let store = InMemoryRedemptionStore::new();
        let options = RedeemOptions::new();
        // Each pass: `remaining` promises exactly the uses full-size baskets then get.
        let mut landed = 0;
        loop {
            let usage = store.usage_for(promo.code(), None, start()).unwrap();
            let promised = promo.remaining_uses(usage).expect("a budget bounds a fixed discount");
            match redeem(&promo, &store, None, &basket("80.00"), start(), options) {
                Ok(_) => {
                    assert!(promised >= 1, "{mode:?}: a use landed with none promised");
                    landed += 1;
                }
                Err(err) => {
                    assert_eq!(rejection(err), Rejection::BudgetExhausted, "{mode:?}");
                    assert_eq!(promised, 0, "{mode:?}: {promised} promised, none landed");
                    break;
                }
            }
        }
        // 14 × 7.00 = 98.00; the 2.00 left is one more (partial) use or none.
        let expected = if mode == BudgetShort::Partial { 15 } else { 14 };
        assert_eq!(landed, expected, "{mode:?}");
    }
    // A percent without a `max` has no size: the budget bounds nothing until it is spent.
    let percent = budgeted("TEN", "20.00", BudgetShort::Refuse);
    let store = InMemoryRedemptionStore::new();
    assert_eq!(
        percent.remaining_uses(store.usage_for(percent.code(), None, start()).unwrap()),
        None
    );
    redeem(&percent, &store, None, &basket("200.00"), start(), RedeemOptions::new()).unwrap();
    assert_eq!(
        percent.remaining_uses(store.usage_for(percent.code(), None, start()).unwrap()),
        Some(0)
    );
}
