//! The store's reads: counts loaded into the mirror once, then read from it
//! with the transaction's changes so far; reservations by key.

use super::*;

impl SqliteRedemptionStore {
    /// Reads the counts under `counter` (and `customer`'s, and, for a
    /// campaign's code, the uses `through` it) into the mirror, if they are
    /// not there yet. Called before a transaction writes anything for it.
    pub(super) fn load(
        &self,
        counter: &str,
        through: Option<&Code>,
        customer: Option<&CustomerId>,
    ) -> worker::Result<()> {
        if !self.mirror.borrow().contains_key(counter) {
            let captured: Vec<TotalRow> = self
                .sql
                .exec(
                    "SELECT n, discounted FROM usage_total WHERE code = ?",
                    vec![counter.into()],
                )?
                .to_array()?;
            let holds: Vec<HoldRow> = self
                .sql
                .exec(
                    "SELECT seq, customer, expires, discount, through FROM holds WHERE code = ?",
                    vec![counter.into()],
                )?
                .to_array()?;
            let mut loaded = CodeMirror {
                captured: captured.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0)),
                captured_discount: match captured.first() {
                    Some(row) => decimal(&row.discounted)?,
                    None => Decimal::ZERO,
                },
                ..CodeMirror::default()
            };
            for hold in holds {
                loaded.expiry.insert(hold.seq, hold.expires.clone());
                let held = HeldUse {
                    customer: hold.customer,
                    discount: decimal(&hold.discount)?,
                    through: hold.through,
                };
                loaded.holds.insert((hold.expires, hold.seq), held);
            }
            self.mirror.borrow_mut().insert(counter.to_owned(), loaded);
        }
        if let Some(customer) = customer {
            let known = self
                .mirror
                .borrow()
                .get(counter)
                .is_some_and(|m| m.captured_by.contains_key(customer.as_str()));
            if !known {
                let rows: Vec<CountRow> = self
                    .sql
                    .exec(
                        "SELECT n FROM usage_customer WHERE code = ? AND customer = ?",
                        vec![counter.into(), customer.as_str().into()],
                    )?
                    .to_array()?;
                let n = rows.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0));
                if let Some(m) = self.mirror.borrow_mut().get_mut(counter) {
                    m.captured_by.insert(customer.as_str().to_owned(), n);
                }
            }
        }
        if let Some(code) = through {
            let known = self
                .mirror
                .borrow()
                .get(counter)
                .is_some_and(|m| m.captured_code.contains_key(code.as_str()));
            if !known {
                let rows: Vec<CountRow> = self
                    .sql
                    .exec("SELECT n FROM usage_code WHERE code = ?", vec![code.as_str().into()])?
                    .to_array()?;
                let n = rows.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0));
                if let Some(m) = self.mirror.borrow_mut().get_mut(counter) {
                    m.captured_code.insert(code.as_str().to_owned(), n);
                }
            }
        }
        Ok(())
    }

    /// The counts under `counter` at `now`, from the mirror and the
    /// transaction's changes so far: captured plus holds with `expires >
    /// now`; read through a campaign (`through`), with that code's own uses.
    pub(super) fn usage(
        &self,
        counter: &str,
        through: Option<&Code>,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> worker::Result<UsageCounts> {
        let mirror = self.mirror.borrow();
        let m = mirror
            .get(counter)
            .ok_or_else(|| rust_error(format!("the counts of {counter} were not read")))?;
        let at = now.sortable();
        let who = customer.map(CustomerId::as_str);
        let is_who = |c: &Option<String>| who.is_some() && c.as_deref() == who;
        let via = through.map(Code::as_str);
        let is_via = |c: &Option<String>| via.is_some() && c.as_deref() == via;
        let mut total = i64::try_from(m.captured).map_err(rust_error)?;
        let mut discounted = m.captured_discount;
        // `load` reads the customer's and the code's counts just before: an entry the bounded
        // mirror no longer holds is an error, never a count of zero.
        let not_read = |what: &str| rust_error(format!("the counts of {what} under {counter} were not read"));
        let mine = match who {
            Some(c) => m.captured_by.get(c).ok_or_else(|| not_read(c))?,
            None => &0,
        };
        let mut mine = i64::try_from(*mine).unwrap_or(i64::MAX);
        let own = match via {
            Some(c) => m.captured_code.get(c).ok_or_else(|| not_read(c))?,
            None => &0,
        };
        let mut own = i64::try_from(*own).unwrap_or(i64::MAX);
        for (_, hold) in m
            .holds
            .range((Bound::Excluded((at.clone(), i64::MAX)), Bound::Unbounded))
        {
            total += 1;
            discounted += hold.discount;
            mine += i64::from(is_who(&hold.customer));
            own += i64::from(is_via(&hold.through));
        }
        for change in self.pending.borrow().iter() {
            match change {
                Delta::Captured {
                    code: c,
                    through: code,
                    customer: holder,
                    delta,
                    discount,
                } if c == counter => {
                    total += delta;
                    discounted += *discount;
                    if is_who(holder) {
                        mine += delta;
                    }
                    if is_via(code) {
                        own += delta;
                    }
                }
                Delta::HoldAdded {
                    code: c, expires, hold, ..
                } if c == counter && *expires > at => {
                    total += 1;
                    discounted += hold.discount;
                    mine += i64::from(is_who(&hold.customer));
                    own += i64::from(is_via(&hold.through));
                }
                Delta::HoldRemoved { code: c, seq } if c == counter => {
                    if let Some(expires) = m.expiry.get(seq).filter(|e| **e > at) {
                        total -= 1;
                        let hold = m.holds.get(&(expires.clone(), *seq)).cloned().unwrap_or_default();
                        discounted -= hold.discount;
                        mine -= i64::from(is_who(&hold.customer));
                        own -= i64::from(is_via(&hold.through));
                    }
                }
                _ => {}
            }
        }
        let total = u64::try_from(total).map_err(rust_error)?;
        let mine = if who.is_some() {
            u64::try_from(mine).map_err(rust_error)?
        } else {
            0
        };
        let usage =
            UsageCounts::new(total, mine).and_then(|usage| usage.with_discounted(discounted.max(Decimal::ZERO)));
        match through {
            None => usage,
            Some(_) => usage.and_then(|usage| usage.with_code_uses(u64::try_from(own).unwrap_or(0))),
        }
        .map_err(rust_error)
    }

    /// The captured uses' discount sum under `counter`, with this transaction's changes so far.
    pub(super) fn captured_discount(&self, counter: &str) -> Decimal {
        let committed = self
            .mirror
            .borrow()
            .get(counter)
            .map_or(Decimal::ZERO, |m| m.captured_discount);
        self.pending
            .borrow()
            .iter()
            .fold(committed, |sum, change| match change {
                Delta::Captured { code: c, discount, .. } if c == counter => sum + *discount,
                _ => sum,
            })
    }

    /// The reservation under `key`, with its sequence number and the counter
    /// it counts under: the key's index first (a new key, the common case,
    /// stops there), then its reservation.
    pub(super) fn keyed_under(
        &self,
        code: &Code,
        key: &IdempotencyKey,
    ) -> worker::Result<Option<(i64, Reservation, String)>> {
        let seqs: Vec<SeqRow> = self
            .sql
            .exec(
                "SELECT seq FROM idempotency_keys WHERE code = ? AND key = ?",
                vec![code.as_str().into(), key.as_str().into()],
            )?
            .to_array()?;
        let Some(seq) = seqs.first().map(|row| row.seq) else {
            return Ok(None);
        };
        let rows: Vec<ReservationRow> = self
            .sql
            .exec(
                "SELECT reservation, campaign FROM redemptions WHERE seq = ?",
                vec![seq.into()],
            )?
            .to_array()?;
        rows.into_iter()
            .next()
            .map(|row| {
                let reservation = serde_json::from_str(&row.reservation).map_err(rust_error)?;
                let campaign = row
                    .campaign
                    .map(|id| Code::parse(&id))
                    .transpose()
                    .map_err(rust_error)?;
                Ok((seq, reservation, counter_of(code, campaign.as_ref())))
            })
            .transpose()
    }

    /// The reservation under `key`, with its sequence number.
    pub(super) fn keyed(&self, code: &Code, key: &IdempotencyKey) -> worker::Result<Option<(i64, Reservation)>> {
        Ok(self
            .keyed_under(code, key)?
            .map(|(seq, reservation, _)| (seq, reservation)))
    }
}

