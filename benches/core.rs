//! Core benchmarks: the pure rules (`check`, `quote`) and the compare-and-set loop (`redeem`) on the
//! in-memory store, alone and with two threads racing on one code.
//!
//! Run with `cargo bench --bench core`; `scripts/bench.sh` runs it and folds the figures into its table.

use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use promocodes::{redeem, Basket, Currency, CustomerId, InMemoryRedemptionStore, Money, PromoCode, RedeemOptions};
use promocodes::{Timestamp, UsageCounts};

/// A realistic code: percent off with a cap, a window, a minimum basket and usage limits.
/// The limits are huge so that no benchmark ever runs the code out.
const DEFINITION: &str = r#"{
        "code": "SAVE10",
        "discount": {"kind": "percent", "percent": "10", "max": {"amount": "20.00", "currency": "EUR"}},
        "limits": {"total": 1000000000000, "per_customer": 1000000000000},
        "starts_at": "2026-12-01T00:00:00Z",
        "ends_at": "2027-01-01T00:00:00Z",
        "minimum": {"amount": "50.00", "currency": "EUR"}
    }"#;

fn promo() -> PromoCode {
    PromoCode::from_json(DEFINITION).expect("the benchmark's code parses")
}

struct Fixture {
    promo: PromoCode,
    customer: CustomerId,
    total: Basket,
    now: Timestamp,
    usage: UsageCounts,
}

fn fixture() -> Fixture {
    Fixture {
        promo: promo(),
        customer: CustomerId::parse("alice").expect("customer id"),
        total: Basket::from(Money::parse("80.00", Currency::EUR).expect("money")),
        now: "2026-12-02T10:00:00Z".parse().expect("timestamp"),
        usage: UsageCounts::new(12, 0).expect("usage"),
    }
}

fn rules(c: &mut Criterion) {
    let f = fixture();
    // What the browser module does with its `definition` argument on every call.
    c.bench_function("definition from_json", |b| {
        b.iter(|| PromoCode::from_json(black_box(DEFINITION)).expect("parses"))
    });
    c.bench_function("check", |b| {
        b.iter(|| {
            black_box(f.promo.check(
                Some(black_box(&f.customer)),
                black_box(f.usage),
                black_box(&f.total),
                f.now,
            ))
        })
    });
    c.bench_function("quote", |b| {
        b.iter(|| {
            black_box(f.promo.quote(
                Some(black_box(&f.customer)),
                black_box(f.usage),
                black_box(&f.total),
                f.now,
            ))
        })
    });
}

/// A basket of 3 lines and shipping, quoted with a percent code (the one above), a buy X get Y
/// code and a tiered one (issue 34: each within 1.5x the percent code's time).
fn three_lines(c: &mut Criterion) {
    let f = fixture();
    let basket = Basket::from_json(
        r#"{"lines": [
            {"sku": "MUG", "quantity": 3, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
            {"sku": "MUG-S", "quantity": 1, "unit_price": {"amount": "8.00", "currency": "EUR"}, "categories": ["mugs"]},
            {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}
        ], "shipping": {"amount": "4.90", "currency": "EUR"}}"#,
    )
    .expect("the benchmark's basket parses");
    let buy_get = PromoCode::from_json(
        r#"{"code": "B2G1", "discount": {"kind": "buy_x_get_y",
            "buy": {"quantity": 2, "applies_to": {"categories": ["mugs"]}},
            "get": {"quantity": 1, "percent": "100"}, "max_applications": 2}}"#,
    )
    .expect("parses");
    let tiered = PromoCode::from_json(
        r#"{"code": "TIERS", "discount": {"kind": "tiered", "by": "subtotal", "tiers": [
            {"from": {"amount": "50.00", "currency": "EUR"}, "discount": {"kind": "percent", "percent": "10"}},
            {"from": {"amount": "100.00", "currency": "EUR"}, "discount": {"kind": "percent", "percent": "15"}},
            {"from": {"amount": "200.00", "currency": "EUR"}, "discount": {"kind": "fixed", "amount": {"amount": "40.00", "currency": "EUR"}}}]}}"#,
    )
    .expect("parses");
    for (name, promo) in [("percent", &f.promo), ("buy_x_get_y", &buy_get), ("tiered", &tiered)] {
        c.bench_function(&format!("quote/3 lines/{name}"), |b| {
            b.iter(|| {
                black_box(promo.quote(
                    Some(black_box(&f.customer)),
                    black_box(f.usage),
                    black_box(&basket),
                    f.now,
                ))
            })
        });
    }
}

fn redeem_uncontended(c: &mut Criterion) {
    let f = fixture();
    let store = InMemoryRedemptionStore::new();
    c.bench_function("redeem/uncontended", |b| {
        b.iter(|| {
            redeem(
                &f.promo,
                &store,
                Some(&f.customer),
                &f.total,
                f.now,
                RedeemOptions::new(),
            )
            .expect("an uncapped code always redeems")
        })
    });
}

/// `iters` redemptions of one code split over two threads that start together; the time is the
/// slower thread's, from the common start to its last redemption. Lost compare-and-set writes are
/// retried inside `redeem` (with enough passes that none gives up), so they show up as time.
fn redeem_two_threads(c: &mut Criterion) {
    let f = fixture();
    let store = InMemoryRedemptionStore::new();
    let customers = [
        CustomerId::parse("alice").expect("id"),
        CustomerId::parse("bob").expect("id"),
    ];
    c.bench_function("redeem/2 threads, one code", |b| {
        b.iter_custom(|iters| {
            let barrier = Barrier::new(2);
            let per_thread = iters.div_ceil(2);
            std::thread::scope(|scope| {
                let handles: Vec<_> = customers
                    .iter()
                    .map(|customer| {
                        let (f, store, barrier) = (&f, &store, &barrier);
                        scope.spawn(move || {
                            barrier.wait();
                            let start = Instant::now();
                            for _ in 0..per_thread {
                                let options = RedeemOptions::new().attempts(u32::MAX);
                                redeem(&f.promo, store, Some(customer), &f.total, f.now, options)
                                    .expect("an uncapped code always redeems");
                            }
                            start.elapsed()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("bench thread"))
                    .max()
                    .unwrap_or(Duration::ZERO)
            })
        })
    });
}

criterion_group!(benches, rules, three_lines, redeem_uncontended, redeem_two_threads);
criterion_main!(benches);
