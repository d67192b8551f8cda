//! The demo checkout's server side (only with `DEMO` set): each step as the shop's server would take it.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::{r, with_ref, Operation};

/// `POST /demo/quote`.
pub(super) fn demo_quote() -> Operation {
    Operation::new("postDemoQuote", "demo", "Quote for the demo page, on the server side")
        .describe("A quote's body, `customer` allowed: the Worker quotes as the shop's server would. With `codes` in place of `code`: the stack's quote, as `POST /v1/quotes` gives it.")
        .body::<promocodes::schema::QuoteRequest>(Some("At most 64 KiB."))
        .content(200, "The quote. With `codes`: the stack's quote (`StackQuote`).", "application/json", |g| json!({"oneOf": [r::<promocodes::Quote>(g), r::<promocodes::StackQuote>(g)]}))
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(413, "The body is over the route's limit (64 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems_with(422, "A rule refused: `rejection` names it, `detail` is the buyer's sentence. Nothing is counted. With `codes`: `rejections` names every code that refused (`with`: the code a `not_combinable` one cannot combine with).", &["rejected"], |_g| json!({
            "not": {
                "anyOf": [{"required": ["quote"]}, {"required": ["current"]}],
            },
        }))
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `POST /demo/hold`.
pub(super) fn demo_hold() -> Operation {
    Operation::new("postDemoHold", "demo", "Hold for the demo page, keyed by the checkout attempt")
        .describe("A hold's body and `attempt`; the hold's key is `demo-<attempt>`.")
        .body::<promocodes::schema::DemoHoldRequest>(Some("At most 64 KiB."))
        .content(200, "A replay. With `codes`: one answer per code (`StackHolds`).", "application/json", |g| json!({
            "oneOf": [
                with_ref::<promocodes::Hold>(g, json!({"type": "object", "properties": {"replayed": {"const": true}}})),
                r::<promocodes::wire::StackHolds>(g),
            ],
        }))
        .content(201, "Held. With `codes`: one answer per code (`StackHolds`).", "application/json", |g| json!({
            "oneOf": [
                with_ref::<promocodes::Hold>(g, json!({"type": "object", "properties": {"replayed": {"const": false}}})),
                r::<promocodes::wire::StackHolds>(g),
            ],
        }))
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(409, "Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded.", &["conflict"])
        .header("Retry-After", "RetryAfter")
        .problems(413, "The body is over the route's limit (64 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems_with(422, "A rule refused (`rejection`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused; what this request had held was given back before the answer.", &["rejected", "idempotency_key_reused"], |_g| json!({
            "not": {
                "anyOf": [{"required": ["quote"]}, {"required": ["current"]}],
            },
        }))
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `POST /demo/pay`.
pub(super) fn demo_pay() -> Operation {
    Operation::new("postDemoPay", "demo", "Capture for the demo page, keyed by the checkout attempt")
        .describe("A capture's body and `attempt`: stands for the payment provider's confirmation; the capture's key is `demo-<attempt>`.")
        .body::<promocodes::schema::DemoPayRequest>(Some("At most 64 KiB."))
        .content(200, "A replay. With `codes`: one answer per code (`StackReceipts`).", "application/json", |g| json!({
            "oneOf": [
                with_ref::<promocodes::Receipt>(g, json!({"type": "object", "properties": {"replayed": {"const": true}}})),
                r::<promocodes::wire::StackReceipts>(g),
            ],
        }))
        .content(201, "Captured. With `codes`: one answer per code (`StackReceipts`).", "application/json", |g| json!({
            "oneOf": [
                with_ref::<promocodes::Receipt>(g, json!({"type": "object", "properties": {"replayed": {"const": false}}})),
                r::<promocodes::wire::StackReceipts>(g),
            ],
        }))
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(409, "Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded.", &["conflict"])
        .header("Retry-After", "RetryAfter")
        .problems(413, "The body is over the route's limit (64 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems_with(422, "A rule refused (`rejection`, with the stale `quote`, and `current` for `quote_changed`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused (a changed part: `quote_changed`), without quotes; what this request had captured was given back before the answer.", &["rejected", "idempotency_key_reused"], |_g| json!({
            "if": {
                "properties": {"type": {"const": "/problems/rejected"}},
                "not": {"required": ["rejections"]},
            },
            "then": {"required": ["quote"]},
        }))
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `POST /demo/cancel`.
pub(super) fn demo_cancel() -> Operation {
    Operation::new("postDemoCancel", "demo", "Release the demo checkout attempt's use")
        .describe("`{code, attempt, reason?}` (or `codes` for a stack): releases `demo-<attempt>`.")
        .body::<promocodes::schema::DemoCancelRequest>(Some("At most 64 KiB."))
        .content(200, "Released, or a replay. With `codes`: one answer per code (`StackReleases`).", "application/json", |g| json!({"oneOf": [r::<promocodes::Released>(g), r::<promocodes::wire::StackReleases>(g)]}))
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .problems(404, "No definition is stored for the code, or it is archived; or nothing was held or captured under the key.", &["unknown_code", "unknown_key"])
        .problems(413, "The body is over the route's limit (64 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}
