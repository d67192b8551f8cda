//! The checkout: quotes, holds, captures and releases, forwarded to the
//! code's object, which decides each with the core.

use promocodes::api::{BasketRequest, BasketRequestKind, ReleaseRequest};
use promocodes::{Code, IdempotencyKey};
use serde_json::json;
use worker::{Env, Request};

use super::{limit_public, routing, Answer};
use crate::clients::{self, require_known, to_ledger_logged};
use crate::http::{idempotency_key, is_trusted, read_body};
use crate::limits::{BASKET_BODY_LIMIT, DEFAULT_BODY_LIMIT};
use crate::problem::Problem;
use crate::protocol::{Call, IDEMPOTENCY_KEY_HEADER, TEST_CONFLICT_HEADER};

/// `POST /v1/quotes`: public without a customer; a quote for a named
/// customer tells whether that customer may use the code, so it needs a
/// server's token.
pub async fn quote(req: &Request, env: &Env) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let routing = routing(&body, BasketRequestKind::Quote)?;
    if routing.customer.is_some() && !trusted {
        // Bad input is still named as such; a valid quote for a customer needs the token.
        BasketRequest::parse(&body, BasketRequestKind::Quote)?;
        return Err(Problem::Unauthorized);
    }
    quote_through_ledger(env, &routing.code, body).await
}

/// The quote path shared by `POST /v1/quotes` and the demo route.
pub(crate) async fn quote_through_ledger(env: &Env, code: &Code, body: String) -> Answer {
    require_known(env, code).await?;
    clients::call(env, code, Call::Quote, Some(body)).await
}

/// `POST /v1/holds` and `POST /v1/captures`: an `Idempotency-Key` (the
/// capture token is checked by the route table).
pub async fn keyed(req: &Request, env: &Env, kind: BasketRequestKind) -> Answer {
    let key = idempotency_key(req)?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let conflict = req.headers().get(TEST_CONFLICT_HEADER)?.is_some() && cfg!(feature = "conformance");
    keyed_through_ledger(env, kind, &key, body, conflict).await
}

/// Runs a hold, capture or release (`op`) and, if it is refused before the
/// code's object decides it (a token, a header, the body, an unknown code),
/// writes its one JSON log line here: the outcome `problem`, with the
/// problem's type, and `code` only for an unknown code (`null` otherwise).
pub async fn logged_if_refused(op: &str, answer: impl std::future::Future<Output = Answer>) -> Answer {
    let started = worker::Date::now().as_millis();
    let answer = answer.await;
    if let Err(problem) = &answer {
        let ms = worker::Date::now().as_millis().saturating_sub(started);
        let code = match problem {
            Problem::UnknownCode(code) => Some(code),
            _ => None,
        };
        let line = json!({ "code": code, "op": op, "outcome": "problem", "problem": problem.slug(), "ms": ms });
        worker::console_log!("{line}");
    }
    answer
}

/// The hold and capture path shared by the API and the demo routes.
pub(crate) async fn keyed_through_ledger(
    env: &Env,
    kind: BasketRequestKind,
    key: &IdempotencyKey,
    body: String,
    conflict: bool,
) -> Answer {
    let routing = routing(&body, kind)?;
    // An unknown code is answered without addressing (and so creating) an object; a known one costs
    // the catalog's answer once per isolate.
    require_known(env, &routing.code).await?;
    let call = if kind == BasketRequestKind::Hold {
        Call::Hold
    } else {
        Call::Capture
    };
    let mut headers = vec![(IDEMPOTENCY_KEY_HEADER, key.as_str())];
    if conflict {
        headers.push((TEST_CONFLICT_HEADER, "1"));
    }
    let request = call.request(&routing.code, &[], Some(body), &headers)?;
    to_ledger_logged(env, &routing.code, request).await
}

/// `POST /v1/releases`: `{code, key, reason?}` (the capture token is checked by the route table).
pub async fn release(req: &Request, env: &Env) -> Answer {
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    release_through_ledger(env, body).await
}

pub(crate) async fn release_through_ledger(env: &Env, body: String) -> Answer {
    let release = ReleaseRequest::from_json(&body)?;
    require_known(env, &release.code).await?;
    let request = Call::Release.request(&release.code, &[], Some(body), &[])?;
    to_ledger_logged(env, &release.code, request).await
}
