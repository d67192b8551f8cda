/*!
The promocodes edge Worker: capture through one Durable Object per code.

The Worker translates HTTP to the core crate and back; every rule lives in
`promocodes`. A request goes through three steps:

1. **Route, authenticate, validate** ([`fetch`]): the path and method, the
   bearer token (compared in constant time), the `Idempotency-Key`, the body
   (at most [`problem::BODY_LIMIT`] bytes, parsed by the core's
   [`promocodes::api::BasketRequest`] or [`promocodes::PromoCode::from_json`]).
   Bad input stops here with a 4xx and touches no object.
2. **Forward** to the code's [`ledger::Ledger`] (`id_from_name(code)`), a
   SQLite-backed Durable Object.
3. **Decide** in the object: the core's [`promocodes::capture`] against
   [`sqlite::SqliteRedemptionStore`], whose `record` is one `transactionSync`.

Every error is a [`problem::Problem`], mapped to `application/problem+json`
in one place.

| route | auth | answer |
|---|---|---|
| `PUT /v1/codes/{code}` | `ADMIN_TOKEN` | 201 created / 200 replaced, the definition |
| `GET /v1/codes/{code}` | none | the public definition, `usage: {total}`, `remaining` |
| `POST /v1/quotes` | none | 200 quote / 422 rejection |
| `POST /v1/captures` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 receipt / 200 replay / 422 / 409 |
| `GET /v1/codes/{code}/redemptions?after=&limit=` | `ADMIN_TOKEN` | receipts oldest first, `next` cursor |
| `POST /demo/pay` | none, only with `DEMO` set | as a capture, keyed by the checkout attempt |
*/

#![deny(missing_docs)]

// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod ledger;
pub mod problem;
pub mod sqlite;
pub mod stripe;

use promocodes::api::BasketRequest;
use promocodes::{from_json, Code, CustomerId, IdempotencyKey, Money, PromoCode};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use worker::{event, Context, Env, Headers, Method, Request, RequestInit, Response, Result};

use crate::problem::{Problem, BODY_LIMIT};

/// The Durable Object binding in `wrangler.toml`.
pub const LEDGER_BINDING: &str = "LEDGER";

type Answer = std::result::Result<Response, Problem>;

/// The Worker's entry point: every `/v1/*` and `/demo/*` request, and any
/// other path with no static asset.
#[event(fetch)]
pub async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    match route(req, &env).await {
        Ok(response) => Ok(response),
        Err(problem) => problem.into_response(),
    }
}

fn allow(req: &Request, allowed: &'static str, methods: &[Method]) -> std::result::Result<(), Problem> {
    if methods.contains(&req.method()) {
        Ok(())
    } else {
        Err(Problem::MethodNotAllowed { allow: allowed })
    }
}

async fn route(req: Request, env: &Env) -> Answer {
    let path = req.path();
    let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(&path).split('/').collect();
    match segments.as_slice() {
        ["v1", "codes", code] => {
            allow(&req, "GET, PUT", &[Method::Get, Method::Put])?;
            if req.method() == Method::Put {
                handle_put_code(req, env, code).await
            } else {
                handle_get_code(env, code).await
            }
        }
        ["v1", "codes", code, "redemptions"] => {
            allow(&req, "GET", &[Method::Get])?;
            handle_list(req, env, code).await
        }
        ["v1", "quotes"] => {
            allow(&req, "POST", &[Method::Post])?;
            handle_quote(req, env).await
        }
        ["v1", "captures"] => {
            allow(&req, "POST", &[Method::Post])?;
            handle_capture(req, env).await
        }
        #[cfg(feature = "conformance")]
        ["v1", "__conformance"] => {
            allow(&req, "POST", &[Method::Post])?;
            authorize(&req, env, "ADMIN_TOKEN")?;
            // A name no normalised code can have (codes are upper case).
            let stub = env
                .durable_object(LEDGER_BINDING)?
                .id_from_name("__conformance__")?
                .get_stub()?;
            Ok(stub
                .fetch_with_request(internal(Method::Post, "/conformance", None, None)?)
                .await?)
        }
        ["demo", "pay"] if demo_enabled(env) => {
            allow(&req, "POST", &[Method::Post])?;
            handle_demo_pay(req, env).await
        }
        ["v1", ..] | ["demo", ..] => Err(Problem::NotFound),
        _ => Ok(env.assets("ASSETS")?.fetch_request(req).await?),
    }
}

