//! [`SqliteRedemptionStore`]: the core's [`RedemptionStore`] over a Durable
//! Object's SQLite storage, each write one `transactionSync`.

use promocodes::{
    Campaign, Code, Conversion, CustomerId, IdempotencyKey, PromoCode, Redemption, RedemptionStore, Release,
};
use promocodes::{Reservation, ReservationState, StoreError, Timestamp, UsageCounts};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use std::rc::Rc;

use rust_decimal::Decimal;

use serde::{Deserialize, Serialize};
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::{JsCast, JsValue};
use worker::{js_sys, SqlStorage, Storage};

use crate::alarm::Alarm;
use crate::bounded::BoundedMap;
use crate::limits::{MIRRORED_CODES_MAX, MIRRORED_CUSTOMERS_MAX};

mod changes;
mod definitions;
mod expiry;
mod history;
mod outbox;
mod reads;
mod schema;
mod writes;

pub use definitions::{CampaignCode, CodeBatch, StoredCampaign, StoredDefinition};
pub use outbox::{event_id, DeliveryRow, OutboxEvent};
use promocodes::events::UseWrite;
use schema::SCHEMA;

const STORE: &str = "sqlite";

/// The core's [`RedemptionStore`] over `state.storage().sql()`.
///
/// Every write reads what it depends on (the key, the counts or the
/// reservation's state), compares, and writes inside one
/// `storage.transactionSync` call, synchronously: no `await` can interleave
/// another request between the read and the write, and a failure inside
/// rolls everything back.
#[derive(Debug)]
pub struct SqliteRedemptionStore {
    storage: Storage,
    sql: SqlStorage,
    /// The counts as SQLite has them, per code, read once and kept up to date
    /// by this store's own writes (a Durable Object is the only writer of its
    /// storage). Reads and compare-and-sets use it instead of a query.
    mirror: RefCell<HashMap<String, CodeMirror>>,
    /// The changes of the transaction in progress, applied to `mirror` once it commits.
    pending: RefCell<Vec<Delta>>,
    /// The definition (or campaign) the events of a write are decided on, read once.
    subject: RefCell<Option<outbox::Subject>>,
    /// Whether the transaction in progress added events to the outbox.
    wrote_events: std::cell::Cell<bool>,
    /// For a shard of a campaign spread over shards, the campaign's counter
    /// (`campaign:<id>`), which every use here counts under; read once.
    shard_counter: RefCell<Option<Option<String>>>,
    /// The object's alarm, set in a write's own turn when it added events.
    alarm: Rc<Alarm>,
}

/// What a use counts under, as the tables name it: its code, or for a
/// campaign's code `campaign:<id>` (no code has a `:`, so the two never meet).
pub fn counter_of(code: &Code, campaign: Option<&Code>) -> String {
    match campaign {
        Some(campaign) => Campaign::key_of(campaign.as_str()),
        None => code.as_str().to_owned(),
    }
}

/// One counter's counts in memory (a code's, or a campaign's).
#[derive(Debug, Default)]
struct CodeMirror {
    /// Captured uses.
    captured: u64,
    /// Captured uses per code of a campaign, for the codes read last (at most [`MIRRORED_CODES_MAX`]).
    captured_code: BoundedMap<String, u64, MIRRORED_CODES_MAX>,
    /// The sum of the captured uses' discounts.
    captured_discount: Decimal,
    /// Captured uses per customer, for the customers read last (at most [`MIRRORED_CUSTOMERS_MAX`]).
    captured_by: BoundedMap<String, u64, MIRRORED_CUSTOMERS_MAX>,
    /// The holds still marked held, by expiry (as [`Timestamp::sortable`] text) and
    /// sequence number: who holds, and the discount reserved.
    holds: BTreeMap<(String, i64), HeldUse>,
    /// Each hold's expiry, by sequence number.
    expiry: HashMap<i64, String>,
}

/// A hold in the mirror: who holds, the discount reserved, and (for a
/// campaign's hold) the code it came through.
#[derive(Debug, Clone, Default)]
struct HeldUse {
    customer: Option<String>,
    discount: Decimal,
    through: Option<String>,
}

/// A change a transaction made, applied to the mirror when it commits.
#[derive(Debug, Clone)]
enum Delta {
    Captured {
        code: String,
        /// For a campaign's use: the code it came through.
        through: Option<String>,
        customer: Option<String>,
        delta: i64,
        /// The discount added to the captured sum (negative to take away).
        discount: Decimal,
    },
    HoldAdded {
        code: String,
        seq: i64,
        expires: String,
        hold: HeldUse,
    },
    HoldRemoved {
        code: String,
        seq: i64,
    },
}

#[derive(Deserialize)]
struct CountRow {
    n: i64,
}

#[derive(Deserialize)]
struct TotalRow {
    n: i64,
    discounted: String,
}

