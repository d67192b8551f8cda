//! The handlers, by resource: [`codes`] (the catalog, definitions, lookups
//! and a code's history and figures), [`checkout`] (quotes, holds, captures,
//! releases), [`webhooks`] (Stripe's, over [`crate::payments`]) and [`demo`]
//! (the demo checkout, and the test-only conformance route). Each
//! reads the request, asks a Durable Object through [`crate::clients`], and
//! answers; every rule is the core's.

use promocodes::api::{BasketRequest, BasketRequestKind};
use promocodes::{from_json, Code, InputError};
use serde::de::IgnoredAny;
use serde::Deserialize;
use worker::{Env, Headers, Request, Response};

use crate::problem::Problem;
use crate::ratelimit;

pub mod campaigns;
pub mod checkout;
pub mod codes;
pub mod demo;
pub mod webhooks;

/// What a handler answers: a response, or the problem that becomes one.
pub type Answer = std::result::Result<Response, Problem>;

/// The OpenAPI 3.1 description of every route, `docs/openapi.json`, served at `GET /v1/openapi.json`.
pub const OPENAPI: &str = include_str!("../../../docs/openapi.json");

/// A step of the demo checkout, played on the server side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoStep {
    /// `POST /demo/quote`.
    Quote,
    /// `POST /demo/hold`.
    Hold,
    /// `POST /demo/pay`.
    Pay,
    /// `POST /demo/cancel`.
    Cancel,
}

/// `GET /v1/openapi.json`: [`OPENAPI`], as JSON.
pub fn openapi() -> Answer {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    Ok(Response::ok(OPENAPI)?.with_headers(headers))
}

/// Public requests are rate limited per address, unless a server of the shop (a valid token) sends them.
pub(crate) async fn limit_public(req: &Request, env: &Env, trusted: bool) -> std::result::Result<(), Problem> {
    if trusted {
        Ok(())
    } else {
        ratelimit::check(req, env).await
    }
}

/// What the Worker reads of a body to route it: the code, and whether a customer is named.
#[derive(Deserialize)]
pub(crate) struct Routing {
    pub(crate) code: Code,
    #[serde(default)]
    pub(crate) customer: Option<IgnoredAny>,
}

/// The code of a basket request's body. The object parses the whole body;
/// when even the code cannot be read, the whole parse names what is wrong.
pub(crate) fn routing(body: &str, kind: BasketRequestKind) -> std::result::Result<Routing, Problem> {
    from_json::<Routing>(body).map_err(|light| match BasketRequest::parse(body, kind) {
        Err(full) => Problem::Input(full),
        Ok(_) => Problem::Input(light),
    })
}

/// Test builds only: a header that fails the `PUT` between the code's object and the catalog.
pub(crate) fn injected_failure(req: &Request) -> std::result::Result<bool, Problem> {
    let asked = req.headers().get("x-test-fail-after-ledger")?.is_some();
    Ok(cfg!(feature = "conformance") && asked)
}

/// A query parameter's value, if given and not empty (`?limit=`, as a form
/// with an empty field sends it, means the default).
pub(crate) fn param(req: &Request, name: &str) -> std::result::Result<Option<String>, Problem> {
    let url = req.url()?;
    Ok(url
        .query_pairs()
        .find(|(k, v)| k == name && !v.is_empty())
        .map(|(_, v)| v.into_owned()))
}

/// A query parameter (or a demo field) that is wrong, as bad input.
pub(crate) fn bad_param(name: &str, message: String) -> Problem {
    Problem::Input(InputError::Malformed {
        path: name.to_owned(),
        message,
    })
}

/// The page a listing asks for (`?prefix=&after=&limit=&archived=`), as
/// `GET /v1/codes` and `GET /v1/campaigns` read it: prefix and cursor
/// uppercased (codes compare case-insensitively), `limit` from 1 to
/// [`MAX_PAGE`](crate::limits::MAX_PAGE) (default
/// [`DEFAULT_PAGE`](crate::catalog::DEFAULT_PAGE)), `archived` `true` or `false`.
///
/// # Errors
///
/// A 400 ([`Problem::Input`]) naming the parameter, for a bad `limit` or `archived`.
pub(crate) fn page_of(req: &Request) -> std::result::Result<crate::catalog::Page, Problem> {
    use crate::limits::MAX_PAGE;
    let limit = match param(req, "limit")? {
        None => crate::catalog::DEFAULT_PAGE,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_PAGE).contains(n))
            .ok_or_else(|| bad_param("limit", format!("{text:?} is not a page size from 1 to {MAX_PAGE}")))?,
    };
    let archived = match param(req, "archived")?.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(bad_param("archived", format!("{other:?} is neither true nor false"))),
    };
    Ok(crate::catalog::Page {
        prefix: param(req, "prefix")?.unwrap_or_default().trim().to_ascii_uppercase(),
        after: param(req, "after")?.unwrap_or_default().trim().to_ascii_uppercase(),
        limit,
        archived,
    })
}