impl SqliteRedemptionStore {
    /// The counts under `counter` (a campaign's: [`counter_of`]) at `now`, and how many of them are holds.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_usage(&self, counter: &str, now: Timestamp) -> Result<(UsageCounts, u64), StoreError> {
        let usage = self.usage_under(counter, now)?;
        let (held, _) = self.holds_now(counter, now)?;
        Ok((usage, held))
    }

    /// The counts under `counter` (a code's, or a campaign's `campaign:<id>`) at `now`: all
    /// uses, holds that still count included, and their discounts.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a read fails.
    pub fn usage_under(&self, counter: &str, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.load(counter, None, None).map_err(backend)?;
        self.usage(counter, None, None, now).map_err(backend)
    }

    /// The active holds under `counter` (a code's, or a campaign's: [`counter_of`]) at `now`: how
    /// many, and the sum of their discounts.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn holds_now(&self, counter: &str, now: Timestamp) -> Result<(u64, Decimal), StoreError> {
        self.load(counter, None, None).map_err(backend)?;
        let at = now.sortable();
        Ok(self.mirror.borrow().get(counter).map_or((0, Decimal::ZERO), |m| {
            m.holds
                .range((Bound::Excluded((at, i64::MAX)), Bound::Unbounded))
                .fold((0, Decimal::ZERO), |(n, sum), (_, hold)| (n + 1, sum + hold.discount))
        }))
    }
}
