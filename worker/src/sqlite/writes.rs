//! The store's row writes: holds, captured counts and the history, each
//! change also queued for the mirror.

use super::*;

impl SqliteRedemptionStore {
    pub(super) fn insert_hold(&self, counter: &str, seq: i64, expires: String, hold: HeldUse) -> worker::Result<()> {
        self.sql.exec(
            "INSERT INTO holds(seq, code, customer, expires, discount, through) VALUES (?, ?, ?, ?, ?, ?)",
            vec![
                seq.into(),
                counter.into(),
                hold.customer.clone().into(),
                expires.clone().into(),
                hold.discount.to_string().into(),
                hold.through.clone().into(),
            ],
        )?;
        self.pending.borrow_mut().push(Delta::HoldAdded {
            code: counter.to_owned(),
            seq,
            expires,
            hold,
        });
        Ok(())
    }

    pub(super) fn delete_hold(&self, counter: &str, seq: i64) -> worker::Result<()> {
        self.sql.exec("DELETE FROM holds WHERE seq = ?", vec![seq.into()])?;
        self.pending.borrow_mut().push(Delta::HoldRemoved {
            code: counter.to_owned(),
            seq,
        });
        Ok(())
    }

    /// Adds `delta` to the captured counts under `counter` (and of
    /// `customer`, and of the campaign's code `through`), and `discount`
    /// (negative to take away) to their discount sum.
    pub(super) fn add_captured(
        &self,
        counter: &str,
        through: Option<&Code>,
        customer: Option<&CustomerId>,
        delta: i64,
        discount: Decimal,
    ) -> worker::Result<()> {
        let sum = (self.captured_discount(counter) + discount).max(Decimal::ZERO);
        self.sql.exec(
            "INSERT INTO usage_total(code, n, discounted) VALUES (?1, max(?2, 0), ?3)
             ON CONFLICT(code) DO UPDATE SET n = max(n + ?2, 0), discounted = ?3",
            vec![counter.into(), delta.into(), sum.to_string().into()],
        )?;
        if let Some(customer) = customer {
            self.sql.exec(
                "INSERT INTO usage_customer(code, customer, n) VALUES (?1, ?2, max(?3, 0))
                 ON CONFLICT(code, customer) DO UPDATE SET n = max(n + ?3, 0)",
                vec![counter.into(), customer.as_str().into(), delta.into()],
            )?;
        }
        if let Some(code) = through {
            self.sql.exec(
                "INSERT INTO usage_code(code, n) VALUES (?1, max(?2, 0))
                 ON CONFLICT(code) DO UPDATE SET n = max(n + ?2, 0)",
                vec![code.as_str().into(), delta.into()],
            )?;
        }
        self.pending.borrow_mut().push(Delta::Captured {
            code: counter.to_owned(),
            through: through.map(|c| c.as_str().to_owned()),
            customer: customer.map(|c| c.as_str().to_owned()),
            delta,
            discount,
        });
        Ok(())
    }

    /// Rewrites the reservation at `seq` (its state column and its JSON).
    pub(super) fn update(&self, seq: i64, reservation: &Reservation) -> worker::Result<()> {
        let json = serde_json::to_string(reservation).map_err(rust_error)?;
        self.sql.exec(
            "UPDATE redemptions SET state = ?, reservation = ? WHERE seq = ?",
            vec![reservation.state.as_str().into(), json.into(), seq.into()],
        )?;
        Ok(())
    }

    /// Appends a reservation of `code` (of `campaign`, if any) to the history
    /// (its key is indexed by [`KEY_TRIGGER`]); returns its sequence number
    /// when `want_seq`.
    pub(super) fn insert(
        &self,
        code: &Code,
        campaign: Option<&Code>,
        reservation: &Reservation,
        want_seq: bool,
    ) -> worker::Result<Option<i64>> {
        let json = serde_json::to_string(reservation).map_err(rust_error)?;
        let key = reservation.key.as_ref().map(|k| k.as_str().to_owned());
        let bindings = vec![
            code.as_str().into(),
            key.into(),
            reservation.state.as_str().into(),
            json.into(),
            campaign.map(|c| c.as_str().to_owned()).into(),
        ];
        if !want_seq {
            self.sql.exec(
                "INSERT INTO redemptions(code, idempotency_key, state, reservation, campaign) VALUES (?, ?, ?, ?, ?)",
                bindings,
            )?;
            return Ok(None);
        }
        let row: SeqRow = self
            .sql
            .exec(
                "INSERT INTO redemptions(code, idempotency_key, state, reservation, campaign) VALUES (?, ?, ?, ?, ?)
                 RETURNING seq",
                bindings,
            )?
            .one()?;
        Ok(Some(row.seq))
    }
}
