//! The transactional outbox: the events a write causes
//! ([`promocodes::events::events_of`]), written in the write's own
//! transaction, and what became of each event's delivery to each endpoint.
//!
//! - `outbox`: one row per event, in order (`seq`): the counter it came
//!   under (the code, or `campaign:<id>`), its type, its time and its JSON
//!   body. Its `webhook-id` is [`event_id`] of the counter and `seq`: the
//!   same on every try.
//! - `deliveries`: per endpoint and event, the tries so far, the last
//!   status or error, when the next try is due, and its state (`pending`,
//!   `delivered`, `failed`).
//! - `delivery_cursor`: per endpoint, the last event delivered or given up:
//!   an endpoint gets an event only after every earlier one (in order).

use std::rc::Rc;

use promocodes::events::{events_of, updated_event, DefinitionChange, UseWrite, WriteFacts};
use promocodes::Campaign;

use super::*;

/// The outbox's tables (created with the schema, and by the migration of an older object).
pub(super) const OUTBOX_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS outbox(seq INTEGER PRIMARY KEY AUTOINCREMENT, counter TEXT NOT NULL,
  type TEXT NOT NULL, at TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deliveries(endpoint TEXT NOT NULL, seq INTEGER NOT NULL, attempts INTEGER NOT NULL,
  state TEXT NOT NULL, next_at INTEGER, status INTEGER, error TEXT, tried_at TEXT,
  PRIMARY KEY(endpoint, seq));
CREATE TABLE IF NOT EXISTS delivery_cursor(endpoint TEXT PRIMARY KEY, seq INTEGER NOT NULL);
";

/// How long after a write the alarm that delivers its events is set for,
/// in milliseconds: the writes of that moment are delivered by one wake of
/// the object (one read of the endpoints, one write to each endpoint's log)
/// rather than one wake each.
pub const DELIVER_AFTER_MS: i64 = 100;

/// An event's `webhook-id`: `evt_<counter>_<seq>` (a campaign's counter
/// `campaign:<id>` written `campaign.<id>`; a shard's events' counter, its
/// object name `<code>#<i>`, written `<code>_s<i>`: every event of a code
/// starts `evt_<code>_`, and a code is upper case), unique across every object
/// (codes are unique) and the same on every try.
pub fn event_id(counter: &str, seq: i64) -> String {
    format!("evt_{}_{seq}", counter.replace(':', ".").replace('#', "_s"))
}

/// What the object decides events on: a code's definition, or the campaign it keeps.
#[derive(Debug)]
pub(super) enum Subject {
    Code(Rc<PromoCode>),
    Campaign(Rc<Campaign>),
}

/// A shard's subject: the code's definition as its allotment has it, and the
/// shard's object name (`<code>#<i>`), which its events are written under.
struct ShardSubject {
    promo: PromoCode,
    object: String,
}

/// One event of the outbox.
#[derive(Debug, Clone, Deserialize)]
pub struct OutboxEvent {
    /// Its position, in the object's order.
    pub seq: i64,
    /// The counter it came under.
    pub counter: String,
    /// Its type (`redemption.captured`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// When its write committed (RFC 3339).
    pub at: String,
    /// Its JSON body, as sent.
    pub body: String,
}

impl OutboxEvent {
    /// Its `webhook-id`.
    pub fn id(&self) -> String {
        event_id(&self.counter, self.seq)
    }
}

/// One endpoint's record of one event's delivery.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DeliveryRow {
    /// The event's position.
    pub seq: i64,
    /// Tries so far.
    pub attempts: i64,
    /// `pending`, `delivered` or `failed`.
    pub state: String,
    /// When the next try is due (Unix milliseconds), while pending.
    pub next_at: Option<i64>,
    /// The last answer's status, if one came.
    pub status: Option<i64>,
    /// The last try's error, if it failed.
    pub error: Option<String>,
    /// When it was last tried (RFC 3339).
    pub tried_at: Option<String>,
}

#[derive(Deserialize)]
struct CursorRow {
    seq: i64,
}

