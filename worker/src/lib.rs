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

| route | auth | answer |
|---|---|---|
| `GET /v1/codes?prefix=&after=&limit=&archived=` | `ADMIN_TOKEN` | the catalog, in code order, with usage |
| `PUT /v1/codes/{code}` | `ADMIN_TOKEN` | 201 created / 200 replaced (or restored), the definition |
| `PATCH /v1/codes/{code}` | `ADMIN_TOKEN` | `{"active": bool}`: the kill switch |
| `DELETE /v1/codes/{code}` | `ADMIN_TOKEN` | archives the code; its history stays |
| `GET`/`HEAD /v1/codes/{code}` | none (public, rate limited) | the public definition, `usage: {total, held}`, `remaining` |
| `GET /v1/codes/{code}/redemptions?after=&limit=` | `ADMIN_TOKEN` | every hold and capture, oldest first, with its state |
| `GET /v1/codes/{code}/stats` | `ADMIN_TOKEN` | captures, replays, holds, releases, expiries, conflicts, rejections |
| `PUT /v1/campaigns/{id}` | `ADMIN_TOKEN` | 201 created / 200 replaced: a campaign of many codes, in the object `campaign:<id>` |
| `PATCH`/`DELETE /v1/campaigns/{id}` | `ADMIN_TOKEN` | the campaign's kill switch / archive, for all of its codes |
| `GET /v1/campaigns?prefix=&after=&limit=&archived=` | `ADMIN_TOKEN` | the campaigns, in id order, with usage |
| `GET /v1/campaigns/{id}` | `ADMIN_TOKEN` | the campaign, `usage: {total, held, discounted}`, `codes: {count, used}` |
| `POST /v1/campaigns/{id}/codes` | `ADMIN_TOKEN` + `Idempotency-Key` | 201 the codes generated or imported (the same on a retry) / 409 a code exists |
| `GET /v1/campaigns/{id}/redemptions?after=&limit=`, `.../stats` | `ADMIN_TOKEN` | the campaign's uses (with their code), its figures |
| `GET /v1/campaigns/{id}/codes?after=&limit=` | `ADMIN_TOKEN` | the campaign's codes with their uses and holds (`Accept: text/csv`: all of them, streamed) |
| `POST /v1/quotes` | none without `customer` (public, rate limited); with one, a token | 200 quote / 422 rejection |
| `POST /v1/holds` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 hold / 200 replay / 422 / 409 |
| `POST /v1/captures` | `CAPTURE_TOKEN` + `Idempotency-Key` | 201 receipt / 200 replay / 422 / 409 |
| `POST /v1/releases` | `CAPTURE_TOKEN` | 200 released (or replayed) / 404 unknown key |
| `POST /demo/{quote,hold,pay,cancel}` | none, only with `DEMO` set | the same, on the server side, keyed by the checkout attempt |
| `POST /v1/webhooks/stripe` | Stripe's signature | the [`payments`] flow |
| `GET`/`HEAD /v1/openapi.json` | none | [`handlers::OPENAPI`]: this API's OpenAPI 3.1 description |
*/

#![deny(missing_docs)]

pub mod bounded;
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
pub mod payments;
pub mod problem;
pub mod protocol;
pub mod ratelimit;
pub mod routes;
pub mod sqlite;
pub mod stats;

use worker::{event, Context, Env, Method, Request, Response, Result};

use crate::cors::Cors;
use crate::problem::Problem;
use crate::routes::Resolved;

/// The Worker's entry point: every `/v1/*` and `/demo/*` request, and any
/// other path with no static asset.
#[event(fetch)]
pub async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
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