#[derive(Deserialize)]
struct HoldRow {
    seq: i64,
    customer: Option<String>,
    expires: String,
    discount: String,
    through: Option<String>,
}

/// Decimal text as the object writes it.
fn decimal(text: &str) -> worker::Result<Decimal> {
    text.parse().map_err(|_| rust_error(format!("not a decimal: {text:?}")))
}

#[derive(Deserialize)]
struct DefinitionRow {
    json: String,
    archived: i64,
    defined_at: Option<String>,
}

#[derive(Deserialize)]
struct SeqRow {
    seq: i64,
}

#[derive(Deserialize)]
struct ReservationRow {
    reservation: String,
    campaign: Option<String>,
}

#[derive(Deserialize)]
struct ExpiresRow {
    expires: Option<String>,
}

#[derive(Deserialize)]
struct ListRow {
    seq: i64,
    idempotency_key: Option<String>,
    state: String,
    reservation: String,
}

/// The state of a refused payment capture in the history.
pub const REFUSED: &str = "refused";

/// The state column of a full refund that came before anything was held or
/// captured under its payment's key. Listed as `released`; the row holds no
/// reservation (its key is not indexed: nothing was reserved), only the
/// release's answer, and [`SqliteRedemptionStore::final_payment`] finds it.
const REFUNDED_UNPAID: &str = "refunded";

#[derive(Deserialize)]
struct LinesRow {
    lines: Option<String>,
    last: Option<String>,
}

#[derive(Deserialize)]
struct NameRow {
    name: String,
}

fn backend(err: impl std::fmt::Display) -> StoreError {
    StoreError::Backend {
        store: STORE,
        message: err.to_string(),
    }
}

fn rust_error(err: impl std::fmt::Display) -> worker::Error {
    worker::Error::RustError(err.to_string())
}

impl SqliteRedemptionStore {
    /// The store over `storage` if its tables exist (the code was ever
    /// defined), reading only: an unknown code writes nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn existing(storage: Storage) -> Result<Option<SqliteRedemptionStore>, StoreError> {
        let sql = storage.sql();
        let tables: Vec<NameRow> = sql
            .exec(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'definition'",
                None,
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        if tables.is_empty() {
            return Ok(None);
        }
        let store = SqliteRedemptionStore::over(storage, sql);
        store.migrate()?;
        Ok(Some(store))
    }

    /// The store over `storage`, creating its tables if they are missing
    /// (when a code is defined).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the schema cannot be created.
    pub fn create(storage: Storage) -> Result<SqliteRedemptionStore, StoreError> {
        let sql = storage.sql();
        sql.exec(SCHEMA, None).map_err(backend)?;
        let store = SqliteRedemptionStore::over(storage, sql);
        store.migrate()?;
        Ok(store)
    }

    fn over(storage: Storage, sql: SqlStorage) -> SqliteRedemptionStore {
        SqliteRedemptionStore {
            storage,
            sql,
            mirror: RefCell::new(HashMap::new()),
            pending: RefCell::new(Vec::new()),
            subject: RefCell::new(None),
            wrote_events: std::cell::Cell::new(false),
            shard_counter: RefCell::new(None),
            alarm: Rc::default(),
        }
    }

    /// The store, setting `alarm` (the object's) when a write adds events.
    #[must_use]
    pub fn with_alarm(self, alarm: Rc<Alarm>) -> SqliteRedemptionStore {
        SqliteRedemptionStore { alarm, ..self }
    }

    /// Runs `f` as one SQLite transaction (`transactionSync`); when it
    /// committed events to the outbox, sets the alarm for
    /// [`DELIVER_AFTER_MS`](outbox::DELIVER_AFTER_MS) from now in the same
    /// synchronous turn, so that the events and their alarm commit together
    /// (unless the alarm is known to be due already).
    fn commit<T>(&self, f: impl FnOnce() -> worker::Result<T>) -> worker::Result<T> {
        let result = transaction_sync(&self.storage, f);
        if self.wrote_events.replace(false) && result.is_ok() {
            let millis = worker::Date::now().as_millis() as i64 + outbox::DELIVER_AFTER_MS;
            let due = Timestamp::from_unix_millis(millis).map_err(rust_error)?;
            if !self.alarm.set_by(due) {
                self.alarm.issue(&self.storage, due)?;
            }
        }
        result
    }

    /// Runs `f` as one transaction; its changes reach the mirror only if it commits.
    fn transaction<T>(&self, f: impl FnOnce() -> worker::Result<T>) -> worker::Result<T> {
        self.pending.borrow_mut().clear();
        let result = self.commit(f);
        let changes = std::mem::take(&mut *self.pending.borrow_mut());
        if result.is_ok() {
            let mut mirror = self.mirror.borrow_mut();
            for change in changes {
                apply(&mut mirror, change);
            }
        }
        result
    }