impl SqliteRedemptionStore {
    /// A shard's subject (see [`ShardSubject`]), if this object is a shard of `code`.
    fn shard_subject(&self, code: &Code) -> worker::Result<Option<ShardSubject>> {
        let found = crate::shards::tables::shard_self(&self.sql)
            .map_err(|p| worker::Error::RustError(format!("{:?}", p.body())))?;
        let Some((shard, row)) = found.filter(|(_, row)| row.code == code.as_str()) else {
            return Ok(None);
        };
        let promo = PromoCode::from_written_json(&row.definition).map_err(rust_error)?;
        Ok(Some(ShardSubject {
            promo,
            object: crate::shards::shard_name(code, shard),
        }))
    }

    /// The definition `code`'s events are decided on, and the object name
    /// they are written under when it is not the write's counter (a shard's).
    fn subject_and_object(&self, code: &Code) -> worker::Result<Option<(Rc<PromoCode>, Option<String>)>> {
        if let Some(found) = self.subject_cached(code)? {
            return Ok(Some((found, None)));
        }
        // A shard of a sharded code has no definition of its own: its allotment's, read on each write.
        Ok(self
            .shard_subject(code)?
            .map(|shard| (Rc::new(shard.promo), Some(shard.object))))
    }

    /// The definition (or campaign) `code`'s events are decided on, read once.
    fn subject_cached(&self, code: &Code) -> worker::Result<Option<Rc<PromoCode>>> {
        if self.subject.borrow().is_none() {
            let subject = match self.campaign().map_err(rust_error)? {
                Some(stored) => Some(Subject::Campaign(Rc::new(stored.campaign))),
                None => self
                    .definition(code)
                    .map_err(rust_error)?
                    .map(|stored| Subject::Code(Rc::new(stored.promo))),
            };
            *self.subject.borrow_mut() = subject;
        }
        Ok(match &*self.subject.borrow() {
            Some(Subject::Code(promo)) if promo.code() == code => Some(promo.clone()),
            Some(Subject::Campaign(campaign)) => Some(Rc::new(campaign.code(code.clone()))),
            _ => None,
        })
    }

    /// Forgets the definition events are decided on (a definition was written).
    pub(super) fn forget_subject(&self) {
        self.subject.borrow_mut().take();
    }

    /// Writes the events of a committed-to-be use write into the outbox,
    /// inside the write's transaction: they commit, or roll back, with it.
    pub(super) fn write_events(
        &self,
        write: UseWrite,
        code: &Code,
        counter: &str,
        reservation: &Reservation,
        before: UsageCounts,
        now: Timestamp,
    ) -> worker::Result<()> {
        // The object always defines the code it writes for (the ledger reads the definition first);
        // only the store's conformance suite writes codes no definition names: they have no events.
        let Some((definition, object)) = self.subject_and_object(code)? else {
            return Ok(());
        };
        let counter = object.as_deref().unwrap_or(counter);
        let facts = WriteFacts {
            write,
            definition: &definition,
            reservation,
            before,
            now,
        };
        for event in events_of(&facts) {
            // A shard counts only its own uses: the code's own events (`code.exhausted`,
            // `budget.threshold`, `campaign.exhausted`) are the code's totals', which no shard knows,
            // and its coordinator writes them from its shards' totals, its own uses included; the
            // uses' events each object writes.
            let sharded = object.is_some() || definition.shards() > 1;
            if sharded && !event.kind.as_str().starts_with("redemption.") {
                continue;
            }
            let body = event.to_body().map_err(rust_error)?;
            self.sql.exec(
                "INSERT INTO outbox(counter, type, at, body) VALUES (?, ?, ?, ?)",
                vec![
                    counter.into(),
                    event.kind.as_str().into(),
                    now.to_string().into(),
                    body.into(),
                ],
            )?;
            self.wrote_events.set(true);
        }
        Ok(())
    }

