//! The handlers, by resource: [`codes`] (the catalog, definitions, lookups
//! and a code's history and figures), [`checkout`] (quotes, holds, captures,
//! releases), [`webhooks`] (Stripe's, over [`crate::payments`]), [`endpoints`]
//! (the shop's webhook endpoints) and [`demo`]
//! (the demo checkout, and the test-only conformance route). Each
//! reads the request, asks a Durable Object through [`crate::clients`], and
//! answers; every rule is the core's.

use promocodes::api::{BasketRequest, BasketRequestKind};
use promocodes::{from_json, Code, InputError};
use serde::de::IgnoredAny;
use serde::Deserialize;
use worker::{Env, Headers, Request, Response};

use crate::http::decode;
use crate::problem::Problem;
use crate::ratelimit;

pub mod automatic;
pub mod campaigns;
pub mod checkout;
pub mod codes;
pub mod demo;
pub mod endpoints;
pub mod history;
pub mod webhooks;

/// What a handler answers: a response, or the problem that becomes one.
pub type Answer = std::result::Result<Response, Problem>;

/// The OpenAPI 3.1 description of every route, `docs/openapi.json`, which the native tests check.
/// The Worker serves it from its static assets ([`OPENAPI_ASSET`]), not from the `.wasm`.
#[cfg(test)]
pub const OPENAPI: &str = include_str!("../../../docs/openapi.json");

/// Where `scripts/build-worker.sh` copies `docs/openapi.json` among the static assets (`public/`).
/// `/v1/*` runs the Worker first, so the copy is reached only through the `ASSETS` binding.
pub const OPENAPI_ASSET: &str = "/v1/openapi.json";

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

/// `GET /v1/openapi.json`: `docs/openapi.json` as the build copied it to the static assets
/// ([`OPENAPI_ASSET`]), as JSON. Kept out of the `.wasm`: 38 KB of its upload, gzip.
///
/// # Errors
///
/// The copy is missing (a build without `scripts/build-worker.sh`): a 500 that says so.
pub async fn openapi(env: &Env) -> Answer {
    let asset = env
        .assets("ASSETS")?
        .fetch(format!("https://assets.invalid{OPENAPI_ASSET}"), None)
        .await?;
    if asset.status_code() != 200 {
        return Err(Problem::Internal(format!(
            "the static assets answered {} for {OPENAPI_ASSET}: build with scripts/build-worker.sh",
            asset.status_code()
        )));
    }
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    // The asset's body streams through, never copied into the wasm's memory.
    Ok(asset.with_headers(headers))
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

/// A request's query, read strictly: each name and value decoded (`+` as a
/// space, `%XX` escapes as UTF-8), where a lax reader would put U+FFFD in
/// place of what does not decode and list on.
pub(crate) struct Query(Vec<(String, String)>);

impl Query {
    /// The query of `req`, every pair decoded.
    ///
    /// # Errors
    ///
    /// A 400 ([`Problem::Input`]) naming the parameter whose value (or name) does not decode.
    pub(crate) fn of(req: &Request) -> std::result::Result<Query, Problem> {
        let url = req.url()?;
        let mut pairs = Vec::new();
        for pair in url.query().unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = decode(name, true).map_err(|why| bad_param("query", why.message(name)))?;
            let value = decode(value, true).map_err(|why| bad_param(&name, why.message(value)))?;
            pairs.push((name, value));
        }
        Ok(Query(pairs))
    }

    /// The value of the parameter `name`, if given (the first, if given twice).
    ///
    /// # Errors
    ///
    /// A 400 naming it when it is given empty (`?limit=`): leave it out for the default.
    pub(crate) fn get(&self, name: &str) -> std::result::Result<Option<&str>, Problem> {
        match self.0.iter().find(|(n, _)| n == name) {
            None => Ok(None),
            Some((_, value)) if value.is_empty() => Err(bad_param(
                name,
                "is empty: give a value, or leave the parameter out for its default".to_owned(),
            )),
            Some((_, value)) => Ok(Some(value)),
        }
    }

    /// The parameters among `names` that are given, as a code's object reads them.
    ///
    /// # Errors
    ///
    /// As [`Query::get`].
    pub(crate) fn forwarded<'q>(
        &'q self,
        names: &[&'static str],
    ) -> std::result::Result<Vec<(&'static str, &'q str)>, Problem> {
        let mut given = Vec::new();
        for name in names {
            if let Some(value) = self.get(name)? {
                given.push((*name, value));
            }
        }
        Ok(given)
    }
}

/// A query parameter (or a demo field) that is wrong, as bad input.
/// A page of a history merged from several objects: `limit` records (100 unless given, 1 to 1000).
pub(crate) fn history_limit(query: &Query) -> Result<u32, Problem> {
    Ok(match query.get("limit")? {
        None => 100,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| bad_param("limit", format!("{text:?} is not a page size from 1 to 1000")))?,
    })
}

pub(crate) fn bad_param(name: &str, message: String) -> Problem {
    Problem::Input(InputError::Malformed {
        path: name.to_owned(),
        message,
    })
}

/// The page a listing asks for (`?prefix=&after=&limit=&archived=`), as
/// `GET /v1/codes` and `GET /v1/campaigns` read it ([`Query`]): prefix and
/// cursor uppercased (codes compare case-insensitively) and at most
/// [`Code::MAX_LEN`] characters (no code is longer), `limit` from 1 to
/// [`MAX_PAGE`](crate::limits::MAX_PAGE) (default
/// [`DEFAULT_PAGE`](crate::catalog::DEFAULT_PAGE)), `archived` `true` or `false`.
///
/// # Errors
///
/// A 400 ([`Problem::Input`]) naming the parameter, for one given empty, that
/// does not decode, or is out of range.
pub(crate) fn page_of(req: &Request) -> std::result::Result<crate::catalog::Page, Problem> {
    let query = Query::of(req)?;
    let archived = match query.get("archived")? {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(bad_param("archived", format!("{other:?} is neither true nor false"))),
    };
    let code_like = |name: &str| -> std::result::Result<String, Problem> {
        let text = query.get(name)?.unwrap_or_default().trim().to_ascii_uppercase();
        if text.chars().count() > Code::MAX_LEN {
            return Err(bad_param(
                name,
                format!("is longer than a code can be ({} characters)", Code::MAX_LEN),
            ));
        }
        Ok(text)
    };
    Ok(crate::catalog::Page {
        prefix: code_like("prefix")?,
        after: code_like("after")?,
        limit: page_limit(&query, crate::catalog::DEFAULT_PAGE)?,
        archived,
    })
}

/// The `limit` of a listing's page: from 1 to [`MAX_PAGE`](crate::limits::MAX_PAGE), `default` when not given.
///
/// # Errors
///
/// A 400 naming `limit` for one given empty, not an integer, or out of range.
pub(crate) fn page_limit(query: &Query, default: u32) -> std::result::Result<u32, Problem> {
    use crate::limits::MAX_PAGE;
    match query.get("limit")? {
        None => Ok(default),
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_PAGE).contains(n))
            .ok_or_else(|| bad_param("limit", format!("{text:?} is not a page size from 1 to {MAX_PAGE}"))),
    }
}
