//! The escrow of each code's own uses (`uses_per_code`) in a campaign spread
//! over shards. A campaign's shards are chosen by the customer (else the
//! key), so two shards may take uses of one code: each holds an allotment of
//! the code's uses, granted by the campaign's object, and decides inside it.
//!
//! Each allotment is an absolute count with a version that only the
//! campaign's object assigns, per code and shard, always upwards:
//! - a **claim** (a shard asks for more of a code) is answered with the
//!   shard's whole allotment and its version; the shard keeps an answer only
//!   if its version is newer than the one it has;
//! - a **recall** (the campaign's object takes back what a shard has not
//!   used) carries a new version: the shard lowers its allotment to what it
//!   used (held or captured) in one write, keeps that version, and answers it;
//!   the campaign's object then records the lower count.
//!
//! So an answer that arrives late (a claim granted before a recall passed it)
//! is older than what the shard has, and is dropped: the shard never decides
//! on more than the campaign's object counts for it, and a lost answer only
//! leaves the campaign's object counting more than the shard knows (until the
//! shard's next claim, which is answered its allotment, or a recall). No
//! claim or recall needs an id of its own.

use serde::Deserialize;
use worker::SqlStorage;

use crate::problem::Problem;

const COORDINATOR: &str = "
CREATE TABLE IF NOT EXISTS code_grants(
  code TEXT NOT NULL, shard INTEGER NOT NULL, granted INTEGER NOT NULL, version INTEGER NOT NULL,
  PRIMARY KEY (code, shard));
CREATE TABLE IF NOT EXISTS code_watch(code TEXT PRIMARY KEY);";

const SHARD: &str = "
CREATE TABLE IF NOT EXISTS code_allotment(
  code TEXT PRIMARY KEY, granted INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shard_base(id INTEGER PRIMARY KEY CHECK (id = 0), base TEXT NOT NULL);";

/// One shard's allotment of one code's uses, and its version.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct Allotted {
    /// The uses the shard may have taken of the code, in all (held or captured included).
    pub granted: i64,
    /// Its version (0: never granted).
    pub version: i64,
}

/// Creates the campaign's object's table of its codes' grants, if missing.
///
/// # Errors
///
/// A storage failure.
pub fn coordinator_tables(sql: &SqlStorage) -> Result<(), Problem> {
    sql.exec(COORDINATOR, None)?;
    Ok(())
}

/// Creates a campaign's shard's tables, if missing.
///
/// # Errors
///
/// A storage failure.
pub fn shard_tables(sql: &SqlStorage) -> Result<(), Problem> {
    sql.exec(SHARD, None)?;
    Ok(())
}

/// A row of `code_grants`: one shard's allotment of one code.
#[derive(Deserialize)]
struct GrantRow {
    code: String,
    shard: i64,
    granted: i64,
    version: i64,
}

/// The rows of `code_grants` that `condition` (on `code`, `shard` and `granted`) selects.
fn grant_rows(
    sql: &SqlStorage,
    condition: &str,
    params: Vec<worker::SqlStorageValue>,
) -> Result<Vec<GrantRow>, Problem> {
    if !crate::shards::tables::has_table(sql, "code_grants")? {
        return Ok(Vec::new());
    }
    let query = format!("SELECT code, shard, granted, version FROM code_grants WHERE {condition}");
    Ok(sql.exec(&query, params)?.to_array()?)
}

impl GrantRow {
    /// Its code, shard and allotment (`None`: a shard number out of range).
    fn parts(self) -> Option<(String, u8, Allotted)> {
        let shard = u8::try_from(self.shard).ok()?;
        let allotted = Allotted {
            granted: self.granted,
            version: self.version,
        };
        Some((self.code, shard, allotted))
    }
}

/// What each shard was granted of `code`, as `(shard, allotment)`.
///
/// # Errors
///
/// A storage failure.
pub fn grants(sql: &SqlStorage, code: &str) -> Result<Vec<(u8, Allotted)>, Problem> {
    let rows = grant_rows(sql, "code = ?", vec![code.into()])?;
    Ok(rows
        .into_iter()
        .filter_map(GrantRow::parts)
        .map(|(_, shard, allotted)| (shard, allotted))
        .collect())
}

/// Every code's allotment still held by a shard numbered `shards` or more (which a campaign whose
/// `shards` went down to `shards` no longer uses), as `(code, shard, allotment)`.
///
/// # Errors
///
/// A storage failure.
pub fn retired_grants(sql: &SqlStorage, shards: u8) -> Result<Vec<(String, u8, Allotted)>, Problem> {
    let rows = grant_rows(sql, "shard >= ? AND granted > 0", vec![i64::from(shards).into()])?;
    Ok(rows.into_iter().filter_map(GrantRow::parts).collect())
}

/// Records shard `shard`'s allotment of `code` at the campaign's object.
///
/// # Errors
///
/// A storage failure.
pub fn set_grant(sql: &SqlStorage, code: &str, shard: u8, allotted: Allotted) -> Result<(), Problem> {
    sql.exec(
        "INSERT INTO code_grants(code, shard, granted, version) VALUES (?, ?, ?, ?)
         ON CONFLICT (code, shard) DO UPDATE SET granted = excluded.granted, version = excluded.version",
        vec![
            code.into(),
            i64::from(shard).into(),
            allotted.granted.into(),
            allotted.version.into(),
        ],
    )?;
    Ok(())
}

