//! The demo checkout's server side (`/demo/*`, only with `DEMO` set), and the
//! test builds' conformance route.

use promocodes::api::{names_several_codes, BasketRequestKind};
use promocodes::{from_json, IdempotencyKey};
use serde_json::{Map, Value};
use worker::{Env, Request};

use super::checkout::{keyed_through_ledger, quote_through_ledger, release_through_ledger, stack_quote};
use super::{bad_param, routing, Answer, DemoStep};
#[cfg(feature = "conformance")]
use crate::clients;
use crate::http::{read_body, Role};
use crate::limits::{BASKET_BODY_LIMIT, DEMO_ATTEMPT_MAX_LEN};
use crate::problem::Problem;
#[cfg(feature = "conformance")]
use crate::protocol::{internal, Call};

/// `POST /v1/__conformance` (test builds only, admin): runs the core's store
/// conformance suite against the SQLite store inside a Durable Object.
#[cfg(feature = "conformance")]
pub async fn conformance(env: &Env) -> Answer {
    // A name no normalised code can have (codes are upper case).
    let (method, path) = Call::Conformance.route();
    clients::to_object(
        env,
        "__conformance__",
        internal(method, &format!("https://do{path}"), None, &[])?,
    )
    .await
}

/// The server-side caller of the demo routes holds the capture token; checks it is configured.
fn demo_server_token(env: &Env) -> std::result::Result<(), Problem> {
    env.secret(Role::Capture.secret_name())
        .ok()
        .filter(|s| !s.to_string().is_empty())
        .map(|_| ())
        .ok_or(Problem::Misconfigured(Role::Capture.secret_name()))
}

/// The demo checkout's steps, played as the shop's server would: the body of
/// the matching API request, plus `attempt` (the checkout attempt's id, 1
/// to [`DEMO_ATTEMPT_MAX_LEN`] visible ASCII characters, whose key
/// `demo-<attempt>` names its hold and capture), so the page never holds
/// a token. `cancel` takes `{code, attempt, reason?}`. Each takes
/// `"codes": [...]` in place of `code` for a stack, as the API does (all or
/// none; `cancel` releases every code).
pub async fn handle(req: &Request, env: &Env, step: DemoStep) -> Answer {
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    demo_server_token(env)?;
    if step == DemoStep::Quote {
        if names_several_codes(&body)? {
            // Played as the shop's server, which holds a token: a customer may be named.
            return stack_quote(env, &body, true).await;
        }
        let code = routing(&body, BasketRequestKind::Quote)?.code;
        // Played as the shop's server: the quote is exact (a sharded code's shards read now).
        return quote_through_ledger(env, &code, body, true).await;
    }
    let mut fields: Map<String, Value> = from_json(&body)?;
    let attempt = match fields.remove("attempt") {
        Some(Value::String(attempt)) => attempt,
        _ => {
            return Err(bad_param(
                "attempt",
                "missing field `attempt`, the checkout attempt's id".to_owned(),
            ))
        }
    };
    // Every call with one attempt shares its key: an empty one would make every checkout one.
    if attempt.is_empty() || attempt.len() > DEMO_ATTEMPT_MAX_LEN {
        return Err(bad_param(
            "attempt",
            format!("the checkout attempt's id must be 1 to {DEMO_ATTEMPT_MAX_LEN} characters"),
        ));
    }
    let key = IdempotencyKey::parse(&format!("demo-{attempt}")).map_err(|e| Problem::Input(e.at("attempt")))?;
    match step {
        DemoStep::Cancel => {
            /// The page's fields (`code` or `codes`, `reason`?) and its attempt's key: the API's release.
            #[derive(serde::Serialize)]
            struct Keyed<'a> {
                #[serde(flatten)]
                fields: &'a Map<String, Value>,
                key: &'a IdempotencyKey,
            }
            // The attempt names the key, whatever the page sent as `key`.
            fields.remove("key");
            let body = serde_json::to_string(&Keyed {
                fields: &fields,
                key: &key,
            })
            .map_err(|e| Problem::Internal(e.to_string()))?;
            release_through_ledger(env, body).await
        }
        DemoStep::Hold => {
            keyed_through_ledger(
                env,
                BasketRequestKind::Hold,
                &key,
                Value::Object(fields).to_string(),
                false,
            )
            .await
        }
        _ => {
            keyed_through_ledger(
                env,
                BasketRequestKind::Capture,
                &key,
                Value::Object(fields).to_string(),
                false,
            )
            .await
        }
    }
}
