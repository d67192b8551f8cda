/*!
The promocodes edge Worker: capture through one Durable Object per code.

The Worker translates HTTP to the core crate and back; every rule lives in
`promocodes`. A request goes through three steps:

1. **Route and authenticate** (`fetch`): the path (its code
   percent-decoded) and method, the bearer token (compared in constant
   time), the `Idempotency-Key`, the rate limit on public routes
   ([`ratelimit`]), the body (read as a stream up to the route's limit in
   [`limits`]). Only the code is read from the body here, to route it.
2. **Forward** to the code's [`ledger::Ledger`] (`id_from_name(code)`), a
   SQLite-backed Durable Object, with the body as it came. Public requests
   first make sure the code was ever defined ([`catalog::Catalog`]), since
   addressing an object creates it: a guessed code writes nothing.
3. **Decide** in the object: it parses the body once with the core's
   request shapes and runs the core's [`promocodes::hold`],
   [`promocodes::capture`] or [`promocodes::release`] against
   [`sqlite::SqliteRedemptionStore`], each write one `transactionSync`.

Every error is a [`problem::Problem`], mapped to `application/problem+json`
in one place. Public routes answer CORS ([`cors`]); the others never do.

| route | auth | answer |
|---|---|---|
| `GET /v1/codes?prefix=&after=&limit=&archived=` | `ADMIN_TOKEN` | the catalog, in code order, with usage |
| `PUT /v1/codes/{code}` | `ADMIN_TOKEN` | 201 created / 200 replaced (or restored), the definition |
| `PATCH /v1/codes/{code}` | `ADMIN_TOKEN` | `{"active": bool}`: the kill switch |
| `DELETE /v1/codes/{code}` | `ADMIN_TOKEN` | archives the code; its history stays |
| `GET`/`HEAD /v1/codes/{code}` | none (public, rate limited) | the public definition, `usage: {total, held}`, `remaining` |
| `GET /v1/codes/{code}/redemptions?after=&limit=` | `ADMIN_TOKEN` | every hold and capture, oldest first, with its state |
| `GET /v1/codes/{code}/stats` | `ADMIN_TOKEN` | captures, replays, holds, releases, expiries, conflicts, rejections |
| `POST /v1/quotes` | none without `customer` (public, rate limited); with one, a token | 200 quote / 422 rejection |
| `POST /v1/holds` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 hold / 200 replay / 422 / 409 |
| `POST /v1/captures` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 receipt / 200 replay / 422 / 409 |
| `POST /v1/releases` | `CAPTURE_TOKEN` | 200 released (or replayed) / 404 unknown key |
| `POST /demo/{quote,hold,pay,cancel}` | none, only with `DEMO` set | the same, on the server side, keyed by the checkout attempt |
| `GET`/`HEAD /v1/openapi.json` | none | [`OPENAPI`]: this API's OpenAPI 3.1 description |
*/

#![deny(missing_docs)]

// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod catalog;
pub mod cors;
pub mod edge_cache;
pub mod http;
// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod ledger;
pub mod limits;
pub mod problem;
pub mod ratelimit;
pub mod sqlite;
pub mod stats;
pub mod stripe;

use std::cell::RefCell;
use std::collections::HashSet;

use promocodes::api::{BasketRequest, BasketRequestKind, CodePatch, ReleaseRequest};
use promocodes::{from_json, Code, IdempotencyKey, InputError, PromoCode};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use worker::{event, Context, Env, Headers, Method, Request, RequestInit, Response, Result};

use crate::catalog::{Change, Entry, Page};
use crate::cors::Cors;
use crate::http::{authorize, idempotency_key, is_trusted, path_code, read_body, Role};
use crate::limits::{BASKET_BODY_LIMIT, DEFAULT_BODY_LIMIT, DEFINITION_BODY_LIMIT};
use crate::limits::{WEBHOOK_BODY_LIMIT, WEBHOOK_TOLERANCE_SECONDS};
use crate::problem::Problem;

/// The code objects' binding in `wrangler.toml`.
pub const LEDGER_BINDING: &str = "LEDGER";
/// The catalog's binding in `wrangler.toml`.
pub const CATALOG_BINDING: &str = "CATALOG";
/// The catalog's one object.
pub const CATALOG_NAME: &str = "catalog";
/// The OpenAPI 3.1 description of every route, `docs/openapi.json`, served at `GET /v1/openapi.json`.
pub const OPENAPI: &str = include_str!("../../docs/openapi.json");

type Answer = std::result::Result<Response, Problem>;