    /// Writes a sharded code's own events (`budget.threshold`,
    /// `code.exhausted`: [`promocodes::events::code_events`]; a sharded
    /// campaign's, [`promocodes::events::campaign_events`]) into the outbox
    /// under `counter` (the code, or `campaign:<id>`), and runs `also` (the
    /// totals they were decided on, noted), in one transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a write fails: nothing is written.
    pub fn write_code_events(
        &self,
        counter: &str,
        events: &[promocodes::wire::EventPayload],
        also: impl FnOnce() -> worker::Result<()>,
    ) -> Result<(), StoreError> {
        self.commit(|| {
            for event in events {
                self.sql.exec(
                    "INSERT INTO outbox(counter, type, at, body) VALUES (?, ?, ?, ?)",
                    vec![
                        counter.into(),
                        event.kind.as_str().into(),
                        event.timestamp.to_string().into(),
                        event.to_body().map_err(rust_error)?.into(),
                    ],
                )?;
                self.wrote_events.set(true);
            }
            also()
        })
        .map_err(backend)
    }

    /// Writes the `code.updated` (or `campaign.updated`) event of a
    /// definition write from `before` to `after` (each `(active, archived)`),
    /// inside the write's transaction.
    pub(super) fn write_update(
        &self,
        code: &Code,
        campaign: bool,
        before: Option<(bool, bool)>,
        after: (bool, bool),
        now: Timestamp,
    ) -> worker::Result<()> {
        let Some(change) = DefinitionChange::between(before, after) else {
            return Ok(());
        };
        let event = updated_event(code, campaign, change, now);
        let counter = if campaign {
            counter_of(code, Some(code))
        } else {
            code.as_str().to_owned()
        };
        self.sql.exec(
            "INSERT INTO outbox(counter, type, at, body) VALUES (?, ?, ?, ?)",
            vec![
                counter.into(),
                event.kind.as_str().into(),
                now.to_string().into(),
                event.to_body().map_err(rust_error)?.into(),
            ],
        )?;
        self.wrote_events.set(true);
        Ok(())
    }

