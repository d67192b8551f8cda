//! The object's tables, and the migrations of objects older than them.

use super::*;

/// The schema, created when a code is first defined (never by a read).
///
/// - `definition`: the code's definition as JSON, whether it is archived, and
///   when it was first defined.
/// - `usage_total`, `usage_customer`: the captured uses, overall and per
///   customer; `usage_total.discounted` is the sum of their discounts, as
///   decimal text (summed in Rust, exactly, never by SQLite's floats).
/// - `holds`: the holds not yet captured or released, with their expiry as
///   sortable text ([`Timestamp::sortable`](promocodes::Timestamp::sortable)) and the discount each reserves (decimal
///   text); a hold counts while `expires > now`.
/// - `redemptions`: every reservation in order (`seq`): its state and its JSON;
///   the admin list reads it oldest first.
/// - `refusals`: the refused payment captures, one per key (final for it).
/// - `payment_finals`: the payments a full refund made final, by the
///   payment's key: the released record (a hold, a capture, or a refund that
///   came before anything was recorded) that every later event for that
///   payment replays.
/// - campaigns: a campaign's uses count under `campaign:<id>` in
///   `usage_total`, `usage_customer` and `holds` (see [`counter_of`]);
///   `usage_code` has each campaign code's captured uses, `holds.through`
///   the code a campaign's hold came through, `redemptions.campaign` the
///   campaign a reservation counts under (NULL for a plain code, and for a
///   refused payment capture or a refund before its payment, which count
///   under nothing: the campaign's history lists them through
///   `campaign_codes`).
/// - `outbox`, `deliveries`, `delivery_cursor`: the events of the writes and
///   their deliveries to the shop's endpoints (see `outbox.rs`), added by the
///   migration.
/// - `changes`: each write that changed a definition (see `changes.rs`),
///   added by the migration.
/// - `idempotency_keys`: the key is the PRIMARY KEY (with the code, since a
///   store keeps keys per code), so its uniqueness is the database's; it
///   points at the reservation a replay answers with.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS definition(code TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS usage_total(code TEXT PRIMARY KEY, n INTEGER NOT NULL, discounted TEXT NOT NULL DEFAULT '0');
CREATE TABLE IF NOT EXISTS usage_customer(
    code TEXT NOT NULL, customer TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(code, customer));
CREATE TABLE IF NOT EXISTS holds(
    seq INTEGER PRIMARY KEY, code TEXT NOT NULL, customer TEXT, expires TEXT NOT NULL, discount TEXT NOT NULL DEFAULT '0',
    through TEXT);
CREATE INDEX IF NOT EXISTS holds_by_expiry ON holds(code, expires);
CREATE TABLE IF NOT EXISTS redemptions(
    seq INTEGER PRIMARY KEY, code TEXT NOT NULL, idempotency_key TEXT, reservation TEXT NOT NULL, campaign TEXT);
CREATE INDEX IF NOT EXISTS redemptions_by_code ON redemptions(code, seq);
CREATE TABLE IF NOT EXISTS idempotency_keys(
    code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(code, key));
CREATE TABLE IF NOT EXISTS refusals(code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(code, key));
CREATE TABLE IF NOT EXISTS payment_finals(code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(code, key));
CREATE TABLE IF NOT EXISTS usage_code(code TEXT PRIMARY KEY, n INTEGER NOT NULL);
";

/// A campaign's object: the campaign (`campaign`: its id, its definition's
/// JSON as given, archived, when first defined), its codes in the order they
/// were added (`campaign_codes`), and each call that added codes, by its
/// idempotency key (`code_batches`: the answer, whether its codes are in, and the request it answers).
pub(super) const CAMPAIGN_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS campaign(id TEXT PRIMARY KEY, json TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0,
    defined_at TEXT);
CREATE TABLE IF NOT EXISTS campaign_codes(seq INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS code_batches(key TEXT PRIMARY KEY, answer TEXT NOT NULL, committed INTEGER NOT NULL,
    request TEXT);
";

/// A reservation's key is indexed by the database in the statement that
/// inserts the reservation (one statement where there were two).
pub(super) const KEY_TRIGGER: &str = "
CREATE TRIGGER IF NOT EXISTS redemption_key AFTER INSERT ON redemptions
WHEN NEW.idempotency_key IS NOT NULL AND NEW.state != 'refused'
BEGIN INSERT INTO idempotency_keys(code, key, seq) VALUES (NEW.code, NEW.idempotency_key, NEW.seq); END;
";

/// Columns added after the first release, for objects whose tables predate them.
const MIGRATIONS: &[(&str, &str, &str)] = &[
    (
        "definition",
        "archived",
        "ALTER TABLE definition ADD COLUMN archived INTEGER NOT NULL DEFAULT 0",
    ),
    (
        "definition",
        "defined_at",
        "ALTER TABLE definition ADD COLUMN defined_at TEXT",
    ),
    (
        "redemptions",
        "state",
        "ALTER TABLE redemptions ADD COLUMN state TEXT NOT NULL DEFAULT 'captured'",
    ),
    // Budgets: uses recorded before these columns count no discount (no code had a budget then).
    (
        "usage_total",
        "discounted",
        "ALTER TABLE usage_total ADD COLUMN discounted TEXT NOT NULL DEFAULT '0'",
    ),
    (
        "holds",
        "discount",
        "ALTER TABLE holds ADD COLUMN discount TEXT NOT NULL DEFAULT '0'",
    ),
    // Campaigns: older objects had none.
    ("holds", "through", "ALTER TABLE holds ADD COLUMN through TEXT"),
    (
        "redemptions",
        "campaign",
        "ALTER TABLE redemptions ADD COLUMN campaign TEXT",
    ),
];

impl SqliteRedemptionStore {
    /// Adds the tables and columns of [`MIGRATIONS`] that an older object lacks.
    pub(super) fn migrate(&self) -> Result<(), StoreError> {
        self.sql
            .exec(
                "CREATE TABLE IF NOT EXISTS refusals(code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,
                 PRIMARY KEY(code, key))",
                None,
            )
            .map_err(backend)?;
        self.sql
            .exec(
                "CREATE TABLE IF NOT EXISTS payment_finals(code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,
                 PRIMARY KEY(code, key))",
                None,
            )
            .map_err(backend)?;
        self.sql
            .exec(
                "CREATE TABLE IF NOT EXISTS usage_code(code TEXT PRIMARY KEY, n INTEGER NOT NULL)",
                None,
            )
            .map_err(backend)?;
        self.sql.exec(CAMPAIGN_SCHEMA, None).map_err(backend)?;
        self.sql.exec(crate::stats::SCHEMA, None).map_err(backend)?;
        self.sql.exec(KEY_TRIGGER, None).map_err(backend)?;
        self.sql.exec(super::outbox::OUTBOX_SCHEMA, None).map_err(backend)?;
        self.sql.exec(super::changes::CHANGES_SCHEMA, None).map_err(backend)?;
        for (table, column, statement) in MIGRATIONS {
            let columns: Vec<NameRow> = self
                .sql
                .exec(&format!("SELECT name FROM pragma_table_info('{table}')"), None)
                .and_then(|c| c.to_array())
                .map_err(backend)?;
            if !columns.iter().any(|c| c.name == *column) {
                self.sql.exec(statement, None).map_err(backend)?;
            }
        }
        Ok(())
    }
}