/// This shard's allotment of `code` (zero, version 0, when it has none).
///
/// # Errors
///
/// A storage failure.
pub fn allotted(sql: &SqlStorage, code: &str) -> Result<Allotted, Problem> {
    if !crate::shards::tables::has_table(sql, "code_allotment")? {
        return Ok(Allotted::default());
    }
    let rows: Vec<Allotted> = sql
        .exec(
            "SELECT granted, version FROM code_allotment WHERE code = ?",
            vec![code.into()],
        )?
        .to_array()?;
    Ok(rows.into_iter().next().unwrap_or_default())
}

/// Keeps `allotted` as this shard's allotment of `code` if its version is
/// newer than the one kept; whether it was.
///
/// # Errors
///
/// A storage failure.
pub fn keep(sql: &SqlStorage, code: &str, allotted: Allotted) -> Result<bool, Problem> {
    shard_tables(sql)?;
    if self::allotted(sql, code)?.version >= allotted.version {
        return Ok(false);
    }
    sql.exec(
        "INSERT INTO code_allotment(code, granted, version) VALUES (?, ?, ?)
         ON CONFLICT (code) DO UPDATE SET granted = excluded.granted, version = excluded.version",
        vec![code.into(), allotted.granted.into(), allotted.version.into()],
    )?;
    Ok(true)
}

/// Notes the object whose escrow this shard draws on (`campaign:<id>`): written once.
///
/// # Errors
///
/// A storage failure.
pub fn note_base(sql: &SqlStorage, base: &str) -> Result<(), Problem> {
    shard_tables(sql)?;
    sql.exec(
        "INSERT OR IGNORE INTO shard_base(id, base) VALUES (0, ?)",
        vec![base.into()],
    )?;
    Ok(())
}

/// The object whose escrow this shard draws on, if it noted one (a campaign's shard).
///
/// # Errors
///
/// A storage failure.
pub fn base(sql: &SqlStorage) -> Result<Option<String>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        base: String,
    }
    if !crate::shards::tables::has_table(sql, "shard_base")? {
        return Ok(None);
    }
    let rows: Vec<Row> = sql.exec("SELECT base FROM shard_base WHERE id = 0", None)?.to_array()?;
    Ok(rows.into_iter().next().map(|row| row.base))
}

/// The codes more than one shard holds an allotment of (a code used on two shards).
///
/// # Errors
///
/// A storage failure.
pub fn shared(sql: &SqlStorage) -> Result<Vec<String>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        code: String,
    }
    let rows: Vec<Row> = sql
        .exec(
            "SELECT code FROM code_grants WHERE granted > 0 GROUP BY code HAVING count(*) > 1",
            None,
        )?
        .to_array()?;
    Ok(rows.into_iter().map(|row| row.code).collect())
}

/// The codes the campaign's object has in use itself (captured, or held at `now`, a sortable
/// timestamp: taken while the campaign was on 1 shard) that a shard holds an allotment of too:
/// each is counted once by the campaign's object, so not again for the shards.
///
/// # Errors
///
/// A storage failure.
pub fn own_and_granted(sql: &SqlStorage, now: &str) -> Result<Vec<String>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        code: String,
    }
    let rows: Vec<Row> = sql
        .exec(
            "SELECT DISTINCT g.code AS code FROM code_grants g WHERE g.granted > 0 AND (
               EXISTS (SELECT 1 FROM usage_code u WHERE u.code = g.code AND u.n > 0)
               OR EXISTS (SELECT 1 FROM holds h WHERE h.through = g.code AND h.expires > ?))",
            vec![now.into()],
        )?
        .to_array()?;
    Ok(rows.into_iter().map(|row| row.code).collect())
}

/// Watches `code` at the campaign's object: every use of it is granted to the shards, so the next
/// read of their counts may find it used up (`code.exhausted`).
///
/// # Errors
///
/// A storage failure.
pub fn watch(sql: &SqlStorage, code: &str) -> Result<(), Problem> {
    sql.exec("INSERT OR IGNORE INTO code_watch(code) VALUES (?)", vec![code.into()])?;
    Ok(())
}

/// The codes watched (at most `limit`, in code order).
///
/// # Errors
///
/// A storage failure.
pub fn watched(sql: &SqlStorage, limit: i64) -> Result<Vec<String>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        code: String,
    }
    let rows: Vec<Row> = sql
        .exec("SELECT code FROM code_watch ORDER BY code LIMIT ?", vec![limit.into()])?
        .to_array()?;
    Ok(rows.into_iter().map(|row| row.code).collect())
}

/// Stops watching `code` (its `code.exhausted` is written).
///
/// # Errors
///
/// A storage failure.
pub fn unwatch(sql: &SqlStorage, code: &str) -> worker::Result<()> {
    sql.exec("DELETE FROM code_watch WHERE code = ?", vec![code.into()])?;
    Ok(())
}
