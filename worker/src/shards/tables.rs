//! The escrow's rows in SQLite: the coordinator's (`escrow_shards`, what
//! each shard holds of the code's uses and budget; `escrow_ops`, every grant
//! and recall by id) and a shard's (`allotment`, its one row: the code's
//! definition and what it was granted; `allotment_ops`, its grants and
//! recalls by id; `key_claims`, the idempotency keys whose requests went to
//! their customer's shard). Every change of both is one `transactionSync`.

use serde::Deserialize;
use worker::{SqlStorage, SqlStorageValue, Storage};

use crate::problem::Problem;
use crate::sqlite::transaction_sync;

const COORDINATOR: &str = "
CREATE TABLE IF NOT EXISTS escrow_shards(
  shard INTEGER PRIMARY KEY, uses INTEGER NOT NULL DEFAULT 0, budget INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS escrow_ops(
  id TEXT PRIMARY KEY, shard INTEGER NOT NULL, kind TEXT NOT NULL,
  uses INTEGER NOT NULL DEFAULT 0, budget INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS escrow_seen(
  id INTEGER PRIMARY KEY CHECK (id = 0), total INTEGER NOT NULL, discounted TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS escrow_layouts(generation INTEGER PRIMARY KEY, shards INTEGER NOT NULL);";

const SHARD: &str = "
CREATE TABLE IF NOT EXISTS allotment(
  id INTEGER PRIMARY KEY CHECK (id = 0), code TEXT NOT NULL, definition TEXT NOT NULL,
  archived INTEGER NOT NULL, uses INTEGER NOT NULL, budget INTEGER NOT NULL,
  seq INTEGER NOT NULL, last_grant INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS allotment_ops(
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, uses INTEGER NOT NULL DEFAULT 0,
  budget INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, cancelled TEXT);
CREATE TABLE IF NOT EXISTS key_claims(key TEXT PRIMARY KEY, customer TEXT);
CREATE TABLE IF NOT EXISTS shard_self(id INTEGER PRIMARY KEY CHECK (id = 0), shard INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shard_layout(id INTEGER PRIMARY KEY CHECK (id = 0), prior TEXT NOT NULL);";

/// Creates the coordinator's tables if they are missing.
///
/// # Errors
///
/// A storage failure.
pub fn coordinator_tables(sql: &SqlStorage) -> Result<(), Problem> {
    sql.exec(COORDINATOR, None)?;
    Ok(())
}

/// The code's totals across its objects that its own events were last written for
/// (`escrow_seen`; none before the first), as uses and their discounts.
///
/// # Errors
///
/// A storage failure.
pub fn seen_totals(sql: &SqlStorage) -> Result<Option<(u64, String)>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        total: i64,
        discounted: String,
    }
    let rows: Vec<Row> = sql
        .exec("SELECT total, discounted FROM escrow_seen WHERE id = 0", None)?
        .to_array()?;
    Ok(rows
        .into_iter()
        .next()
        .map(|row| (u64::try_from(row.total).unwrap_or(0), row.discounted)))
}

/// Writes the totals the code's own events were written for (inside the events' transaction).
///
/// # Errors
///
/// A storage failure.
pub fn set_seen_totals(sql: &SqlStorage, total: u64, discounted: &str) -> worker::Result<()> {
    sql.exec(
        "INSERT INTO escrow_seen(id, total, discounted) VALUES (0, ?, ?)
         ON CONFLICT(id) DO UPDATE SET total = excluded.total, discounted = excluded.discounted",
        vec![i64::try_from(total).unwrap_or(i64::MAX).into(), discounted.into()],
    )?;
    Ok(())
}

/// The coordinator's earlier layouts, oldest first: the `shards` the code
/// had before each change (`escrow_layouts`; none for a code whose `shards`
/// never changed).
///
/// # Errors
///
/// A storage failure.
pub fn prior_layouts(sql: &SqlStorage) -> Result<Vec<u8>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        shards: i64,
    }
    if !has_table(sql, "escrow_layouts")? {
        return Ok(Vec::new());
    }
    let rows: Vec<Row> = sql
        .exec("SELECT shards FROM escrow_layouts ORDER BY generation", None)?
        .to_array()?;
    Ok(rows
        .into_iter()
        .map(|row| u8::try_from(row.shards).unwrap_or(1))
        .collect())
}

/// Records that the code had `shards` until now (inside the definition's transaction).
///
/// # Errors
///
/// A storage failure.
pub fn add_layout(sql: &SqlStorage, shards: u8) -> worker::Result<()> {
    sql.exec(COORDINATOR, None)?;
    sql.exec(
        "INSERT INTO escrow_layouts(shards) VALUES (?)",
        vec![i64::from(shards).into()],
    )?;
    Ok(())
}

/// Records that the code (or the campaign) had `from` shards until now (see [`add_layout`]), inside
/// the definition's transaction. Leaving one object, also the totals its own writes' events were
/// written for (`own`: that object's counts now), so that the totals' poll that writes its events
/// from then on writes only what follows (a threshold crossed before is not sent again).
///
/// # Errors
///
/// A storage failure.
pub fn record_move(sql: &SqlStorage, from: u8, own: promocodes::UsageCounts) -> worker::Result<()> {
    add_layout(sql, from)?;
    if from <= 1 {
        set_seen_totals(sql, own.total(), &own.discounted().to_string())?;
    }
    Ok(())
}

/// A shard's earlier layouts of its code, as it last heard of them (see
/// [`promocodes::wire::ShardDefinition::prior`]): none until the code's `shards` changed.
///
/// # Errors
///
/// A storage failure.
pub fn shard_prior(sql: &SqlStorage) -> Result<Vec<u8>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        prior: String,
    }
    if !has_table(sql, "shard_layout")? {
        return Ok(Vec::new());
    }
    let rows: Vec<Row> = sql
        .exec("SELECT prior FROM shard_layout WHERE id = 0", None)?
        .to_array()?;
    match rows.into_iter().next() {
        Some(row) => serde_json::from_str(&row.prior).map_err(|e| Problem::Internal(e.to_string())),
        None => Ok(Vec::new()),
    }
}

