//! Holds past their expiry: marked `expired` by the object's alarm (counts
//! never wait for it), and the next expiry the alarm is set for.

use super::*;

#[derive(Deserialize)]
struct DueRow {
    seq: i64,
    reservation: String,
    code: String,
}

impl SqliteRedemptionStore {
    /// Marks the holds expired at `now` as `expired` (the alarm's work; counts
    /// never wait for it) and returns how many, and the earliest expiry still
    /// ahead, if any.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn expire_holds(&self, code: &Code, now: Timestamp) -> Result<(u64, Option<Timestamp>), StoreError> {
        let counter = self.counter_for(code).map_err(backend)?;
        self.expire_holds_under(&counter, now)
    }

    /// [`expire_holds`](SqliteRedemptionStore::expire_holds) for the holds
    /// counted under `counter` (a code, or a campaign's [`counter_of`]).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn expire_holds_under(&self, counter: &str, now: Timestamp) -> Result<(u64, Option<Timestamp>), StoreError> {
        let at = now.sortable();
        self.load(counter, None, None).map_err(backend)?;
        self.transaction(|| {
            let due: Vec<DueRow> = self
                .sql
                .exec(
                    "SELECT r.seq AS seq, r.reservation AS reservation, r.code AS code FROM holds h
                     JOIN redemptions r ON r.seq = h.seq WHERE h.code = ? AND h.expires <= ?",
                    vec![counter.into(), at.clone().into()],
                )?
                .to_array()?;
            for row in &due {
                let held: Reservation = serde_json::from_str(&row.reservation).map_err(rust_error)?;
                let expired = Reservation {
                    state: ReservationState::Expired,
                    ..held
                };
                self.update(row.seq, &expired)?;
                self.delete_hold(counter, row.seq)?;
                // It stopped counting at its expiry: the counts are the same before and after.
                let code = Code::parse(&row.code).map_err(rust_error)?;
                let through = (counter != code.as_str()).then_some(&code);
                self.load(counter, through, None)?;
                let usage = self.usage(counter, through, None, now)?;
                let noted = Reservation { usage, ..expired };
                self.write_events(UseWrite::Expired, &code, counter, &noted, usage, now)?;
            }
            Ok((due.len() as u64, self.next_expiry_under(counter)?))
        })
        .map_err(backend)
    }

    /// The earliest expiry among the holds still held, if any.
    ///
    /// # Errors
    ///
    /// A runtime error when the read fails.
    pub fn next_expiry(&self, code: &Code) -> worker::Result<Option<Timestamp>> {
        self.next_expiry_under(&self.counter_for(code)?)
    }

    /// The earliest expiry among the holds counted under `counter`, if any.
    ///
    /// # Errors
    ///
    /// A runtime error when the read fails.
    pub fn next_expiry_under(&self, counter: &str) -> worker::Result<Option<Timestamp>> {
        let row: ExpiresRow = self
            .sql
            .exec(
                "SELECT min(expires) AS expires FROM holds WHERE code = ?",
                vec![counter.into()],
            )?
            .one()?;
        Self::expires(row)
    }

    /// What `code`'s uses count under: the code, or its campaign's [`counter_of`].
    ///
    /// # Errors
    ///
    /// A runtime error when the read fails.
    pub fn counter_for(&self, code: &Code) -> worker::Result<String> {
        if let Some(counter) = self.shard_counter()? {
            return Ok(counter);
        }
        if self.has_campaign_code(code).map_err(rust_error)? {
            if let Some(stored) = self.campaign().map_err(rust_error)? {
                return Ok(counter_of(code, Some(stored.campaign.id())));
            }
        }
        Ok(code.as_str().to_owned())
    }

    /// For a shard of a campaign spread over shards, the campaign's counter
    /// (`campaign:<id>`): every code's uses there count under it. Read once.
    fn shard_counter(&self) -> worker::Result<Option<String>> {
        if let Some(known) = &*self.shard_counter.borrow() {
            return Ok(known.clone());
        }
        let base = crate::shards::codes::base(&self.sql).map_err(|p| rust_error(p.body().detail))?;
        let counter = base.filter(|base| base.starts_with("campaign:"));
        *self.shard_counter.borrow_mut() = Some(counter.clone());
        Ok(counter)
    }

    /// The earliest expiry after `at` of `code`'s holds: when its counts at
    /// `at` next change without a write (the hold stops counting then).
    ///
    /// # Errors
    ///
    /// A storage error.
    pub fn next_expiry_after(&self, code: &Code, at: Timestamp) -> worker::Result<Option<Timestamp>> {
        let row: ExpiresRow = self
            .sql
            .exec(
                "SELECT min(expires) AS expires FROM holds WHERE code = ? AND expires > ?",
                vec![self.counter_for(code)?.into(), at.sortable().into()],
            )?
            .one()?;
        Self::expires(row)
    }

    fn expires(row: ExpiresRow) -> worker::Result<Option<Timestamp>> {
        row.expires
            .map(|text| {
                let nanos: i128 = text.parse().map_err(rust_error)?;
                Timestamp::from_unix_nanos(nanos + Timestamp::MIN.as_unix_nanos()).map_err(rust_error)
            })
            .transpose()
    }
}
