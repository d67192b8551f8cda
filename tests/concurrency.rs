//! Real threads racing real redemptions against the in-memory store.

mod common;

use std::sync::{Arc, Barrier};
use std::thread;

use common::*;
use promocodes::{
    redeem, InMemoryRedemptionStore, PromoCode, RedeemOptions, RedemptionError, RedemptionStore, Rejection, UsageLimits,
};

const THREADS: usize = 8;
const PER_THREAD: usize = 200;

#[derive(Debug, Default)]
struct Tally {
    receipts: usize,
    exhausted: usize,
    customer_limit: usize,
    conflicts: usize,
}

/// Runs THREADS x PER_THREAD redemptions, all released at once; `who` picks
/// the customer of redemption `i` on thread `t`.
fn race(promo: &PromoCode, store: &Arc<InMemoryRedemptionStore>, who: fn(usize, usize) -> Option<String>) -> Tally {
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (promo, store, barrier) = (promo.clone(), Arc::clone(store), Arc::clone(&barrier));
            thread::spawn(move || {
                let mut tally = Tally::default();
                barrier.wait();
                for i in 0..PER_THREAD {
                    let customer = who(t, i).map(|name| customer(&name));
                    match redeem(
                        &promo,
                        &*store,
                        customer.as_ref(),
                        &basket("80.00"),
                        start(),
                        RedeemOptions::new(),
                    ) {
                        Ok(receipt) => {
                            assert!(!receipt.replayed);
                            tally.receipts += 1;
                        }
                        Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted => {
                            tally.exhausted += 1
                        }
                        Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::CustomerLimitReached => {
                            tally.customer_limit += 1
                        }
                        Err(RedemptionError::Conflict(_)) => tally.conflicts += 1,
                        Err(other) => panic!("unexpected outcome {other:?}"),
                    }
                }
                tally
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("thread finished"))
        .fold(Tally::default(), |a, b| Tally {
            receipts: a.receipts + b.receipts,
            exhausted: a.exhausted + b.exhausted,
            customer_limit: a.customer_limit + b.customer_limit,
            conflicts: a.conflicts + b.conflicts,
        })
}

#[test]
fn eight_threads_never_exceed_a_total_cap_of_500() {
    let promo = ten_percent("CAP500")
        .limits(UsageLimits::new(Some(500), None).unwrap())
        .build()
        .unwrap();
    let store = Arc::new(InMemoryRedemptionStore::new());

    let tally = race(&promo, &store, |_, _| None);

    assert_eq!(tally.receipts, 500, "{tally:?}");
    assert_eq!(
        tally.exhausted + tally.conflicts,
        THREADS * PER_THREAD - 500,
        "{tally:?}"
    );
    assert_eq!(tally.customer_limit, 0);
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), usage(500, 0));
}

#[test]
fn eight_threads_never_exceed_a_per_customer_cap() {
    // 40 customers, each allowed 5 uses, each trying 40 times across the threads:
    // 200 receipts in all and never a sixth for anyone.
    let promo = ten_percent("FIVEEACH")
        .limits(UsageLimits::new(Some(500), Some(5)).unwrap())
        .build()
        .unwrap();
    let store = Arc::new(InMemoryRedemptionStore::new());

    let tally = race(&promo, &store, |t, i| {
        Some(format!("customer-{}", (t * PER_THREAD + i) % 40))
    });

    assert_eq!(tally.receipts, 200, "{tally:?}");
    assert_eq!(tally.exhausted, 0, "{tally:?}");
    assert_eq!(
        tally.customer_limit + tally.conflicts,
        THREADS * PER_THREAD - 200,
        "{tally:?}"
    );
    for n in 0..40 {
        let who = customer(&format!("customer-{n}"));
        assert_eq!(
            store.usage_for(promo.code(), Some(&who), start()).unwrap(),
            usage(200, 5)
        );
    }
}

#[test]
fn concurrent_retries_of_one_key_count_once() {
    let promo = ten_percent("ONEKEY").build().unwrap();
    let store = Arc::new(InMemoryRedemptionStore::new());
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let (promo, store, barrier) = (promo.clone(), Arc::clone(&store), Arc::clone(&barrier));
            thread::spawn(move || {
                let evt = key("evt_same");
                barrier.wait();
                let options = RedeemOptions::new().idempotency_key(&evt).attempts(50);
                redeem(
                    &promo,
                    &*store,
                    Some(&customer("alice")),
                    &basket("80.00"),
                    start(),
                    options,
                )
                .unwrap()
            })
        })
        .collect();
    let receipts: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();

    assert_eq!(
        receipts.iter().filter(|r| !r.replayed).count(),
        1,
        "exactly one first write"
    );
    for receipt in &receipts {
        assert_eq!(receipt.usage, usage(1, 1));
        assert_eq!(receipt.quote, receipts[0].quote);
    }
    assert_eq!(store.usage_for(promo.code(), None, start()).unwrap(), usage(1, 0));
}
