//! [`SqliteRedemptionStore`]: the core's [`RedemptionStore`] over a Durable
//! Object's SQLite storage, with the compare-and-set in one `transactionSync`.

use promocodes::{Code, CustomerId, IdempotencyKey, PromoCode, Redemption, RedemptionStore, Reservation};
use promocodes::{StoreError, UsageCounts};
use serde::{Deserialize, Serialize};
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::{JsCast, JsValue};
use worker::{js_sys, SqlStorage, SqlStorageValue, Storage};

/// The schema, created idempotently when the object starts.
///
/// - `definition`: the code's definition as JSON (one row per code).
/// - `usage_total`, `usage_customer`: the counts, overall and per customer.
/// - `redemptions`: every reservation written, in order (`seq`), as JSON; the
///   admin list reads it oldest first.
/// - `idempotency_keys`: the key is the PRIMARY KEY (with the code, since a
///   store keeps keys per code), so its uniqueness is the database's; it
///   points at the reservation a replay answers with.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS definition(code TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS usage_total(code TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS usage_customer(
    code TEXT NOT NULL, customer TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(code, customer));
CREATE TABLE IF NOT EXISTS redemptions(
    seq INTEGER PRIMARY KEY, code TEXT NOT NULL, idempotency_key TEXT, reservation TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS redemptions_by_code ON redemptions(code, seq);
CREATE TABLE IF NOT EXISTS idempotency_keys(
    code TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(code, key));
";

const STORE: &str = "sqlite";

/// The core's [`RedemptionStore`] over `state.storage().sql()`.
///
/// `record` reads the idempotency key and the counts, compares, increments
/// and inserts the reservation and its key inside one
/// `storage.transactionSync` call, synchronously: no `await` can interleave
/// another request between the read and the write, and a failure inside
/// rolls everything back.
#[derive(Debug)]
pub struct SqliteRedemptionStore {
    storage: Storage,
    sql: SqlStorage,
}

/// One receipt in the admin list.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecordedRedemption {
    /// Its position in the code's history (the pagination cursor).
    pub seq: i64,
    /// The key it was captured under, if any.
    pub idempotency_key: Option<String>,
    /// Who redeemed, if known.
    pub customer: Option<CustomerId>,
    /// What was charged.
    pub quote: promocodes::Quote,
    /// The counts right after it.
    pub usage: UsageCounts,
}

#[derive(Deserialize)]
struct CountRow {
    n: i64,
}

#[derive(Deserialize)]
struct JsonRow {
    json: String,
}

#[derive(Deserialize)]
struct ReservationRow {
    reservation: String,
}

#[derive(Deserialize)]
struct SeqRow {
    seq: i64,
}

#[derive(Deserialize)]
struct ListRow {
    seq: i64,
    idempotency_key: Option<String>,
    reservation: String,
}

fn backend(err: impl std::fmt::Display) -> StoreError {
    StoreError::Backend {
        store: STORE,
        message: err.to_string(),
    }
}

fn to_i64(n: u64) -> worker::Result<i64> {
    i64::try_from(n).map_err(|_| worker::Error::RustError(format!("count {n} out of range")))
}

impl SqliteRedemptionStore {
    /// The store over `storage`, creating its tables if they are missing.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the schema cannot be created.
    pub fn open(storage: Storage) -> Result<SqliteRedemptionStore, StoreError> {
        let sql = storage.sql();
        sql.exec(SCHEMA, None).map_err(backend)?;
        Ok(SqliteRedemptionStore { storage, sql })
    }

    /// Deletes every row (test support: each conformance check wants an empty store).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a delete fails.
    pub fn clear(&self) -> Result<(), StoreError> {
        self.sql
            .exec(
                "DELETE FROM definition; DELETE FROM usage_total; DELETE FROM usage_customer;
                 DELETE FROM redemptions; DELETE FROM idempotency_keys;",
                None,
            )
            .map_err(backend)?;
        Ok(())
    }

    /// The stored definition of `code`, if any.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails or the stored JSON no longer parses.
    pub fn definition(&self, code: &Code) -> Result<Option<PromoCode>, StoreError> {
        let rows: Vec<JsonRow> = self
            .sql
            .exec("SELECT json FROM definition WHERE code = ?", vec![code.as_str().into()])
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        rows.first()
            .map(|row| PromoCode::from_json(&row.json).map_err(backend))
            .transpose()
    }