fn set_prior(sql: &SqlStorage, prior: &[u8]) -> worker::Result<()> {
    let json = serde_json::to_string(prior).map_err(|e| worker::Error::RustError(e.to_string()))?;
    sql.exec(
        "INSERT INTO shard_layout(id, prior) VALUES (0, ?) ON CONFLICT(id) DO UPDATE SET prior = excluded.prior",
        vec![json.into()],
    )?;
    Ok(())
}

/// Takes on `layout` (the code's definition, archived or not, and its
/// earlier layouts) unless this shard knows a newer one, in one
/// transaction: the definition replaces its copy (for a code whose layout
/// changed, a row with no allotment is made for it if there is none: the
/// shard then decides nothing before a grant). A layout of the same
/// generation replaces the definition only when `same` (a change pushed by
/// the code's object; a claim or a lookup only carries the layout on).
/// Returns the layout this shard has now, if it knows a newer one.
///
/// # Errors
///
/// A storage failure: nothing changed.
pub fn take_layout(
    storage: &Storage,
    layout: &promocodes::wire::ShardDefinition,
    same: bool,
) -> Result<Option<promocodes::wire::ShardDefinition>, Problem> {
    let sql = storage.sql();
    sql.exec(SHARD, None)?;
    let local = shard_prior(&sql)?;
    if local.len() > layout.prior.len() {
        return current_layout(&sql);
    }
    if local.len() == layout.prior.len() && !same {
        return Ok(None);
    }
    // A shard never granted anything, of a code whose layout never changed, gets the definition with its first grant.
    if layout.prior.is_empty() && allotment(&sql)?.is_none() {
        return Ok(None);
    }
    let json = serde_json::to_string(&layout.definition).map_err(|e| Problem::Internal(e.to_string()))?;
    transaction_sync(storage, || {
        if local.len() < layout.prior.len() {
            set_prior(&sql, &layout.prior)?;
        }
        sql.exec(
            "INSERT INTO allotment(id, code, definition, archived, uses, budget, seq, last_grant)
             VALUES (0, ?, ?, ?, 0, 0, 0, 0)
             ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, archived = excluded.archived",
            vec![
                layout.definition.code().as_str().into(),
                json.as_str().into(),
                i64::from(layout.archived).into(),
            ],
        )?;
        Ok(())
    })?;
    Ok(None)
}

/// A shard's layout now: its copy of the definition, archived or not, and the earlier layouts.
///
/// # Errors
///
/// A storage failure, or a stored definition that does not read back.
pub fn current_layout(sql: &SqlStorage) -> Result<Option<promocodes::wire::ShardDefinition>, Problem> {
    let Some(row) = allotment(sql)? else {
        return Ok(None);
    };
    Ok(Some(promocodes::wire::ShardDefinition {
        definition: promocodes::PromoCode::from_written_json(&row.definition)?,
        archived: row.archived != 0,
        prior: shard_prior(sql)?,
    }))
}

