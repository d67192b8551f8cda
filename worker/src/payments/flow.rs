//! The payment flow inside a code's object: a provider's confirmation
//! captures (a refusal now is recorded for the operator, since the money has
//! moved), its cancel, failure or refund releases, in whatever order the
//! events arrive. A full refund is final for its payment, and so is a refused
//! payment capture for its key.

use promocodes::wire::{Charged, PaymentRefusal, PaymentReleased, WebhookAction, WebhookAnswer};
use promocodes::Rejection;
use promocodes::{capture, Basket, CaptureOptions, Code, Currency, CustomerId, IdempotencyKey, Line, Money};
use promocodes::{Quote, RedemptionError, RedemptionStore, Reservation, ReservationState, Timestamp};
use worker::Response;

use crate::ledger::{json_response, log, now, Ledger, OUTCOME};
use crate::problem::Problem;
use crate::sqlite::SqliteRedemptionStore;
use crate::stats::Event;

pub use promocodes::wire::{PaymentCapture, PaymentRelease};

impl Ledger {
    /// A payment provider's confirmation (the Stripe webhook): the money has
    /// moved. A capture refused now cannot be undone by an error answer, so
    /// it is recorded as a refused payment capture, for the operator to refund
    /// or honour, and answered 200; a conflict or a store failure is a 5xx, so
    /// the provider delivers again.
    pub(crate) async fn handle_payment_capture(
        &self,
        payment: &PaymentCapture,
    ) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let (store, definition) = self.stored(&code)?;
        // A sharded code's payment goes to its shard; one routed here on an older layout is sent on.
        let sharded = definition.promo.shards() > 1;
        if let (true, Ok(key)) = (sharded, IdempotencyKey::parse(&payment.key)) {
            let known = store.reservation(&code, &key)?.is_some()
                || store.refusal(&code, &key)?.is_some()
                || store.final_payment(&code, &key)?.is_some();
            let customer = payment.customer.as_deref().and_then(|c| CustomerId::parse(c).ok());
            // A new use it would take here is refused in the payment's flow below, where a refusal is recorded.
            self.route_here(&definition.promo, customer.as_ref(), &key, (known, false))?;
        }
        self.payment_capture_on(payment, &store, &definition.promo, definition.archived, None)
            .await
    }

    /// The payment flow on `store`, for a code defined as `promo`
    /// (`archived` or not): in the code's object (`shard` `None`), or in
    /// shard `shard` of a sharded code, decided on its allotment.
    pub(crate) async fn payment_capture_on(
        &self,
        payment: &PaymentCapture,
        store: &std::rc::Rc<SqliteRedemptionStore>,
        promo: &promocodes::PromoCode,
        archived: bool,
        shard: Option<u8>,
    ) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let payment_key = IdempotencyKey::parse(&payment.key)?;
        let at = now()?;
        // A full refund is final for its payment, whatever came before it: nothing is captured.
        if let Some(released) = store.final_payment(&code, &payment_key)? {
            return self.refunded_first(&code, payment, at, released);
        }
        if let Some(shard) = shard {
            // A payment new here that the code's layout now sends elsewhere (routed on an older one) is
            // sent on before anything is recorded here.
            let routed = payment.customer.as_deref().and_then(|c| CustomerId::parse(c).ok());
            let target = promocodes::shard_of(promo.shards(), routed.as_ref(), &payment_key);
            if target != shard
                && store.reservation(&code, &payment_key)?.is_none()
                && store.refusal(&code, &payment_key)?.is_none()
            {
                return Err(Problem::Forward {
                    object: crate::shards::shard_object(promo, target),
                    shard: Some(target),
                });
            }
            // A payment refused at the key's own shard (its event had no customer) is final for
            // the key here too: taken over before this shard decides anything under it.
            let home = promocodes::shard_of(promo.shards(), None, &payment_key);
            let known =
                store.reservation(&code, &payment_key)?.is_some() || store.refusal(&code, &payment_key)?.is_some();
            if home != shard && !known {
                if let Some(refusal) = self.home_refusal(&code, home, &payment_key).await? {
                    store.record_refusal(&code, &payment_key, &refusal)?;
                }
            }
        }
        let mut key = payment_key.clone();
        let mut earlier = store.reservation(&code, &key)?;
        if earlier.as_ref().is_some_and(released_hold) {
            // A hold released by a failed attempt (`payment_failed`), then a
            // retry that paid: the payment's key names a use given back, so
            // this payment is captured afresh under its second key.
            key = paid_after_release(&payment_key)?;
            earlier = store.reservation(&code, &key)?.or(earlier);
        }
        // A refused payment capture is final for its key: the operator may have refunded it.
        if let Some(refusal) = store.refusal(&code, &key)? {
            let refusal: PaymentRefusal =
                serde_json::from_value(refusal).map_err(|e| Problem::Internal(e.to_string()))?;
            let answer = WebhookAnswer {
                rejection: Some(refusal.rejection),
                detail: Some(refusal.detail),
                ..WebhookAnswer::new(WebhookAction::Refused)
            };
            return self.payment_replayed(&code, payment, at, answer);
        }
        let refuse = |rejection: Option<Rejection>, detail: String, quote: Option<&promocodes::Quote>| {
            self.refuse_payment(store, &code, &key, payment, at, rejection, detail, quote)
        };
        let customer = match payment.customer.as_deref().map(CustomerId::parse).transpose() {
            Ok(customer) => customer,
            Err(err) => return refuse(None, format!("metadata.customer: {err}"), None),
        };
        let basket = match (&payment.basket, &earlier) {
            (Some(json), _) => match Basket::from_json(json) {
                Ok(basket) => basket,
                Err(err) => return refuse(None, format!("metadata.promo_basket: {}", err.at(".")), None),
            },
            (None, Some(held)) => basket_of(&held.quote)?,
            (None, None) => {
                return refuse(
                    None,
                    "metadata has no promo_basket and no hold was taken under the payment's id".to_owned(),
                    None,
                )
            }
        };
        let charged = match Currency::from_code(&payment.currency).and_then(|c| Money::parse(&payment.charged, c)) {
            Ok(charged) => charged,
            Err(err) => return refuse(None, format!("the amount charged: {err}"), None),
        };
        if archived && earlier.is_none() {
            return refuse(None, format!("the code {code} is archived"), None);
        }
        let (at, result) = match shard {
            None => {
                let options = CaptureOptions::new().idempotency_key(&key).charged(charged);
                let deciding = self.deciding(promo)?;
                // A sharded code's own object took this payment's first use under a layout of one
                // shard: a new use for a customer of a per-customer cap is not decided here (see
                // `Ledger::route_here`).
                let renewed = promo.shards() > 1
                    && crate::ledger::afresh(store.reservation(&code, &key)?.as_ref(), at)
                    && crate::ledger::counts_customer(promo, customer.as_ref());
                let result = match renewed {
                    true => Err(RedemptionError::IdempotencyKeyReused { key: key.clone() }),
                    false => capture(&deciding, &**store, customer.as_ref(), &basket, at, options),
                };
                (at, result)
            }
            Some(shard) => {
                let decide = |view: &crate::ledger::ShardView, at| {
                    // A refund recorded here while this request waited (for a grant, or a key's
                    // claim) is final too: checked in the capture's own turn. `None`: found.
                    if store.final_payment(&code, &payment_key).ok().flatten().is_some() {
                        return Ok(None);
                    }
                    let options = CaptureOptions::new().idempotency_key(&key).charged(charged);
                    capture(&view.allotted, &**store, customer.as_ref(), &basket, at, options).map(Some)
                };
                let (_, at, result) = self
                    .shard_decide(&code, shard, (&key, &payment_key), customer.as_ref(), &basket, decide)
                    .await?;
                let result = match result {
                    Ok(Some(receipt)) => Ok(receipt),
                    Ok(None) => {
                        let released = store
                            .final_payment(&code, &payment_key)?
                            .ok_or_else(|| Problem::Internal("a payment's refund, found, then gone".to_owned()))?;
                        return self.refunded_first(&code, payment, at, released);
                    }
                    Err(err) => Err(err),
                };
                (at, result)
            }
        };
        match result {
            Ok(receipt) => {
                let (event, outcome, action) = if receipt.replayed {
                    (Event::Replay, "replayed", WebhookAction::Replayed)
                } else {
                    (Event::Capture, "captured", WebhookAction::Captured)
                };
                self.count(event, 1, at);
                if !receipt.replayed {
                    self.count_money(Event::Discounted, receipt.quote.discount(), at);
                }
                log(&code, "capture", outcome, Some(("event", payment.event_id.as_str())));
                if !receipt.replayed {
                    self.note_counts_changed(promo, receipt.usage.total(), false);
                }
                let answer = WebhookAnswer {
                    receipt: Some(receipt),
                    ..WebhookAnswer::new(action)
                };
                json_response(&answer, 200)
            }
            Err(RedemptionError::Conflict(conflict)) => {
                self.count(Event::Conflict, 1, at);
                log(&code, "capture", "problem", Some(("problem", "conflict")));
                Err(Problem::RetryLater(conflict))
            }
            Err(RedemptionError::Store(err)) => Err(Problem::Store(err)),
            Err(RedemptionError::Rejected(stale)) => {
                let rejection = stale.rejection();
                refuse(Some(rejection), stale.rejected.message().to_owned(), Some(&stale.quote))
            }
            Err(other) => refuse(None, other.to_string(), None),
        }
    }

    /// Answers a payment's success that finds the payment refunded in full
    /// (`released`, the refund's release as the store wrote it): replayed,
    /// nothing captured.
    fn refunded_first(
        &self,
        code: &Code,
        payment: &PaymentCapture,
        at: Timestamp,
        released: serde_json::Value,
    ) -> std::result::Result<Response, Problem> {
        let answer = WebhookAnswer {
            release: Some(payment_released(released)?),
            ..WebhookAnswer::new(WebhookAction::Released)
        };
        self.payment_replayed(code, payment, at, answer)
    }

    /// Answers a payment event that finds its payment settled for good (a
    /// refund before it, or a refused capture): 200, `answer` marked
    /// `replayed`, nothing recorded.
    pub(crate) fn payment_replayed(
        &self,
        code: &Code,
        payment: &PaymentCapture,
        at: Timestamp,
        answer: WebhookAnswer,
    ) -> std::result::Result<Response, Problem> {
        self.count(Event::Replay, 1, at);
        log(code, "capture", "replayed", Some(("event", payment.event_id.as_str())));
        let answer = WebhookAnswer {
            replayed: Some(true),
            ..answer
        };
        json_response(&answer, 200)
    }

    /// Records and answers a payment capture refused after the money moved.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn refuse_payment(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
        key: &IdempotencyKey,
        payment: &PaymentCapture,
        at: Timestamp,
        rejection: Option<Rejection>,
        detail: String,
        quote: Option<&promocodes::Quote>,
    ) -> std::result::Result<Response, Problem> {
        let refusal = PaymentRefusal {
            customer: payment.customer.clone(),
            rejection,
            detail: detail.clone(),
            charged: Charged {
                amount: payment.charged.clone(),
                currency: payment.currency.clone(),
            },
            event_id: payment.event_id.clone(),
            refused_at: at,
            quote: quote.cloned(),
        };
        let refusal = serde_json::to_value(&refusal).map_err(|e| Problem::Internal(e.to_string()))?;
        let first = store.record_refusal(code, key, &refusal)?;
        let slug = rejection.map_or("invalid_request", Rejection::code);
        if first {
            self.count(Event::Rejected("captures", slug), 1, at);
        }
        log(code, "capture", "refused_after_payment", Some(("rejection", slug)));
        // The log line the Worker writes: the payment's fields added.
        OUTCOME.with(|slot| {
            if let Some(line) = slot.borrow_mut().as_mut() {
                line.payment = Some(key.as_str().to_owned());
                line.event = Some(payment.event_id.clone());
                line.detail = Some(detail.clone());
            }
        });
        let answer = WebhookAnswer {
            rejection: Some(rejection),
            detail: Some(detail),
            replayed: Some(!first),
            ..WebhookAnswer::new(WebhookAction::Refused)
        };
        json_response(&answer, 200)
    }

    /// A payment provider's "give the use back" (the Stripe webhook): the
    /// release of what is recorded under the payment's id, or under its
    /// second key if a retry paid after a failed attempt released the hold.
    /// A failed or cancelled payment releases only a hold: a capture is left
    /// as it is and the event is answered as ignored (200, with why).
    ///
    /// In shard `shard` of a sharded code, the release gives the use back to
    /// the shard's allotment. With `known_only`, an object that has nothing
    /// under the payment's id answers 404 and records nothing: for a sharded
    /// code the Worker asks the code's object and every shard so first, then
    /// the code's object alone to record a refund that came before anything
    /// was held.
    pub(crate) async fn handle_payment_release(
        &self,
        payment: &PaymentRelease,
        shard: Option<u8>,
        known_only: bool,
    ) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let key = IdempotencyKey::parse(&payment.key)?;
        // A shard told of a refund before anything: recorded even if it never took a use yet.
        let store = match (shard, known_only) {
            (Some(_), false) => self.store_or_create()?,
            _ => self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?,
        };
        let payment_key = key;
        let unknown = || {
            Problem::from(promocodes::ReleaseError::UnknownKey {
                code: code.clone(),
                key: payment_key.clone(),
            })
        };
        let known = store.final_payment(&code, &payment_key)?;
        if known_only
            && known.is_none()
            && store.reservation(&code, &payment_key)?.is_none()
            && store.reservation(&code, &paid_after_release(&payment_key)?)?.is_none()
        {
            return Err(unknown());
        }
        if let Some(released) = known {
            // Refunded before: every later event for the payment replays that.
            let at = now()?;
            self.count(Event::Replay, 1, at);
            log(&code, "release", "replayed", None);
            let answer = WebhookAnswer {
                release: Some(payment_released(released)?),
                replayed: Some(true),
                ..WebhookAnswer::new(WebhookAction::Released)
            };
            return json_response(&answer, 200);
        }
        let paid = paid_after_release(&payment_key)?;
        let key = if store.reservation(&code, &paid)?.is_some() {
            paid
        } else {
            payment_key.clone()
        };
        let reason = payment
            .reason
            .chars()
            .filter(|c| !c.is_control())
            .take(promocodes::MAX_REASON_LEN)
            .collect::<String>();
        if !payment.holds_only {
            // A full refund is final for its payment: recorded even when nothing was held or
            // captured yet, so that a `payment_intent.succeeded` delivered after it captures nothing.
            if store.reservation(&code, &key)?.is_none() {
                // The coordinator of a sharded code records the counts across its shards.
                let sharded = match shard {
                    None => self
                        .stored(&code)
                        .ok()
                        .map(|(_, d)| d.promo.clone())
                        .filter(|p| p.shards() > 1),
                    Some(_) => None,
                };
                if let Some(promo) = &sharded {
                    self.read_totals_of(promo, false).await?;
                }
                let across = |own| match &sharded {
                    Some(promo) => self.with_shard_totals(promo, own).0,
                    None => own,
                };
                let at = now()?;
                if let Some(released) = store.record_unpaid_refund(&code, &payment_key, &reason, at, across)? {
                    let released = payment_released(released)?;
                    let replayed = released.replayed();
                    // Told to the code's object and to each shard: the object's counts it.
                    if shard.is_none() {
                        self.count(if replayed { Event::Replay } else { Event::Release }, 1, at);
                    }
                    log(&code, "release", if replayed { "replayed" } else { "released" }, None);
                    let answer = WebhookAnswer {
                        release: Some(released),
                        replayed: Some(replayed),
                        ..WebhookAnswer::new(WebhookAction::Released)
                    };
                    return json_response(&answer, 200);
                }
            }
            let response = self.release_in(shard, &code, &key, &reason).await?;
            store.mark_final(&code, &payment_key, &key)?;
            return Ok(response);
        }
        // A failed or cancelled payment releases a hold, never a capture.
        if let Some(recorded) = store.reservation(&code, &key)? {
            if recorded.state == ReservationState::Captured {
                let why = format!(
                    "{} is captured: a failed or cancelled payment releases only a hold",
                    key.as_str()
                );
                log(&code, "release", "ignored", Some(("why", why.as_str())));
                return json_response(&WebhookAnswer::ignored(why), 200);
            }
        }
        self.release_in(shard, &code, &key, &reason).await
    }

    /// A release of `key`: in the code's object, or in shard `shard`.
    async fn release_in(
        &self,
        shard: Option<u8>,
        code: &Code,
        key: &IdempotencyKey,
        reason: &str,
    ) -> std::result::Result<Response, Problem> {
        match shard {
            None => self.release_answer(code, key, Some(reason)),
            Some(_) => self.shard_release_of(code, key, Some(reason)).await,
        }
    }
}

