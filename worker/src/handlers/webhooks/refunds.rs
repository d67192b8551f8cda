//! A full refund is final for its PaymentIntent, whichever of the refund and
//! the payment's success comes first, and whether or not the refund names the
//! codes: both meet in the catalog's payment index (see
//! [`crate::catalog::Claim`] and [`crate::catalog::Refund`]), which answers in
//! one synchronous turn, so that of two racing events the second sees the
//! first. A refund marks the payment refunded there and releases the codes
//! the index (or its charge's metadata) names; a success first claims its
//! codes there, and finds the refund if one came before: it then gives the
//! refund to each code's object (a hold under the payment's id is released)
//! and captures nothing. A success that claimed its codes first is captured,
//! and the refund that follows finds them: each code's object orders the two
//! (a refund before the capture is final there too).

use promocodes::wire::{CodeRelease, WebhookAction, WebhookAnswer};
use promocodes::Code;
use worker::{Env, Response};

use super::{release_codes, to_catalog, Answer, WebhookLine};
use crate::catalog;
use crate::payments;
use crate::problem::Problem;

/// A full refund of a payment: marked final in the catalog (whether or not its
/// codes are known), and the codes the payment is indexed under, if any.
pub(super) async fn refund_codes(
    env: &Env,
    payment: &str,
    reason: &str,
) -> std::result::Result<Option<Vec<Code>>, Problem> {
    let refund = catalog::Refund {
        payment: payment.to_owned(),
        reason: reason.to_owned(),
    };
    let found: Option<catalog::Payment> = to_catalog(env, catalog::CatalogCall::PaymentRefund(refund))
        .await?
        .json()
        .await?;
    Ok(found.and_then(|p| payments::parse_promo_codes(&p.code).ok()))
}

/// A full refund that came before any code of its payment was known (its
/// charge names none, and no success was seen): final in the catalog, so
/// that the payment's success, when it comes, captures nothing and gives
/// back a hold taken under the payment's id.
pub(super) fn refund_first(event_id: &str, payment: &str) -> Answer {
    let why = format!(
        "no code is known for {payment} yet: the full refund is recorded as final, \
         and its payment_intent.succeeded will capture nothing"
    );
    WebhookLine {
        payment: Some(payment),
        why: Some(&why),
        ..WebhookLine::new(event_id, "refunded_first")
    }
    .write();
    let answer = WebhookAnswer {
        why: Some(why),
        ..WebhookAnswer::new(WebhookAction::Released)
    };
    Ok(Response::from_json(&answer)?)
}

/// A payment's success meets a full refund of it in the catalog (see
/// [`catalog::Claim`]): `None` when no refund came first (the codes are then
/// indexed, so that a refund coming after finds them); else the refund, now
/// that the codes are known, given to each code's object (a hold under the
/// payment's id is released, and the payment is final there too), answered
/// `released`, `replayed`: nothing is captured.
pub(super) async fn refunded_before(
    env: &Env,
    event_id: &str,
    payment: &str,
    codes: &[Code],
) -> std::result::Result<Option<Response>, Problem> {
    let claim = catalog::Claim {
        payment: payment.to_owned(),
        code: codes.iter().map(Code::as_str).collect::<Vec<_>>().join(","),
    };
    let claimed: catalog::Claimed = to_catalog(env, catalog::CatalogCall::PaymentClaim(claim))
        .await?
        .json()
        .await?;
    let Some(reason) = claimed.refunded else {
        return Ok(None);
    };
    let template = payments::flow::PaymentRelease {
        code: String::new(),
        key: payment.to_owned(),
        reason,
        holds_only: false,
    };
    let releases = match release_codes(env, codes, &template).await? {
        Ok(releases) => releases,
        // A conflict or a store failure: Stripe delivers again, and finds the refund again.
        Err(response) => return Ok(Some(response)),
    };
    WebhookLine {
        payment: Some(payment),
        why: Some("refunded before"),
        ..WebhookLine::new(event_id, "replayed")
    }
    .write();
    let mut answer = WebhookAnswer {
        replayed: Some(true),
        ..WebhookAnswer::new(WebhookAction::Released)
    };
    match <[CodeRelease; 1]>::try_from(releases) {
        Ok([one]) if codes.len() == 1 => match one.release {
            Some(release) => answer.release = Some(release),
            None => answer.why = one.why,
        },
        Ok(one) => answer.releases = Some(one.into()),
        Err(releases) => answer.releases = Some(releases),
    }
    Ok(Some(Response::from_json(&answer)?))
}
