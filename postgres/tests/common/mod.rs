//! What the PostgreSQL tests share: the server to test against, a fresh
//! schema per store, and a blocking view of the store for the core's
//! (blocking) conformance suite.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use promocodes::{
    AsyncRedemptionStore, Code, Conversion, CustomerId, IdempotencyKey, Redemption, RedemptionStore, Release,
    Reservation, StoreError, Timestamp, UsageCounts,
};
use promocodes_postgres::PgRedemptionStore;
use tokio::runtime::Runtime;

/// The server the tests run against: `PROMOCODES_TEST_DATABASE_URL`, set by
/// scripts/test-postgres.sh (a private cluster) or by the caller. Without
/// it the tests say so and pass vacuously.
pub fn database_url() -> Option<String> {
    let url = std::env::var("PROMOCODES_TEST_DATABASE_URL").ok();
    if url.is_none() {
        eprintln!("PROMOCODES_TEST_DATABASE_URL is not set: skipped (run scripts/test-postgres.sh)");
    }
    url
}

/// A schema name no other test (or test process) uses.
pub fn unique_schema(what: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("t_{what}_{}_{n}_{nanos}", std::process::id())
}

/// A store over `max_connections` connections whose `search_path` is
/// `schema` (created if missing), migrated.
pub async fn store_in(url: &str, schema: &str, max_connections: usize) -> PgRedemptionStore {
    create_schema(url, schema).await;
    let store = unmigrated_store_in(url, schema, max_connections);
    store.migrate().await.expect("migrates");
    store
}

/// Creates `schema` if it is missing.
pub async fn create_schema(url: &str, schema: &str) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the test server accepts connections");
    let task = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
        .await
        .expect("creates the schema");
    drop(client);
    let _ = task.await;
}

/// A store over `max_connections` connections whose `search_path` is `schema`, as it is.
pub fn unmigrated_store_in(url: &str, schema: &str, max_connections: usize) -> PgRedemptionStore {
    let mut config: tokio_postgres::Config = url.parse().expect("a valid URL");
    config.options(format!("-c search_path={schema}"));
    // Its connections can be told apart in pg_stat_activity.
    config.application_name(schema);
    PgRedemptionStore::from_config(config, max_connections).expect("a pool")
}

/// A fresh, migrated store in a schema of its own.
pub async fn fresh_store(url: &str, what: &str) -> PgRedemptionStore {
    store_in(url, &unique_schema(what), 4).await
}

/// A multi-threaded runtime for a blocking test.
pub fn runtime() -> Arc<Runtime> {
    Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime"),
    )
}

/// The store seen through the blocking [`RedemptionStore`] trait, each call
/// run to completion on a runtime of its own (never called from inside
/// one): how the core's conformance suite, which is blocking, runs on
/// PostgreSQL unchanged.
pub struct Blocking {
    pub store: PgRedemptionStore,
    runtime: Arc<Runtime>,
}

impl Blocking {
    pub fn new(runtime: Arc<Runtime>, store: PgRedemptionStore) -> Blocking {
        Blocking { store, runtime }
    }
}

impl RedemptionStore for Blocking {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::usage_for(&self.store, code, customer, now))
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::held(&self.store, code, now))
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::reservation(&self.store, code, key))
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::record(&self.store, redemption))
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::convert(&self.store, conversion))
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.runtime
            .block_on(AsyncRedemptionStore::release(&self.store, release))
    }
}

/// Every count of `code` equals its records: the captured counter is the
/// number of captured reservations, per customer too, and the hold rows are
/// the reservations still marked held. Panics with the difference.
pub async fn assert_counts_match_records(store: &PgRedemptionStore, code: &Code) {
    let client = store.pool().get().await.expect("a connection");
    let row = client
        .query_one(
            "SELECT
               COALESCE((SELECT n FROM promocodes_usage_total WHERE code = $1), 0),
               (SELECT count(*) FROM promocodes_redemptions WHERE code = $1 AND state = 'captured'),
               (SELECT count(*) FROM promocodes_holds WHERE code = $1),
               (SELECT count(*) FROM promocodes_redemptions WHERE code = $1 AND state = 'held'),
               (SELECT count(*) FROM (
                  SELECT customer FROM promocodes_usage_customer u WHERE code = $1 AND n <> (
                    SELECT count(*) FROM promocodes_redemptions r
                    WHERE r.code = $1 AND r.state = 'captured' AND r.reservation->>'customer' = u.customer)
               ) AS differ),
               COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = $1), 0)
                 = (SELECT COALESCE(sum((reservation->'quote'->'discount'->>'amount')::numeric), 0)
                    FROM promocodes_redemptions WHERE code = $1 AND state = 'captured'),
               (SELECT count(*) FROM promocodes_holds h JOIN promocodes_redemptions r USING (seq)
                WHERE h.discount <> (r.reservation->'quote'->'discount'->>'amount')::numeric)",
            &[&code.as_str()],
        )
        .await
        .expect("reads the records");
    let (counter, captured, holds, held): (i64, i64, i64, i64) = (row.get(0), row.get(1), row.get(2), row.get(3));
    let customers_differing: i64 = row.get(4);
    let (discounts_match, holds_differing): (bool, i64) = (row.get(5), row.get(6));
    assert_eq!(
        counter, captured,
        "the captured counter of {code} equals its captured records"
    );
    assert_eq!(holds, held, "the hold rows of {code} are its reservations marked held");
    assert_eq!(
        customers_differing, 0,
        "each customer's counter of {code} equals their captured records"
    );
    assert!(
        discounts_match,
        "the captured discount sum of {code} equals its captured records' discounts"
    );
    assert_eq!(
        holds_differing, 0,
        "each hold row of {code} reserves its reservation's discount"
    );
}

/// The race example, built next to the tests by `cargo test`.
pub fn race_example() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let race = dir
        .join("examples")
        .join(format!("race{}", std::env::consts::EXE_SUFFIX));
    assert!(
        race.exists(),
        "{} is built by `cargo test` (examples are built with the tests)",
        race.display()
    );
    race
}

/// The race example against `schema` of `url`, for `code`, with `args`; its output piped.
pub fn race_command(url: &str, schema: &str, code: &str, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(race_example());
    command
        .args(["--database-url", url, "--schema", schema, "--code", code])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit());
    command
}

/// The one JSON line a successful run of the race example printed.
pub fn line_of(output: std::process::Output) -> serde_json::Value {
    assert!(output.status.success(), "the race example succeeds");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(text.lines().count(), 1, "one JSON line: {text}");
    serde_json::from_str(text.trim()).expect("JSON")
}

/// A count in a line of the race example.
pub fn n(line: &serde_json::Value, field: &str) -> u64 {
    line[field].as_u64().unwrap_or_else(|| panic!("{field} in {line}"))
}