/// The hashes ([`super::key_hash`]) of every idempotency key this object
/// knows for `code` (a use, a refused payment, a payment's refund, a
/// claim), sorted, without repeats; `None` past `max` ([`super::known_keys_max`]).
///
/// # Errors
///
/// A storage failure.
pub fn key_hashes(sql: &SqlStorage, code: &str, max: usize) -> Result<Option<Vec<u32>>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        key: String,
    }
    let mut hashes = Vec::new();
    for table in ["idempotency_keys", "refusals", "payment_finals", "key_claims"] {
        if !has_table(sql, table)? {
            continue;
        }
        let (query, params): (String, Vec<SqlStorageValue>) = if table == "key_claims" {
            ("SELECT key FROM key_claims".to_owned(), Vec::new())
        } else {
            (format!("SELECT key FROM {table} WHERE code = ?"), vec![code.into()])
        };
        let rows: Vec<Row> = sql.exec(&query, params)?.to_array()?;
        hashes.extend(rows.iter().map(|row| super::key_hash(&row.key)));
        if hashes.len() > max {
            return Ok(None);
        }
    }
    hashes.sort_unstable();
    hashes.dedup();
    Ok(Some(hashes))
}

/// Creates a shard's tables if they are missing.
///
/// # Errors
///
/// A storage failure.
pub fn shard_tables(sql: &SqlStorage) -> Result<(), Problem> {
    sql.exec(SHARD, None)?;
    Ok(())
}

/// Notes this shard's number (its requests carry it; its alarm does not): written once.
///
/// # Errors
///
/// A storage failure.
pub fn note_shard(sql: &SqlStorage, shard: u8) -> Result<(), Problem> {
    sql.exec(
        "INSERT OR IGNORE INTO shard_self(id, shard) VALUES (0, ?)",
        vec![i64::from(shard).into()],
    )?;
    Ok(())
}

/// This shard's number and its allotment's code and definition, if this object is a shard.
///
/// # Errors
///
/// A storage failure.
pub fn shard_self(sql: &SqlStorage) -> Result<Option<(u8, Allotment)>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        shard: i64,
    }
    if !has_table(sql, "shard_self")? {
        return Ok(None);
    }
    let rows: Vec<Row> = sql
        .exec("SELECT shard FROM shard_self WHERE id = 0", None)?
        .to_array()?;
    let Some(shard) = rows.into_iter().next().and_then(|row| u8::try_from(row.shard).ok()) else {
        return Ok(None);
    };
    Ok(allotment(sql)?.map(|row| (shard, row)))
}

/// Who claimed idempotency key `key` at this shard, if anyone: `Some(None)` for a request without a
/// customer (see [`promocodes::wire::KeyClaim`]).
///
/// # Errors
///
/// A storage failure.
pub fn claimant(sql: &SqlStorage, key: &str) -> Result<Option<Option<String>>, Problem> {
    #[derive(Deserialize)]
    struct Row {
        customer: Option<String>,
    }
    let rows: Vec<Row> = sql
        .exec("SELECT customer FROM key_claims WHERE key = ?", vec![key.into()])?
        .to_array()?;
    Ok(rows.into_iter().next().map(|row| row.customer))
}

/// Records that `customer` claimed `key` (the caller found it unclaimed in the same synchronous turn).
///
/// # Errors
///
/// A storage failure: nothing recorded.
pub fn claim(sql: &SqlStorage, key: &str, customer: Option<&str>) -> Result<(), Problem> {
    let customer = customer.map_or(SqlStorageValue::Null, SqlStorageValue::from);
    sql.exec(
        "INSERT INTO key_claims(key, customer) VALUES (?, ?)",
        vec![key.into(), customer],
    )?;
    Ok(())
}

/// Whether the table `name` exists (read only: nothing is created).
///
/// # Errors
///
/// A storage failure.
pub fn has_table(sql: &SqlStorage, name: &str) -> Result<bool, Problem> {
    #[derive(Deserialize)]
    struct Row {
        #[allow(dead_code)]
        name: String,
    }
    let rows: Vec<Row> = sql
        .exec(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
            vec![name.into()],
        )?
        .to_array()?;
    Ok(!rows.is_empty())
}

/// One shard's holding at the coordinator: uses and budget (minor units) granted and not returned.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Held {
    /// The shard.
    pub shard: i64,
    /// Uses.
    pub uses: i64,
    /// Budget, in minor units.
    pub budget: i64,
}

