//! Races between processes, a server killed under load, a connection lost in
//! the middle of a write: the caps hold, and every count equals its records.

mod common;

use std::time::{Duration, Instant};

use common::{assert_counts_match_records, database_url, line_of, n, race_command, runtime, unique_schema};
use promocodes::{
    AsyncRedemptionStore, Basket, Code, Currency, CustomerId, Discount, IdempotencyKey, Money, PromoCode, Redemption,
    Timestamp, UsageCounts,
};
use serde_json::Value;

/// The largest per-customer count of `code`.
async fn max_per_customer(store: &promocodes_postgres::PgRedemptionStore, code: &str) -> i64 {
    let client = store.pool().get().await.expect("a connection");
    client
        .query_one(
            "SELECT COALESCE(max(n), 0) FROM promocodes_usage_customer WHERE code = $1",
            &[&code],
        )
        .await
        .expect("reads")
        .get(0)
}

#[test]
fn two_processes_racing_captures_land_exactly_the_cap() {
    let Some(url) = database_url() else { return };
    let schema = unique_schema("race");
    let args: Vec<&str> = "--total 100 --per-customer 2 --customers 80 --requests 600 --concurrency 16 --attempts 50"
        .split(' ')
        .collect();
    let children: Vec<_> = (0..2)
        .map(|_| race_command(&url, &schema, "RACE", &args).spawn().expect("starts"))
        .collect();
    let lines: Vec<Value> = children
        .into_iter()
        .map(|child| line_of(child.wait_with_output().expect("runs")))
        .collect();
    let receipts: u64 = lines.iter().map(|line| n(line, "receipts")).sum();
    for line in &lines {
        assert_eq!(n(line, "errors"), 0, "{line}");
        assert!(n(line, "usage_total") <= 100, "{line}");
    }
    assert_eq!(receipts, 100, "the two runs together land exactly the cap: {lines:?}");

    let runtime = runtime();
    runtime.block_on(async {
        let store = common::store_in(&url, &schema, 1).await;
        let code = Code::parse("RACE").expect("a code");
        let usage = store
            .usage_for(&code, None, Timestamp::from_unix_millis(0).expect("a time"))
            .await;
        assert_eq!(usage.expect("reads").total(), 100);
        assert!(max_per_customer(&store, "RACE").await <= 2, "no customer passes 2");
        assert_counts_match_records(&store, &code).await;
    });
}

#[test]
fn two_processes_racing_holds_captures_and_releases_keep_counts_equal_to_records() {
    let Some(url) = database_url() else { return };
    let schema = unique_schema("mix");
    let args: Vec<&str> =
        "--total 120 --per-customer 3 --customers 50 --requests 600 --concurrency 16 --attempts 50 --mix"
            .split(' ')
            .collect();
    let children: Vec<_> = (0..2)
        .map(|_| race_command(&url, &schema, "MIX", &args).spawn().expect("starts"))
        .collect();
    let lines: Vec<Value> = children
        .into_iter()
        .map(|child| line_of(child.wait_with_output().expect("runs")))
        .collect();
    let receipts: u64 = lines.iter().map(|line| n(line, "receipts")).sum();
    let released: u64 = lines.iter().map(|line| n(line, "released")).sum();
    for line in &lines {
        assert_eq!(n(line, "errors"), 0, "{line}");
    }
    assert!(receipts <= 120, "never past the cap: {lines:?}");
    assert!(released > 0, "holds were given back: {lines:?}");

    let runtime = runtime();
    runtime.block_on(async {
        let store = common::store_in(&url, &schema, 1).await;
        let code = Code::parse("MIX").expect("a code");
        // Every hold was captured or released: what counts is exactly the receipts.
        let now = Timestamp::from_unix_millis(0).expect("a time");
        assert_eq!(
            store.usage_for(&code, None, now).await.expect("reads").total(),
            receipts
        );
        assert_eq!(store.held(&code, now).await.expect("reads"), 0);
        assert!(max_per_customer(&store, "MIX").await <= 3, "no customer passes 3");
        assert_counts_match_records(&store, &code).await;
    });
}

/// Two runs of the race example at once, each over 16 connections, on a code
/// of `args`: their JSON lines, once both have ended.
fn two_runs(url: &str, schema: &str, code: &str, args: &str) -> Vec<Value> {
    let args: Vec<&str> = args.split(' ').collect();
    let children: Vec<_> = (0..2)
        .map(|_| race_command(url, schema, code, &args).spawn().expect("starts"))
        .collect();
    children
        .into_iter()
        .map(|child| line_of(child.wait_with_output().expect("runs")))
        .collect()
}