    /// The first event after `after` of the outbox, if any.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn event_after(&self, after: i64) -> worker::Result<Option<OutboxEvent>> {
        let rows: Vec<OutboxEvent> = self
            .sql
            .exec(
                "SELECT seq, counter, type, at, body FROM outbox WHERE seq > ? ORDER BY seq LIMIT 1",
                vec![after.into()],
            )?
            .to_array()?;
        Ok(rows.into_iter().next())
    }

    /// The event at `seq`, if any.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn event_at(&self, seq: i64) -> worker::Result<Option<OutboxEvent>> {
        let rows: Vec<OutboxEvent> = self
            .sql
            .exec(
                "SELECT seq, counter, type, at, body FROM outbox WHERE seq = ?",
                vec![seq.into()],
            )?
            .to_array()?;
        Ok(rows.into_iter().next())
    }

    /// The last event `endpoint` was given (delivered or given up), 0 before any.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn delivery_cursor(&self, endpoint: &str) -> worker::Result<i64> {
        let rows: Vec<CursorRow> = self
            .sql
            .exec(
                "SELECT seq FROM delivery_cursor WHERE endpoint = ?",
                vec![endpoint.into()],
            )?
            .to_array()?;
        Ok(rows.first().map_or(0, |row| row.seq))
    }

    /// `endpoint`'s record of the event at `seq`, if it was tried.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn delivery(&self, endpoint: &str, seq: i64) -> worker::Result<Option<DeliveryRow>> {
        let rows: Vec<DeliveryRow> = self
            .sql
            .exec(
                "SELECT seq, attempts, state, next_at, status, error, tried_at FROM deliveries
                 WHERE endpoint = ? AND seq = ?",
                vec![endpoint.into(), seq.into()],
            )?
            .to_array()?;
        Ok(rows.into_iter().next())
    }

    /// Records a try of the event at `seq` for `endpoint`: its record, and
    /// the cursor moved past it once it is delivered or given up, in one
    /// transaction.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn record_delivery(&self, endpoint: &str, row: &DeliveryRow) -> worker::Result<()> {
        transaction_sync(&self.storage, || {
            self.sql.exec(
                "INSERT INTO deliveries(endpoint, seq, attempts, state, next_at, status, error, tried_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(endpoint, seq) DO UPDATE SET attempts = ?3, state = ?4, next_at = ?5, status = ?6,
                   error = ?7, tried_at = ?8",
                vec![
                    endpoint.into(),
                    row.seq.into(),
                    row.attempts.into(),
                    row.state.clone().into(),
                    row.next_at.into(),
                    row.status.into(),
                    row.error.clone().into(),
                    row.tried_at.clone().into(),
                ],
            )?;
            if row.state != "pending" {
                self.move_cursor(endpoint, row.seq)?;
            }
            Ok(())
        })
    }

    /// Moves `endpoint`'s cursor to `seq` (never back).
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn move_cursor(&self, endpoint: &str, seq: i64) -> worker::Result<()> {
        self.sql.exec(
            "INSERT INTO delivery_cursor(endpoint, seq) VALUES (?1, ?2)
             ON CONFLICT(endpoint) DO UPDATE SET seq = max(seq, ?2)",
            vec![endpoint.into(), seq.into()],
        )?;
        Ok(())
    }

    /// The last event of the outbox (0 when it is empty).
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn last_event(&self) -> worker::Result<i64> {
        let rows: Vec<CursorRow> = self
            .sql
            .exec("SELECT coalesce(max(seq), 0) AS seq FROM outbox", None)?
            .to_array()?;
        Ok(rows.first().map_or(0, |row| row.seq))
    }

    /// `endpoint`'s deliveries after `after`, oldest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn deliveries_page(&self, endpoint: &str, after: i64, limit: u32) -> worker::Result<Vec<DeliveryRow>> {
        self.sql
            .exec(
                "SELECT seq, attempts, state, next_at, status, error, tried_at FROM deliveries
                 WHERE endpoint = ? AND seq > ? ORDER BY seq LIMIT ?",
                vec![endpoint.into(), after.into(), i64::from(limit).into()],
            )?
            .to_array()
    }

    /// Removes the events written before `before` up to `through` (every
    /// endpoint got them, delivered or given up), at most `limit` of the
    /// oldest, with their delivery records, in one transaction; returns how
    /// many went.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn prune_outbox(&self, through: i64, before: Timestamp, limit: u32) -> worker::Result<u64> {
        #[derive(Deserialize)]
        struct AtRow {
            seq: i64,
            at: String,
        }
        let oldest: Vec<AtRow> = self
            .sql
            .exec(
                "SELECT seq, at FROM outbox WHERE seq <= ? ORDER BY seq LIMIT ?",
                vec![through.into(), i64::from(limit).into()],
            )?
            .to_array()?;
        // The outbox is in commit order: the old events are a prefix of it.
        let old = oldest
            .iter()
            .take_while(|row| row.at.parse::<Timestamp>().is_ok_and(|at| at < before))
            .count();
        let Some(last) = old.checked_sub(1).map(|i| oldest[i].seq) else {
            return Ok(0);
        };
        self.commit(|| {
            self.sql.exec("DELETE FROM outbox WHERE seq <= ?", vec![last.into()])?;
            self.sql
                .exec("DELETE FROM deliveries WHERE seq <= ?", vec![last.into()])?;
            Ok(())
        })?;
        Ok(old as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::event_id;

    #[test]
    fn event_ids_name_their_object_and_never_collide() {
        assert_eq!(event_id("SAVE10", 7), "evt_SAVE10_7");
        assert_eq!(event_id("campaign:SPRING", 3), "evt_campaign.SPRING_3");
        // A shard's events: still `evt_<code>_`, and no upper-case code spells `_s`.
        assert_eq!(event_id("SAVE10#2", 5), "evt_SAVE10_s2_5");
        assert_ne!(event_id("SAVE10#2", 5), event_id("SAVE10_S2", 5));
    }
}
