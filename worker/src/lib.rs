/*!
The promocodes edge Worker: capture through one Durable Object per code.

The Worker translates HTTP to the core crate and back; every rule lives in
`promocodes`. A request goes through three steps:

1. **Route, authenticate, validate** ([`fetch`]): the path (its code
   percent-decoded) and method, the bearer token (compared in constant
   time), the `Idempotency-Key`, the rate limit on public routes
   ([`ratelimit`]), the body (read as a stream up to the route's limit in
   [`limits`], parsed by the core's [`promocodes::api::BasketRequest`] or
   [`promocodes::PromoCode::from_json`]). Bad input stops here with a 4xx
   and touches no object.
2. **Forward** to the code's [`ledger::Ledger`] (`id_from_name(code)`), a
   SQLite-backed Durable Object.
3. **Decide** in the object: the core's [`promocodes::capture`] against
   [`sqlite::SqliteRedemptionStore`], whose `record` is one `transactionSync`.

Every error is a [`problem::Problem`], mapped to `application/problem+json`
in one place. Public routes answer CORS ([`cors`]); the others never do.

| route | auth | answer |
|---|---|---|
| `PUT /v1/codes/{code}` | `ADMIN_TOKEN` | 201 created / 200 replaced, the definition |
| `GET`/`HEAD /v1/codes/{code}` | none (public, rate limited) | the public definition, `usage: {total}`, `remaining` |
| `POST /v1/quotes` | none without `customer` (public, rate limited); with one, `CAPTURE_TOKEN` or `ADMIN_TOKEN` | 200 quote / 422 rejection |
| `POST /v1/captures` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 receipt / 200 replay / 422 / 409 |
| `GET`/`HEAD /v1/codes/{code}/redemptions?after=&limit=` | `ADMIN_TOKEN` | receipts oldest first, `next` cursor |
| `POST /demo/quote` | none, only with `DEMO` set | as a quote with a customer, on the server side |
| `POST /demo/pay` | none, only with `DEMO` set | as a capture, keyed by the checkout attempt |
*/

#![deny(missing_docs)]

pub mod cors;
pub mod http;
// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod ledger;
pub mod limits;
pub mod problem;
pub mod ratelimit;
pub mod sqlite;
pub mod stripe;

use promocodes::api::BasketRequest;
use promocodes::{from_json, Code, CustomerId, IdempotencyKey, Money, PromoCode};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use worker::{event, Context, Env, Headers, Method, Request, RequestInit, Response, Result};

use crate::cors::Cors;
use crate::http::{authorize, idempotency_key, is_trusted, path_code, read_body, Role};
use crate::limits::{BASKET_BODY_LIMIT, DEFINITION_BODY_LIMIT};
use crate::problem::Problem;

/// The Durable Object binding in `wrangler.toml`.
pub const LEDGER_BINDING: &str = "LEDGER";

type Answer = std::result::Result<Response, Problem>;

