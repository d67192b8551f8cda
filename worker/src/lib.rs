/*!
The promocodes edge Worker: capture through one Durable Object per code.

The Worker translates HTTP to the core crate and back; every rule lives in
`promocodes`. A request goes through three steps:

1. **Route and authenticate** ([`routes`], one table of path, method,
   handler and who may call it): the path (its code percent-decoded) and
   method, the bearer token (compared in constant time), then the
   [`handlers`]: the `Idempotency-Key`, the rate limit on public routes
   ([`ratelimit`]), the body (JSON by its `Content-Type`, else a 415, and
   read as a stream up to the route's limit in [`limits`]). Only the code
   is read from the body here, to route it.
2. **Forward** to the code's [`ledger::Ledger`] (`id_from_name(code)`), a
   SQLite-backed Durable Object, with the body as it came, as one of the
   [`protocol`]'s calls ([`clients`]). Public requests
   first make sure the code was ever defined ([`catalog::Catalog`]), since
   addressing an object creates it: a guessed code writes nothing.
3. **Decide** in the object: it parses the body once with the core's
   request shapes and runs the core's [`promocodes::hold`],
   [`promocodes::capture`] or [`promocodes::release`] against
   [`sqlite::SqliteRedemptionStore`], each write one `transactionSync`.

Every error is a [`problem::Problem`], mapped to `application/problem+json`
in one place. Public routes answer CORS ([`cors`]); the others never do.

The routes are [`routes::ROUTES`], one row each (path, method, handler, who
may call it); what each answers is its operation in the OpenAPI description
(`docs/openapi.json`, served by [`handlers::openapi`] and generated from the
table and the wire types by this crate's native tests), and the reference
for people is `docs/http-api.md`.
*/

#![deny(missing_docs)]

pub mod alarm;
pub mod background;
pub mod bounded;
pub mod campaign_index;
// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod catalog;
pub mod clients;
pub mod cors;
pub mod csv;
pub mod edge_cache;
pub mod etag;
pub mod handlers;
pub mod http;
// `#[durable_object]` generates public glue (the JavaScript class's methods) without docs.
#[allow(missing_docs)]
pub mod ledger;
pub mod limits;
pub mod outbox;
pub mod payments;
pub mod problem;
pub mod protocol;
pub mod ratelimit;
pub mod routes;
pub mod shards;
pub mod sqlite;
pub mod stats;

use worker::{event, Context, Env, Method, Request, Response, Result};

use crate::cors::Cors;
use crate::problem::Problem;
use crate::routes::Resolved;

/// The Worker's entry point: every `/v1/*` and `/demo/*` request, and any
/// other path with no static asset.
#[event(fetch)]
pub async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    // Work the answer need not wait for runs after it, under this request's `waitUntil`.
    background::InContext::new(ctx, handle(req, env)).await
}

/// [`fetch`]'s handling of one request.
async fn handle(req: Request, env: Env) -> Result<Response> {
    let path = req.path();
    let method = req.method();
    let resolved = routes::resolve(&path, &method, routes::demo_enabled(&env));
    if resolved == Resolved::Asset {
        return env.assets("ASSETS")?.fetch_request(req).await;
    }
    let cors = if resolved.is_public() {
        Cors::for_request(&req, &env).ok()
    } else {
        None
    };
    let mut response = routes::into_response(routes::serve(resolved, req, &env, cors.as_ref()).await)?;
    if method == Method::Head {
        response = http::without_body(response);
    }
    match cors {
        Some(cors) => cors.apply(response).or_else(Problem::into_response),
        None => Ok(response),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod openapi;
#[cfg(test)]
mod openapi_tests;
