//! The migrations as SQL files, run by the store's runner: a database the
//! previous runner (every migration compiled in, one transaction) brought to
//! version 5 is left exactly as it is, and a fresh one gets every migration
//! from the files, ending with the very schema the previous runner made.

mod common;

use common::{create_schema, database_url, runtime, unique_schema, unmigrated_store_in};
use promocodes::{
    capture_async, AsyncRedemptionStore, Basket, CaptureOptions, Code, Currency, CustomerId, IdempotencyKey, Money,
    PromoCode, Timestamp,
};
use promocodes_postgres::PgRedemptionStore;

/// A schema as promocodes-postgres 0.1 before this change left it (see the file's header).
const SCHEMA_V5: &str = include_str!("fixtures/schema_v5.sql");

/// The fixture loaded into a new schema of its own, named after `what`.
async fn load_fixture(url: &str, what: &str) -> String {
    let schema = unique_schema(what);
    create_schema(url, &schema).await;
    let store = unmigrated_store_in(url, &schema, 1);
    let client = store.pool().get().await.expect("a connection");
    client
        .batch_execute(&SCHEMA_V5.replace("{schema}", &schema))
        .await
        .expect("the fixture loads");
    schema
}

/// Text rows of `query` (whose one parameter is the schema's name), the
/// schema's name in them made `{schema}`, so that two schemas compare.
async fn rows(store: &PgRedemptionStore, schema: &str, query: &str) -> Vec<String> {
    let client = store.pool().get().await.expect("a connection");
    let rows = client.query(query, &[&schema]).await.expect("the catalog answers");
    rows.iter()
        .map(|row| {
            (0..row.len())
                .map(|i| row.get::<_, Option<String>>(i).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(" | ")
                .replace(schema, "{schema}")
        })
        .collect()
}

/// What the schema is made of: columns, constraints, indexes, functions.
async fn definition(store: &PgRedemptionStore, schema: &str) -> Vec<String> {
    let mut all = Vec::new();
    for query in [
        "SELECT table_name::text, column_name::text, data_type::text, column_default::text, is_nullable::text,
            collation_name::text, identity_generation::text
        FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position",
        "SELECT c.relname::text, con.conname::text, pg_get_constraintdef(con.oid)
        FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
        WHERE con.connamespace = $1::text::regnamespace ORDER BY 1, 2",
        "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1",
        "SELECT proname::text, pg_get_functiondef(oid) FROM pg_proc
        WHERE pronamespace = $1::text::regnamespace ORDER BY 1, 2",
    ] {
        all.extend(rows(store, schema, query).await);
    }
    all
}

/// The schema's definition, the row versions of its tables and function
/// (`xmin`: any rewrite, even to the same text, moves it), and every row of
/// every table, the versions applied with their times included.
async fn everything(store: &PgRedemptionStore, schema: &str) -> Vec<String> {
    let mut all = definition(store, schema).await;
    for query in [
        "SELECT relname::text, relkind::text, xmin::text FROM pg_class
        WHERE relnamespace = $1::text::regnamespace ORDER BY 1",
        "SELECT proname::text, xmin::text FROM pg_proc WHERE pronamespace = $1::text::regnamespace ORDER BY 1",
    ] {
        all.extend(rows(store, schema, query).await);
    }
    let tables = rows(
        store,
        schema,
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
    )
    .await;
    for table in tables {
        let query = format!(
            "SELECT '{table} ' || to_jsonb(t)::text FROM {schema}.{table} t WHERE $1::text IS NOT NULL ORDER BY 1"
        );
        all.extend(rows(store, schema, &query).await);
    }
    all
}

fn at() -> Timestamp {
    "2026-12-02T10:00:00Z".parse().expect("a time")
}

#[test]
fn a_database_the_previous_runner_brought_to_version_5_is_left_as_it_is() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let schema = load_fixture(&url, "v5").await;
        let store = unmigrated_store_in(&url, &schema, 2);
        assert_eq!(store.schema_version().await.expect("reads"), 5);
        let before = everything(&store, &schema).await;
        assert!(
            before.iter().any(|row| row.contains("\"version\": 5")),
            "the versions applied are compared: {before:#?}"
        );

        store.migrate().await.expect("migrates");
        store.migrate().await.expect("migrates again");
        assert_eq!(
            everything(&store, &schema).await,
            before,
            "nothing ran again, nothing moved"
        );
        assert_eq!(store.schema_version().await.expect("reads"), 5);

        // And the store works on it: the counts the previous version recorded (a capture and a
        // hold of c1's, a capture of c2's released), read and written through NUMERIC.
        let code = Code::parse("SAVE10").expect("a code");
        let c1 = CustomerId::parse("c1").expect("a customer");
        let usage = store.usage_for(&code, Some(&c1), at()).await.expect("reads");
        assert_eq!((usage.total(), usage.per_customer()), (2, 2));
        assert_eq!(usage.discounted().to_string(), "16.00");
        let promo = PromoCode::from_json(
            r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
                "limits": {"total": 100, "per_customer": 2}}"#,
        )
        .expect("a definition");
        let basket = Basket::from(Money::parse("33.30", Currency::EUR).expect("money"));
        let key = IdempotencyKey::parse("pi_new").expect("a key");
        let c3 = CustomerId::parse("c3").expect("a customer");
        let options = CaptureOptions::new().idempotency_key(&key);
        let receipt = capture_async(&promo, &store, Some(&c3), &basket, at(), options)
            .await
            .expect("captures");
        assert_eq!(receipt.usage.total(), 3);
        assert_eq!(receipt.usage.discounted().to_string(), "19.33");
        let read = store.usage_for(&code, None, at()).await.expect("reads");
        assert_eq!(read.discounted().to_string(), "19.33");
        common::assert_counts_match_records(&store, &code).await;
    });
}

#[test]
fn a_fresh_database_gets_every_migration_from_the_files_and_the_previous_schema() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let schema = unique_schema("fresh");
        create_schema(&url, &schema).await;
        let store = unmigrated_store_in(&url, &schema, 1);
        assert_eq!(store.schema_version().await.expect("reads"), 0);
        store.migrate().await.expect("migrates");
        let client = store.pool().get().await.expect("a connection");
        let versions: Vec<i32> = client
            .query("SELECT version FROM promocodes_schema_migrations ORDER BY version", &[])
            .await
            .expect("reads")
            .iter()
            .map(|row| row.get(0))
            .collect();
        drop(client);
        assert_eq!(versions, (1..=PgRedemptionStore::SCHEMA_VERSION).collect::<Vec<_>>());
        assert_eq!(PgRedemptionStore::SCHEMA_VERSION, 5);

        let previous = load_fixture(&url, "v5_again").await;
        let fixture_store = unmigrated_store_in(&url, &previous, 1);
        let fresh = definition(&store, &schema).await;
        assert!(
            fresh
                .iter()
                .any(|row| row.contains("FUNCTION {schema}.promocodes_record(")),
            "the function is compared: {fresh:#?}"
        );
        assert_eq!(
            fresh,
            definition(&fixture_store, &previous).await,
            "the files make the schema the previous runner made"
        );
    });
}