    /// Stores `promo` as its code's definition; returns true when it replaced one.
    ///
    /// The counts are kept: replacing a definition does not reset its usage.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn put_definition(&self, promo: &PromoCode) -> Result<bool, StoreError> {
        let json = serde_json::to_string(promo).map_err(backend)?;
        let code = promo.code().as_str().to_owned();
        transaction_sync(&self.storage, || {
            let existed = !self
                .sql
                .exec("SELECT json FROM definition WHERE code = ?", vec![code.clone().into()])?
                .to_array::<JsonRow>()?
                .is_empty();
            self.sql.exec(
                "INSERT INTO definition(code, json) VALUES (?, ?)
                 ON CONFLICT(code) DO UPDATE SET json = excluded.json",
                vec![code.clone().into(), json.clone().into()],
            )?;
            Ok(existed)
        })
        .map_err(backend)
    }

    /// The receipts of `code` after `after` (a `seq`), oldest first, at most
    /// `limit`, and whether more follow.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn redemptions(
        &self,
        code: &Code,
        after: i64,
        limit: u32,
    ) -> Result<(Vec<RecordedRedemption>, bool), StoreError> {
        let rows: Vec<ListRow> = self
            .sql
            .exec(
                "SELECT seq, idempotency_key, reservation FROM redemptions
                 WHERE code = ? AND seq > ? ORDER BY seq LIMIT ?",
                vec![code.as_str().into(), after.into(), (i64::from(limit) + 1).into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        let more = rows.len() > limit as usize;
        let items = rows
            .into_iter()
            .take(limit as usize)
            .map(|row| {
                let reservation: Reservation = serde_json::from_str(&row.reservation).map_err(backend)?;
                Ok(RecordedRedemption {
                    seq: row.seq,
                    idempotency_key: row.idempotency_key,
                    customer: reservation.customer,
                    quote: reservation.quote,
                    usage: reservation.usage,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((items, more))
    }

    /// Test support: writes inside a transaction that then fails, and reports
    /// whether the failure rolled the write back (`true`) and surfaced as an error.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the reads around it fail.
    #[cfg(feature = "conformance")]
    pub fn failed_transaction_rolls_back(&self) -> Result<bool, StoreError> {
        let code = "__ROLLBACK__";
        let read = || self.count("SELECT n FROM usage_total WHERE code = ?", vec![code.into()]);
        let before = read().map_err(backend)?;
        let failed: worker::Result<()> = transaction_sync(&self.storage, || {
            self.sql.exec(
                "INSERT INTO usage_total(code, n) VALUES (?, 1000) ON CONFLICT(code) DO UPDATE SET n = n + 1000",
                vec![code.into()],
            )?;
            let inside = self.count("SELECT n FROM usage_total WHERE code = ?", vec![code.into()])?;
            Err(worker::Error::RustError(format!(
                "deliberate failure after writing {inside}"
            )))
        });
        let after = read().map_err(backend)?;
        Ok(failed.is_err_and(|e| e.to_string().contains("deliberate failure")) && before == after)
    }

    fn count(&self, query: &str, bindings: Vec<SqlStorageValue>) -> worker::Result<u64> {
        let rows: Vec<CountRow> = self.sql.exec(query, bindings)?.to_array()?;
        let n = rows.first().map_or(0, |row| row.n);
        u64::try_from(n).map_err(|_| worker::Error::RustError(format!("negative count {n}")))
    }

    fn usage(&self, code: &Code, customer: Option<&CustomerId>) -> worker::Result<UsageCounts> {
        let total = self.count("SELECT n FROM usage_total WHERE code = ?", vec![code.as_str().into()])?;
        let per_customer = match customer {
            Some(customer) => self.count(
                "SELECT n FROM usage_customer WHERE code = ? AND customer = ?",
                vec![code.as_str().into(), customer.as_str().into()],
            )?,
            None => 0,
        };
        UsageCounts::new(total, per_customer).map_err(|e| worker::Error::RustError(e.to_string()))
    }

    fn keyed(&self, code: &Code, key: &IdempotencyKey) -> worker::Result<Option<Reservation>> {
        let rows: Vec<ReservationRow> = self
            .sql
            .exec(
                "SELECT r.reservation FROM idempotency_keys k JOIN redemptions r ON r.seq = k.seq
                 WHERE k.code = ? AND k.key = ?",
                vec![code.as_str().into(), key.as_str().into()],
            )?
            .to_array()?;
        rows.first()
            .map(|row| {
                let earlier: Reservation =
                    serde_json::from_str(&row.reservation).map_err(|e| worker::Error::RustError(e.to_string()))?;
                Ok(Reservation {
                    replayed: true,
                    ..earlier
                })
            })
            .transpose()
    }
}

impl RedemptionStore for SqliteRedemptionStore {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError> {
        self.usage(code, customer).map_err(backend)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.keyed(code, key).map_err(backend)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let code = redemption.code;
        let customer = redemption.customer;
        transaction_sync(&self.storage, || {
            if let Some(key) = redemption.idempotency_key {
                if let Some(earlier) = self.keyed(code, key)? {
                    return Ok(Some(earlier));
                }
            }
            let current = self.usage(code, customer)?;
            if current != redemption.expected {
                return Ok(None);
            }
            let Some(usage) = current.incremented(customer.is_some()) else {
                return Ok(None);
            };
            self.sql.exec(
                "INSERT INTO usage_total(code, n) VALUES (?, ?) ON CONFLICT(code) DO UPDATE SET n = excluded.n",
                vec![code.as_str().into(), to_i64(usage.total())?.into()],
            )?;
            if let Some(customer) = customer {
                self.sql.exec(
                    "INSERT INTO usage_customer(code, customer, n) VALUES (?, ?, ?)
                     ON CONFLICT(code, customer) DO UPDATE SET n = excluded.n",
                    vec![
                        code.as_str().into(),
                        customer.as_str().into(),
                        to_i64(usage.per_customer())?.into(),
                    ],
                )?;
            }
            let reservation = Reservation {
                customer: customer.cloned(),
                quote: redemption.quote.clone(),
                usage,
                replayed: false,
            };
            let json = serde_json::to_string(&reservation).map_err(|e| worker::Error::RustError(e.to_string()))?;
            let key = redemption.idempotency_key.map(|k| k.as_str().to_owned());
            let seq: SeqRow = self
                .sql
                .exec(
                    "INSERT INTO redemptions(code, idempotency_key, reservation) VALUES (?, ?, ?) RETURNING seq",
                    vec![code.as_str().into(), key.clone().into(), json.into()],
                )?
                .one()?;
            if let Some(key) = key {
                self.sql.exec(
                    "INSERT INTO idempotency_keys(code, key, seq) VALUES (?, ?, ?)",
                    vec![code.as_str().into(), key.into(), seq.seq.into()],
                )?;
            }
            Ok(Some(reservation))
        })
        .map_err(backend)
    }
}

/// Runs `f` inside `storage.transactionSync(callback)`.
///
/// workers-rs has no wrapper, so the method is called through `js_sys`. An
/// `Err` from `f` becomes a JavaScript throw from the callback, which rolls
/// the transaction back. `f` must be synchronous: that is the point.
fn transaction_sync<T, F>(storage: &Storage, f: F) -> worker::Result<T>
where
    F: FnOnce() -> worker::Result<T>,
{
    let raw: &JsValue = storage.as_raw().as_ref();
    let tx: js_sys::Function = js_sys::Reflect::get(raw, &JsValue::from_str("transactionSync"))?
        .dyn_into()
        .map_err(|_| worker::Error::RustError("storage.transactionSync is missing".into()))?;
    let mut out: Option<T> = None;
    let mut f = Some(f);
    let mut callback = || -> Result<JsValue, JsValue> {
        let f = f
            .take()
            .ok_or_else(|| JsValue::from(js_sys::Error::new("transactionSync called back twice")))?;
        match f() {
            Ok(value) => {
                out = Some(value);
                Ok(JsValue::UNDEFINED)
            }
            Err(err) => Err(js_sys::Error::new(&err.to_string()).into()),
        }
    };
    // Borrowed, not 'static: transactionSync calls it before it returns.
    let closure = ScopedClosure::<dyn FnMut() -> Result<JsValue, JsValue>>::borrow_mut(&mut callback);
    let result = tx.call1(raw, closure.as_ref());
    drop(closure);
    result?;
    out.ok_or_else(|| worker::Error::RustError("transactionSync did not call back".into()))
}
