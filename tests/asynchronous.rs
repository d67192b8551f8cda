//! The async forms answer exactly as the blocking ones: both drive the one
//! decision loop, so the same requests against the same store give the same
//! answers, retries and conflicts included.

mod common;

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::task::{Context, Poll, Waker};

use common::*;
use promocodes::{
    capture, capture_async, hold, hold_async, redeem, redeem_async, release, release_async, AsyncRedemptionStore,
    Basket, CaptureOptions, Code, Conversion, CustomerId, Hold, HoldOptions, IdempotencyKey, InMemoryRedemptionStore,
    PromoCode, Receipt, RedeemOptions, Redemption, RedemptionError, Release, ReleaseError, Released, Reservation,
    StoreError, Timestamp, UsageCounts, UsageLimits,
};

/// Polls `future` to completion on this thread (the in-memory store's futures are ready at once).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Capture(Result<Receipt, RedemptionError>),
    Redeem(Result<Receipt, RedemptionError>),
    Hold(Result<Hold, RedemptionError>),
    Release(Result<Released, ReleaseError>),
}

#[derive(Clone)]
enum Op {
    Capture {
        who: Option<&'static str>,
        basket: &'static str,
        key: Option<&'static str>,
        at: i64,
        pinned: Option<&'static str>,
    },
    Redeem {
        who: Option<&'static str>,
        key: Option<&'static str>,
        attempts: u32,
    },
    Hold {
        who: Option<&'static str>,
        basket: &'static str,
        key: &'static str,
        ttl: u64,
    },
    Release {
        key: &'static str,
        at: i64,
    },
}

fn later(seconds: i64) -> Timestamp {
    start().checked_add_seconds(seconds).expect("in range")
}

fn run_blocking(promo: &PromoCode, store: &InMemoryRedemptionStore, op: &Op) -> Outcome {
    match op.clone() {
        Op::Capture {
            who,
            basket: amount,
            key: k,
            at,
            pinned,
        } => {
            let (who, k) = (who.map(customer), k.map(key));
            let shown = pinned.map(|amount| promo.price(&basket(amount), start()).expect("a quote"));
            let mut options = CaptureOptions::new();
            if let Some(k) = &k {
                options = options.idempotency_key(k);
            }
            if let Some(shown) = &shown {
                options = options.quoted(shown);
            }
            Outcome::Capture(capture(promo, store, who.as_ref(), &basket(amount), later(at), options))
        }
        Op::Redeem { who, key: k, attempts } => {
            let (who, k) = (who.map(customer), k.map(key));
            let mut options = RedeemOptions::new().attempts(attempts);
            if let Some(k) = &k {
                options = options.idempotency_key(k);
            }
            Outcome::Redeem(redeem(promo, store, who.as_ref(), &basket("80.00"), start(), options))
        }
        Op::Hold {
            who,
            basket: amount,
            key: k,
            ttl,
        } => {
            let who = who.map(customer);
            let options = HoldOptions::new().ttl_seconds(ttl);
            Outcome::Hold(hold(
                promo,
                store,
                who.as_ref(),
                &basket(amount),
                start(),
                &key(k),
                options,
            ))
        }
        Op::Release { key: k, at } => Outcome::Release(release(store, promo.code(), &key(k), later(at), Some("why"))),
    }
}

async fn run_async<S: AsyncRedemptionStore>(promo: &PromoCode, store: &S, op: &Op) -> Outcome {
    match op.clone() {
        Op::Capture {
            who,
            basket: amount,
            key: k,
            at,
            pinned,
        } => {
            let (who, k) = (who.map(customer), k.map(key));
            let shown = pinned.map(|amount| promo.price(&basket(amount), start()).expect("a quote"));
            let mut options = CaptureOptions::new();
            if let Some(k) = &k {
                options = options.idempotency_key(k);
            }
            if let Some(shown) = &shown {
                options = options.quoted(shown);
            }
            Outcome::Capture(capture_async(promo, store, who.as_ref(), &basket(amount), later(at), options).await)
        }
        Op::Redeem { who, key: k, attempts } => {
            let (who, k) = (who.map(customer), k.map(key));
            let mut options = RedeemOptions::new().attempts(attempts);
            if let Some(k) = &k {
                options = options.idempotency_key(k);
            }
            Outcome::Redeem(redeem_async(promo, store, who.as_ref(), &basket("80.00"), start(), options).await)
        }
        Op::Hold {
            who,
            basket: amount,
            key: k,
            ttl,
        } => {
            let who = who.map(customer);
            let options = HoldOptions::new().ttl_seconds(ttl);
            Outcome::Hold(hold_async(promo, store, who.as_ref(), &basket(amount), start(), &key(k), options).await)
        }
        Op::Release { key: k, at } => {
            Outcome::Release(release_async(store, promo.code(), &key(k), later(at), Some("why")).await)
        }
    }
}

fn capture_op(who: &'static str, key: &'static str, at: i64) -> Op {
    Op::Capture {
        who: Some(who),
        basket: "80.00",
        key: Some(key),
        at,
        pinned: None,
    }
}

