//! The `*Problem` schemas: one a kind of problem, its `type`, `title` and
//! `status` fixed to what [`Problem::body`] writes for it (one problem of
//! each kind below), and what else its body may carry: a rejection's
//! `rejection` (and `current` only with `quote_changed`); no other problem
//! carries a rejection's members. The core's `Problem` schema is completed
//! here: it is one of these, and `ProblemType` lists their types.

use promocodes::{Code, IdempotencyKey, PromoCode, PromoCodeRejected, RedemptionConflict, Rejection, StoreError};
use serde_json::{json, Map, Value};

use crate::problem::Problem;

fn code() -> Code {
    Code::parse("A").expect("a code")
}

fn key() -> IdempotencyKey {
    IdempotencyKey::parse("k").expect("a key")
}

fn promo() -> PromoCode {
    PromoCode::from_json(r#"{"code":"A","discount":{"kind":"percent","percent":"10"}}"#).expect("a definition")
}

fn conflict() -> RedemptionConflict {
    RedemptionConflict {
        code: code(),
        attempts: 1,
    }
}

/// Each `*Problem` schema's name, a problem of its kind, and its description,
/// in the order `Problem` lists them.
fn kinds() -> Vec<(&'static str, Problem, &'static str)> {
    vec![
        (
            "NotFoundProblem",
            Problem::NotFound,
            "No such route: any other path under `/v1/` or `/demo/` (the demo paths too when `DEMO` is not set).",
        ),
        (
            "MethodNotAllowedProblem",
            Problem::MethodNotAllowed { allow: String::new() },
            "The route exists, not for this method; `Allow` lists the methods it takes.",
        ),
        (
            "UnauthorizedProblem",
            Problem::Unauthorized,
            "No or a wrong bearer token (with `WWW-Authenticate: Bearer`).",
        ),
        (
            "PayloadTooLargeProblem",
            Problem::PayloadTooLarge { limit: 0 },
            "The body is over the route's limit (`detail` names it).",
        ),
        (
            "UnsupportedMediaTypeProblem",
            Problem::UnsupportedMediaType { given: None },
            "The request has a body whose `Content-Type` is not JSON (`application/json` or an `application/*+json` type, parameters such as `; charset=utf-8` allowed), or a body without one: refused before it is read, and nothing is recorded (a cross-site form, whose types are `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data`, drives nothing). `detail` names the type sent.",
        ),
        (
            "TooManyRequestsProblem",
            Problem::TooManyRequests { retry_after: 0 },
            "A public route's rate limit for this address is spent (with `Retry-After`).",
        ),
        (
            "InvalidRequestProblem",
            Problem::Misuse(promocodes::Misuse::ZeroAttempts),
            "A malformed body, path code, header or query value (`detail` names the field).",
        ),
        (
            "CodeMismatchProblem",
            Problem::CodeMismatch { path: code(), body: code() },
            "`PUT /v1/codes/{code}` whose body defines another code.",
        ),
        (
            "MissingIdempotencyKeyProblem",
            Problem::MissingIdempotencyKey,
            "A hold or capture without an `Idempotency-Key` header.",
        ),
        (
            "UnknownCodeProblem",
            Problem::UnknownCode(code()),
            "No definition is stored for the code, or it is archived.",
        ),
        (
            "UnknownKeyProblem",
            Problem::UnknownKey(key()),
            "A release names a key under which nothing was ever held or captured.",
        ),
        (
            "RejectedProblem",
            Problem::Refused(PromoCodeRejected::new(&promo(), Rejection::Exhausted)),
            "A rule refused: `rejection` names it; a capture adds the stale `quote`, and `current` for `quote_changed`.",
        ),
        (
            "IdempotencyKeyReusedProblem",
            Problem::IdempotencyKeyReused(key()),
            "The key was used for another customer or basket.",
        ),
        (
            "ConflictProblem",
            Problem::Conflict(conflict()),
            "Every compare-and-set attempt lost (with `Retry-After`); retry with the same key.",
        ),
        (
            "StoreUnavailableProblem",
            Problem::Store(StoreError::Backend { store: "sqlite", message: String::new() }),
            "The Durable Object's SQLite store failed.",
        ),
        (
            "MisconfiguredProblem",
            Problem::Misconfigured(""),
            "A secret or binding the route needs is not configured.",
        ),
        (
            "InternalProblem",
            Problem::Internal(String::new()),
            "A runtime error: a bug or an outage, never bad input.",
        ),
        (
            "InvalidSignatureProblem",
            Problem::InvalidSignature(String::new()),
            "A Stripe webhook whose `Stripe-Signature` is missing, wrong, or more than 300 s from now: nothing happened.",
        ),
        (
            "InvalidEventProblem",
            Problem::InvalidEvent(String::new()),
            "A signed Stripe webhook body that is not an event promocodes can read (not an event, or a handled type with an unusable object).",
        ),
        (
            "WebhookConflictProblem",
            Problem::RetryLater(conflict()),
            "On the Stripe webhook: every compare-and-set attempt lost; a 5xx, so that Stripe delivers the event again (with `Retry-After`).",
        ),
        (
            "PreconditionFailedProblem",
            Problem::PreconditionFailed { current: None },
            "A write whose `If-Match` tag is no longer the stored definition's, or whose `If-None-Match: *` finds one (with the current `ETag` when there is a definition); nothing was written. Read the code again and reapply the change.",
        ),
        (
            "CodeExistsProblem",
            Problem::CodeExists(code()),
            "The code exists already, as a plain code or a campaign's: codes are unique across all codes and campaigns (case-insensitive). Nothing of the call was created.",
        ),
        (
            "UnknownWebhookProblem",
            Problem::UnknownWebhook(String::new()),
            "No webhook endpoint of this id is defined.",
        ),
        (
            "UnknownDeliveryProblem",
            Problem::UnknownDelivery(String::new()),
            "No try of this event to this endpoint was ever made (its id is unknown, or the endpoint does not receive it).",
        ),
        (
            "WebhookLimitProblem",
            Problem::WebhookLimit { max: 16 },
            "A new webhook endpoint when there are 16 already; nothing was written.",
        ),
    ]
}

/// Every `*Problem` schema, by name.
fn schemas() -> Vec<(&'static str, Value)> {
    kinds()
        .into_iter()
        .map(|(name, problem, description)| {
            let body = problem.body();
            let mut schema = json!({
                "description": description,
                "type": "object",
                "properties": {
                    "type": {"const": body.kind},
                    "title": {"const": body.title},
                    "status": {"const": body.status},
                },
            });
            let carries = if body.kind == "/problems/rejected" {
                json!({
                    "required": ["rejection"],
                    "if": {"required": ["current"]},
                    "then": {"properties": {"rejection": {"const": "quote_changed"}}},
                })
            } else {
                json!({"not": {"anyOf": [{"required": ["rejection"]}, {"required": ["quote"]}, {"required": ["current"]}]}})
            };
            if let (Some(schema), Value::Object(carries)) = (schema.as_object_mut(), carries) {
                schema.extend(carries);
            }
            (name, schema)
        })
        .collect()
}

/// Adds the `*Problem` schemas, and completes the core's `Problem` and
/// `ProblemType` with them: `Problem` is one of them, and `ProblemType`
/// lists their types, each once, in their order.
pub(super) fn complete(schemas: &mut Map<String, Value>) {
    let problems = self::schemas();
    let mut types: Vec<Value> = Vec::new();
    let mut one_of: Vec<Value> = Vec::new();
    for (name, schema) in problems {
        let kind = &schema["properties"]["type"]["const"];
        if !types.contains(kind) {
            types.push(kind.clone());
        }
        one_of.push(json!({"$ref": format!("#/components/schemas/{name}")}));
        schemas.insert(name.to_owned(), schema);
    }
    schemas["Problem"]["oneOf"] = one_of.into();
    schemas["ProblemType"]["enum"] = types.into();
}