/// Every shard's holding at the coordinator (none before the first grant).
///
/// # Errors
///
/// A storage failure.
pub fn holdings(sql: &SqlStorage) -> Result<Vec<Held>, Problem> {
    if !has_table(sql, "escrow_shards")? {
        return Ok(Vec::new());
    }
    Ok(sql
        .exec("SELECT shard, uses, budget FROM escrow_shards ORDER BY shard", None)?
        .to_array()?)
}

/// A grant or recall as the coordinator recorded it.
#[derive(Debug, Clone, Deserialize)]
pub struct Op {
    /// Its id.
    pub id: String,
    /// The shard.
    pub shard: i64,
    /// `grant` or `recall`.
    pub kind: String,
    /// Uses granted or returned.
    pub uses: i64,
    /// Budget granted or returned, in minor units.
    pub budget: i64,
    /// A grant: `granted` or `cancelled`; a recall: `pending` or `done`.
    pub state: String,
}

/// The coordinator's record of `id`, if any.
///
/// # Errors
///
/// A storage failure.
pub fn op(sql: &SqlStorage, id: &str) -> Result<Option<Op>, Problem> {
    let rows: Vec<Op> = sql
        .exec(
            "SELECT id, shard, kind, uses, budget, state FROM escrow_ops WHERE id = ?",
            vec![id.into()],
        )?
        .to_array()?;
    Ok(rows.into_iter().next())
}

/// The coordinator's recalls not yet settled.
///
/// # Errors
///
/// A storage failure.
pub fn pending_recalls(sql: &SqlStorage) -> Result<Vec<Op>, Problem> {
    Ok(sql
        .exec(
            "SELECT id, shard, kind, uses, budget, state FROM escrow_ops WHERE kind = 'recall' AND state = 'pending'",
            None,
        )?
        .to_array()?)
}

fn add_held(sql: &SqlStorage, shard: i64, uses: i64, budget: i64) -> worker::Result<()> {
    sql.exec(
        "INSERT INTO escrow_shards(shard, uses, budget) VALUES (?, ?, ?)
         ON CONFLICT(shard) DO UPDATE SET uses = max(0, uses + excluded.uses), budget = max(0, budget + excluded.budget)",
        vec![shard.into(), uses.into(), budget.into()],
    )?;
    Ok(())
}

/// Records grant `id` of `uses` and `budget` to `shard` and adds them to
/// what the shard holds, in one transaction. The caller decided the amounts
/// in the same synchronous turn (no other write between).
///
/// # Errors
///
/// A storage failure: nothing was granted.
pub fn grant(storage: &Storage, id: &str, shard: i64, uses: i64, budget: i64) -> Result<(), Problem> {
    let sql = storage.sql();
    transaction_sync(storage, || {
        sql.exec(
            "INSERT INTO escrow_ops(id, shard, kind, uses, budget, state) VALUES (?, ?, 'grant', ?, ?, 'granted')",
            vec![id.into(), shard.into(), uses.into(), budget.into()],
        )?;
        add_held(&sql, shard, uses, budget)
    })?;
    Ok(())
}

/// Records recall `id` of `shard` as pending, before it is sent.
///
/// # Errors
///
/// A storage failure.
pub fn start_recall(sql: &SqlStorage, id: &str, shard: i64) -> Result<(), Problem> {
    sql.exec(
        "INSERT OR IGNORE INTO escrow_ops(id, shard, kind, state) VALUES (?, ?, 'recall', 'pending')",
        vec![id.into(), shard.into()],
    )?;
    Ok(())
}

