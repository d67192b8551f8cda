//! The core's store conformance suite, the very one the in-memory and
//! SQLite stores run, against PostgreSQL.

mod common;

use common::{database_url, fresh_store, runtime, Blocking};
use promocodes::testing;
use promocodes_postgres::PgRedemptionStore;

#[test]
fn the_store_conformance_suite_passes_on_postgres() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    testing::run_conformance(|| Blocking::new(runtime.clone(), runtime.block_on(fresh_store(&url, "conformance"))));
}

#[test]
fn migrate_is_idempotent_and_versioned() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let store = fresh_store(&url, "migrate").await;
        assert_eq!(
            store.schema_version().await.expect("reads"),
            PgRedemptionStore::SCHEMA_VERSION
        );
        store.migrate().await.expect("a second run changes nothing");
        assert_eq!(
            store.schema_version().await.expect("reads"),
            PgRedemptionStore::SCHEMA_VERSION
        );
    });
}

#[test]
fn migrations_from_several_processes_at_once_take_turns() {
    let Some(url) = database_url() else { return };
    let runtime = runtime();
    runtime.block_on(async {
        let schema = common::unique_schema("migrate_many");
        common::create_schema(&url, &schema).await;
        let first = common::unmigrated_store_in(&url, &schema, 1);
        assert_eq!(first.schema_version().await.expect("reads"), 0);
        // Eight stores (pools of their own, as separate processes would have) migrate an empty schema together.
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let store = common::unmigrated_store_in(&url, &schema, 1);
            tasks.push(tokio::spawn(async move { store.migrate().await }));
        }
        for task in tasks {
            task.await.expect("no panic").expect("every one succeeds");
        }
        assert_eq!(
            first.schema_version().await.expect("reads"),
            PgRedemptionStore::SCHEMA_VERSION
        );
        let client = first.pool().get().await.expect("a connection");
        let applied: i64 = client
            .query_one("SELECT count(*) FROM promocodes_schema_migrations", &[])
            .await
            .expect("reads")
            .get(0);
        assert_eq!(
            applied,
            i64::from(PgRedemptionStore::SCHEMA_VERSION),
            "each migration ran once"
        );
    });
}
