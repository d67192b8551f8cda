//! The Worker's side of `POST /v1/webhooks/stripe`: verify, read the event,
//! find the code, and forward the capture or release to the code's object,
//! which decides it ([`crate::ledger`]'s payment flow).

use promocodes::Code;
use serde_json::{json, Value};
use worker::{Env, Request, Response};

use super::Answer;
use crate::catalog;
use crate::clients::{is_known, to_catalog, to_ledger_logged};
use crate::http::read_body;
use crate::limits::{WEBHOOK_BODY_LIMIT, WEBHOOK_TOLERANCE_SECONDS};
use crate::payments;
use crate::problem::Problem;
use crate::protocol::Call;

/// The secret Stripe signs webhooks with (`whsec_...`).
pub const STRIPE_WEBHOOK_SECRET: &str = "STRIPE_WEBHOOK_SECRET";

/// `POST /v1/webhooks/stripe`: Stripe's events, verified by their signature.
///
/// - `payment_intent.succeeded` with `metadata.promo_code` captures under the
///   PaymentIntent's id, pinned to `amount_received`, converting a hold taken
///   under that id; a capture refused now (the money moved) is recorded as a
///   refused payment capture and answered 200.
/// - `payment_intent.canceled`, `payment_intent.payment_failed` and a full
///   `charge.refunded` release what is recorded under the PaymentIntent's id.
/// - Events come in any order. A full refund is final for its PaymentIntent
///   (recorded even when nothing was held or captured yet), and so is a
///   refused payment capture for its key: what arrives after either replays
///   it and records nothing.
/// - Everything else is answered 200 and ignored; a conflict or a store
///   failure is a 5xx, so that Stripe delivers the event again.
pub async fn handle(req: &Request, env: &Env) -> Answer {
    let secret = env
        .secret(STRIPE_WEBHOOK_SECRET)
        .map(|s| s.to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .ok_or(Problem::Misconfigured(STRIPE_WEBHOOK_SECRET))?;
    let body = read_body(req, WEBHOOK_BODY_LIMIT).await?;
    let header = req.headers().get(payments::SIGNATURE_HEADER)?;
    let now = (worker::Date::now().as_millis() / 1000) as i64;
    payments::verify(
        header.as_deref(),
        body.as_bytes(),
        &secret,
        now,
        WEBHOOK_TOLERANCE_SECONDS,
    )
    .map_err(|err| Problem::InvalidSignature(err.to_string()))?;
    let action = payments::parse_event(body.as_bytes()).map_err(|err| Problem::InvalidEvent(err.to_string()))?;
    match action {
        payments::Action::Ignore { event_id, why } => webhook_ignored(&event_id, &why),
        payments::Action::Capture {
            event_id,
            payment_intent,
            code,
            customer,
            basket_json,
            charged_major,
            currency,
        } => {
            let Ok(code) = Code::parse(&code) else {
                return webhook_ignored(&event_id, &format!("metadata.promo_code {code:?} is not a promo code"));
            };
            if !is_known(env, &code).await? {
                return webhook_ignored(&event_id, &format!("no promo code {code} is defined"));
            }
            let payment = payments::flow::PaymentCapture {
                code: code.as_str().to_owned(),
                key: payment_intent.clone(),
                customer,
                basket: basket_json,
                charged: charged_major,
                currency,
                event_id,
            };
            let body = serde_json::to_string(&payment).map_err(|e| Problem::Internal(e.to_string()))?;
            let request = Call::PaymentCapture.request(&code, &[], Some(body), &[])?;
            let response = to_ledger_logged(env, &code, request).await?;
            if response.status_code() == 200 {
                let index = catalog::Payment {
                    payment: payment_intent,
                    code: code.as_str().to_owned(),
                };
                to_catalog(env, "/payment", &index).await?;
            }
            Ok(response)
        }
        payments::Action::Release {
            event_id,
            payment_intent,
            code,
            reason,
            holds_only,
        } => {
            // The payment index names the code the payment was captured for; a charge's metadata
            // may be stale (copied once, at confirmation), so it is only a hint, for what the index
            // does not have (a hold, which is indexed when captured).
            let code = match payment_code(env, &payment_intent).await? {
                Some(code) => Some(code),
                None => code.as_deref().and_then(|code| Code::parse(code).ok()),
            };
            let Some(code) = code else {
                return webhook_ignored(&event_id, &format!("nothing is recorded for {payment_intent}"));
            };
            if !is_known(env, &code).await? {
                return webhook_ignored(&event_id, &format!("no promo code {code} is defined"));
            }
            let release = payments::flow::PaymentRelease {
                code: code.as_str().to_owned(),
                key: payment_intent.clone(),
                reason,
                holds_only,
            };
            let body = serde_json::to_string(&release).map_err(|e| Problem::Internal(e.to_string()))?;
            let request = Call::PaymentRelease.request(&code, &[], Some(body), &[])?;
            let mut response = to_ledger_logged(env, &code, request).await?;
            match response.status_code() {
                200 => {
                    let answer: Value = response.json().await?;
                    if answer.get("received").is_some() {
                        // Answered by the object: a capture a failed or
                        // cancelled payment may not release.
                        return Ok(Response::from_json(&answer)?);
                    }
                    Ok(Response::from_json(
                        &json!({ "received": true, "action": "released", "release": answer }),
                    )?)
                }
                404 => webhook_ignored(
                    &event_id,
                    &format!("nothing is held or captured under {payment_intent}"),
                ),
                _ => Ok(response),
            }
        }
    }
}

/// The code a payment was captured for, from the catalog's index.
async fn payment_code(env: &Env, payment: &str) -> std::result::Result<Option<Code>, Problem> {
    let ask = catalog::Payment {
        payment: payment.to_owned(),
        code: String::new(),
    };
    let found: Option<catalog::Payment> = to_catalog(env, "/payment-code", &ask).await?.json().await?;
    Ok(found.and_then(|p| Code::parse(&p.code).ok()))
}

/// A webhook answered 200 with nothing to do, logged.
fn webhook_ignored(event_id: &str, why: &str) -> Answer {
    worker::console_log!(
        "{}",
        json!({ "op": "webhook", "event": event_id, "outcome": "ignored", "why": why })
    );
    Ok(Response::from_json(
        &json!({ "received": true, "action": "ignored", "why": why }),
    )?)
}
