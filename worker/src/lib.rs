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

#[cfg(test)]
mod tests {
    use promocodes::{Code, IdempotencyKey, PromoCode, PromoCodeRejected, RedemptionConflict, Rejection, StoreError};
    use serde_json::{json, Value};
    use worker::Method;

    use crate::problem::Problem;
    use crate::routes::{resolve, Resolved};

    fn description() -> Value {
        serde_json::from_str(crate::handlers::OPENAPI).expect("docs/openapi.json is JSON")
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
                !matches!(resolve(path, &Method::Post, true), Resolved::NotFound | Resolved::Asset),
                "{path} is a route"
            );
            assert!(paths.contains_key(template), "docs/openapi.json has no {template}");
        }
    }

    /// One of each problem; the match below fails to compile when a variant is added.
    /// A stack of two codes that do not combine, refused.
    fn stack_refused() -> promocodes::StackRejected {
        let promo = |code: &str| {
            let text = format!(r#"{{"code":"{code}","discount":{{"kind":"percent","percent":"10"}}}}"#);
            PromoCode::from_json(&text).unwrap()
        };
        let stack = promocodes::Stack::new(vec![promo("A"), promo("B")]).unwrap();
        let basket = promocodes::Basket::from(promocodes::Money::parse("10", promocodes::Currency::EUR).unwrap());
        let now = "2026-12-02T10:00:00Z".parse().unwrap();
        let usage = [promocodes::UsageCounts::ZERO; 2];
        stack.quote(None, &usage, &basket, now).unwrap_err()
    }

    fn every_problem() -> Vec<Problem> {
        let code = Code::parse("A").unwrap();
        let key = IdempotencyKey::parse("k").unwrap();
        let promo = PromoCode::from_json(r#"{"code":"A","discount":{"kind":"percent","percent":"10"}}"#).unwrap();
        let problems = vec![
            Problem::NotFound,
            Problem::MethodNotAllowed {
                allow: "POST".to_owned(),
            },
            Problem::Unauthorized,
            Problem::PayloadTooLarge { limit: 1 },
            Problem::TooManyRequests { retry_after: 1 },
            Problem::Input(Code::parse("").unwrap_err()),
            Problem::Misuse(promocodes::Misuse::ZeroAttempts),
            Problem::CodeMismatch {
                path: code.clone(),
                body: code.clone(),
            },
            Problem::MissingIdempotencyKey,
            Problem::UnknownCode(code.clone()),
            Problem::UnknownKey(key.clone()),
            Problem::Refused(PromoCodeRejected::new(&promo, Rejection::Exhausted)),
            Problem::StackRefused(stack_refused()),
            Problem::IdempotencyKeyReused(key),
            Problem::Conflict(RedemptionConflict {
                code: code.clone(),
                attempts: 3,
            }),
            Problem::RetryLater(RedemptionConflict { code, attempts: 3 }),
            Problem::InvalidSignature("x".to_owned()),
            Problem::InvalidEvent("x".to_owned()),
            Problem::PreconditionFailed {
                current: Some("\"0\"".to_owned()),
            },
            Problem::Store(StoreError::Backend {
                store: "sqlite",
                message: "x".to_owned(),
            }),
            Problem::CodeExists(Code::parse("B").unwrap()),
            Problem::Misconfigured("X"),
            Problem::Internal("x".to_owned()),
            Problem::UnsupportedMediaType { given: None },
        ];
        for problem in &problems {
            match problem {
                Problem::NotFound
                | Problem::MethodNotAllowed { .. }
                | Problem::Unauthorized
                | Problem::PayloadTooLarge { .. }
                | Problem::UnsupportedMediaType { .. }
                | Problem::TooManyRequests { .. }
                | Problem::Input(_)
                | Problem::Misuse(_)
                | Problem::CodeMismatch { .. }
                | Problem::MissingIdempotencyKey
                | Problem::UnknownCode(_)
                | Problem::CodeExists(_)
                | Problem::UnknownKey(_)
                | Problem::Refused(_)
                | Problem::StackRefused(_)
                | Problem::Rejected { .. }
                | Problem::IdempotencyKeyReused(_)
                | Problem::Conflict(_)
                | Problem::RetryLater(_)
                | Problem::InvalidSignature(_)
                | Problem::InvalidEvent(_)
                | Problem::PreconditionFailed { .. }
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
            let body = serde_json::to_value(problem.body()).expect("a problem's JSON");
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
}