    /// Deletes every row (test support: each conformance check wants an empty store).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a delete fails.
    pub fn clear(&self) -> Result<(), StoreError> {
        self.sql
            .exec(
                "DELETE FROM definition; DELETE FROM usage_total; DELETE FROM usage_customer; DELETE FROM holds;
                 DELETE FROM usage_code; DELETE FROM campaign; DELETE FROM campaign_codes; DELETE FROM code_batches;
                 DELETE FROM redemptions; DELETE FROM idempotency_keys; DELETE FROM refusals;
                 DELETE FROM payment_finals; DELETE FROM outbox; DELETE FROM deliveries; DELETE FROM delivery_cursor;",
                None,
            )
            .map_err(backend)?;
        self.mirror.borrow_mut().clear();
        self.forget_subject();
        Ok(())
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
            Err(rust_error(format!("deliberate failure after writing {inside}")))
        });
        let after = read().map_err(backend)?;
        Ok(failed.is_err_and(|e| e.to_string().contains("deliberate failure")) && before == after)
    }

    #[cfg(feature = "conformance")]
    fn count(&self, query: &str, bindings: Vec<worker::SqlStorageValue>) -> worker::Result<u64> {
        let rows: Vec<CountRow> = self.sql.exec(query, bindings)?.to_array()?;
        let n = rows.first().map_or(0, |row| row.n);
        u64::try_from(n).map_err(|_| rust_error(format!("negative count {n}")))
    }
}

impl RedemptionStore for SqliteRedemptionStore {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.load(code.as_str(), None, customer).map_err(backend)?;
        self.usage(code.as_str(), None, customer, now).map_err(backend)
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        let counter = counter_of(code, Some(campaign));
        self.load(&counter, Some(code), customer).map_err(backend)?;
        self.usage(&counter, Some(code), customer, now).map_err(backend)
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        self.load(code.as_str(), None, None).map_err(backend)?;
        let mirror = self.mirror.borrow();
        let at = now.sortable();
        Ok(mirror.get(code.as_str()).map_or(0, |m| {
            m.holds
                .range((Bound::Excluded((at, i64::MAX)), Bound::Unbounded))
                .count() as u64
        }))
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        Ok(self.keyed(code, key).map_err(backend)?.map(|(_, r)| r.replayed()))
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, customer, now) = (redemption.code, redemption.customer, redemption.now);
        let counter = counter_of(code, redemption.campaign);
        let through = redemption.campaign.map(|_| code);
        self.load(&counter, through, customer).map_err(backend)?;
        self.transaction(|| {
            let mut following = None;
            if let Some(key) = redemption.idempotency_key {
                if let Some((seq, earlier, earlier_counter)) = self.keyed_under(code, key)? {
                    if !redemption.follows_expired_hold(&earlier) {
                        return Ok(Some(earlier.replayed()));
                    }
                    // A capture that names the expired hold under its key: a new capture that
                    // takes the key once the compare-and-set has passed (the hold no longer
                    // counts at `now`); the hold stays in the history, marked expired.
                    following = Some((seq, key, earlier, earlier_counter));
                }
            }
            let current = self.usage(&counter, through, customer, now)?;
            if current != redemption.expected {
                return Ok(None);
            }
            let discount = redemption.quote.discount().amount();
            let Some(usage) = current.after_use(customer.is_some(), discount) else {
                return Ok(None);
            };
            let reservation = redemption.reservation(usage);
            if let Some((seq, key, hold, hold_counter)) = following {
                self.load(&hold_counter, None, None)?;
                self.delete_hold(&hold_counter, seq)?;
                let expired = Reservation {
                    state: ReservationState::Expired,
                    ..hold
                };
                self.update(seq, &expired)?;
                // It no longer counted: the counts are the same before and after.
                let noted = Reservation {
                    usage: current,
                    ..expired.clone()
                };
                self.write_events(UseWrite::Expired, code, &hold_counter, &noted, current, now)?;
                // The key moves to the capture: the insert's trigger indexes it anew.
                self.sql.exec(
                    "DELETE FROM idempotency_keys WHERE code = ? AND key = ?",
                    vec![code.as_str().into(), key.as_str().into()],
                )?;
            }
            let seq = self.insert(code, redemption.campaign, &reservation, redemption.hold_until.is_some())?;
            match (redemption.hold_until, seq) {
                (Some(expires_at), Some(seq)) => {
                    let hold = HeldUse {
                        customer: customer.map(|c| c.as_str().to_owned()),
                        discount,
                        through: through.map(|c| c.as_str().to_owned()),
                    };
                    self.insert_hold(&counter, seq, expires_at.sortable(), hold)?
                }
                (Some(_), None) => return Err(rust_error("a hold was written without its sequence number")),
                (None, _) => self.add_captured(&counter, through, customer, 1, discount)?,
            }
            let write = if redemption.hold_until.is_some() {
                UseWrite::Held
            } else {
                UseWrite::Captured
            };
            self.write_events(write, code, &counter, &reservation, current, now)?;
            Ok(Some(reservation))
        })
        .map_err(backend)
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (conversion.code, conversion.now);
        self.transaction(|| {
            let Some((seq, held, counter)) = self.keyed_under(code, conversion.key)? else {
                return Ok(None);
            };
            match held.state_at(now) {
                ReservationState::Held => {}
                ReservationState::Expired => return Ok(None),
                _ => return Ok(Some(held.replayed())),
            }
            let through = (counter != code.as_str()).then_some(code);
            // Read before this transaction writes: the mirror must hold committed counts.
            self.load(&counter, through, held.customer.as_ref())?;
            let before = self.usage(&counter, through, held.customer.as_ref(), now)?;
            if conversion.expected.is_some_and(|expected| before != expected) {
                return Ok(None);
            }
            self.delete_hold(&counter, seq)?;
            let discount = conversion.quote.discount().amount();
            self.add_captured(&counter, through, held.customer.as_ref(), 1, discount)?;
            let usage = self.usage(&counter, through, held.customer.as_ref(), now)?;
            let captured = held.captured(conversion.quote, usage, now);
            self.update(seq, &captured)?;
            self.write_events(UseWrite::Captured, code, &counter, &captured, before, now)?;
            Ok(Some(captured))
        })
        .map_err(backend)
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (release.code, release.now);
        self.transaction(|| {
            let Some((seq, earlier, counter)) = self.keyed_under(code, release.key)? else {
                return Ok(None);
            };
            if earlier.state_at(now) == ReservationState::Released {
                return Ok(Some(earlier.replayed()));
            }
            let through = (counter != code.as_str()).then_some(code);
            // Read before this transaction writes: the mirror must hold committed counts.
            self.load(&counter, through, earlier.customer.as_ref())?;
            let before = self.usage(&counter, through, earlier.customer.as_ref(), now)?;
            let was = if earlier.state_at(now) == ReservationState::Captured {
                let discount = earlier.quote.discount().amount();
                self.add_captured(&counter, through, earlier.customer.as_ref(), -1, -discount)?;
                ReservationState::Captured
            } else {
                self.delete_hold(&counter, seq)?;
                ReservationState::Held
            };
            let usage = self.usage(&counter, through, earlier.customer.as_ref(), now)?;
            let released = earlier.released(release, was, usage);
            self.update(seq, &released)?;
            self.write_events(UseWrite::Released, code, &counter, &released, before, now)?;
            Ok(Some(released))
        })
        .map_err(backend)
    }
}