/// The routes, as the path names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route<'a> {
    /// `/v1/codes`: the catalog, admin.
    Codes,
    /// `/v1/codes/{code}`: public `GET`/`HEAD`, admin `PUT`, `PATCH`, `DELETE`.
    Code(&'a str),
    /// `/v1/codes/{code}/redemptions`: admin.
    Redemptions(&'a str),
    /// `/v1/codes/{code}/stats`: admin.
    Stats(&'a str),
    /// `/v1/quotes`: public.
    Quotes,
    /// `/v1/holds`: capture token.
    Holds,
    /// `/v1/captures`: capture token.
    Captures,
    /// `/v1/releases`: capture token.
    Releases,
    /// `/v1/webhooks/stripe`: Stripe's signature.
    StripeWebhook,
    /// `/v1/openapi.json`: public.
    OpenApi,
    /// `/v1/__conformance`: test builds only.
    #[cfg(feature = "conformance")]
    Conformance,
    /// `/v1/__figures/{code}`: test builds only, admin.
    #[cfg(feature = "conformance")]
    FigureWrites(&'a str),
    /// `/demo/{quote,hold,pay,cancel}`, only with `DEMO` set.
    Demo(DemoStep),
    /// Any other `/v1/*` or `/demo/*` path.
    NotFound,
    /// Everything else: the static assets.
    Asset,
}

/// A step of the demo checkout, played on the server side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DemoStep {
    Quote,
    Hold,
    Pay,
    Cancel,
}

impl<'a> Route<'a> {
    fn of(path: &'a str, demo: bool) -> Route<'a> {
        let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
        match segments.as_slice() {
            ["v1", "codes"] => Route::Codes,
            ["v1", "codes", code] => Route::Code(code),
            ["v1", "codes", code, "redemptions"] => Route::Redemptions(code),
            ["v1", "codes", code, "stats"] => Route::Stats(code),
            ["v1", "quotes"] => Route::Quotes,
            ["v1", "holds"] => Route::Holds,
            ["v1", "captures"] => Route::Captures,
            ["v1", "releases"] => Route::Releases,
            ["v1", "webhooks", "stripe"] => Route::StripeWebhook,
            ["v1", "openapi.json"] => Route::OpenApi,
            #[cfg(feature = "conformance")]
            ["v1", "__conformance"] => Route::Conformance,
            #[cfg(feature = "conformance")]
            ["v1", "__figures", code] => Route::FigureWrites(code),
            ["demo", "quote"] if demo => Route::Demo(DemoStep::Quote),
            ["demo", "hold"] if demo => Route::Demo(DemoStep::Hold),
            ["demo", "pay"] if demo => Route::Demo(DemoStep::Pay),
            ["demo", "cancel"] if demo => Route::Demo(DemoStep::Cancel),
            ["v1", ..] | ["demo", ..] => Route::NotFound,
            _ => Route::Asset,
        }
    }

    /// Public requests answer CORS (and, but for preflights, are rate limited
    /// per address): a code's lookup and a quote. The admin methods on a
    /// code's path are not public.
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

const CODE_METHODS: &str = "DELETE, GET, HEAD, OPTIONS, PATCH, PUT";
const CODE_PUBLIC_METHODS: &str = "GET, HEAD";
const LIST_METHODS: &str = "GET, HEAD";
const QUOTE_METHODS: &str = "POST";
const QUOTE_ALLOW: &str = "OPTIONS, POST";
const POST_ONLY: &str = "POST";
#[cfg(feature = "conformance")]
const GET_ONLY: &str = "GET";

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
        (Route::Codes, Method::Get | Method::Head) => handle_list_codes(&req, env).await,
        (Route::Codes, _) => not_allowed(LIST_METHODS),
        (Route::Code(code), Method::Get | Method::Head) => handle_get_code(&req, env, code).await,
        (Route::Code(code), Method::Put) => handle_put_code(&req, env, code).await,
        (Route::Code(code), Method::Patch) => handle_patch_code(&req, env, code).await,
        (Route::Code(code), Method::Delete) => handle_archive_code(&req, env, code).await,
        (Route::Code(_), Method::Options) => preflight(cors, CODE_PUBLIC_METHODS),
        (Route::Code(_), _) => not_allowed(CODE_METHODS),
        (Route::Redemptions(code), Method::Get | Method::Head) => {
            handle_admin_read(&req, env, code, "/redemptions").await
        }
        (Route::Stats(code), Method::Get | Method::Head) => handle_admin_read(&req, env, code, "/stats").await,
        (Route::Redemptions(_) | Route::Stats(_), _) => not_allowed(LIST_METHODS),
        (Route::Quotes, Method::Post) => handle_quote(&req, env).await,
        (Route::Quotes, Method::Options) => preflight(cors, QUOTE_METHODS),
        (Route::Quotes, _) => not_allowed(QUOTE_ALLOW),
        (Route::Holds, Method::Post) => handle_keyed(&req, env, BasketRequestKind::Hold).await,
        (Route::Captures, Method::Post) => handle_keyed(&req, env, BasketRequestKind::Capture).await,
        (Route::Releases, Method::Post) => handle_release(&req, env).await,
        (Route::StripeWebhook, Method::Post) => handle_stripe_webhook(&req, env).await,
        (Route::OpenApi, Method::Get | Method::Head) => openapi(),
        (Route::OpenApi, _) => not_allowed(LIST_METHODS),
        #[cfg(feature = "conformance")]
        (Route::Conformance, Method::Post) => handle_conformance(&req, env).await,
        #[cfg(feature = "conformance")]
        (Route::FigureWrites(code), Method::Get) => handle_admin_read(&req, env, code, "/figure-writes").await,
        (Route::Demo(step), Method::Post) => handle_demo(&req, env, step).await,
        (Route::Holds | Route::Captures | Route::Releases, _) => not_allowed(POST_ONLY),
        (Route::StripeWebhook | Route::Demo(_), _) => not_allowed(POST_ONLY),
        #[cfg(feature = "conformance")]
        (Route::Conformance, _) => not_allowed(POST_ONLY),
        #[cfg(feature = "conformance")]
        (Route::FigureWrites(_), _) => not_allowed(GET_ONLY),
        (Route::NotFound | Route::Asset, _) => Err(Problem::NotFound),
    }
}

/// `GET /v1/openapi.json`: [`OPENAPI`], as JSON.
fn openapi() -> Answer {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    Ok(Response::ok(OPENAPI)?.with_headers(headers))
}

/// Whether the demo routes are on: a non-empty `DEMO` variable other than `0` or `false`.
fn demo_enabled(env: &Env) -> bool {
    env.var("DEMO")
        .map(|v| v.to_string())
        .is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// An internal request to a Durable Object: `https://do/<path>`, a JSON body, extra headers.
fn internal(method: Method, path: &str, body: Option<String>, headers: &[(&str, &str)]) -> Result<Request> {
    let all = Headers::new();
    for (name, value) in headers {
        all.set(name, value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(all);
    if let Some(body) = body {
        init.with_body(Some(JsValue::from_str(&body)));
    }
    Request::new_with_init(&format!("https://do{path}"), &init)
}

/// Sends `req` to the code object named `name`.
async fn to_object(env: &Env, name: &str, req: Request) -> Answer {
    let stub = env.durable_object(LEDGER_BINDING)?.id_from_name(name)?.get_stub()?;
    Ok(stub.fetch_with_request(req).await?)
}

/// Sends `req` to the object of `code`.
async fn to_ledger(env: &Env, code: &Code, req: Request) -> Answer {
    to_object(env, code.as_str(), req).await
}

/// Sends a hold, capture or release to the object of `code`, and writes its
/// one JSON log line: the outcome the object decided, and the milliseconds
/// the request took there (a Worker's clock moves across I/O, not inside it).
///
/// A request that changed the code's counts after its public lookup was
/// cached (the object says `purge`) also purges that lookup: a buyer's next
/// lookup sees the change.
async fn to_ledger_logged(env: &Env, code: &Code, req: Request) -> Answer {
    let started = worker::Date::now().as_millis();
    let response = to_ledger(env, code, req).await?;
    if let Some(line) = response.headers().get(ledger::OUTCOME_HEADER)? {
        if let Ok(mut line) = serde_json::from_str::<Value>(&line) {
            if line.get("code").is_none_or(Value::is_null) {
                line["code"] = json!(code);
            }
            line["ms"] = json!(worker::Date::now().as_millis().saturating_sub(started));
            worker::console_log!("{line}");
            if line.get("purge").is_some() {
                edge_cache::purge(code).await;
            }
        }
    }
    Ok(response)
}

/// Asks the catalog, posting `body` to `path`.
async fn to_catalog(env: &Env, path: &str, body: &impl serde::Serialize) -> Answer {
    let body = serde_json::to_string(body).map_err(|e| Problem::Internal(e.to_string()))?;
    let stub = env
        .durable_object(CATALOG_BINDING)?
        .id_from_name(CATALOG_NAME)?
        .get_stub()?;
    let response = stub
        .fetch_with_request(internal(Method::Post, path, Some(body), &[])?)
        .await?;
    if response.status_code() >= 300 {
        return Err(Problem::Internal(format!(
            "the catalog answered {} to {path}",
            response.status_code()
        )));
    }
    Ok(response)
}

/// Records a definition change in the catalog: `intend` before the code's object is written, `commit` after.
async fn catalog_change(env: &Env, step: &str, code: &Code, archived: bool) -> std::result::Result<(), Problem> {
    let change = Change {
        code: code.as_str().to_owned(),
        archived,
    };
    to_catalog(env, step, &change).await.map(|_| ())
}

thread_local! {
    /// Codes this isolate has seen in the catalog. A code, once defined, stays
    /// known (an archived code's object answers 404 itself), so this never
    /// goes stale; only the unknown are asked for again.
    static KNOWN: RefCell<HashSet<Code>> = RefCell::new(HashSet::new());
}

/// The most codes an isolate remembers as known.
const KNOWN_MAX: usize = 10_000;

/// Whether `code` was ever defined, without addressing its object (which would create it).
async fn is_known(env: &Env, code: &Code) -> std::result::Result<bool, Problem> {
    if KNOWN.with(|known| known.borrow().contains(code)) {
        return Ok(true);
    }
    let change = Change {
        code: code.as_str().to_owned(),
        archived: false,
    };
    let mut response = to_catalog(env, "/exists", &change).await?;
    let entry: Option<Entry> = response.json().await?;
    let known = entry.is_some();
    if known {
        KNOWN.with(|set| {
            let mut set = set.borrow_mut();
            if set.len() >= KNOWN_MAX {
                set.clear();
            }
            set.insert(code.clone());
        });
    }
    Ok(known)
}

async fn require_known(env: &Env, code: &Code) -> std::result::Result<(), Problem> {
    if is_known(env, code).await? {
        Ok(())
    } else {
        Err(Problem::UnknownCode(code.clone()))
    }
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

/// What the Worker reads of a body to route it: the code, and whether a customer is named.
#[derive(Deserialize)]
struct Routing {
    code: Code,
    #[serde(default)]
    customer: Option<IgnoredAny>,
}

/// The code of a basket request's body. The object parses the whole body;
/// when even the code cannot be read, the whole parse names what is wrong.
fn routing(body: &str, kind: BasketRequestKind) -> std::result::Result<Routing, Problem> {
    from_json::<Routing>(body).map_err(|light| match BasketRequest::parse(body, kind) {
        Err(full) => Problem::Input(full),
        Ok(_) => Problem::Input(light),
    })
}

/// Test builds only: a header that fails the `PUT` between the code's object and the catalog.
fn injected_failure(req: &Request) -> std::result::Result<bool, Problem> {
    let asked = req.headers().get("x-test-fail-after-ledger")?.is_some();
    Ok(cfg!(feature = "conformance") && asked)
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
    catalog_change(env, "/intend", &code, false).await?;
    let response = to_ledger(env, &code, internal(Method::Put, "/definition", Some(body), &[])?).await?;
    if injected_failure(req)? {
        return Err(Problem::Internal(
            "injected failure between the code's object and the catalog".to_owned(),
        ));
    }
    if response.status_code() >= 300 {
        // The object did not write it: the pending entry is repaired (or forgotten) by the next listing.
        return Ok(response);
    }
    catalog_change(env, "/commit", &code, false).await?;
    edge_cache::purge(&code).await;
    Ok(response)
}

async fn handle_patch_code(req: &Request, env: &Env, code: &str) -> Answer {
    authorize(req, env, Role::Admin)?;
    let code = path_code(code)?;
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    CodePatch::from_json(&body)?;
    require_known(env, &code).await?;
    let path = code_query("/definition", &code);
    let response = to_ledger(env, &code, internal(Method::Patch, &path, Some(body), &[])?).await?;
    edge_cache::purge(&code).await;
    Ok(response)
}

async fn handle_archive_code(req: &Request, env: &Env, code: &str) -> Answer {
    authorize(req, env, Role::Admin)?;
    let code = path_code(code)?;
    require_known(env, &code).await?;
    catalog_change(env, "/intend", &code, true).await?;
    let path = code_query("/definition", &code);
    let response = to_ledger(env, &code, internal(Method::Delete, &path, None, &[])?).await?;
    if response.status_code() == 200 {
        catalog_change(env, "/commit", &code, true).await?;
    }
    edge_cache::purge(&code).await;
    Ok(response)
}

async fn handle_get_code(req: &Request, env: &Env, code: &str) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let code = path_code(code)?;
    if !trusted {
        if let Some(cached) = edge_cache::lookup(&code).await? {
            return Ok(cached);
        }
    }
    require_known(env, &code).await?;
    let path = code_query("/definition", &code);
    let for_cache: &[(&str, &str)] = if trusted {
        &[]
    } else {
        &[(ledger::FOR_CACHE_HEADER, "1")]
    };
    let response = to_ledger(env, &code, internal(Method::Get, &path, None, for_cache)?).await?;
    if trusted {
        let mut response = edge_cache::mutable(response).await?;
        response.headers_mut().set("cache-control", "no-store")?;
        Ok(response)
    } else {
        edge_cache::store(&code, response).await
    }
}

/// A query parameter's value, if given and not empty (`?limit=`, as a form
/// with an empty field sends it, means the default).
fn param(req: &Request, name: &str) -> std::result::Result<Option<String>, Problem> {
    let url = req.url()?;
    Ok(url
        .query_pairs()
        .find(|(k, v)| k == name && !v.is_empty())
        .map(|(_, v)| v.into_owned()))
}

fn bad_param(name: &str, message: String) -> Problem {
    Problem::Input(InputError::Malformed {
        path: name.to_owned(),
        message,
    })
}

/// `GET /v1/codes`: a page of the catalog, each code with its definition
/// (audience as `assigned`), `archived` and live `usage`, read from its
/// object. A pending entry (a `PUT` that failed before its commit) is
/// repaired from the code's object here.
async fn handle_list_codes(req: &Request, env: &Env) -> Answer {
    authorize(req, env, Role::Admin)?;
    let limit = match param(req, "limit")? {
        None => catalog::DEFAULT_PAGE,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=catalog::MAX_PAGE).contains(n))
            .ok_or_else(|| {
                bad_param(
                    "limit",
                    format!("{text:?} is not a page size from 1 to {}", catalog::MAX_PAGE),
                )
            })?,
    };
    let archived = match param(req, "archived")?.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(bad_param("archived", format!("{other:?} is neither true nor false"))),
    };
    let page = Page {
        prefix: param(req, "prefix")?.unwrap_or_default().trim().to_ascii_uppercase(),
        after: param(req, "after")?.unwrap_or_default().trim().to_ascii_uppercase(),
        limit,
        archived,
    };
    let mut response = to_catalog(env, "/list", &page).await?;
    let (entries, more): (Vec<Entry>, bool) = response.json().await?;
    let summaries = futures_util::future::join_all(entries.iter().map(|entry| summary(env, entry))).await;
    let mut codes = Vec::with_capacity(entries.len());
    for summary in summaries {
        let Some(summary) = summary? else {
            continue;
        };
        let is_archived = summary["archived"].as_bool().unwrap_or(false);
        if archived || !is_archived {
            codes.push(summary);
        }
    }
    let next = if more {
        entries.last().map(|e| e.code.clone())
    } else {
        None
    };
    Ok(Response::from_json(&json!({ "codes": codes, "next": next }))?)
}

/// A listed code's summary from its object; for a pending entry, the repair:
/// commit it if the object has a definition, forget it if not.
async fn summary(env: &Env, entry: &Entry) -> std::result::Result<Option<Value>, Problem> {
    let code = Code::parse(&entry.code)?;
    let path = code_query("/summary", &code);
    let mut response = to_ledger(env, &code, internal(Method::Get, &path, None, &[])?).await?;
    match response.status_code() {
        200 => {
            let summary: Value = response.json().await?;
            if entry.pending {
                let archived = summary["archived"].as_bool().unwrap_or(false);
                catalog_change(env, "/commit", &code, archived).await?;
            }
            Ok(Some(summary))
        }
        404 if entry.pending => {
            catalog_change(env, "/forget", &code, false).await?;
            Ok(None)
        }
        404 => Ok(None),
        status => Err(Problem::Internal(format!("the object of {code} answered {status}"))),
    }
}

/// The admin reads of one code: its redemptions (`?after=&limit=`) and its figures.
async fn handle_admin_read(req: &Request, env: &Env, code: &str, what: &str) -> Answer {
    authorize(req, env, Role::Admin)?;
    let code = path_code(code)?;
    require_known(env, &code).await?;
    let mut path = code_query(what, &code);
    for name in ["after", "limit"] {
        if let Some(value) = param(req, name)? {
            path.push_str(&format!("&{name}={}", encode_query_value(&value)));
        }
    }
    to_ledger(env, &code, internal(Method::Get, &path, None, &[])?).await
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
    let routing = routing(&body, BasketRequestKind::Quote)?;
    if routing.customer.is_some() && !trusted {
        // Bad input is still named as such; a valid quote for a customer needs the token.
        BasketRequest::parse(&body, BasketRequestKind::Quote)?;
        return Err(Problem::Unauthorized);
    }
    quote_through_ledger(env, &routing.code, body).await
}

/// The quote path shared by `POST /v1/quotes` and the demo route.
async fn quote_through_ledger(env: &Env, code: &Code, body: String) -> Answer {
    require_known(env, code).await?;
    to_ledger(env, code, internal(Method::Post, "/quote", Some(body), &[])?).await
}

/// `POST /v1/holds` and `POST /v1/captures`: the capture token and an `Idempotency-Key`.
async fn handle_keyed(req: &Request, env: &Env, kind: BasketRequestKind) -> Answer {
    let op = if kind == BasketRequestKind::Hold {
        "hold"
    } else {
        "capture"
    };
    logged_if_refused(op, async {
        authorize(req, env, Role::Capture)?;
        let key = idempotency_key(req)?;
        let body = read_body(req, BASKET_BODY_LIMIT).await?;
        let conflict = req.headers().get("x-test-conflict")?.is_some() && cfg!(feature = "conformance");
        keyed_through_ledger(env, kind, &key, body, conflict).await
    })
    .await
}

/// Runs a hold, capture or release (`op`) and, if it is refused before the
/// code's object decides it (a token, a header, the body, an unknown code),
/// writes its one JSON log line here: the outcome `problem`, with the
/// problem's type, and `code` only for an unknown code (`null` otherwise).
async fn logged_if_refused(op: &str, answer: impl std::future::Future<Output = Answer>) -> Answer {
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
async fn keyed_through_ledger(
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
    let path = if kind == BasketRequestKind::Hold {
        "/hold"
    } else {
        "/capture"
    };
    let mut headers = vec![("idempotency-key", key.as_str())];
    if conflict {
        headers.push(("x-test-conflict", "1"));
    }
    to_ledger_logged(env, &routing.code, internal(Method::Post, path, Some(body), &headers)?).await
}

/// `POST /v1/releases`: `{code, key, reason?}` with the capture token.
async fn handle_release(req: &Request, env: &Env) -> Answer {
    logged_if_refused("release", async {
        authorize(req, env, Role::Capture)?;
        let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
        release_through_ledger(env, body).await
    })
    .await
}

async fn release_through_ledger(env: &Env, body: String) -> Answer {
    let release = ReleaseRequest::from_json(&body)?;
    require_known(env, &release.code).await?;
    to_ledger_logged(env, &release.code, internal(Method::Post, "/release", Some(body), &[])?).await
}

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
/// - Everything else is answered 200 and ignored; a conflict or a store
///   failure is a 5xx, so that Stripe delivers the event again.
async fn handle_stripe_webhook(req: &Request, env: &Env) -> Answer {
    let secret = env
        .secret(STRIPE_WEBHOOK_SECRET)
        .map(|s| s.to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .ok_or(Problem::Misconfigured(STRIPE_WEBHOOK_SECRET))?;
    let body = read_body(req, WEBHOOK_BODY_LIMIT).await?;
    let header = req.headers().get(stripe::SIGNATURE_HEADER)?;
    let now = (worker::Date::now().as_millis() / 1000) as i64;
    stripe::verify(
        header.as_deref(),
        body.as_bytes(),
        &secret,
        now,
        WEBHOOK_TOLERANCE_SECONDS,
    )
    .map_err(|err| Problem::InvalidSignature(err.to_string()))?;
    let action = stripe::parse_event(body.as_bytes()).map_err(|err| Problem::InvalidEvent(err.to_string()))?;
    match action {
        stripe::Action::Ignore { event_id, why } => webhook_ignored(&event_id, &why),
        stripe::Action::Capture {
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
            let payment = ledger::PaymentCapture {
                code: code.as_str().to_owned(),
                key: payment_intent.clone(),
                customer,
                basket: basket_json,
                charged: charged_major,
                currency,
                event_id,
            };
            let body = serde_json::to_string(&payment).map_err(|e| Problem::Internal(e.to_string()))?;
            let response =
                to_ledger_logged(env, &code, internal(Method::Post, "/payment-capture", Some(body), &[])?).await?;
            if response.status_code() == 200 {
                let index = catalog::Payment {
                    payment: payment_intent,
                    code: code.as_str().to_owned(),
                };
                to_catalog(env, "/payment", &index).await?;
            }
            Ok(response)
        }
        stripe::Action::Release {
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
            let release = ledger::PaymentRelease {
                code: code.as_str().to_owned(),
                key: payment_intent.clone(),
                reason,
                holds_only,
            };
            let body = serde_json::to_string(&release).map_err(|e| Problem::Internal(e.to_string()))?;
            let mut response =
                to_ledger_logged(env, &code, internal(Method::Post, "/payment-release", Some(body), &[])?).await?;
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

#[cfg(feature = "conformance")]
async fn handle_conformance(req: &Request, env: &Env) -> Answer {
    authorize(req, env, Role::Admin)?;
    // A name no normalised code can have (codes are upper case).
    to_object(
        env,
        "__conformance__",
        internal(Method::Post, "/conformance", None, &[])?,
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
/// the matching API request, plus `attempt` (the checkout attempt, whose
/// key `demo-<attempt>` names its hold and capture), so the page never holds
/// a token. `cancel` takes `{code, attempt, reason?}`.
async fn handle_demo(req: &Request, env: &Env, step: DemoStep) -> Answer {
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    demo_server_token(env)?;
    if step == DemoStep::Quote {
        let code = routing(&body, BasketRequestKind::Quote)?.code;
        return quote_through_ledger(env, &code, body).await;
    }
    let mut fields: serde_json::Map<String, Value> = from_json(&body)?;
    let attempt = match fields.remove("attempt") {
        Some(Value::String(attempt)) => attempt,
        _ => {
            return Err(bad_param(
                "attempt",
                "missing field `attempt`, the checkout attempt's id".to_owned(),
            ))
        }
    };
    let key = IdempotencyKey::parse(&format!("demo-{attempt}")).map_err(|e| Problem::Input(e.at("attempt")))?;
    match step {
        DemoStep::Cancel => {
            fields.insert("key".to_owned(), json!(key));
            release_through_ledger(env, Value::Object(fields).to_string()).await
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

#[cfg(test)]
mod tests {
    use promocodes::{Code, IdempotencyKey, PromoCode, PromoCodeRejected, RedemptionConflict, Rejection, StoreError};
    use serde_json::{json, Value};
    use worker::Method;

    use super::Route;
    use crate::problem::Problem;

    fn description() -> Value {
        serde_json::from_str(super::OPENAPI).expect("docs/openapi.json is JSON")
    }

    #[test]
    fn the_description_is_served_and_has_a_path_for_every_route() {
        let doc = description();
        assert_eq!(doc["openapi"], "3.1.0");
        let paths = doc["paths"].as_object().expect("paths");
        for (path, template) in [
            ("/v1/codes", "/v1/codes"),
            ("/v1/codes/A", "/v1/codes/{code}"),
            ("/v1/codes/A/redemptions", "/v1/codes/{code}/redemptions"),
            ("/v1/codes/A/stats", "/v1/codes/{code}/stats"),
            ("/v1/quotes", "/v1/quotes"),
            ("/v1/holds", "/v1/holds"),
            ("/v1/captures", "/v1/captures"),
            ("/v1/releases", "/v1/releases"),
            ("/v1/openapi.json", "/v1/openapi.json"),
            ("/demo/quote", "/demo/quote"),
            ("/demo/hold", "/demo/hold"),
            ("/demo/pay", "/demo/pay"),
            ("/demo/cancel", "/demo/cancel"),
        ] {
            assert!(
                !matches!(Route::of(path, true), Route::NotFound | Route::Asset),
                "{path} is a route"
            );
            assert!(paths.contains_key(template), "docs/openapi.json has no {template}");
        }
    }

    /// One of each problem; the match below fails to compile when a variant is added.
    fn every_problem() -> Vec<Problem> {
        let code = Code::parse("A").unwrap();
        let key = IdempotencyKey::parse("k").unwrap();
        let promo = PromoCode::from_json(r#"{"code":"A","discount":{"kind":"percent","percent":"10"}}"#).unwrap();
        let problems = vec![
            Problem::NotFound,
            Problem::MethodNotAllowed { allow: "POST" },
            Problem::Unauthorized,
            Problem::PayloadTooLarge { limit: 1 },
            Problem::TooManyRequests { retry_after: 1 },
            Problem::Input(Code::parse("").unwrap_err()),
            Problem::CodeMismatch {
                path: code.clone(),
                body: code.clone(),
            },
            Problem::MissingIdempotencyKey,
            Problem::UnknownCode(code.clone()),
            Problem::UnknownKey(key.clone()),
            Problem::rejected(PromoCodeRejected::new(&promo, Rejection::Exhausted), None, None),
            Problem::IdempotencyKeyReused(key),
            Problem::Conflict(RedemptionConflict {
                code: code.clone(),
                attempts: 3,
            }),
            Problem::RetryLater(RedemptionConflict { code, attempts: 3 }),
            Problem::InvalidSignature("x".to_owned()),
            Problem::InvalidEvent("x".to_owned()),
            Problem::Store(StoreError::Backend {
                store: "sqlite",
                message: "x".to_owned(),
            }),
            Problem::Misconfigured("X"),
            Problem::Internal("x".to_owned()),
        ];
        for problem in &problems {
            match problem {
                Problem::NotFound
                | Problem::MethodNotAllowed { .. }
                | Problem::Unauthorized
                | Problem::PayloadTooLarge { .. }
                | Problem::TooManyRequests { .. }
                | Problem::Input(_)
                | Problem::CodeMismatch { .. }
                | Problem::MissingIdempotencyKey
                | Problem::UnknownCode(_)
                | Problem::UnknownKey(_)
                | Problem::Rejected(_)
                | Problem::IdempotencyKeyReused(_)
                | Problem::Conflict(_)
                | Problem::RetryLater(_)
                | Problem::InvalidSignature(_)
                | Problem::InvalidEvent(_)
                | Problem::Store(_)
                | Problem::Misconfigured(_)
                | Problem::Internal(_) => {}
            }
        }
        problems
    }

    #[test]
    fn the_description_names_every_problem_rejection_and_currency_of_the_code() {
        let doc = description();
        let schemas = &doc["components"]["schemas"];
        let types = schemas["ProblemType"]["enum"].as_array().expect("ProblemType");
        for problem in every_problem() {
            let body = problem.body();
            let name: String = match problem {
                // The same type as a 409 conflict, answered 503 on the Stripe webhook so that Stripe redelivers.
                Problem::RetryLater(_) => "WebhookConflict".to_owned(),
                _ => problem
                    .slug()
                    .split('_')
                    .map(|w| w[..1].to_uppercase() + &w[1..])
                    .collect(),
            };
            let fixed = &schemas[format!("{name}Problem")]["properties"];
            assert_eq!(fixed["type"]["const"], body["type"], "{name}");
            assert_eq!(fixed["title"]["const"], body["title"], "{name}");
            assert_eq!(fixed["status"]["const"], body["status"], "{name}");
            assert!(types.contains(&body["type"]), "{name}");
        }
        let rejections: Vec<&str> = Rejection::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(schemas["RejectionCode"]["enum"], json!(rejections));
        let currencies: Vec<&str> = promocodes::Currency::all().map(|c| c.code()).collect();
        assert_eq!(schemas["Currency"]["enum"], json!(currencies));
    }

    #[test]
    fn paths_name_routes() {
        assert_eq!(Route::of("/v1/codes/SAVE10", false), Route::Code("SAVE10"));
        assert_eq!(Route::of("/v1/codes/SAVE%2010", false), Route::Code("SAVE%2010"));
        assert_eq!(Route::of("/v1/codes/X/redemptions", false), Route::Redemptions("X"));
        assert_eq!(Route::of("/v1/quotes", false), Route::Quotes);
        assert_eq!(Route::of("/v1/captures", false), Route::Captures);
        assert_eq!(Route::of("/demo/quote", false), Route::NotFound);
        assert_eq!(Route::of("/demo/quote", true), Route::Demo(super::DemoStep::Quote));
        assert_eq!(Route::of("/demo/pay", true), Route::Demo(super::DemoStep::Pay));
        assert_eq!(Route::of("/v1/codes", false), Route::Codes);
        assert_eq!(Route::of("/v1/codes/X/stats", false), Route::Stats("X"));
        assert_eq!(Route::of("/v1/holds", false), Route::Holds);
        assert_eq!(Route::of("/v1/releases", false), Route::Releases);
        assert_eq!(Route::of("/v1/openapi.json", false), Route::OpenApi);
        assert_eq!(Route::of("/v1/openapi.json/x", false), Route::NotFound);
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
            "/v1/codes",
            "/v1/codes/A/redemptions",
            "/v1/codes/A/stats",
            "/v1/captures",
            "/v1/holds",
            "/v1/releases",
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