#[test]
fn two_processes_racing_on_a_budget_never_pass_it() {
    let Some(url) = database_url() else { return };
    let schema = unique_schema("budget");
    let eur = |text: &str| text.parse::<promocodes::Decimal>().expect("an amount");
    // Each capture takes EUR 8.00 off: with `partial`, twelve whole uses and one of EUR 4.00 end
    // at exactly EUR 100.00; refused, twelve end at EUR 96.00.
    let partial = two_runs(
        &url,
        &schema,
        "SPEND",
        "--budget 100.00 --partial --customers 50 --requests 40 --concurrency 16 --attempts 50",
    );
    let refused = two_runs(
        &url,
        &schema,
        "CAREFUL",
        "--budget 100.00 --mix --customers 50 --requests 60 --concurrency 16 --attempts 50",
    );
    for line in partial.iter().chain(&refused) {
        assert_eq!(n(line, "errors"), 0, "{line}");
        assert_eq!(n(line, "conflicts"), 0, "{line}");
    }
    let receipts: u64 = partial.iter().map(|line| n(line, "receipts")).sum();
    assert_eq!(receipts, 13, "twelve whole discounts and one clipped: {partial:?}");
    let runtime = runtime();
    runtime.block_on(async {
        let store = common::store_in(&url, &schema, 1).await;
        let now = Timestamp::from_unix_millis(0).expect("a time");
        let spend = Code::parse("SPEND").expect("a code");
        let spent = store.usage_for(&spend, None, now).await.expect("reads").discounted();
        assert_eq!(spent, eur("100.00"), "partial ends at the budget exactly");
        let careful = Code::parse("CAREFUL").expect("a code");
        let counted = store.usage_for(&careful, None, now).await.expect("reads");
        assert!(
            counted.discounted() <= eur("100.00"),
            "refuse never passes it: {counted:?}"
        );
        assert_eq!(
            counted.discounted(),
            eur("8.00") * promocodes::Decimal::from(counted.total()),
            "whole discounts only"
        );
        for code in [&spend, &careful] {
            assert_counts_match_records(&store, code).await;
        }
    });
}

/// The pid of the backend whose compare-and-set waits on a lock.
async fn waiting_writer(client: &tokio_postgres::Client, schema: &str) -> i32 {
    let started = Instant::now();
    loop {
        let row = client
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND application_name = $1",
                &[&schema],
            )
            .await
            .expect("reads");
        if let Some(row) = row {
            return row.get(0);
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the write reaches the lock"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn gone(client: &tokio_postgres::Client, pid: i32) {
    let started = Instant::now();
    loop {
        let row = client
            .query_opt("SELECT 1 FROM pg_stat_activity WHERE pid = $1", &[&pid])
            .await
            .expect("reads");
        if row.is_none() {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "the backend ends");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[test]
fn a_connection_lost_in_the_middle_of_a_write_leaves_nothing_half_written() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let schema = unique_schema("dropped");
        let store = common::store_in(&url, &schema, 2).await;
        let promo = PromoCode::builder(
            Code::parse("DROP").expect("a code"),
            Discount::percent(10.into()).expect("10%"),
        )
        .build()
        .expect("a code");
        let code = promo.code().clone();
        let victim = CustomerId::parse("victim").expect("an id");
        let now = Timestamp::from_unix_millis(1_796_000_000_000).expect("a time");
        let quote = promo
            .price(&Basket::from(Money::parse("80", Currency::EUR).expect("money")), now)
            .expect("a quote");
        let write = |expected, key| Redemption {
            code: promo.code(),
            customer: Some(&victim),
            expected,
            idempotency_key: Some(key),
            quote: &quote,
            now,
            hold_until: None,
            after_expired_hold: None,
        };
        let first = IdempotencyKey::parse("first").expect("a key");
        store
            .record(&write(UsageCounts::ZERO, &first))
            .await
            .expect("answers")
            .expect("lands");
        let off = quote.discount().amount();
        let one = UsageCounts::new(1, 1)
            .and_then(|u| u.with_discounted(off))
            .expect("counts");

        let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .expect("connects");
        tokio::spawn(connection);
        let mut config: tokio_postgres::Config = url.parse().expect("a URL");
        config.options(format!("-c search_path={schema}"));
        let (mut blocker, connection) = config.connect(tokio_postgres::NoTls).await.expect("connects");
        tokio::spawn(connection);

        // 1. The server ends the connection while the write's statement is half done: the
        //    redemption row is in, the customer's counter is not (another transaction holds it).
        let tx = blocker.transaction().await.expect("begins");
        tx.execute(
            "SELECT n FROM promocodes_usage_customer WHERE code = 'DROP' AND customer = 'victim' FOR UPDATE",
            &[],
        )
        .await
        .expect("locks the customer's counter");
        let second = IdempotencyKey::parse("second").expect("a key");
        let writer = {
            let store = store.clone();
            let (code, quote, victim, key) = (code.clone(), quote.clone(), victim.clone(), second.clone());
            tokio::spawn(async move {
                let redemption = Redemption {
                    code: &code,
                    customer: Some(&victim),
                    expected: one,
                    idempotency_key: Some(&key),
                    quote: &quote,
                    now,
                    hold_until: None,
                    after_expired_hold: None,
                };
                store.record(&redemption).await
            })
        };
        let pid = waiting_writer(&admin, &schema).await;
        admin
            .execute("SELECT pg_terminate_backend($1)", &[&pid])
            .await
            .expect("terminates");
        let answer = writer.await.expect("no panic");
        assert!(answer.is_err(), "the store says it failed: {answer:?}");
        tx.rollback().await.expect("ends");
        assert!(
            store.reservation(&code, &second).await.expect("reads").is_none(),
            "no key"
        );
        assert_eq!(store.usage_for(&code, Some(&victim), now).await.expect("reads"), one);
        assert_counts_match_records(&store, &code).await;

        // 2. The caller drops the write's future while its statement waits: the connection
        //    leaves the pool and closes; the write is whole or absent, never half.
        let tx = blocker.transaction().await.expect("begins");
        tx.execute(
            "SELECT n FROM promocodes_usage_customer WHERE code = 'DROP' AND customer = 'victim' FOR UPDATE",
            &[],
        )
        .await
        .expect("locks the customer's counter");
        let third = IdempotencyKey::parse("third").expect("a key");
        let writer = {
            let store = store.clone();
            let (code, quote, victim, key) = (code.clone(), quote.clone(), victim.clone(), third.clone());
            tokio::spawn(async move {
                let redemption = Redemption {
                    code: &code,
                    customer: Some(&victim),
                    expected: one,
                    idempotency_key: Some(&key),
                    quote: &quote,
                    now,
                    hold_until: None,
                    after_expired_hold: None,
                };
                store.record(&redemption).await
            })
        };
        let pid = waiting_writer(&admin, &schema).await;
        writer.abort();
        assert!(writer.await.is_err_and(|e| e.is_cancelled()), "dropped");
        tx.rollback().await.expect("ends");
        gone(&admin, pid).await;
        let landed = store.reservation(&code, &third).await.expect("reads").is_some();
        let usage = store.usage_for(&code, Some(&victim), now).await.expect("reads");
        let expected = if landed {
            UsageCounts::new(2, 2)
                .and_then(|u| u.with_discounted(off + off))
                .expect("counts")
        } else {
            one
        };
        assert_eq!(usage, expected, "whole (landed: {landed}) or absent");
        assert_counts_match_records(&store, &code).await;

        // The pool is healthy after both: the next write lands on the counts as they are.
        let fourth = IdempotencyKey::parse("fourth").expect("a key");
        let landed = store
            .record(&write(usage, &fourth))
            .await
            .expect("answers")
            .expect("lands");
        assert_eq!(landed.usage.total(), usage.total() + 1);
        assert_counts_match_records(&store, &code).await;
    });
}

