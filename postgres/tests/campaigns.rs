//! A campaign's codes racing on PostgreSQL: many connections capture at once,
//! and the campaign's total, each code's single use and the counts per code
//! all hold, as one compare-and-set.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::{database_url, runtime, store_in, unique_schema};
use promocodes::{
    capture_async, release_async, AsyncRedemptionStore, Basket, Campaign, CaptureOptions, Code, Currency, Discount,
    IdempotencyKey, Money, PromoCode, RedemptionError, Rejection, Timestamp, UsageLimits,
};

fn at() -> Timestamp {
    "2026-12-02T10:00:00Z".parse().expect("a time")
}

/// 300 captures of 200 single-use codes of a campaign with `total: 150`, 24
/// at a time over 8 connections: exactly 150 receipts, no code used twice,
/// and the counts read through any code say 150.
#[test]
fn racing_captures_of_single_use_codes_land_exactly_the_campaigns_total() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let store = Arc::new(store_in(&url, &unique_schema("campaign"), 8).await);
        let definition = PromoCode::builder(
            Code::parse("RACE").expect("an id"),
            Discount::percent(10.into()).expect("10%"),
        )
        .limits(UsageLimits::new(Some(150), None).expect("limits"))
        .build()
        .expect("a definition");
        let campaign = Arc::new(Campaign::new(definition, 1).expect("a campaign"));
        let semaphore = Arc::new(tokio::sync::Semaphore::new(24));
        let tasks: Vec<_> = (0..300)
            .map(|i| {
                let (store, campaign, semaphore) = (Arc::clone(&store), Arc::clone(&campaign), Arc::clone(&semaphore));
                tokio::spawn(async move {
                    let _permit = semaphore.acquire().await.expect("open");
                    let promo = campaign.code(Code::parse(&format!("RACE-{:04}", (i * 7) % 200)).expect("a code"));
                    let basket = Basket::from(Money::parse("80", Currency::EUR).expect("money"));
                    let options = CaptureOptions::new().attempts(1_000);
                    match capture_async(&promo, &*store, None, &basket, at(), options).await {
                        Ok(receipt) => Some(receipt.quote.code().clone()),
                        Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted => None,
                        Err(other) => panic!("unexpected outcome {other:?}"),
                    }
                })
            })
            .collect();
        let mut used = Vec::new();
        for task in tasks {
            used.extend(task.await.expect("the task runs"));
        }
        assert_eq!(used.len(), 150, "exactly the campaign's total");
        let distinct: HashSet<_> = used.iter().collect();
        assert_eq!(distinct.len(), 150, "no code used twice");
        let counts = store
            .uses_through(campaign.id(), &used[0], None, at())
            .await
            .expect("reads");
        assert_eq!((counts.total(), counts.code_uses()), (150, 1));
        assert_eq!(counts.discounted(), "1200.00".parse().expect("a decimal"));
    });
}

/// A capture of a campaign's code given back: the code and the campaign
/// count one fewer, and the code can be used again.
#[test]
fn a_released_campaign_code_is_usable_again() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let store = store_in(&url, &unique_schema("campaign_release"), 2).await;
        let definition = PromoCode::builder(
            Code::parse("ONCE").expect("an id"),
            Discount::percent(10.into()).expect("10%"),
        )
        .build()
        .expect("a definition");
        let campaign = Campaign::new(definition, 1).expect("a campaign");
        let promo = campaign.code(Code::parse("ONCE-1").expect("a code"));
        let basket = Basket::from(Money::parse("80", Currency::EUR).expect("money"));
        let order = IdempotencyKey::parse("pi_once").expect("a key");
        capture_async(
            &promo,
            &store,
            None,
            &basket,
            at(),
            CaptureOptions::new().idempotency_key(&order),
        )
        .await
        .expect("the first use");
        let again = capture_async(&promo, &store, None, &basket, at(), CaptureOptions::new()).await;
        assert!(
            matches!(again, Err(RedemptionError::Rejected(ref r)) if r.rejection() == Rejection::Exhausted),
            "{again:?}"
        );
        let released = release_async(&store, promo.code(), &order, at(), Some("refunded"))
            .await
            .expect("released");
        assert_eq!((released.usage.total(), released.usage.code_uses()), (0, 0));
        let receipt = capture_async(&promo, &store, None, &basket, at(), CaptureOptions::new())
            .await
            .expect("usable again");
        assert_eq!((receipt.usage.total(), receipt.usage.code_uses()), (1, 1));
    });
}
