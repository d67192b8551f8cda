//! The code's history: the admin list of every reservation, the refused
//! payment captures, and the payments a full refund made final.

use super::*;
use promocodes::wire::{
    CampaignRecord, HistoryRecord, RecordedRedemption, RefundBeforePayment, Refused, RefusedPaymentCapture,
};

/// A payment a full refund made final, as the store records and answers it
/// (a release's answer: `key`, `state`, `was`, `released_at`, `reason`,
/// `usage`, `replayed`); `usage` is [`UsageCounts`] for a refund recorded
/// before its payment, the counts in the quote's currency otherwise.
#[derive(Serialize, Deserialize)]
struct FinalRelease<U> {
    key: Option<IdempotencyKey>,
    state: ReservationState,
    was: Option<ReservationState>,
    released_at: Option<Timestamp>,
    reason: Option<String>,
    usage: U,
    replayed: bool,
}

impl SqliteRedemptionStore {
    /// The history of `code` after `after` (a `seq`), oldest first, at most
    /// `limit`: each reservation with its state at `now`, and each refused
    /// payment capture (state `refused`); and whether more follow.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn redemptions(
        &self,
        code: &Code,
        after: i64,
        limit: u32,
        now: Timestamp,
    ) -> Result<(Vec<HistoryRecord>, bool), StoreError> {
        let rows: Vec<ListRow> = self
            .sql
            .exec(
                "SELECT seq, idempotency_key, state, reservation FROM redemptions
                 WHERE code = ? AND seq > ? ORDER BY seq LIMIT ?",
                vec![code.as_str().into(), after.into(), (i64::from(limit) + 1).into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        self.listed(rows, limit, now)
    }

    /// The history of this object's campaign, as [`redemptions`](SqliteRedemptionStore::redemptions)
    /// lists a code's, each record with the `code` it came through: every
    /// record of every code of the campaign (its uses, and its refused payment
    /// captures and refunds recorded before their payment, which count under
    /// nothing).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_redemptions(
        &self,
        after: i64,
        limit: u32,
        now: Timestamp,
    ) -> Result<(Vec<CampaignRecord>, bool), StoreError> {
        self.campaign_records(
            "(campaign IS NOT NULL OR code IN (SELECT code FROM campaign_codes))",
            after,
            limit,
            now,
        )
    }

    /// [`campaign_redemptions`](SqliteRedemptionStore::campaign_redemptions) at a shard of a
    /// campaign spread over shards: every record it has is the campaign's (a refused payment's
    /// too, which names no campaign).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a read fails.
    pub fn campaign_shard_redemptions(
        &self,
        after: i64,
        limit: u32,
        now: Timestamp,
    ) -> Result<(Vec<CampaignRecord>, bool), StoreError> {
        self.campaign_records("1 = 1", after, limit, now)
    }

    /// The records that `filter` (SQL over `redemptions`, no parameter) keeps, after `after`, each with its code.
    fn campaign_records(
        &self,
        filter: &str,
        after: i64,
        limit: u32,
        now: Timestamp,
    ) -> Result<(Vec<CampaignRecord>, bool), StoreError> {
        #[derive(Deserialize)]
        struct CodeRow {
            code: String,
        }
        let rows: Vec<ListRow> = self
            .sql
            .exec(
                &format!(
                    "SELECT seq, idempotency_key, state, reservation FROM redemptions
                     WHERE {filter} AND seq > ? ORDER BY seq LIMIT ?"
                ),
                vec![after.into(), (i64::from(limit) + 1).into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        let (records, more) = self.listed(rows, limit, now)?;
        let items = records
            .into_iter()
            .map(|record| {
                let row: CodeRow = self
                    .sql
                    .exec("SELECT code FROM redemptions WHERE seq = ?", vec![record.seq().into()])
                    .and_then(|c| c.one())
                    .map_err(backend)?;
                let code = Code::parse(&row.code).map_err(backend)?;
                Ok(CampaignRecord { record, code })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((items, more))
    }

    /// The listed form of history rows: at most `limit`, and whether more follow.
    fn listed(&self, rows: Vec<ListRow>, limit: u32, now: Timestamp) -> Result<(Vec<HistoryRecord>, bool), StoreError> {
        let more = rows.len() > limit as usize;
        let items = rows
            .into_iter()
            .take(limit as usize)
            .map(|row| {
                if row.state == REFUNDED_UNPAID {
                    let released: FinalRelease<UsageCounts> =
                        serde_json::from_str(&row.reservation).map_err(backend)?;
                    return Ok(HistoryRecord::RefundBeforePayment(RefundBeforePayment {
                        seq: row.seq,
                        idempotency_key: released.key.ok_or_else(|| backend("a refund without its payment"))?,
                        state: ReservationState::Released,
                        usage: released.usage,
                        released_at: released
                            .released_at
                            .ok_or_else(|| backend("a refund without its time"))?,
                        reason: released.reason.unwrap_or_default(),
                    }));
                }
                if row.state == REFUSED {
                    return Ok(HistoryRecord::Refused(RefusedPaymentCapture {
                        seq: row.seq,
                        idempotency_key: row.idempotency_key,
                        state: Refused::Refused,
                        refusal: serde_json::from_str(&row.reservation).map_err(backend)?,
                    }));
                }
                let r: Reservation = serde_json::from_str(&row.reservation).map_err(backend)?;
                Ok(HistoryRecord::Redemption(Box::new(RecordedRedemption {
                    seq: row.seq,
                    idempotency_key: row.idempotency_key,
                    state: r.state_at(now),
                    customer: r.customer,
                    usage: r.usage.in_currency(r.quote.total().currency()),
                    quote: r.quote,
                    expires_at: r.expires_at,
                    captured_at: r.captured_at,
                    released_at: r.released_at,
                    reason: r.reason,
                    was: r.was,
                    hold_expired_at: r.hold_expired_at,
                })))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((items, more))
    }

    /// Records a payment capture refused after the money moved (a webhook's
    /// capture that a rule refused), once per key: the operator refunds or
    /// honours it. Returns false when one was recorded under `key` before.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn record_refusal(
        &self,
        code: &Code,
        key: &IdempotencyKey,
        refusal: &serde_json::Value,
    ) -> Result<bool, StoreError> {
        let json = refusal.to_string();
        self.commit(|| {
            let known = !self
                .sql
                .exec(
                    "SELECT seq FROM refusals WHERE code = ? AND key = ?",
                    vec![code.as_str().into(), key.as_str().into()],
                )?
                .to_array::<SeqRow>()?
                .is_empty();
            if known {
                return Ok(false);
            }
            let row: SeqRow = self
                .sql
                .exec(
                    "INSERT INTO redemptions(code, idempotency_key, state, reservation) VALUES (?, ?, ?, ?) RETURNING seq",
                    vec![code.as_str().into(), key.as_str().into(), REFUSED.into(), json.clone().into()],
                )?
                .one()?;
            self.sql.exec(
                "INSERT INTO refusals(code, key, seq) VALUES (?, ?, ?)",
                vec![code.as_str().into(), key.as_str().into(), row.seq.into()],
            )?;
            Ok(true)
        })
        .map_err(backend)
    }

    /// The refused payment capture recorded under `key`, if any: final for its
    /// key (a redelivery replays it).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn refusal(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<serde_json::Value>, StoreError> {
        let rows: Vec<ReservationRow> = self
            .sql
            .exec(
                "SELECT r.reservation AS reservation FROM refusals f JOIN redemptions r ON r.seq = f.seq
                 WHERE f.code = ? AND f.key = ?",
                vec![code.as_str().into(), key.as_str().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        rows.into_iter()
            .next()
            .map(|row| serde_json::from_str(&row.reservation).map_err(backend))
            .transpose()
    }

    /// What a full refund made final for the payment `payment` (a
    /// PaymentIntent's id), if one did: the release's answer (`key`, `state`,
    /// `was`, `released_at`, `reason`, `usage`), marked `replayed`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn final_payment(
        &self,
        code: &Code,
        payment: &IdempotencyKey,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        let rows: Vec<ListRow> = self
            .sql
            .exec(
                "SELECT r.seq AS seq, r.idempotency_key AS idempotency_key, r.state AS state, r.reservation AS reservation
                 FROM payment_finals f JOIN redemptions r ON r.seq = f.seq WHERE f.code = ? AND f.key = ?",
                vec![code.as_str().into(), payment.as_str().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        let Some(row) = rows.into_iter().next() else {
            return Ok(None);
        };
        let answer = if row.state == REFUNDED_UNPAID {
            let recorded: FinalRelease<UsageCounts> = serde_json::from_str(&row.reservation).map_err(backend)?;
            serde_json::to_value(FinalRelease {
                replayed: true,
                ..recorded
            })
        } else {
            let released: Reservation = serde_json::from_str(&row.reservation).map_err(backend)?;
            serde_json::to_value(FinalRelease {
                usage: released.usage.in_currency(released.quote.total().currency()),
                key: released.key,
                state: released.state,
                was: released.was,
                released_at: released.released_at,
                reason: released.reason,
                replayed: true,
            })
        };
        answer.map(Some).map_err(backend)
    }

    /// Makes the payment `payment` final: a full refund released the record
    /// under `released` (the payment's own key, or its second key when a
    /// retry paid after a failed attempt). Marking it again changes nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn mark_final(
        &self,
        code: &Code,
        payment: &IdempotencyKey,
        released: &IdempotencyKey,
    ) -> Result<(), StoreError> {
        self.sql
            .exec(
                "INSERT OR IGNORE INTO payment_finals(code, key, seq)
                 SELECT ?1, ?2, seq FROM idempotency_keys WHERE code = ?1 AND key = ?3",
                vec![code.as_str().into(), payment.as_str().into(), released.as_str().into()],
            )
            .map_err(backend)?;
        Ok(())
    }

    /// Records a full refund of the payment `payment` when nothing is held or
    /// captured under its key yet, and makes the payment final, in one
    /// transaction: a `payment_intent.succeeded` that Stripe delivers after it
    /// must capture nothing. Returns the release's answer; the earlier one,
    /// marked `replayed`, when the payment is already final; `None` when the
    /// key names a reservation after all (release that instead). The counts
    /// recorded with it are this object's, passed through `across` (the
    /// coordinator of a sharded code adds its shards' counts there).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails; then nothing is recorded.
    pub fn record_unpaid_refund(
        &self,
        code: &Code,
        payment: &IdempotencyKey,
        reason: &str,
        now: Timestamp,
        across: impl FnOnce(UsageCounts) -> UsageCounts,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        // A campaign's code: the campaign's counts, with the code's own uses.
        let campaign = self.campaign_of(code).map_err(backend)?;
        let through = campaign.as_ref().map(|_| code);
        let counter = counter_of(code, campaign.as_ref());
        self.load(&counter, through, None).map_err(backend)?;
        let recorded = self
            .transaction(|| {
                if self.keyed(code, payment)?.is_some() {
                    return Ok(None);
                }
                let answer = serde_json::to_value(FinalRelease {
                    key: Some(payment.clone()),
                    state: ReservationState::Released,
                    was: None,
                    released_at: Some(now),
                    reason: Some(reason.to_owned()),
                    usage: across(self.usage(&counter, through, None, now)?),
                    replayed: false,
                })
                .map_err(rust_error)?;
                let known = self
                    .sql
                    .exec(
                        "SELECT seq FROM payment_finals WHERE code = ? AND key = ?",
                        vec![code.as_str().into(), payment.as_str().into()],
                    )?
                    .to_array::<SeqRow>()?;
                if !known.is_empty() {
                    return Ok(Some(None));
                }
                // The key column stays empty: nothing is reserved under the key, so it is not indexed.
                let row: SeqRow = self
                    .sql
                    .exec(
                        "INSERT INTO redemptions(code, idempotency_key, state, reservation) VALUES (?, NULL, ?, ?)
                         RETURNING seq",
                        vec![code.as_str().into(), REFUNDED_UNPAID.into(), answer.to_string().into()],
                    )?
                    .one()?;
                self.sql.exec(
                    "INSERT INTO payment_finals(code, key, seq) VALUES (?, ?, ?)",
                    vec![code.as_str().into(), payment.as_str().into(), row.seq.into()],
                )?;
                Ok(Some(Some(answer)))
            })
            .map_err(backend)?;
        match recorded {
            None => Ok(None),
            Some(Some(answer)) => Ok(Some(answer)),
            Some(None) => self.final_payment(code, payment),
        }
    }

    /// The campaign `code` belongs to in this object, if it is a campaign's code.
    fn campaign_of(&self, code: &Code) -> worker::Result<Option<Code>> {
        #[derive(Deserialize)]
        struct IdRow {
            id: String,
        }
        let rows: Vec<IdRow> = self
            .sql
            .exec(
                "SELECT c.id AS id FROM campaign c JOIN campaign_codes k ON k.code = ? LIMIT 1",
                vec![code.as_str().into()],
            )?
            .to_array()?;
        rows.into_iter()
            .next()
            .map(|row| Code::parse(&row.id).map_err(rust_error))
            .transpose()
    }
}