#[test]
fn a_default_isolation_above_read_committed_changes_nothing() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let schema = unique_schema("isolation");
        common::create_schema(&url, &schema).await;
        let mut config: tokio_postgres::Config = url.parse().expect("a URL");
        // A shop's role or database may default to REPEATABLE READ: the store's writes set their own.
        config.options(format!(
            "-c search_path={schema} -c default_transaction_isolation=repeatable\\ read"
        ));
        let store = promocodes_postgres::PgRedemptionStore::from_config(config, 16).expect("a pool");
        store.migrate().await.expect("migrates");
        let client = store.pool().get().await.expect("a connection");
        let level: String = client
            .query_one("SHOW default_transaction_isolation", &[])
            .await
            .expect("reads")
            .get(0);
        assert_eq!(level, "repeatable read");
        drop(client);

        // Holds write no counter row: only the compare after the lock keeps them to the cap.
        let promo = PromoCode::builder(
            Code::parse("RR").expect("a code"),
            Discount::percent(10.into()).expect("10%"),
        )
        .limits(promocodes::UsageLimits::new(Some(10), None).expect("limits"))
        .build()
        .expect("a promo");
        let now = Timestamp::from_unix_millis(1_796_000_000_000).expect("a time");
        let mut tasks = Vec::new();
        for i in 0..32 {
            let (store, promo) = (store.clone(), promo.clone());
            tasks.push(tokio::spawn(async move {
                let basket = Basket::from(Money::parse("80", Currency::EUR).expect("money"));
                let key = IdempotencyKey::parse(&format!("hold-{i}")).expect("a key");
                let options = promocodes::HoldOptions::new().attempts(200);
                promocodes::hold_async(&promo, &store, None, &basket, now, &key, options).await
            }));
        }
        let mut held = 0;
        for task in tasks {
            match task.await.expect("no panic") {
                Ok(_) => held += 1,
                Err(promocodes::RedemptionError::Rejected(r)) => {
                    assert_eq!(r.rejection(), promocodes::Rejection::Exhausted)
                }
                Err(other) => panic!("unexpected: {other}"),
            }
        }
        assert_eq!(held, 10, "exactly the cap");
        assert_eq!(store.held(promo.code(), now).await.expect("reads"), 10);
        assert_counts_match_records(&store, promo.code()).await;
    });
}
