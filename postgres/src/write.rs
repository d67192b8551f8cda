//! The three writes of a code: a new use ([`RECORD`]), a hold's capture and
//! a release, each one transaction under the code's lock.

use futures_util::future::{try_join, try_join5};
use promocodes::{
    Code, Conversion, CustomerId, Decimal, IdempotencyKey, Redemption, Release, Reservation, ReservationState,
    StoreError, Timestamp, UsageCounts,
};
use tokio_postgres::types::Json;

use crate::checkout::Checkout;
use crate::rows::{backend, counter_of, db, found_under_lock, keyed_row, read_locked, with_discount_moved};
use crate::sql::{BEGIN, KEYED, LOCK, RECORD, UPDATE};
use crate::PgRedemptionStore;

impl PgRedemptionStore {
    pub(crate) async fn record_at(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, customer, expected) = (redemption.code, redemption.customer, redemption.expected);
        // Were it to land, it lands on exactly `expected`: its reservation is known before it is sent.
        let discount = redemption.quote.discount().amount();
        let Some(usage) = expected.after_use(customer.is_some(), discount) else {
            return Ok(None);
        };
        let reservation = redemption.reservation(usage);
        let total = i64::try_from(expected.total()).map_err(backend)?;
        let mine = i64::try_from(expected.per_customer()).map_err(backend)?;
        let campaign = redemption.campaign.map(Code::as_str);
        let per_code = match campaign {
            Some(_) => Some(i64::try_from(expected.code_uses()).map_err(backend)?),
            None => None,
        };
        let checkout = Checkout::get(&self.pool).await?;
        let client = checkout.client()?;
        let (lock, record) = try_join(client.prepare_cached(LOCK), client.prepare_cached(RECORD))
            .await
            .map_err(db)?;
        // A campaign's counts are shared by all of its codes: its own lock, after the code's.
        let campaign_lock = async {
            match campaign {
                Some(campaign) => client
                    .execute(&lock, &[&counter_of(code, Some(campaign))])
                    .await
                    .map(drop),
                None => Ok(()),
            }
        };
        // One round trip: the five go out together, in order, and the transaction is theirs.
        let (_, _, _, row, _) = try_join5(
            client.batch_execute(BEGIN),
            client.execute(&lock, &[&code.as_str()]),
            campaign_lock,
            client.query_one(
                &record,
                &[
                    &code.as_str(),
                    &customer.map(CustomerId::as_str),
                    &redemption.now.sortable(),
                    &redemption.idempotency_key.map(IdempotencyKey::as_str),
                    &reservation.state.as_str(),
                    &redemption.hold_until.as_ref().map(Timestamp::sortable),
                    &total,
                    &mine,
                    &Json(&reservation),
                    &redemption.after_expired_hold.as_ref().map(Timestamp::sortable),
                    &expected.discounted(),
                    &discount,
                    &campaign,
                    &per_code,
                ],
            ),
            client.batch_execute("COMMIT"),
        )
        .await
        .map_err(db)?;
        checkout.done();
        let what: &str = row.try_get(0).map_err(db)?;
        let plain = campaign.is_none();
        match what {
            "written" => {
                if plain {
                    self.seen.note(code, customer, usage);
                }
                Ok(Some(reservation))
            }
            "stale" => {
                // The counts the write found under the lock: the next try's hint.
                match (plain, found_under_lock(&row, customer.is_some())) {
                    (true, Ok(found)) => self.seen.note(code, customer, found),
                    _ => self.seen.forget(code),
                }
                Ok(None)
            }
            "replay" => {
                let Json(earlier) = row.try_get::<_, Json<Reservation>>(1).map_err(db)?;
                Ok(Some(earlier.replayed()))
            }
            other => Err(backend(format!("the compare-and-set answered {other:?}"))),
        }
    }

    pub(crate) async fn convert_at(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (conversion.code, conversion.now);
        let (writing, row) =
            Checkout::begin(&self.pool, code, KEYED, &[&code.as_str(), &conversion.key.as_str()]).await?;
        let Some((seq, held, campaign)) = keyed_row(&row)? else {
            writing.finish().await?;
            return Ok(None);
        };
        match held.state_at(now) {
            ReservationState::Held => {}
            ReservationState::Expired => {
                writing.finish().await?;
                return Ok(None);
            }
            _ => {
                writing.finish().await?;
                return Ok(Some(held.replayed()));
            }
        }
        let counter = counter_of(code, campaign.as_deref());
        let before = read_locked(
            writing.client()?,
            &counter,
            code,
            campaign.is_some(),
            held.customer.as_ref(),
            now,
        )
        .await?;
        if conversion.expected.is_some_and(|expected| expected != before) {
            writing.finish().await?;
            return Ok(None);
        }
        // The hold already counts: the counts at `now` are those after the capture, but for a
        // discount that differs from the hold's (a capture with another basket).
        let (reserved, discount) = (held.quote.discount().amount(), conversion.quote.discount().amount());
        let usage = with_discount_moved(before, discount - reserved)?;
        let customer = held.customer.as_ref().map(CustomerId::as_str);
        let captured = held.clone().captured(conversion.quote, usage, now);
        writing
            .write_and_commit(
                UPDATE,
                &[
                    &seq,
                    &counter,
                    &customer,
                    &1_i64,
                    &true,
                    &captured.state.as_str(),
                    &Json(&captured),
                    &discount,
                    &campaign.is_some().then_some(code.as_str()),
                ],
            )
            .await?;
        Ok(Some(captured))
    }

    pub(crate) async fn release_at(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (release.code, release.now);
        let (writing, row) = Checkout::begin(&self.pool, code, KEYED, &[&code.as_str(), &release.key.as_str()]).await?;
        let Some((seq, earlier, campaign)) = keyed_row(&row)? else {
            writing.finish().await?;
            return Ok(None);
        };
        let state = earlier.state_at(now);
        if state == ReservationState::Released {
            writing.finish().await?;
            return Ok(Some(earlier.replayed()));
        }
        let counter = counter_of(code, campaign.as_deref());
        let before = read_locked(
            writing.client()?,
            &counter,
            code,
            campaign.is_some(),
            earlier.customer.as_ref(),
            now,
        )
        .await?;
        let counted = matches!(state, ReservationState::Held | ReservationState::Captured);
        let given_back = earlier.quote.discount().amount();
        let usage = if counted {
            let fewer = UsageCounts::new(
                before.total().saturating_sub(1),
                before
                    .per_customer()
                    .saturating_sub(u64::from(earlier.customer.is_some())),
            )
            .and_then(|usage| usage.with_discounted(before.discounted()))
            .and_then(|usage| match campaign {
                Some(_) => usage.with_code_uses(before.code_uses().saturating_sub(1)),
                None => Ok(usage),
            })
            .map_err(db)?;
            with_discount_moved(fewer, -given_back)?
        } else {
            before
        };
        let (was, captured_delta, drop_hold) = if state == ReservationState::Captured {
            (ReservationState::Captured, -1_i64, false)
        } else {
            (ReservationState::Held, 0_i64, true)
        };
        let customer = earlier.customer.as_ref().map(CustomerId::as_str);
        let released = earlier.clone().released(release, was, usage);
        writing
            .write_and_commit(
                UPDATE,
                &[
                    &seq,
                    &counter,
                    &customer,
                    &captured_delta,
                    &drop_hold,
                    &released.state.as_str(),
                    &Json(&released),
                    &if state == ReservationState::Captured {
                        -given_back
                    } else {
                        Decimal::ZERO
                    },
                    &campaign.is_some().then_some(code.as_str()),
                ],
            )
            .await?;
        Ok(Some(released))
    }
}