/// Applies a committed change to the mirror (a code not read yet is read from SQLite when needed).
fn apply(mirror: &mut HashMap<String, CodeMirror>, change: Delta) {
    match change {
        Delta::Captured {
            code,
            through,
            customer,
            delta,
            discount,
        } => {
            if let Some(m) = mirror.get_mut(&code) {
                m.captured = m.captured.saturating_add_signed(delta);
                m.captured_discount = (m.captured_discount + discount).max(Decimal::ZERO);
                if let Some(n) = customer.and_then(|c| m.captured_by.get_mut(&c)) {
                    *n = n.saturating_add_signed(delta);
                }
                if let Some(n) = through.and_then(|c| m.captured_code.get_mut(&c)) {
                    *n = n.saturating_add_signed(delta);
                }
            }
        }
        Delta::HoldAdded {
            code,
            seq,
            expires,
            hold,
        } => {
            if let Some(m) = mirror.get_mut(&code) {
                m.expiry.insert(seq, expires.clone());
                m.holds.insert((expires, seq), hold);
            }
        }
        Delta::HoldRemoved { code, seq } => {
            if let Some(m) = mirror.get_mut(&code) {
                if let Some(expires) = m.expiry.remove(&seq) {
                    m.holds.remove(&(expires, seq));
                }
            }
        }
    }
}

/// Runs `f` inside `storage.transactionSync(callback)`.
///
/// workers-rs has no wrapper, so the method is called through `js_sys`. An
/// `Err` from `f` becomes a JavaScript throw from the callback, which rolls
/// the transaction back. `f` must be synchronous: that is the point.
pub(crate) fn transaction_sync<T, F>(storage: &Storage, f: F) -> worker::Result<T>
where
    F: FnOnce() -> worker::Result<T>,
{
    let raw: &JsValue = storage.as_raw().as_ref();
    let tx: js_sys::Function = js_sys::Reflect::get(raw, &JsValue::from_str("transactionSync"))?
        .dyn_into()
        .map_err(|_| rust_error("storage.transactionSync is missing"))?;
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
    out.ok_or_else(|| rust_error("transactionSync did not call back"))
}
