//! One process's tasks on one hot code take turns
//! (`AsyncRedemptionStore::turn`): with a single attempt each, none of them
//! loses a race to another, on a plain code and across a campaign's codes.

mod common;

use std::sync::Arc;

use common::{assert_counts_match_records, database_url, runtime, store_in, unique_schema};
use promocodes::{
    capture_async, AsyncRedemptionStore, Basket, Campaign, CaptureOptions, Code, Currency, CustomerId, Discount, Money,
    PromoCode, Timestamp,
};
use promocodes_postgres::PgRedemptionStore;

fn at() -> Timestamp {
    "2026-12-02T10:00:00Z".parse().expect("a time")
}

/// Captures `promos[i % len]` for 60 tasks over 16 connections at once,
/// one attempt each: every one of them must land.
async fn sixty_captures_of_one_attempt(store: Arc<PgRedemptionStore>, promos: Arc<Vec<PromoCode>>) {
    let tasks: Vec<_> = (0..60)
        .map(|i| {
            let (store, promos) = (Arc::clone(&store), Arc::clone(&promos));
            tokio::spawn(async move {
                let promo = &promos[i % promos.len()];
                let customer = CustomerId::parse(&format!("c{}", i % 7)).expect("an id");
                let basket = Basket::from(Money::parse("80", Currency::EUR).expect("money"));
                let options = CaptureOptions::new().attempts(1);
                capture_async(promo, &*store, Some(&customer), &basket, at(), options).await
            })
        })
        .collect();
    for task in tasks {
        let answer = task.await.expect("the task runs");
        assert!(answer.is_ok(), "a task lost a race to its own process: {answer:?}");
    }
}

#[test]
fn one_processs_captures_of_a_hot_code_take_turns_and_never_go_stale() {
    let Some(url) = database_url() else { return };
    runtime().block_on(async {
        let store = Arc::new(store_in(&url, &unique_schema("turns"), 16).await);
        let code = Code::parse("HOT").expect("a code");
        let promo = PromoCode::builder(code.clone(), Discount::percent(10.into()).expect("10%"))
            .build()
            .expect("a code");
        sixty_captures_of_one_attempt(Arc::clone(&store), Arc::new(vec![promo])).await;
        let usage = store.usage_for(&code, None, at()).await.expect("counts");
        assert_eq!(usage.total(), 60);
        assert_counts_match_records(&store, &code).await;
    });
}

#[test]
fn a_campaigns_codes_share_one_turn_in_a_process() {
    let Some(url) = database_url() else { return };
    runtime().block_on(async {
        let store = Arc::new(store_in(&url, &unique_schema("turns_campaign"), 16).await);
        let definition = PromoCode::builder(
            Code::parse("WAVE").expect("an id"),
            Discount::percent(10.into()).expect("10%"),
        )
        .build()
        .expect("a definition");
        let campaign = Campaign::new(definition, 100).expect("a campaign");
        let promos: Vec<PromoCode> = ["WAVE-AAAA", "WAVE-BBBB", "WAVE-CCCC"]
            .iter()
            .map(|name| campaign.code(Code::parse(name).expect("a code")))
            .collect();
        let first = promos[0].clone();
        sixty_captures_of_one_attempt(Arc::clone(&store), Arc::new(promos)).await;
        let campaign_id = Code::parse("WAVE").expect("an id");
        let usage = store
            .uses_through(&campaign_id, first.code(), None, at())
            .await
            .expect("counts");
        assert_eq!(usage.total(), 60, "the campaign's total, over its three codes");
    });
}
