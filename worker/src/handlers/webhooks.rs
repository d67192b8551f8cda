//! The Worker's side of `POST /v1/webhooks/stripe`: verify, read the event,
//! find the code, and forward the capture or release to the code's object,
//! which decides it ([`crate::ledger`]'s payment flow).

use promocodes::wire::{CodeRelease, PaymentReleaseAnswer, PaymentReleased, RefusedCode, WebhookAction, WebhookAnswer};
use promocodes::{Basket, Code, Currency, CustomerId, IdempotencyKey, Money, Rejection, StackResumeError};
use serde::Serialize;
use worker::{Env, Request, Response};

use super::{checkout, Answer};
use crate::catalog;
use crate::clients::{is_known, to_catalog, to_ledger_logged};
use crate::http::read_body;
use crate::limits::{WEBHOOK_BODY_LIMIT, WEBHOOK_TOLERANCE_SECONDS};
use crate::payments::{self, Promo};
use crate::problem::Problem;
use crate::protocol::Call;

mod refunds;
use refunds::{refund_codes, refund_first, refunded_before};

/// The secret Stripe signs webhooks with (`whsec_...`).
pub const STRIPE_WEBHOOK_SECRET: &str = "STRIPE_WEBHOOK_SECRET";

/// `POST /v1/webhooks/stripe`: Stripe's events, verified by their signature.
///
/// - `payment_intent.succeeded` with `metadata.promo_code` captures under the
///   PaymentIntent's id, pinned to `amount_received`, converting a hold taken
///   under that id; a capture refused now (the money moved) is recorded as a
///   refused payment capture and answered 200.
/// - `metadata.promo_codes` (comma-separated) names a stack: captured,
///   released and refunded as one, all or none (`capture_stack`,
///   `release_stack`); a list of one is one code. An event naming both keys,
///   or a malformed list (an empty item, a code twice, more than 5), is bad
///   metadata: answered 200, ignored with the reason, and logged.
/// - `payment_intent.canceled`, `payment_intent.payment_failed` and a full
///   `charge.refunded` release what is recorded under the PaymentIntent's id.
/// - Events come in any order. A full refund is final for its PaymentIntent
///   (recorded even when nothing was held or captured yet, and even when no
///   code of the payment is known yet: the catalog's payment index keeps it,
///   see `handlers/webhooks/refunds.rs`), and so is a refused payment capture for its key: what
///   arrives after either replays it and records nothing.
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
            promo,
            customer,
            basket_json,
            charged_major,
            currency,
        } => {
            let code = match promo {
                Promo::Stack(codes) if codes.len() > 1 => {
                    let payment = StackPayment {
                        event_id,
                        payment_intent,
                        codes,
                        customer,
                        basket_json,
                        charged_major,
                        currency,
                    };
                    if let Some(answer) =
                        refunded_before(env, &payment.event_id, &payment.payment_intent, &payment.codes).await?
                    {
                        return Ok(answer);
                    }
                    return capture_stack(env, payment).await;
                }
                // A list of one is one code.
                Promo::Stack(codes) => codes.first().map(|code| code.as_str().to_owned()).unwrap_or_default(),
                Promo::Code(code) => code,
            };
            let Ok(code) = Code::parse(&code) else {
                return webhook_ignored(&event_id, &format!("metadata.promo_code {code:?} is not a promo code"));
            };
            if !is_known(env, &code).await? {
                return webhook_ignored(&event_id, &format!("no promo code {code} is defined"));
            }
            if let Some(answer) = refunded_before(env, &event_id, &payment_intent, std::slice::from_ref(&code)).await? {
                return Ok(answer);
            }
            let payment = payments::flow::PaymentCapture {
                code: code.as_str().to_owned(),
                key: payment_intent,
                customer,
                basket: basket_json,
                charged: charged_major,
                currency,
                event_id,
            };
            // The payment is indexed under its code already (`refunded_before` claimed it).
            send_payment_capture(env, &code, &payment).await
        }
        payments::Action::Release {
            event_id,
            payment_intent,
            promo,
            reason,
            holds_only,
        } => {
            // The payment index names the code (or the stack's codes) the payment was captured for;
            // a charge's metadata may be stale (copied once, at confirmation), so it is only a hint,
            // for what the index does not have (a hold, which is indexed when captured).
            // A full refund is final for its payment in the catalog first, whether or not its
            // codes are known yet: a success that comes later (or races it) finds it there.
            let indexed = if holds_only {
                payment_codes(env, &payment_intent).await?
            } else {
                refund_codes(env, &payment_intent, &reason).await?
            };
            let codes = match indexed {
                Some(codes) => codes,
                None => match promo {
                    Some(Promo::Code(code)) => Code::parse(&code).ok().into_iter().collect(),
                    Some(Promo::Stack(codes)) => codes,
                    None => Vec::new(),
                },
            };
            if codes.len() > 1 {
                let release = payments::flow::PaymentRelease {
                    code: String::new(),
                    key: payment_intent,
                    reason,
                    holds_only,
                };
                return release_stack(env, &event_id, &codes, release).await;
            }
            let Some(code) = codes.into_iter().next() else {
                if !holds_only {
                    return refund_first(&event_id, &payment_intent);
                }
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
            let mut response = crate::shards::send_payment_release(env, &code, body).await?;
            match response.status_code() {
                200 => {
                    let answer = match response.json::<PaymentReleaseAnswer>().await? {
                        // Answered by the object: a capture a failed or
                        // cancelled payment may not release.
                        PaymentReleaseAnswer::Settled(answer) => *answer,
                        PaymentReleaseAnswer::Released(release) => WebhookAnswer {
                            release: Some(PaymentReleased::Release(release)),
                            ..WebhookAnswer::new(WebhookAction::Released)
                        },
                    };
                    Ok(Response::from_json(&answer)?)
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

/// A payment's capture of `code`, sent to the code's object, or for a
/// sharded code where the payment's hold is taken: the shard of its
/// customer, else of its id (`shards::send_keyed`). An id that is no key
/// goes to the code's object, whose payment flow says why.
async fn send_payment_capture(env: &Env, code: &Code, payment: &payments::flow::PaymentCapture) -> Answer {
    let body = serde_json::to_string(payment).map_err(|e| Problem::Internal(e.to_string()))?;
    let request = Call::PaymentCapture.request(code, &[], Some(body.clone()), &[])?;
    match IdempotencyKey::parse(&payment.key) {
        Ok(key) => crate::shards::send_keyed(env, code, &key, &body, request).await,
        Err(_) => to_ledger_logged(env, code, request).await,
    }
}

/// The code (or a stack's codes) a payment was captured for, from the catalog's index.
async fn payment_codes(env: &Env, payment: &str) -> std::result::Result<Option<Vec<Code>>, Problem> {
    let ask = catalog::Payment {
        payment: payment.to_owned(),
        code: String::new(),
    };
    let found: Option<catalog::Payment> = to_catalog(env, catalog::CatalogCall::PaymentCode(ask))
        .await?
        .json()
        .await?;
    Ok(found.and_then(|p| payments::parse_promo_codes(&p.code).ok()))
}

/// Indexes a payment under its code, or its stack's codes joined by commas.
async fn index_payment(env: &Env, payment: &str, codes: &[&Code]) -> std::result::Result<(), Problem> {
    let index = catalog::Payment {
        payment: payment.to_owned(),
        code: codes.iter().map(|code| code.as_str()).collect::<Vec<_>>().join(","),
    };
    to_catalog(env, catalog::CatalogCall::Payment(index)).await?;
    Ok(())
}

/// A paid PaymentIntent whose `metadata.promo_codes` names a stack of two or more codes.
struct StackPayment {
    event_id: String,
    payment_intent: String,
    codes: Vec<Code>,
    customer: Option<String>,
    basket_json: Option<String>,
    charged_major: String,
    currency: String,
}

/// Why the other codes of a stack give their use back when one of them is
/// refused (or finds its payment refunded) after the money moved.
const STACK_UNDONE: &str = "payment_intent.succeeded: another code of the stack was refused";

/// `payment_intent.succeeded` with a stack (`metadata.promo_codes`): all or
/// none, as `POST /v1/captures` with `codes` under the PaymentIntent's id.
///
/// 1. The stack is priced with every code's definition and usage by the
///    core's [`promocodes::Stack::resume`] on `metadata.promo_basket`
///    (required for a stack), and its payable must be `amount_received`. A
///    code already captured (or held) under the payment is its record as it
///    is, never priced again: a redelivery of a captured stack replays what
///    the first delivery answered, whatever changed since. A stack refused
///    here (a code's own rule, `not_combinable`, a changed price, a bad
///    customer or basket) records nothing: it is answered 200 `refused` with
///    `rejections` and logged, and a redelivery prices it again.
/// 2. Each code, in the order they apply, goes through its object's payment
///    flow (as one code's payment does: a hold under the id is converted, a
///    refund before it is final, a released hold is captured afresh under
///    `<id>:paid`) with the basket its part applied to, pinned to its part's
///    payable. A code refused there (its counts moved since the pricing: the
///    object records that refusal for the operator) or finding its payment
///    refunded gives every other code's use under the payment back, for good.
/// 3. A conflict or a store failure is the object's 5xx, answered as is: Stripe
///    delivers again, and the next delivery replays the codes done and
///    finishes the rest.
async fn capture_stack(env: &Env, payment: StackPayment) -> Answer {
    for code in &payment.codes {
        if !is_known(env, code).await? {
            return webhook_ignored(&payment.event_id, &format!("no promo code {code} is defined"));
        }
    }
    let refused = |detail: String| stack_refused(&payment, None, Vec::new(), detail);
    let customer = match payment.customer.as_deref().map(CustomerId::parse).transpose() {
        Ok(customer) => customer,
        Err(err) => return refused(format!("metadata.customer: {err}")),
    };
    let Some(basket_json) = payment.basket_json.as_deref() else {
        return refused("metadata has no promo_basket: a stack is priced on its basket".to_owned());
    };
    let basket = match Basket::from_json(basket_json) {
        Ok(basket) => basket,
        Err(err) => return refused(format!("metadata.promo_basket: {}", err.at("."))),
    };
    let charged = match Currency::from_code(&payment.currency).and_then(|c| Money::parse(&payment.charged_major, c)) {
        Ok(charged) => charged,
        Err(err) => return refused(format!("the amount charged: {err}")),
    };
    // A use under the PaymentIntent's id (or `<id>:paid`) is the payment's own: taken as it was.
    let key = IdempotencyKey::parse(&payment.payment_intent)?;
    let parts = match checkout::stack_parts(env, &payment.codes, customer.as_ref(), Some(&key), true).await {
        Ok(parts) => parts,
        Err(answer) => {
            let response = answer?;
            if response.status_code() == 404 {
                return webhook_ignored(&payment.event_id, "a code of the stack is not defined (archived)");
            }
            return Ok(response);
        }
    };
    // A code captured (or held) under the payment is its record as it is, never priced again: a
    // redelivery of a captured stack replays it, whatever changed since.
    let now = crate::ledger::now()?;
    let quote = match parts
        .stack
        .resume(customer.as_ref(), &parts.usage, &parts.recorded, &basket, now)
    {
        Ok(quote) => quote,
        Err(StackResumeError::Rejected(rejected)) => {
            let first = rejected.refusals().first().map(|r| r.rejection());
            let rejections = rejected.refusals().iter().map(RefusedCode::from).collect();
            return stack_refused(&payment, first, rejections, rejected.to_string());
        }
        Err(other) => return stack_refused(&payment, None, Vec::new(), other.to_string()),
    };
    if quote.payable() != &charged {
        let detail = format!(
            "the price changed since it was quoted: {charged} charged, {} to pay now",
            quote.payable()
        );
        return stack_refused(&payment, Some(Rejection::QuoteChanged), Vec::new(), detail);
    }
    // The writes, in the order the codes apply.
    let mut answers: Vec<(&Code, WebhookAnswer)> = Vec::with_capacity(quote.codes().len());
    let mut settled = false;
    for (part, basket) in quote.codes().iter().zip(quote.baskets_applied_to(&basket)) {
        let code = part.code();
        let one = payments::flow::PaymentCapture {
            code: code.as_str().to_owned(),
            key: payment.payment_intent.clone(),
            customer: customer.as_ref().map(|c| c.as_str().to_owned()),
            basket: Some(serde_json::to_string(&basket).map_err(|e| Problem::Internal(e.to_string()))?),
            charged: part.quote().payable().amount_text(),
            currency: payment.currency.clone(),
            event_id: payment.event_id.clone(),
        };
        let mut response = send_payment_capture(env, code, &one).await?;
        if response.status_code() != 200 {
            // A conflict or a store failure: Stripe delivers again, and that delivery finishes.
            return Ok(response);
        }
        let answer: WebhookAnswer = response.json().await?;
        settled = matches!(answer.action, WebhookAction::Refused | WebhookAction::Released);
        answers.push((code, answer));
        if settled {
            break;
        }
    }
    let order: Vec<&Code> = quote.codes().iter().map(|part| part.code()).collect();
    index_payment(env, &payment.payment_intent, &order).await?;
    if !settled {
        let replayed = answers.iter().all(|(_, a)| a.action == WebhookAction::Replayed);
        let receipts = answers
            .into_iter()
            .map(|(code, a)| {
                a.receipt
                    .ok_or_else(|| Problem::Internal(format!("{code}: a capture without its receipt")))
            })
            .collect::<std::result::Result<Vec<_>, Problem>>()?;
        let action = if replayed {
            WebhookAction::Replayed
        } else {
            WebhookAction::Captured
        };
        let answer = WebhookAnswer {
            receipts: Some(receipts),
            ..WebhookAnswer::new(action)
        };
        return Ok(Response::from_json(&answer)?);
    }
    // All or none: every other code gives back what it has under the payment. A code already
    // written (captured, or converted) is released for good, as a refund releases it; a code not
    // reached yet gives back only a hold it may have.
    let (stopped, last) = answers.pop().expect("a settled stack stopped at a code");
    let mut releases = Vec::new();
    for code in &order {
        if *code == stopped {
            continue;
        }
        let written = answers.iter().any(|(done, _)| done == code);
        let release = payments::flow::PaymentRelease {
            code: code.as_str().to_owned(),
            key: payment.payment_intent.clone(),
            reason: STACK_UNDONE.to_owned(),
            holds_only: !written,
        };
        match release_one(env, code, &release).await? {
            Ok(answer) => releases.push(answer),
            Err(response) => return Ok(response),
        }
    }
    let rejections = (last.action == WebhookAction::Refused).then(|| {
        // The code's own refusal, as a refused stack lists it (none for bad input: `detail` says it).
        match (last.rejection, &last.detail) {
            (Some(Some(rejection)), Some(message)) => vec![RefusedCode {
                code: stopped.clone(),
                rejection,
                with: None,
                message: message.clone(),
            }],
            _ => Vec::new(),
        }
    });
    let answer = WebhookAnswer {
        code: Some(stopped.clone()),
        releases: Some(releases),
        rejection: last.rejection,
        detail: last.detail,
        release: last.release,
        replayed: last.replayed,
        rejections,
        ..WebhookAnswer::new(last.action)
    };
    Ok(Response::from_json(&answer)?)
}

/// A stack refused before anything was written: 200 (the money has moved;
/// an error would only make Stripe deliver it again), `refused`, logged,
/// nothing recorded.
fn stack_refused(
    payment: &StackPayment,
    rejection: Option<Rejection>,
    rejections: Vec<RefusedCode>,
    detail: String,
) -> Answer {
    WebhookLine {
        payment: Some(&payment.payment_intent),
        codes: Some(&payment.codes),
        rejection: Some(rejection),
        detail: Some(&detail),
        ..WebhookLine::new(&payment.event_id, "refused_after_payment")
    }
    .write();
    let answer = WebhookAnswer {
        rejection: Some(rejection),
        rejections: Some(rejections),
        detail: Some(detail),
        ..WebhookAnswer::new(WebhookAction::Refused)
    };
    Ok(Response::from_json(&answer)?)
}

/// The webhook's own log line (the object's answers carry theirs in a header).
#[derive(Serialize)]
pub(super) struct WebhookLine<'a> {
    op: &'static str,
    event: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    payment: Option<&'a str>,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    codes: Option<&'a [Code]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejection: Option<Option<Rejection>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
}

impl<'a> WebhookLine<'a> {
    /// The line for `event`'s `outcome`, every other field left out.
    pub(super) fn new(event: &'a str, outcome: &'static str) -> WebhookLine<'a> {
        WebhookLine {
            op: "webhook",
            event,
            payment: None,
            outcome,
            codes: None,
            rejection: None,
            detail: None,
            why: None,
        }
    }

    /// Writes the line to the Worker's log.
    pub(super) fn write(&self) {
        if let Ok(line) = serde_json::to_string(self) {
            worker::console_log!("{line}");
        }
    }
}

/// One code's payment release, answered as the webhook answers it: `Ok` with
/// the code's entry (`released`, or `ignored` with why), or `Err` with the
/// object's own answer when it is a conflict or a store failure.
async fn release_one(
    env: &Env,
    code: &Code,
    release: &payments::flow::PaymentRelease,
) -> std::result::Result<std::result::Result<CodeRelease, Response>, Problem> {
    let body = serde_json::to_string(release).map_err(|e| Problem::Internal(e.to_string()))?;
    let mut response = crate::shards::send_payment_release(env, code, body).await?;
    let answer = match response.status_code() {
        200 => CodeRelease::of(code.clone(), response.json().await?),
        404 => CodeRelease::ignored(
            code.clone(),
            format!("nothing is held or captured under {}", release.key),
        ),
        _ => return Ok(Err(response)),
    };
    Ok(Ok(answer))
}

/// Each code's payment release under `template` (its `code` set to each
/// code's), in order: `Ok` with every code's entry (`ignored` for a code not
/// defined), or `Err` with the first object's answer that is a conflict or a
/// store failure (the codes before it are done; a redelivery replays them).
async fn release_codes(
    env: &Env,
    codes: &[Code],
    template: &payments::flow::PaymentRelease,
) -> std::result::Result<std::result::Result<Vec<CodeRelease>, Response>, Problem> {
    let mut releases = Vec::with_capacity(codes.len());
    for code in codes {
        if !is_known(env, code).await? {
            releases.push(CodeRelease::ignored(
                code.clone(),
                format!("no promo code {code} is defined"),
            ));
            continue;
        }
        let release = payments::flow::PaymentRelease {
            code: code.as_str().to_owned(),
            ..template.clone()
        };
        match release_one(env, code, &release).await? {
            Ok(answer) => releases.push(answer),
            Err(response) => return Ok(Err(response)),
        }
    }
    Ok(Ok(releases))
}

/// `payment_intent.canceled`, `payment_intent.payment_failed` or a full
/// `charge.refunded` for a stack: every code's use under the payment given
/// back, as each code's own release would (a failed or cancelled payment
/// releases holds only), one answer per code (`releases`). `released` when
/// any code gave a use back, `ignored` otherwise; a conflict or a store
/// failure is answered as is, and the redelivery replays the codes done.
async fn release_stack(env: &Env, event_id: &str, codes: &[Code], template: payments::flow::PaymentRelease) -> Answer {
    let releases = match release_codes(env, codes, &template).await? {
        Ok(releases) => releases,
        Err(response) => return Ok(response),
    };
    let released = releases.iter().any(|r| r.action == WebhookAction::Released);
    if !released {
        WebhookLine {
            why: Some("nothing to release"),
            codes: Some(codes),
            ..WebhookLine::new(event_id, "ignored")
        }
        .write();
    }
    let action = if released {
        WebhookAction::Released
    } else {
        WebhookAction::Ignored
    };
    let answer = WebhookAnswer {
        releases: Some(releases),
        ..WebhookAnswer::new(action)
    };
    Ok(Response::from_json(&answer)?)
}

/// A webhook answered 200 with nothing to do, logged.
fn webhook_ignored(event_id: &str, why: &str) -> Answer {
    WebhookLine {
        why: Some(why),
        ..WebhookLine::new(event_id, "ignored")
    }
    .write();
    Ok(Response::from_json(&WebhookAnswer::ignored(why))?)
}