/// Settles recall `id` of `shard` with the shard's answer, once: what it
/// gave back and the grants it cancelled leave what it holds.
///
/// # Errors
///
/// A storage failure: the recall stays pending (and is sent again).
pub fn finish_recall(
    storage: &Storage,
    id: &str,
    shard: i64,
    uses: i64,
    budget: i64,
    cancelled: &[String],
) -> Result<(), Problem> {
    let sql = storage.sql();
    transaction_sync(storage, || {
        let rows: Vec<Op> = sql
            .exec(
                "SELECT id, shard, kind, uses, budget, state FROM escrow_ops WHERE id = ? AND state = 'pending'",
                vec![id.into()],
            )?
            .to_array()?;
        if rows.is_empty() {
            return Ok(());
        }
        sql.exec(
            "UPDATE escrow_ops SET uses = ?, budget = ?, state = 'done' WHERE id = ?",
            vec![uses.into(), budget.into(), id.into()],
        )?;
        add_held(&sql, shard, -uses, -budget)?;
        for grant in cancelled {
            let earlier: Vec<Op> = sql
                .exec(
                    "SELECT id, shard, kind, uses, budget, state FROM escrow_ops WHERE id = ?",
                    vec![grant.as_str().into()],
                )?
                .to_array()?;
            match earlier.into_iter().next() {
                Some(op) if op.state == "granted" && op.shard == shard => {
                    sql.exec(
                        "UPDATE escrow_ops SET state = 'cancelled' WHERE id = ?",
                        vec![grant.as_str().into()],
                    )?;
                    add_held(&sql, shard, -op.uses, -op.budget)?;
                }
                Some(_) => {}
                // Not asked yet: when it comes, it is answered as cancelled.
                None => {
                    sql.exec(
                        "INSERT INTO escrow_ops(id, shard, kind, state) VALUES (?, ?, 'grant', 'cancelled')",
                        vec![grant.as_str().into(), shard.into()],
                    )?;
                }
            }
        }
        Ok(())
    })?;
    Ok(())
}

/// A shard's one row: the code's definition (JSON) and its allotment.
#[derive(Debug, Clone, Deserialize)]
pub struct Allotment {
    /// The code.
    pub code: String,
    /// The code's definition, as JSON.
    pub definition: String,
    /// Whether the code is archived.
    pub archived: i64,
    /// Uses granted and not returned.
    pub uses: i64,
    /// Budget granted and not returned, in minor units.
    pub budget: i64,
    /// Moves on every grant (a recall only takes unused uses away: a refusal stands).
    pub seq: i64,
    /// The last grant's uses (the next asks for twice as many).
    pub last_grant: i64,
}

/// A shard's row, if it was ever granted anything (read only).
///
/// # Errors
///
/// A storage failure.
pub fn allotment(sql: &SqlStorage) -> Result<Option<Allotment>, Problem> {
    if !has_table(sql, "allotment")? {
        return Ok(None);
    }
    let rows: Vec<Allotment> = sql
        .exec(
            "SELECT code, definition, archived, uses, budget, seq, last_grant FROM allotment WHERE id = 0",
            None,
        )?
        .to_array()?;
    Ok(rows.into_iter().next())
}

#[derive(Deserialize)]
struct IdRow {
    id: String,
}

/// A shard's grant asked for and not yet applied (after a crash), if any.
///
/// # Errors
///
/// A storage failure.
pub fn pending_grant(sql: &SqlStorage) -> Result<Option<String>, Problem> {
    let rows: Vec<IdRow> = sql
        .exec(
            "SELECT id FROM allotment_ops WHERE kind = 'grant' AND state = 'pending' LIMIT 1",
            None,
        )?
        .to_array()?;
    Ok(rows.into_iter().next().map(|row| row.id))
}

/// Records a shard's grant `id` as asked for, before it is sent.
///
/// # Errors
///
/// A storage failure.
pub fn ask_grant(sql: &SqlStorage, id: &str) -> Result<(), Problem> {
    sql.exec(
        "INSERT OR IGNORE INTO allotment_ops(id, kind, state) VALUES (?, 'grant', 'pending')",
        vec![id.into()],
    )?;
    Ok(())
}

/// What a shard applies of a grant's answer.
pub struct Applied<'a> {
    /// The grant's id.
    pub id: &'a str,
    /// The code.
    pub code: &'a str,
    /// The definition, as JSON.
    pub definition: &'a str,
    /// Whether the code is archived.
    pub archived: bool,
    /// Uses granted.
    pub uses: i64,
    /// Budget granted, in minor units.
    pub budget: i64,
    /// The earlier layouts the grant's definition comes with: an older
    /// layout than the shard's own leaves its definition be.
    pub prior: &'a [u8],
}

