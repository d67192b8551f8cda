//! The `*Problem` schemas: one a kind of problem, its `type`, `title` and
//! `status` fixed (each also what [`Problem::body`](crate::problem::Problem)
//! writes: `openapi_tests.rs` checks it), and what else its body may carry.

use schemars::SchemaGenerator;
use serde_json::{json, Map, Value};

/// Completes the core's `Problem` and `ProblemType` with the Worker's
/// problems: `Problem` is one of the `*Problem` schemas, and `ProblemType`
/// lists their types, each once, in their order.
pub(super) fn complete(schemas: &mut Map<String, Value>) {
    let problems = self::schemas(&mut SchemaGenerator::default());
    let one_of: Vec<Value> = problems
        .iter()
        .map(|(name, _)| json!({"$ref": format!("#/components/schemas/{name}")}))
        .collect();
    let mut types: Vec<Value> = Vec::new();
    for (_, schema) in &problems {
        let kind = &schema["properties"]["type"]["const"];
        if !types.contains(kind) {
            types.push(kind.clone());
        }
    }
    schemas["Problem"]["oneOf"] = one_of.into();
    schemas["ProblemType"]["enum"] = types.into();
}

/// Every `*Problem` schema, by name.
pub(super) fn schemas(_g: &mut SchemaGenerator) -> Vec<(&'static str, Value)> {
    vec![
        (
            "NotFoundProblem",
            json!({
                "description": "No such route: any other path under `/v1/` or `/demo/` (the demo paths too when `DEMO` is not set).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/not_found"}),
                    "title": json!({"const": "No such route"}),
                    "status": json!({"const": 404}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "MethodNotAllowedProblem",
            json!({
                "description": "The route exists, not for this method; `Allow` lists the methods it takes.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/method_not_allowed"}),
                    "title": json!({"const": "Method not allowed"}),
                    "status": json!({"const": 405}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "UnauthorizedProblem",
            json!({
                "description": "No or a wrong bearer token (with `WWW-Authenticate: Bearer`).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/unauthorized"}),
                    "title": json!({"const": "Missing or wrong bearer token"}),
                    "status": json!({"const": 401}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "PayloadTooLargeProblem",
            json!({
                "description": "The body is over the route's limit (`detail` names it).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/payload_too_large"}),
                    "title": json!({"const": "Request body too large"}),
                    "status": json!({"const": 413}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "UnsupportedMediaTypeProblem",
            json!({
                "description": "The request has a body whose `Content-Type` is not JSON (`application/json` or an `application/*+json` type, parameters such as `; charset=utf-8` allowed), or a body without one: refused before it is read, and nothing is recorded (a cross-site form, whose types are `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data`, drives nothing). `detail` names the type sent.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/unsupported_media_type"}),
                    "title": json!({"const": "The body is not JSON"}),
                    "status": json!({"const": 415}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "TooManyRequestsProblem",
            json!({
                "description": "A public route's rate limit for this address is spent (with `Retry-After`).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/too_many_requests"}),
                    "title": json!({"const": "Too many requests"}),
                    "status": json!({"const": 429}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "InvalidRequestProblem",
            json!({
                "description": "A malformed body, path code, header or query value (`detail` names the field).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/invalid_request"}),
                    "title": json!({"const": "Invalid request"}),
                    "status": json!({"const": 400}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "CodeMismatchProblem",
            json!({
                "description": "`PUT /v1/codes/{code}` whose body defines another code.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/code_mismatch"}),
                    "title": json!({"const": "The body's code is not the path's"}),
                    "status": json!({"const": 400}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "MissingIdempotencyKeyProblem",
            json!({
                "description": "A hold or capture without an `Idempotency-Key` header.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/missing_idempotency_key"}),
                    "title": json!({"const": "Idempotency-Key header required"}),
                    "status": json!({"const": 400}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "UnknownCodeProblem",
            json!({
                "description": "No definition is stored for the code, or it is archived.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/unknown_code"}),
                    "title": json!({"const": "Unknown promo code"}),
                    "status": json!({"const": 404}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "UnknownKeyProblem",
            json!({
                "description": "A release names a key under which nothing was ever held or captured.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/unknown_key"}),
                    "title": json!({"const": "Nothing recorded under this key"}),
                    "status": json!({"const": 404}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "RejectedProblem",
            json!({
                "description": "A rule refused: `rejection` names it; a capture adds the stale `quote`, and `current` for `quote_changed`.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/rejected"}),
                    "title": json!({"const": "Promo code rejected"}),
                    "status": json!({"const": 422}),
                }),
                "required": json!(["rejection"]),
                "if": json!({"required": json!(["current"])}),
                "then": json!({"properties": json!({"rejection": json!({"const": "quote_changed"})})}),
            }),
        ),
        (
            "IdempotencyKeyReusedProblem",
            json!({
                "description": "The key was used for another customer or basket.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/idempotency_key_reused"}),
                    "title": json!({"const": "Idempotency key used for another redemption"}),
                    "status": json!({"const": 422}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "ConflictProblem",
            json!({
                "description": "Every compare-and-set attempt lost (with `Retry-After`); retry with the same key.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/conflict"}),
                    "title": json!({"const": "Busy, retry with the same idempotency key"}),
                    "status": json!({"const": 409}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "StoreUnavailableProblem",
            json!({
                "description": "The Durable Object's SQLite store failed.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/store_unavailable"}),
                    "title": json!({"const": "Storage unavailable"}),
                    "status": json!({"const": 503}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "MisconfiguredProblem",
            json!({
                "description": "A secret or binding the route needs is not configured.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/misconfigured"}),
                    "title": json!({"const": "Server misconfigured"}),
                    "status": json!({"const": 500}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "InternalProblem",
            json!({
                "description": "A runtime error: a bug or an outage, never bad input.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/internal"}),
                    "title": json!({"const": "Internal error"}),
                    "status": json!({"const": 500}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "InvalidSignatureProblem",
            json!({
                "description": "A Stripe webhook whose `Stripe-Signature` is missing, wrong, or more than 300 s from now: nothing happened.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/invalid_signature"}),
                    "title": json!({"const": "Webhook signature missing or wrong"}),
                    "status": json!({"const": 400}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "InvalidEventProblem",
            json!({
                "description": "A signed Stripe webhook body that is not an event promocodes can read (not an event, or a handled type with an unusable object).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/invalid_event"}),
                    "title": json!({"const": "Not an event promocodes can read"}),
                    "status": json!({"const": 400}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "WebhookConflictProblem",
            json!({
                "description": "On the Stripe webhook: every compare-and-set attempt lost; a 5xx, so that Stripe delivers the event again (with `Retry-After`).",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/conflict"}),
                    "title": json!({"const": "Busy, deliver the event again"}),
                    "status": json!({"const": 503}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "PreconditionFailedProblem",
            json!({
                "description": "A write whose `If-Match` tag is no longer the stored definition's, or whose `If-None-Match: *` finds one (with the current `ETag` when there is a definition); nothing was written. Read the code again and reapply the change.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/precondition_failed"}),
                    "title": json!({"const": "The definition changed since it was read"}),
                    "status": json!({"const": 412}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
        (
            "CodeExistsProblem",
            json!({
                "description": "The code exists already, as a plain code or a campaign's: codes are unique across all codes and campaigns (case-insensitive). Nothing of the call was created.",
                "type": "object",
                "properties": json!({
                    "type": json!({"const": "/problems/code_exists"}),
                    "title": json!({"const": "The code exists already"}),
                    "status": json!({"const": 409}),
                }),
                "not": json!({
                    "anyOf": json!([
                        json!({"required": json!(["rejection"])}),
                        json!({"required": json!(["quote"])}),
                        json!({"required": json!(["current"])}),
                    ]),
                }),
            }),
        ),
    ]
}