/// Whether the demo route is on: a non-empty `DEMO` variable other than `0` or `false`.
fn demo_enabled(env: &Env) -> bool {
    env.var("DEMO")
        .map(|v| v.to_string())
        .is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// Compares two byte strings in time that depends only on `expected`'s length.
pub fn constant_time_eq(expected: &[u8], given: &[u8]) -> bool {
    let mut diff = u8::from(expected.len() != given.len());
    for (i, e) in expected.iter().enumerate() {
        diff |= e ^ given.get(i).copied().unwrap_or(0);
    }
    diff == 0
}

/// Checks `Authorization: Bearer <secret>` against the secret `name`.
fn authorize(req: &Request, env: &Env, name: &'static str) -> std::result::Result<(), Problem> {
    let secret = env
        .secret(name)
        .map(|s| s.to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .ok_or(Problem::Misconfigured(name))?;
    let header = req.headers().get("authorization")?.unwrap_or_default();
    let token = header
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .ok_or(Problem::Unauthorized)?;
    if constant_time_eq(secret.as_bytes(), token.as_bytes()) {
        Ok(())
    } else {
        Err(Problem::Unauthorized)
    }
}

/// Reads a body of at most [`BODY_LIMIT`] bytes as UTF-8.
async fn read_body(mut req: Request) -> std::result::Result<String, Problem> {
    let declared = req.headers().get("content-length")?.and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        return Err(Problem::PayloadTooLarge);
    }
    let bytes = req.bytes().await?;
    if bytes.len() > BODY_LIMIT {
        return Err(Problem::PayloadTooLarge);
    }
    String::from_utf8(bytes).map_err(|_| {
        Problem::Input(promocodes::InputError::Malformed {
            path: ".".to_owned(),
            message: "the body is not UTF-8".to_owned(),
        })
    })
}

/// An internal request to a [`ledger::Ledger`].
fn internal(method: Method, path: &str, body: Option<String>, key: Option<&IdempotencyKey>) -> Result<Request> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    if let Some(key) = key {
        headers.set("idempotency-key", key.as_str())?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    if let Some(body) = body {
        init.with_body(Some(JsValue::from_str(&body)));
    }
    Request::new_with_init(&format!("https://ledger{path}"), &init)
}

/// Sends `req` to the object of `code`.
async fn to_ledger(env: &Env, code: &Code, req: Request) -> Answer {
    let stub = env
        .durable_object(LEDGER_BINDING)?
        .id_from_name(code.as_str())?
        .get_stub()?;
    Ok(stub.fetch_with_request(req).await?)
}

fn code_query(path: &str, code: &Code) -> String {
    format!("{path}?code={code}")
}

async fn handle_put_code(req: Request, env: &Env, code: &str) -> Answer {
    authorize(&req, env, "ADMIN_TOKEN")?;
    let code = Code::parse(code)?;
    let body = read_body(req).await?;
    let promo = PromoCode::from_json(&body)?;
    if promo.code() != &code {
        return Err(Problem::CodeMismatch {
            path: code,
            body: promo.code().clone(),
        });
    }
    to_ledger(env, &code, internal(Method::Put, "/definition", Some(body), None)?).await
}

async fn handle_get_code(env: &Env, code: &str) -> Answer {
    let code = Code::parse(code)?;
    let path = code_query("/definition", &code);
    to_ledger(env, &code, internal(Method::Get, &path, None, None)?).await
}

async fn handle_list(req: Request, env: &Env, code: &str) -> Answer {
    authorize(&req, env, "ADMIN_TOKEN")?;
    let code = Code::parse(code)?;
    let url = req.url()?;
    let mut path = code_query("/redemptions", &code);
    for (name, value) in url.query_pairs() {
        if name == "after" || name == "limit" {
            let value: String = js_sys_encode(&value);
            path.push_str(&format!("&{name}={value}"));
        }
    }
    to_ledger(env, &code, internal(Method::Get, &path, None, None)?).await
}

/// Percent-encodes a query value.
fn js_sys_encode(value: &str) -> String {
    String::from(worker::js_sys::encode_uri_component(value))
}

async fn handle_quote(req: Request, env: &Env) -> Answer {
    let body = read_body(req).await?;
    let basket = BasketRequest::from_json(&body)?;
    to_ledger(env, &basket.code, internal(Method::Post, "/quote", Some(body), None)?).await
}

fn idempotency_key(req: &Request) -> std::result::Result<IdempotencyKey, Problem> {
    let key = req
        .headers()
        .get("idempotency-key")?
        .ok_or(Problem::MissingIdempotencyKey)?;
    Ok(IdempotencyKey::parse(&key)?)
}

async fn handle_capture(req: Request, env: &Env) -> Answer {
    authorize(&req, env, "CAPTURE_TOKEN")?;
    let key = idempotency_key(&req)?;
    let body = read_body(req).await?;
    capture_through_ledger(env, &key, body).await
}

/// The capture path shared by `POST /v1/captures` and the demo route.
async fn capture_through_ledger(env: &Env, key: &IdempotencyKey, body: String) -> Answer {
    let basket = BasketRequest::from_json(&body)?;
    to_ledger(
        env,
        &basket.code,
        internal(Method::Post, "/capture", Some(body), Some(key))?,
    )
    .await
}

/// The demo checkout's "Pay": `{code, total, customer?, attempt}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoPay {
    code: Code,
    total: Money,
    #[serde(default)]
    customer: Option<CustomerId>,
    attempt: String,
}