/// Applies grant `applied` once, if it is still pending (a recall may have
/// cancelled it): the allotment grows, the definition is the one sent.
/// Returns whether it applied.
///
/// # Errors
///
/// A storage failure: nothing changed.
pub fn apply_grant(storage: &Storage, applied: &Applied<'_>) -> Result<bool, Problem> {
    let sql = storage.sql();
    Ok(transaction_sync(storage, || {
        let pending: Vec<IdRow> = sql
            .exec(
                "SELECT id FROM allotment_ops WHERE id = ? AND state = 'pending'",
                vec![applied.id.into()],
            )?
            .to_array()?;
        if pending.is_empty() {
            return Ok(false);
        }
        sql.exec(
            "UPDATE allotment_ops SET state = 'applied', uses = ?, budget = ? WHERE id = ?",
            vec![applied.uses.into(), applied.budget.into(), applied.id.into()],
        )?;
        let local = shard_prior(&sql).map_err(|p| worker::Error::RustError(p.body().detail))?;
        if local.len() > applied.prior.len() {
            // Granted before the layout this shard knows: the uses count, the definition is older.
            sql.exec(
                "UPDATE allotment SET uses = uses + ?, budget = budget + ?,
                   seq = seq + (? > 0 OR ? > 0), last_grant = ? WHERE id = 0",
                vec![
                    applied.uses.into(),
                    applied.budget.into(),
                    applied.uses.into(),
                    applied.budget.into(),
                    applied.uses.into(),
                ],
            )?;
            return Ok(true);
        }
        if local.len() < applied.prior.len() {
            set_prior(&sql, applied.prior)?;
        }
        let values: Vec<SqlStorageValue> = vec![
            applied.code.into(),
            applied.definition.into(),
            i64::from(applied.archived).into(),
            applied.uses.into(),
            applied.budget.into(),
            applied.uses.into(),
        ];
        sql.exec(
            "INSERT INTO allotment(id, code, definition, archived, uses, budget, seq, last_grant)
             VALUES (0, ?, ?, ?, ?, ?, 1, ?)
             ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, archived = excluded.archived,
               uses = uses + excluded.uses, budget = budget + excluded.budget,
               seq = seq + (excluded.uses > 0 OR excluded.budget > 0),
               last_grant = excluded.last_grant",
            values,
        )?;
        Ok(true)
    })?)
}

/// A recall as a shard answered it.
#[derive(Debug, Clone, Deserialize)]
pub struct Recalled {
    /// Uses given back.
    pub uses: i64,
    /// Budget given back, in minor units.
    pub budget: i64,
    /// The pending grants it cancelled, as a JSON list.
    pub cancelled: Option<String>,
}

/// A shard's answer to recall `id` if it answered it before.
///
/// # Errors
///
/// A storage failure.
pub fn recalled(sql: &SqlStorage, id: &str) -> Result<Option<Recalled>, Problem> {
    let rows: Vec<Recalled> = sql
        .exec(
            "SELECT uses, budget, cancelled FROM allotment_ops WHERE id = ? AND kind = 'recall'",
            vec![id.into()],
        )?
        .to_array()?;
    Ok(rows.into_iter().next())
}

/// Gives back `uses` and `budget` of the shard's allotment under recall
/// `id`, cancels its pending grants but `in_flight` (the one whose answer it
/// waits for now: it will apply it), and records the answer, in one
/// transaction. The caller counted what is unused in the same synchronous
/// turn. Returns the grants cancelled.
///
/// # Errors
///
/// A storage failure: nothing changed.
pub fn give_back(
    storage: &Storage,
    id: &str,
    uses: i64,
    budget: i64,
    in_flight: Option<&str>,
) -> Result<Vec<String>, Problem> {
    let sql = storage.sql();
    let keep = in_flight.unwrap_or("");
    Ok(transaction_sync(storage, || {
        let pending: Vec<IdRow> = sql
            .exec(
                "SELECT id FROM allotment_ops WHERE kind = 'grant' AND state = 'pending' AND id != ?",
                vec![keep.into()],
            )?
            .to_array()?;
        let cancelled: Vec<String> = pending.into_iter().map(|row| row.id).collect();
        sql.exec(
            "UPDATE allotment_ops SET state = 'cancelled' WHERE kind = 'grant' AND state = 'pending' AND id != ?",
            vec![keep.into()],
        )?;
        sql.exec(
            "UPDATE allotment SET uses = max(0, uses - ?), budget = max(0, budget - ?), last_grant = ? WHERE id = 0",
            vec![uses.into(), budget.into(), (super::MIN_GRANT as i64).into()],
        )?;
        let list = serde_json::to_string(&cancelled).map_err(|e| worker::Error::RustError(e.to_string()))?;
        sql.exec(
            "INSERT INTO allotment_ops(id, kind, uses, budget, state, cancelled) VALUES (?, 'recall', ?, ?, 'done', ?)",
            vec![id.into(), uses.into(), budget.into(), list.into()],
        )?;
        Ok(cancelled)
    })?)
}
