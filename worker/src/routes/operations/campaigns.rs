//! The campaigns' routes: listing, definition, kill switch, archive, their codes, history and figures.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::Operation;

/// `GET /v1/campaigns`.
pub(super) fn list_campaigns() -> Operation {
    Operation::new("listCampaigns", "admin", "The campaigns")
        .param_with(|_g| json!({
            "name": "prefix",
            "in": "query",
            "required": false,
            "schema": {"type": "string", "maxLength": 64},
            "description": "Only ids starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .param_with(|_g| json!({
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {"type": "string", "maxLength": 64},
            "description": "Only ids after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .param_with(|_g| json!({
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
            "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .param_with(|_g| json!({
            "name": "archived",
            "in": "query",
            "required": false,
            "schema": {"type": "boolean"},
            "description": "List archived ones too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .answers::<promocodes::wire::CampaignList>(200, "A page of campaigns.")
        .problems(400, "A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `PUT /v1/campaigns/{code}`.
pub(super) fn put_campaign() -> Operation {
    Operation::new("putCampaign", "admin", "Define or replace a campaign of many codes")
        .describe("The campaign's definition and all of its codes live in one Durable Object (`campaign:<id>`), so one SQLite transaction reaches a code's count, the campaign's counts and its budget.")
        .param("IfMatch")
        .param("IfNoneMatch")
        .param("ChangeNote")
        .body::<promocodes::schema::CampaignInput>(None)
        .answers::<promocodes::Campaign>(200, "Replaced.")
        .header("ETag", "ETag")
        .answers::<promocodes::Campaign>(201, "Created.")
        .header("ETag", "ETag")
        .problems(400, "The body or the path's id is invalid. Nothing was recorded.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(412, "`If-Match` names another campaign than the stored one (changed since it was read) or there is none, or `If-None-Match: *` finds one; nothing was written.", &["precondition_failed"])
        .header("ETag", "ETagCurrent")
        .problems(413, "The body is over the route's limit (1 MiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `PATCH /v1/campaigns/{code}`.
pub(super) fn patch_campaign() -> Operation {
    Operation::new("patchCampaign", "admin", "A campaign's kill switch, for all of its codes")
        .param("IfMatch")
        .param("ChangeNote")
        .body::<promocodes::api::CodePatch>(None)
        .answers::<promocodes::wire::CampaignSummary>(200, "The campaign, switched.")
        .header("ETag", "ETag")
        .problems(400, "The body or the path's id is invalid. Nothing was recorded.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(412, "`If-Match` names another campaign than the stored one (changed since it was read), or there is none; nothing was written.", &["precondition_failed"])
        .header("ETag", "ETagCurrent")
        .problems(413, "The body is over the route's limit (16 KiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `DELETE /v1/campaigns/{code}`.
pub(super) fn archive_campaign() -> Operation {
    Operation::new("archiveCampaign", "admin", "Archive a campaign")
        .describe("Its codes are then the same 404 as an unknown code; its counts and history stay. Archiving adds a row to its change history, with `X-Change-Note`.")
        .param("ChangeNote")
        .answers::<promocodes::wire::CampaignSummary>(200, "The campaign, archived.")
        .problems(400, "The path's id is not a code, or a bad `X-Change-Note`.", &["invalid_request"])
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(
            500,
            "A secret or binding the route needs is missing, or a runtime error.",
            &["internal", "misconfigured"],
        )
        .problems(
            503,
            "The campaign's SQLite store failed. Nothing was recorded.",
            &["store_unavailable"],
        )
}

/// `GET /v1/campaigns/{code}`.
pub(super) fn get_campaign() -> Operation {
    Operation::new("getCampaign", "admin", "A campaign, its usage and its codes")
        .answers::<promocodes::wire::CampaignSummary>(200, "The campaign.")
        .header("ETag", "ETag")
        .problems(400, "The path's id is not a code.", &["invalid_request"])
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(
            500,
            "A secret or binding the route needs is missing, or a runtime error.",
            &["internal", "misconfigured"],
        )
        .problems(
            503,
            "The campaign's SQLite store failed. Nothing was recorded.",
            &["store_unavailable"],
        )
}

/// `POST /v1/campaigns/{code}/codes`.
pub(super) fn add_campaign_codes() -> Operation {
    Operation::new("addCampaignCodes", "admin", "Generate or import a campaign's codes")
        .param("IdempotencyKey")
        .body::<promocodes::wire::CodesRequest>(None)
        .answers::<promocodes::wire::CodesCreated>(201, "The codes created (a retry with the same key answers the same).")
        .problems(400, "The body, the pattern, the count or the key is invalid. Nothing was created.", &["invalid_request", "missing_idempotency_key"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(409, "A code exists already (a plain code's, or a campaign's); nothing of the call was created.", &["code_exists"])
        .problems(413, "The body is over the route's limit (1 MiB); the rest is not read.", &["payload_too_large"])
        .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"])
        .problems(422, "The Idempotency-Key names another call (another body): a key names one call forever. Nothing was created.", &["idempotency_key_reused"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/campaigns/{code}/codes`.
pub(super) fn campaign_codes() -> Operation {
    Operation::new("listCampaignCodes", "admin", "A page of a campaign's codes")
        .describe("With `Accept: text/csv`, the whole campaign as CSV (`code,uses,held`, a header row), streamed; `after` and `limit` then play no part.")
        .param_with(|_g| json!({
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {"type": "string"},
            "description": "Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .param_with(|_g| json!({
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
            "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .answers::<promocodes::wire::CampaignCodeList>(200, "The page.")
        .also("text/csv", |_g| json!({"type": "string", "pattern": "^code,uses,held\\n"}))
        .problems(400, "The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter.", &["invalid_request"])
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/campaigns/{code}/redemptions`.
pub(super) fn campaign_redemptions() -> Operation {
    Operation::new("listCampaignRedemptions", "admin", "A campaign's history, each record with the code it came through")
        .describe("With `Accept: text/csv`, the whole history as CSV, streamed (`after` and `limit` then play no part): a header row, `seq,code,idempotency_key,state,customer,total,discount,payable,currency,at,reason`, the columns of the console's download (`total` the quote's or what was charged, `at` when the record last changed, `reason` a release's reason or a refusal's detail); a cell a spreadsheet would run as a formula (one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` and is quoted, as OWASP recommends.")
        .param_with(|_g| json!({
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {"type": "string"},
            "description": "Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .param_with(|_g| json!({
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
            "description": "Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it.",
        }))
        .answers::<promocodes::wire::CampaignRedemptionList>(200, "The page.")
        .also("text/csv", |_g| json!({
            "type": "string",
            "pattern": "^seq,code,idempotency_key,state,customer,total,discount,payable,currency,at,reason\\n",
        }))
        .problems(400, "The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter.", &["invalid_request"])
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/campaigns/{code}/stats`.
pub(super) fn campaign_stats() -> Operation {
    Operation::new("getCampaignStats", "admin", "A campaign's live figures")
        .describe("The figures of `GET /v1/codes/{code}/stats`, for all of the campaign's codes (`code` is the campaign's id).")
        .answers::<promocodes::wire::Stats>(200, "The figures.")
        .problems(400, "The path's id is not a code.", &["invalid_request"])
        .problems(404, "No campaign of this id is defined.", &["unknown_code"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The campaign's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}

/// `GET /v1/campaigns/{code}/changes`.
pub(super) fn campaign_changes() -> Operation {
    super::codes::change_history(
        "getCampaignChanges",
        "A campaign's change history",
        "Every write that changed the campaign's definition, oldest first, as `GET /v1/codes/{code}/changes` lists a code's (`code` is the campaign's id): a `PUT` (a restore too), the switch (`PATCH`) and an archive (`DELETE`).",
    )
}
