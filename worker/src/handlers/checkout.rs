//! The checkout: quotes, holds, captures and releases, forwarded to the
//! code's object, which decides each with the core.

use promocodes::api::{names_several_codes, BasketRequest, BasketRequestKind, ReleaseRequest, StackRequest};
use promocodes::{Code, IdempotencyKey, PromoCode, Stack, UsageCounts};
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
    if names_several_codes(&body)? {
        return stack_quote(env, &body, trusted).await;
    }
    let routing = routing(&body, BasketRequestKind::Quote)?;
    if routing.customer.is_some() && !trusted {
        // Bad input is still named as such; a valid quote for a customer needs the token.
        BasketRequest::parse(&body, BasketRequestKind::Quote)?;
        return Err(Problem::Unauthorized);
    }
    quote_through_ledger(env, &routing.code, body).await
}

/// `POST /v1/quotes` with `"codes": [...]`: each code's whole definition and
/// usage from its object, then the core's [`Stack`] prices the basket with
/// them all (nothing is recorded). A refused stack is 422 with `rejections`.
async fn stack_quote(env: &Env, body: &str, trusted: bool) -> Answer {
    #[derive(serde::Deserialize)]
    struct Part {
        definition: PromoCode,
        usage: UsageCounts,
    }
    let req = StackRequest::parse(body)?;
    if req.customer.is_some() && !trusted {
        return Err(Problem::Unauthorized);
    }
    let mut promos = Vec::with_capacity(req.codes.len());
    let mut usage = Vec::with_capacity(req.codes.len());
    for code in &req.codes {
        require_known(env, code).await?;
        let asked = json!({ "customer": req.customer }).to_string();
        let mut response = clients::call(env, code, Call::StackPart, Some(asked)).await?;
        if response.status_code() != 200 {
            // The object's own problem (an archived code: unknown), as it answered it.
            return Ok(response);
        }
        let part: Part = serde_json::from_str(&response.text().await?)
            .map_err(|err| Problem::Internal(format!("the object of {code} answered: {err}")))?;
        promos.push(part.definition);
        usage.push(part.usage);
    }
    let stack = Stack::new(promos)?;
    match stack.quote(req.customer.as_ref(), &usage, &req.basket, crate::ledger::now()?) {
        Ok(quote) => crate::ledger::json_response(&quote, 200),
        Err(refused) => Err(Problem::StackRefused(refused)),
    }
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