#[derive(Serialize)]
struct Basket<'a> {
    code: &'a Code,
    total: &'a Money,
    #[serde(skip_serializing_if = "Option::is_none")]
    customer: Option<&'a CustomerId>,
}

/// `POST /demo/pay`: plays the payment provider's webhook on the server
/// side, so the page never holds the capture token. The idempotency key is
/// `demo-<attempt>`, fixed per checkout attempt, so a double click is one
/// redemption.
async fn handle_demo_pay(req: Request, env: &Env) -> Answer {
    let body = read_body(req).await?;
    let pay: DemoPay = from_json(&body)?;
    let key = IdempotencyKey::parse(&format!("demo-{}", pay.attempt))?;
    // The server-side caller holds the capture token; check it is configured.
    env.secret("CAPTURE_TOKEN")
        .ok()
        .filter(|s| !s.to_string().is_empty())
        .ok_or(Problem::Misconfigured("CAPTURE_TOKEN"))?;
    let basket = Basket {
        code: &pay.code,
        total: &pay.total,
        customer: pay.customer.as_ref(),
    };
    let body = serde_json::to_string(&basket).map_err(|e| Problem::Internal(e.to_string()))?;
    capture_through_ledger(env, &key, body).await
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn constant_time_eq_compares_bytes_and_lengths() {
        assert!(constant_time_eq(b"s3cret", b"s3cret"));
        assert!(!constant_time_eq(b"s3cret", b"s3cre"));
        assert!(!constant_time_eq(b"s3cret", b"s3cret!"));
        assert!(!constant_time_eq(b"s3cret", b"S3cret"));
        assert!(!constant_time_eq(b"s3cret", b""));
    }
}
