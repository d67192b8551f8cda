//! The OpenAPI description's checks: `docs/openapi.json` (served as
//! [`crate::handlers::OPENAPI`]) has a path for every route and names every
//! problem, rejection and currency the code knows. Native tests: `cargo test
//! -p promocodes-worker` runs them.

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
