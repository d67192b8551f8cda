//! The codes' routes: the catalog, a code's lookup, definition, kill switch, archive, history and figures.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::{with_ref, Operation};

/// `GET /v1/codes`.
pub(super) fn list_codes() -> Operation {
    Operation::new("getCodes", "admin", "List the catalog")
        .describe("A page of every code ever defined, in code order, each with its definition (audience as `assigned`), `archived` and live `usage`. A `PUT` that failed between the code's object and the catalog is repaired here.")
        .param_with(|_g| json!({
            "name": "prefix",
            "in": "query",
            "description": "Only codes starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "string", "maxLength": 64},
        }))
        .param_with(|_g| json!({
            "name": "after",
            "in": "query",
            "description": "Only codes after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "string", "maxLength": 64},
        }))
        .param_with(|_g| json!({
            "name": "limit",
            "in": "query",
            "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
        }))
        .param_with(|_g| json!({
            "name": "archived",
            "in": "query",
            "description": "List archived codes too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "string", "enum": ["true", "false"], "default": "false"},
        }))
        .answers::<promocodes::wire::CodeList>(200, "One page of the catalog.")
        .problems(400, "A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
}

/// `GET /v1/codes/{code}`.
pub(super) fn get_code() -> Operation {
    Operation::new("getCode", "public", "Look a code up")
        .describe("Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`. The definition without the audience's customers, its live usage and what remains under its cap. With a token, the answer is live and carries the definition's `ETag`.")
        .answers::<promocodes::wire::PublicCode>(200, "The code as anyone may see it.")
        .cors()
        .header("Cache-Control", "CacheControlLookup")
        .header("X-Promocodes-Cache", "PromocodesCache")
        .header("ETag", "ETagOptional")
        .problems(400, "The path's code is not a code (or a bad percent escape).", &["invalid_request"])
        .cors()
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .cors()
        .problems(429, "This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted.", &["too_many_requests"])
        .header("Retry-After", "RetryAfter")
        .cors()
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .header("Access-Control-Allow-Origin", "AccessControlAllowOrigin")
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
        .cors()
}

/// `GET /v1/automatic`.
pub(super) fn automatic() -> Operation {
    Operation::new("getAutomatic", "public", "The automatic promotions")
        .describe("Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`: the public definitions of the active automatic promotions, for the browser module's `PromoStack`. Served from the edge cache for a few seconds and purged by any change of an automatic definition (`PUT`, `PATCH` or `DELETE` of a code that is or was automatic); live with a token.")
        .answers::<promocodes::wire::AutomaticPromotions>(200, "The active automatic promotions.")
        .cors()
        .header("Cache-Control", "CacheControlLookup")
        .header("X-Promocodes-Cache", "PromocodesCache")
        .problems(429, "This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted.", &["too_many_requests"])
        .header("Retry-After", "RetryAfter")
        .cors()
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .header("Access-Control-Allow-Origin", "AccessControlAllowOrigin")
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
        .cors()
}

/// `PUT /v1/codes/{code}`.
pub(super) fn put_code() -> Operation {
    Operation::new("putCode", "admin", "Define, replace or restore a code")
        .describe("Defines the code (201), or replaces its definition (200); an archived code is restored with its history and counts. Counts, holds and receipts are kept. With `If-Match`, only over the definition that tag names (else 412); the answer's `ETag` is the new definition's. A write that changed the definition adds a row to its change history (`GET /v1/codes/{code}/changes`), with `X-Change-Note`.")
        .param("IfMatch")
        .param("IfNoneMatch")
        .param("ChangeNote")
        .body::<promocodes::schema::DefinitionInput>(Some("The definition; at most 1 MiB (up to 10,000 assigned customers)."))
        .answers::<promocodes::PromoCode>(200, "Replaced (or restored): the definition as stored.")
        .header("ETag", "ETag")
        .answers::<promocodes::PromoCode>(201, "Created: the definition as stored.")
        .header("ETag", "ETag")
        .problems(400, "A bad definition (the `detail` names the field), one that defines another code than the path's, or a bad `X-Change-Note`.", &["invalid_request", "code_mismatch"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(409, "The code is a campaign's: it is not defined alone (codes are unique across all codes and campaigns).", &["code_exists"])
        .problems(412, "`If-Match` names another definition than the stored one (changed since it was read) or the code has none, or `If-None-Match: *` finds one; nothing was written.", &["precondition_failed"])
        .header("ETag", "ETagCurrent")
        .problems(413, "The body is over the route's limit (1 MiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `PATCH /v1/codes/{code}`.
pub(super) fn patch_code() -> Operation {
    Operation::new("patchCode", "admin", "Switch a code off or on")
        .describe("The kill switch: `{\"active\": false}` refuses quotes, holds and captures at once with `inactive`; holds already recorded still capture. Nothing else changes. With `If-Match`, only over the definition that tag names (else 412); the answer's `ETag` is the new definition's. A switch that changed the definition adds a row to its change history, with `X-Change-Note`.")
        .param("IfMatch")
        .param("ChangeNote")
        .body::<promocodes::api::CodePatch>(Some("At most 16 KiB."))
        .answers::<promocodes::PromoCode>(200, "The definition as stored.")
        .header("ETag", "ETag")
        .problems(400, "Bad input (the `detail` names the field), a campaign's code (switched with its campaign), or a bad `X-Change-Note`.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(412, "`If-Match` names another definition than the stored one (changed since it was read), or the code has none; nothing was written.", &["precondition_failed"])
        .header("ETag", "ETagCurrent")
        .problems(413, "The body is over the route's limit (16 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `DELETE /v1/codes/{code}`.
pub(super) fn archive_code() -> Operation {
    Operation::new("deleteCode", "admin", "Archive a code")
        .describe("Buyers get 404 `unknown_code` from now on; its history stays, a recorded capture still replays, and a `PUT` restores it. Archiving adds a row to its change history, with `X-Change-Note`.")
        .param("ChangeNote")
        .content(200, "The archived code.", "application/json", |g| with_ref::<promocodes::wire::CodeSummary>(g, json!({"type": "object", "properties": {"archived": {"const": true}}})))
        .problems(400, "The path's code is not a code, or is a campaign's (archived with its campaign), or a bad `X-Change-Note`.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/codes/{code}/redemptions`.
pub(super) fn redemptions() -> Operation {
    Operation::new("getRedemptions", "admin", "List a code's holds and captures")
        .describe("Every hold and capture, oldest first, each with its state now (a hold past its expiry is `expired`). Archived codes are listed too. With `Accept: text/csv`, the whole history as CSV, streamed (`after` and `limit` then play no part): a header row, `seq,idempotency_key,state,customer,total,discount,payable,currency,at,reason`, the columns of the console's download (`total` the quote's or what was charged, `at` when the record last changed, `reason` a release's reason or a refusal's detail); a cell a spreadsheet would run as a formula (one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` and is quoted, as OWASP recommends.")
        .param_with(|_g| json!({
            "name": "after",
            "in": "query",
            "description": "Only those after this one: the previous page's `next`, a `seq` (for a sharded code, one position for its object and each shard, joined by `~`). Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "string", "pattern": "^[0-9]+(~[0-9]+)*$"},
        }))
        .param_with(|_g| json!({
            "name": "limit",
            "in": "query",
            "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
        }))
        .answers::<promocodes::wire::RedemptionList>(200, "One page of the history.")
        .also("text/csv", |_g| json!({
            "type": "string",
            "pattern": "^seq,idempotency_key,state,customer,total,discount,payable,currency,at,reason\\n",
        }))
        .problems(400, "The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/codes/{code}/stats`.
pub(super) fn stats() -> Operation {
    Operation::new("getStats", "admin", "A code's live figures")
        .describe("Captures, replays, holds, releases, expiries, conflicts, quotes, the checkout page's reported tries and refusals by rejection: since the code was defined, for the last hour, the last 24 hours and the last seven days; the last hour minute by minute (`by_minute`) and the last seven days hour by hour (`by_hour`).")
        .answers::<promocodes::wire::Stats>(200, "The figures.")
        .problems(400, "The path's code is not a code.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// The `after` and `limit` parameters of a page of a change history.
fn page_params(op: Operation) -> Operation {
    op.param_with(|_g| json!({
        "name": "after",
        "in": "query",
        "description": "Only those after this `seq`: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        "schema": {"type": "integer", "minimum": 0, "default": 0},
    }))
    .param_with(|_g| json!({
        "name": "limit",
        "in": "query",
        "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
    }))
}

/// `GET /v1/codes/{code}/changes` and `GET /v1/campaigns/{id}/changes`.
pub(super) fn change_history(id: &'static str, summary: &'static str, describe: &'static str) -> Operation {
    page_params(Operation::new(id, "admin", summary).describe(describe))
        .answers::<promocodes::wire::ChangeList>(200, "One page of the change history.")
        .problems(400, "The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for it.", &["unknown_code"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/codes/{code}/changes`.
pub(super) fn changes() -> Operation {
    change_history(
        "getCodeChanges",
        "A code's change history",
        "Every write that changed the code's definition, oldest first: a `PUT` (a restore too), the switch (`PATCH`) and an archive (`DELETE`), each with when, what kind of change, the fields whose value changed, the `ETag` before and after, and the operator's `X-Change-Note`. Each is written in the same transaction as the change; a write that left the definition as it was (the same `ETag`) adds none. Archived codes are listed too.",
    )
}