#[test]
fn the_async_forms_answer_as_the_blocking_ones() {
    let promo = ten_percent("TWINS")
        .limits(UsageLimits::new(Some(4), Some(1)).expect("limits"))
        .build()
        .expect("a code");
    let script = vec![
        Op::Hold {
            who: Some("alice"),
            basket: "80.00",
            key: "k1",
            ttl: 60,
        },
        capture_op("alice", "k1", 10),
        capture_op("alice", "k2", 10),
        capture_op("bob", "k3", 10),
        capture_op("bob", "k3", 11),
        Op::Hold {
            who: Some("carol"),
            basket: "80.00",
            key: "k4",
            ttl: 60,
        },
        capture_op("dave", "k4", 120),
        capture_op("carol", "k4", 120),
        Op::Capture {
            who: Some("erin"),
            basket: "90.00",
            key: Some("k1"),
            at: 130,
            pinned: None,
        },
        Op::Release { key: "k3", at: 140 },
        Op::Release { key: "k3", at: 150 },
        Op::Release { key: "nope", at: 150 },
        capture_op("bob", "k3", 160),
        Op::Capture {
            who: Some("frank"),
            basket: "80.00",
            key: Some("k5"),
            at: 170,
            pinned: Some("90.00"),
        },
        Op::Hold {
            who: Some("gina"),
            basket: "80.00",
            key: "k6",
            ttl: 0,
        },
        Op::Redeem {
            who: Some("hal"),
            key: None,
            attempts: 0,
        },
        Op::Redeem {
            who: Some("ivy"),
            key: Some("k7"),
            attempts: 3,
        },
        Op::Redeem {
            who: None,
            key: None,
            attempts: 3,
        },
        Op::Redeem {
            who: Some("jack"),
            key: None,
            attempts: 3,
        },
        Op::Hold {
            who: Some("kim"),
            basket: "80.00",
            key: "k8",
            ttl: 60,
        },
    ];
    let (blocking, nonblocking) = (InMemoryRedemptionStore::new(), InMemoryRedemptionStore::new());
    for (i, op) in script.iter().enumerate() {
        let expected = run_blocking(&promo, &blocking, op);
        let answered = block_on(run_async(&promo, &nonblocking, op));
        assert_eq!(answered, expected, "step {i}");
    }
}

/// An async store that refuses its first `refusals` writes as stale.
struct Flaky {
    inner: InMemoryRedemptionStore,
    refusals: u32,
    writes: AtomicU32,
}

impl AsyncRedemptionStore for Flaky {
    async fn usage_for(
        &self,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        AsyncRedemptionStore::usage_for(&self.inner, code, customer, now).await
    }

    async fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        AsyncRedemptionStore::uses_through(&self.inner, campaign, code, customer, now).await
    }

    async fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        AsyncRedemptionStore::held(&self.inner, code, now).await
    }

    async fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        AsyncRedemptionStore::reservation(&self.inner, code, key).await
    }

    async fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        if self.writes.fetch_add(1, Ordering::SeqCst) < self.refusals {
            return Ok(None);
        }
        AsyncRedemptionStore::record(&self.inner, redemption).await
    }

    async fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        AsyncRedemptionStore::convert(&self.inner, conversion).await
    }

    async fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        AsyncRedemptionStore::release(&self.inner, release).await
    }
}

#[test]
fn a_lost_race_is_retried_and_then_a_conflict_as_in_the_blocking_form() {
    let promo = ten_percent("RETRY").build().expect("a code");
    let flaky = |refusals| Flaky {
        inner: InMemoryRedemptionStore::new(),
        refusals,
        writes: AtomicU32::new(0),
    };
    let store = flaky(2);
    let options = RedeemOptions::new().attempts(3);
    let receipt = block_on(redeem_async(&promo, &store, None, &basket("80.00"), start(), options)).expect("lands");
    assert_eq!(receipt.usage, usage(1, 0));
    assert_eq!(store.writes.load(Ordering::SeqCst), 3);

    let store = flaky(3);
    let err = block_on(redeem_async(&promo, &store, None, &basket("80.00"), start(), options)).unwrap_err();
    assert!(matches!(err, RedemptionError::Conflict(c) if c.attempts == 3));
    assert_eq!(store.writes.load(Ordering::SeqCst), 3);
}

fn assert_send<T: Send>(_: &T) {}

#[test]
fn the_async_forms_are_send_for_a_multi_threaded_runtime() {
    let promo = ten_percent("SEND").build().expect("a code");
    let store = InMemoryRedemptionStore::new();
    let b: Basket = basket("80.00");
    let k = key("k");
    let capturing = capture_async(&promo, &store, None, &b, start(), CaptureOptions::new());
    assert_send(&capturing);
    let holding = hold_async(&promo, &store, None, &b, start(), &k, HoldOptions::new());
    assert_send(&holding);
    let redeeming = redeem_async(&promo, &store, None, &b, start(), RedeemOptions::new());
    assert_send(&redeeming);
    let releasing = release_async(&store, promo.code(), &k, start(), None);
    assert_send(&releasing);
    assert!(block_on(capturing).is_ok());
}