/// The suffix of the second key a payment is captured under when its first
/// key names a hold that a failed attempt released (see [`paid_after_release`]).
pub const PAID_AFTER_RELEASE_SUFFIX: &str = ":paid";

/// The key a payment is captured under when the hold taken under its own id
/// was released by a failed attempt (`payment_intent.payment_failed`) and a
/// retry then paid: `<payment id>:paid`. A key names one redemption forever,
/// and the payment's own key names the use given back; the payment that went
/// through is a second redemption, under this key, which a later refund
/// releases.
///
/// # Errors
///
/// [`Problem::Input`] when the payment id is too long to take the suffix.
pub fn paid_after_release(payment: &IdempotencyKey) -> std::result::Result<IdempotencyKey, Problem> {
    Ok(IdempotencyKey::parse(&format!(
        "{}{PAID_AFTER_RELEASE_SUFFIX}",
        payment.as_str()
    ))?)
}

/// A hold given back before it was ever captured.
pub(crate) fn released_hold(reservation: &Reservation) -> bool {
    reservation.state == ReservationState::Released && reservation.was == Some(ReservationState::Held)
}

/// A release the store wrote as JSON (a refund made final, or recorded
/// before anything was held or captured), read as the answer's `release`.
fn payment_released(released: serde_json::Value) -> std::result::Result<PaymentReleased, Problem> {
    serde_json::from_value(released).map_err(|e| Problem::Internal(e.to_string()))
}

/// The basket a quote was made for, as far as a capture needs it: the same
/// lines (sku and amount) and shipping, or the same total.
fn basket_of(quote: &Quote) -> std::result::Result<Basket, Problem> {
    match quote.lines() {
        None => Ok(Basket::from(*quote.total())),
        Some(lines) => {
            let lines = lines
                .iter()
                .map(|l| Line::new(l.sku.clone(), 1, l.amount))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Ok(Basket::from_lines(lines, quote.shipping().map(|s| s.amount))?)
        }
    }
}