/// The routes, as the path names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route<'a> {
    /// `/v1/codes/{code}`: public `GET`/`HEAD`, admin `PUT`.
    Code(&'a str),
    /// `/v1/codes/{code}/redemptions`: admin.
    Redemptions(&'a str),
    /// `/v1/quotes`: public.
    Quotes,
    /// `/v1/captures`: capture token.
    Captures,
    /// `/v1/__conformance`: test builds only.
    #[cfg(feature = "conformance")]
    Conformance,
    /// `/demo/quote`, only with `DEMO` set.
    DemoQuote,
    /// `/demo/pay`, only with `DEMO` set.
    DemoPay,
    /// Any other `/v1/*` or `/demo/*` path.
    NotFound,
    /// Everything else: the static assets.
    Asset,
}

impl<'a> Route<'a> {
    fn of(path: &'a str, demo: bool) -> Route<'a> {
        let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
        match segments.as_slice() {
            ["v1", "codes", code] => Route::Code(code),
            ["v1", "codes", code, "redemptions"] => Route::Redemptions(code),
            ["v1", "quotes"] => Route::Quotes,
            ["v1", "captures"] => Route::Captures,
            #[cfg(feature = "conformance")]
            ["v1", "__conformance"] => Route::Conformance,
            ["demo", "quote"] if demo => Route::DemoQuote,
            ["demo", "pay"] if demo => Route::DemoPay,
            ["v1", ..] | ["demo", ..] => Route::NotFound,
            _ => Route::Asset,
        }
    }

    /// Public requests answer CORS (and, but for preflights, are rate limited
    /// per address): a code's lookup and a quote. The admin `PUT` on a code's
    /// path is not public.
    fn is_public(self, method: &Method) -> bool {
        match self {
            Route::Code(_) => matches!(method, Method::Get | Method::Head | Method::Options),
            Route::Quotes => matches!(method, Method::Post | Method::Options),
            _ => false,
        }
    }
}

/// The Worker's entry point: every `/v1/*` and `/demo/*` request, and any
/// other path with no static asset.
#[event(fetch)]
pub async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let path = req.path();
    let route = Route::of(&path, demo_enabled(&env));
    if route == Route::Asset {
        return env.assets("ASSETS")?.fetch_request(req).await;
    }
    let cors = if route.is_public(&req.method()) {
        Cors::for_request(&req, &env).ok()
    } else {
        None
    };
    let head = req.method() == Method::Head;
    let mut response = match dispatch(route, req, &env, cors.as_ref()).await {
        Ok(response) => response,
        Err(problem) => problem.into_response()?,
    };
    if head {
        response = http::without_body(response);
    }
    match cors {
        Some(cors) => cors.apply(response).or_else(Problem::into_response),
        None => Ok(response),
    }
}

const CODE_METHODS: &str = "GET, HEAD, OPTIONS, PUT";
const CODE_PUBLIC_METHODS: &str = "GET, HEAD";
const LIST_METHODS: &str = "GET, HEAD";
const QUOTE_METHODS: &str = "POST";
const QUOTE_ALLOW: &str = "OPTIONS, POST";
const POST_ONLY: &str = "POST";

fn not_allowed(allow: &'static str) -> Answer {
    Err(Problem::MethodNotAllowed { allow })
}

fn preflight(cors: Option<&Cors>, methods: &'static str) -> Answer {
    cors.map_or_else(|| Cors::default().preflight(methods), |c| c.preflight(methods))
}

/// The routing table: one small handler per route and method.
async fn dispatch(route: Route<'_>, req: Request, env: &Env, cors: Option<&Cors>) -> Answer {
    let method = req.method();
    match (route, method) {
        (Route::Code(code), Method::Get | Method::Head) => handle_get_code(&req, env, code).await,
        (Route::Code(code), Method::Put) => handle_put_code(&req, env, code).await,
        (Route::Code(_), Method::Options) => preflight(cors, CODE_PUBLIC_METHODS),
        (Route::Code(_), _) => not_allowed(CODE_METHODS),
        (Route::Redemptions(code), Method::Get | Method::Head) => handle_list(&req, env, code).await,
        (Route::Redemptions(_), _) => not_allowed(LIST_METHODS),
        (Route::Quotes, Method::Post) => handle_quote(&req, env).await,
        (Route::Quotes, Method::Options) => preflight(cors, QUOTE_METHODS),
        (Route::Quotes, _) => not_allowed(QUOTE_ALLOW),
        (Route::Captures, Method::Post) => handle_capture(&req, env).await,
        #[cfg(feature = "conformance")]
        (Route::Conformance, Method::Post) => handle_conformance(&req, env).await,
        (Route::DemoQuote, Method::Post) => handle_demo_quote(&req, env).await,
        (Route::DemoPay, Method::Post) => handle_demo_pay(&req, env).await,
        (Route::Captures | Route::DemoQuote | Route::DemoPay, _) => not_allowed(POST_ONLY),
        #[cfg(feature = "conformance")]
        (Route::Conformance, _) => not_allowed(POST_ONLY),
        (Route::NotFound | Route::Asset, _) => Err(Problem::NotFound),
    }
}

/// Whether the demo routes are on: a non-empty `DEMO` variable other than `0` or `false`.
fn demo_enabled(env: &Env) -> bool {
    env.var("DEMO")
        .map(|v| v.to_string())
        .is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
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

/// Sends `req` to the object named `name`.
async fn to_object(env: &Env, name: &str, req: Request) -> Answer {
    let stub = env.durable_object(LEDGER_BINDING)?.id_from_name(name)?.get_stub()?;
    Ok(stub.fetch_with_request(req).await?)
}

/// Sends `req` to the object of `code`.
async fn to_ledger(env: &Env, code: &Code, req: Request) -> Answer {
    to_object(env, code.as_str(), req).await
}

fn code_query(path: &str, code: &Code) -> String {
    format!("{path}?code={code}")
}

/// Public requests are rate limited per address, unless a server of the shop (a valid token) sends them.
async fn limit_public(req: &Request, env: &Env, trusted: bool) -> std::result::Result<(), Problem> {
    if trusted {
        Ok(())
    } else {
        ratelimit::check(req, env).await
    }
}

async fn handle_put_code(req: &Request, env: &Env, code: &str) -> Answer {
    authorize(req, env, Role::Admin)?;
    let code = path_code(code)?;
    let body = read_body(req, DEFINITION_BODY_LIMIT).await?;
    let promo = PromoCode::from_json(&body)?;
    if promo.code() != &code {
        return Err(Problem::CodeMismatch {
            path: code,
            body: promo.code().clone(),
        });
    }
    to_ledger(env, &code, internal(Method::Put, "/definition", Some(body), None)?).await
}

async fn handle_get_code(req: &Request, env: &Env, code: &str) -> Answer {
    limit_public(req, env, is_trusted(req, env)?).await?;
    let code = path_code(code)?;
    let path = code_query("/definition", &code);
    to_ledger(env, &code, internal(Method::Get, &path, None, None)?).await
}

async fn handle_list(req: &Request, env: &Env, code: &str) -> Answer {
    authorize(req, env, Role::Admin)?;
    let code = path_code(code)?;
    let url = req.url()?;
    let mut path = code_query("/redemptions", &code);
    for (name, value) in url.query_pairs() {
        if name == "after" || name == "limit" {
            path.push_str(&format!("&{name}={}", encode_query_value(&value)));
        }
    }
    to_ledger(env, &code, internal(Method::Get, &path, None, None)?).await
}

/// Percent-encodes a query value.
fn encode_query_value(value: &str) -> String {
    String::from(worker::js_sys::encode_uri_component(value))
}

/// `POST /v1/quotes`: public without a customer; a quote for a named
/// customer tells whether that customer may use the code, so it needs a
/// server's token.
async fn handle_quote(req: &Request, env: &Env) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let basket = BasketRequest::from_json(&body)?;
    if basket.customer.is_some() && !trusted {
        return Err(Problem::Unauthorized);
    }
    quote_through_ledger(env, &basket.code, body).await
}

/// The quote path shared by `POST /v1/quotes` and the demo route.
async fn quote_through_ledger(env: &Env, code: &Code, body: String) -> Answer {
    to_ledger(env, code, internal(Method::Post, "/quote", Some(body), None)?).await
}

async fn handle_capture(req: &Request, env: &Env) -> Answer {
    authorize(req, env, Role::Capture)?;
    let key = idempotency_key(req)?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
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

#[cfg(feature = "conformance")]
async fn handle_conformance(req: &Request, env: &Env) -> Answer {
    authorize(req, env, Role::Admin)?;
    // A name no normalised code can have (codes are upper case).
    to_object(
        env,
        "__conformance__",
        internal(Method::Post, "/conformance", None, None)?,
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

/// `POST /demo/quote`: plays the shop's server quoting for a named customer,
/// so the demo page never holds a token. The body is a quote's.
async fn handle_demo_quote(req: &Request, env: &Env) -> Answer {
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let basket = BasketRequest::from_json(&body)?;
    demo_server_token(env)?;
    quote_through_ledger(env, &basket.code, body).await
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
async fn handle_demo_pay(req: &Request, env: &Env) -> Answer {
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let pay: DemoPay = from_json(&body)?;
    let key = IdempotencyKey::parse(&format!("demo-{}", pay.attempt))?;
    demo_server_token(env)?;
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
    use worker::Method;

    use super::Route;

    #[test]
    fn paths_name_routes() {
        assert_eq!(Route::of("/v1/codes/SAVE10", false), Route::Code("SAVE10"));
        assert_eq!(Route::of("/v1/codes/SAVE%2010", false), Route::Code("SAVE%2010"));
        assert_eq!(Route::of("/v1/codes/X/redemptions", false), Route::Redemptions("X"));
        assert_eq!(Route::of("/v1/quotes", false), Route::Quotes);
        assert_eq!(Route::of("/v1/captures", false), Route::Captures);
        assert_eq!(Route::of("/demo/quote", false), Route::NotFound);
        assert_eq!(Route::of("/demo/quote", true), Route::DemoQuote);
        assert_eq!(Route::of("/demo/pay", true), Route::DemoPay);
        assert_eq!(Route::of("/v1/nope", true), Route::NotFound);
        assert_eq!(Route::of("/", true), Route::Asset);
        assert_eq!(Route::of("/app.js", true), Route::Asset);
    }

    #[test]
    fn only_lookups_and_quotes_are_public() {
        for method in [Method::Get, Method::Head, Method::Options] {
            assert!(Route::of("/v1/codes/A", false).is_public(&method));
        }
        assert!(!Route::of("/v1/codes/A", false).is_public(&Method::Put));
        assert!(Route::of("/v1/quotes", false).is_public(&Method::Post));
        assert!(Route::of("/v1/quotes", false).is_public(&Method::Options));
        for path in [
            "/v1/codes/A/redemptions",
            "/v1/captures",
            "/v1/holds",
            "/demo/pay",
            "/demo/quote",
            "/",
        ] {
            for method in [Method::Get, Method::Post, Method::Options] {
                assert!(!Route::of(path, true).is_public(&method), "{method:?} {path}");
            }
        }
    }
}
