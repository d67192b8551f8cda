//! The checkout's routes: quotes, holds, captures and releases.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::{r, with_ref, Operation};

/// `POST /v1/quotes`.
pub(super) fn quote() -> Operation {
    Operation::new("postQuote", "public", "Price a basket")
        .describe("Public and rate limited without `customer`, with CORS for `ALLOWED_ORIGINS`. A quote for a named customer tells whether that customer may use the code, so it needs a server's token (`CAPTURE_TOKEN` or `ADMIN_TOKEN`; a valid token also skips the rate limit). Counts nothing.")
        .security(|_g| json!([{}, {"capture": []}, {"admin": []}]))
        .body::<promocodes::schema::QuoteRequest>(Some("At most 64 KiB (up to 500 lines)."))
        .content(200, "The quote: a `Quote` for one code, a `StackQuote` for `codes`.", "application/json", |g| json!({"oneOf": [r::<promocodes::Quote>(g), r::<promocodes::StackQuote>(g)]}))
        .cors()
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .cors()
        .problems(401, "A `customer` without a server's token (the answer reveals nothing about the code or the customer).", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .cors()
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .cors()
        .problems(413, "The body is over the route's limit (64 KiB); the rest is not read.", &["payload_too_large"])
        .cors()
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems_with(422, "A rule refused: `rejection` names it, `detail` is the buyer's sentence. Nothing is counted.", &["rejected"], |_g| json!({
            "not": {
                "anyOf": [{"required": ["quote"]}, {"required": ["current"]}],
            },
        }))
        .cors()
        .problems(429, "This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted.", &["too_many_requests"])
        .header("Retry-After", "RetryAfter")
        .cors()
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .header("Access-Control-Allow-Origin", "AccessControlAllowOrigin")
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
        .cors()
}

/// `POST /v1/codes/{code}/tries`.
pub(super) fn tries() -> Operation {
    Operation::new("postTries", "public", "Report a code tried on the checkout page")
        .describe("Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`: the checkout page's report of a code a buyer tried, `{}` (typed and looked up), or of a refusal it showed for it, `{\"refused\": \"<rejection>\"}` (the browser module prices locally, so no quote of the Worker's sees these). The page reports each once per code (and refusal) a page load. The code's object counts it in memory and writes its figures at most once a second, never a write per report; they show in `GET …/stats` as `tries` and `rejections.page`. Anonymous: nothing about the buyer or the basket is sent.")
        .security(|_g| json!([{}, {"capture": []}, {"admin": []}]))
        .body::<promocodes::wire::TryReport>(Some("At most 16 KiB."))
        .empty(204, "Counted.")
        .cors()
        .problems(400, "The path's code is not a code, or the body is not a report (an unknown rejection, another field).", &["invalid_request"])
        .cors()
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .cors()
        .problems(413, "The body is over the route's limit (16 KiB); the rest is not read.", &["payload_too_large"])
        .cors()
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`); nothing was read or recorded.", &["unsupported_media_type"])
        .problems(429, "This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted.", &["too_many_requests"])
        .header("Retry-After", "RetryAfter")
        .cors()
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .header("Access-Control-Allow-Origin", "AccessControlAllowOrigin")
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
        .cors()
}

/// `POST /v1/holds`.
pub(super) fn hold() -> Operation {
    Operation::new("postHold", "lifecycle", "Hold a use while the buyer pays")
        .describe("Reserves one use for the buyer under the `Idempotency-Key` until `expires_at` (`ttl_seconds`, 900 by default). It counts against the caps until it is captured, released or expires. A known key replays (200) with the hold as it stands now.")
        .param("IdempotencyKey")
        .body::<promocodes::schema::HoldRequest>(Some("At most 64 KiB (up to 500 lines)."))
        .content(200, "A replay: the key is known; nothing was written. With `codes`: one answer per code (`StackHolds`); a stack whose codes all have a use under the key replays as a whole, whatever changed since (a code's use under the key is never priced again).", "application/json", |g| json!({
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
        .problems(400, "Bad input (the `detail` names the field), or no `Idempotency-Key`.", &["invalid_request", "missing_idempotency_key"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
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

/// `POST /v1/captures`.
pub(super) fn capture() -> Operation {
    Operation::new("postCapture", "lifecycle", "Capture a use: the payment is confirmed")
        .describe("Records the redemption under the `Idempotency-Key`, re-checking every rule now. A key that holds a use converts it (even when every other use is held by others) and keeps the hold's quote. With `quote`, the capture is pinned to the price the buyer was shown. A known key replays the receipt (200) and counts nothing.")
        .param("IdempotencyKey")
        .body::<promocodes::schema::CaptureRequest>(Some("At most 64 KiB (up to 500 lines)."))
        .content(200, "A replay: the key is known; nothing was written. With `codes`: one answer per code (`StackReceipts`); a stack whose codes all have a use under the key replays as a whole, whatever changed since (a code's use under the key is never priced again).", "application/json", |g| json!({
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
        .problems(400, "Bad input (the `detail` names the field), or no `Idempotency-Key`.", &["invalid_request", "missing_idempotency_key"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
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

/// `POST /v1/releases`.
pub(super) fn release() -> Operation {
    Operation::new("postRelease", "lifecycle", "Give a use back")
        .describe("Releases the hold or capture recorded under `key`: a checkout abandoned, an order cancelled or refunded. Releasing again replays (200, `replayed: true`).")
        .body::<promocodes::api::ReleaseRequest>(Some("At most 16 KiB."))
        .content(200, "Released, or a replay of an earlier release. With `codes`: one answer per code (`StackReleases`).", "application/json", |g| json!({"oneOf": [r::<promocodes::Released>(g), r::<promocodes::wire::StackReleases>(g)]}))
        .problems(400, "Bad input: the `detail` names the field.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived; or nothing was held or captured under the key.", &["unknown_code", "unknown_key"])
        .problems(413, "The body is over the route's limit (16 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}
