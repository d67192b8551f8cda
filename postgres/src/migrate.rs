//! The schema's migrations: SQL files in `postgres/migrations/`
//! (`V<version>__<name>.sql`, compiled in), run in order by one small runner
//! that records each in `promocodes_schema_migrations`.

use promocodes::StoreError;
use tokio_postgres::IsolationLevel;

use crate::rows::{backend, db, message_of};
use crate::PgRedemptionStore;

/// One migration: its version, its name (its file's, after `V<version>__`)
/// and its SQL. A migration never changes once released: a new version is a
/// new file.
#[derive(Debug)]
pub(crate) struct Migration {
    pub(crate) version: i32,
    pub(crate) name: &'static str,
    pub(crate) sql: &'static str,
}

/// The migration in `postgres/migrations/V<version>__<name>.sql`.
macro_rules! migration {
    ($version:literal, $name:literal) => {
        Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("../migrations/V", $version, "__", $name, ".sql")),
        }
    };
}

/// The schema's versions, in order: each runs once, in a transaction of its own.
pub(crate) const MIGRATIONS: &[Migration] = &[
    migration!(1, "tables"),
    migration!(2, "record_function"),
    migration!(3, "budgets"),
    migration!(4, "campaigns"),
    migration!(5, "fewer_statements"),
];

/// The advisory lock [`PgRedemptionStore::migrate`] takes (with the schema's
/// name), so that processes starting together migrate one after the other.
const MIGRATION_LOCK: i32 = 0x7072_6f6d; // "prom"

/// The table of the versions applied, as every version of this crate made it.
const HISTORY: &str = "CREATE TABLE IF NOT EXISTS promocodes_schema_migrations(
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now())";

/// The newest version applied (0 before any).
const APPLIED: &str = "SELECT COALESCE(max(version), 0) FROM promocodes_schema_migrations";

impl PgRedemptionStore {
    /// The schema version [`migrate`](PgRedemptionStore::migrate) brings a database to.
    pub const SCHEMA_VERSION: i32 = MIGRATIONS[MIGRATIONS.len() - 1].version;

    /// Creates or upgrades the store's tables in the connection's
    /// `search_path`, to the newest version this crate knows.
    ///
    /// Versioned and idempotent: the migrations are the SQL files of the
    /// crate's `migrations/` folder, and each one newer than the newest
    /// version recorded in `promocodes_schema_migrations` runs once, in
    /// order, in a transaction of its own with its entry in that table (a
    /// migration that fails leaves the ones before it applied, and the next
    /// call starts again from it). Several processes may call it at once:
    /// each transaction first takes an advisory lock (per schema), so they
    /// take turns, and each finds the work of the one before done.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database refuses (no permission to
    /// create tables, no connection).
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(db)?;
        loop {
            // At READ COMMITTED whatever the database's default, so that the read of the
            // versions, after the lock, sees what the process before committed.
            let tx = client
                .build_transaction()
                .isolation_level(IsolationLevel::ReadCommitted)
                .start()
                .await
                .map_err(db)?;
            tx.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext(current_schema())::int)",
                &[&MIGRATION_LOCK],
            )
            .await
            .map_err(db)?;
            tx.batch_execute(HISTORY).await.map_err(db)?;
            let applied: i32 = tx.query_one(APPLIED, &[]).await.map_err(db)?.try_get(0).map_err(db)?;
            let Some(next) = MIGRATIONS.iter().find(|migration| migration.version > applied) else {
                return tx.commit().await.map_err(db);
            };
            tx.batch_execute(next.sql).await.map_err(|err| {
                backend(format!(
                    "migration {} ({}): {}",
                    next.version,
                    next.name,
                    message_of(&err)
                ))
            })?;
            tx.execute(
                "INSERT INTO promocodes_schema_migrations(version) VALUES ($1)",
                &[&next.version],
            )
            .await
            .map_err(db)?;
            tx.commit().await.map_err(db)?;
        }
    }

    /// The version of the newest migration applied (0 before any).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot answer.
    pub async fn schema_version(&self) -> Result<i32, StoreError> {
        let client = self.pool.get().await.map_err(db)?;
        let exists: bool = client
            .query_one("SELECT to_regclass('promocodes_schema_migrations') IS NOT NULL", &[])
            .await
            .map_err(db)?
            .try_get(0)
            .map_err(db)?;
        if !exists {
            return Ok(0);
        }
        client.query_one(APPLIED, &[]).await.map_err(db)?.try_get(0).map_err(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_are_numbered_from_one_without_a_gap_and_say_their_version() {
        for (i, migration) in MIGRATIONS.iter().enumerate() {
            assert_eq!(migration.version, i32::try_from(i + 1).expect("few"), "{migration:?}");
            let header = format!("-- Schema version {}", migration.version);
            assert!(
                migration.sql.starts_with(&header),
                "{} starts with {header:?}",
                migration.name
            );
        }
    }

    #[test]
    fn every_migration_file_is_run() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .expect("the migrations folder")
            .map(|entry| entry.expect("an entry").file_name().into_string().expect("UTF-8"))
            .collect();
        files.sort_by_key(|file| file[1..file.find("__").expect("V<n>__")].parse::<i32>().expect("V<n>"));
        let run: Vec<String> = MIGRATIONS
            .iter()
            .map(|m| format!("V{}__{}.sql", m.version, m.name))
            .collect();
        assert_eq!(files, run);
    }
}
