//! The shop's webhook endpoints: list, define, read, delete, rotate the secret.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::Operation;

fn admin(op: Operation) -> Operation {
    op.problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(
            500,
            "A secret or binding the route needs is missing, or a runtime error.",
            &["internal", "misconfigured"],
        )
}

/// `GET /v1/webhooks`.
pub(super) fn list_webhooks() -> Operation {
    admin(
        Operation::new("getWebhooks", "webhooks", "List the webhook endpoints")
            .describe("Every endpoint the events are sent to, in id order, without their secrets.")
            .answers::<promocodes::wire::WebhookList>(200, "The endpoints."),
    )
}

/// `PUT /v1/webhooks/{id}`.
pub(super) fn put_webhook() -> Operation {
    admin(
        Operation::new("putWebhook", "webhooks", "Define or replace a webhook endpoint")
            .describe("Defines the endpoint (201, with its signing secret `whsec_...` shown this once) or replaces its `url`, `events` and `description` (200: the secret is kept, and an endpoint disabled by a 410 is enabled again). The `url` is `https://`, or `http://` to a host listed in `WEBHOOK_ALLOW_HTTP`; at most 16 endpoints. Each event is signed as Standard Webhooks 1.0 signs (`webhook-id`, `webhook-timestamp`, `webhook-signature`).")
            .body::<promocodes::wire::WebhookRequest>(Some("At most 16 KiB."))
            .answers::<promocodes::wire::WebhookEndpoint>(200, "Replaced.")
            .answers::<promocodes::wire::WebhookWithSecret>(201, "Created, with its secret.")
            .problems(400, "Bad input: the `detail` names the field (`id`, `url`, `events`, `description`). Nothing was written.", &["invalid_request"])
            .problems(409, "There are 16 endpoints already. Nothing was written.", &["webhook_limit"])
            .problems(413, "The body is over the route's limit (16 KiB); the rest is not read.", &["payload_too_large"])
            .problems(415, "The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded.", &["unsupported_media_type"]),
    )
}

/// `GET /v1/webhooks/{id}`.
pub(super) fn get_webhook() -> Operation {
    admin(
        Operation::new("getWebhook", "webhooks", "Read a webhook endpoint")
            .answers::<promocodes::wire::WebhookEndpoint>(200, "The endpoint, without its secret.")
            .problems(400, "The path's id is not an endpoint's.", &["invalid_request"])
            .problems(404, "No endpoint of this id.", &["unknown_webhook"]),
    )
}

/// `DELETE /v1/webhooks/{id}`.
pub(super) fn delete_webhook() -> Operation {
    admin(
        Operation::new("deleteWebhook", "webhooks", "Delete a webhook endpoint")
            .describe("Nothing more is sent to it.")
            .empty(204, "Deleted.")
            .problems(400, "The path's id is not an endpoint's.", &["invalid_request"])
            .problems(404, "No endpoint of this id.", &["unknown_webhook"]),
    )
}

/// `POST /v1/webhooks/{id}/rotate`.
pub(super) fn rotate_webhook() -> Operation {
    admin(
        Operation::new("rotateWebhook", "webhooks", "Rotate a webhook endpoint's secret")
            .describe("A new signing secret, shown this once; for 24 hours the one before signs too (`webhook-signature` then lists both signatures, space-separated).")
            .answers::<promocodes::wire::WebhookWithSecret>(200, "The endpoint with its new secret.")
            .problems(400, "The path's id is not an endpoint's.", &["invalid_request"])
            .problems(404, "No endpoint of this id.", &["unknown_webhook"]),
    )
}

/// `GET /v1/webhooks/{id}/deliveries`.
pub(super) fn webhook_deliveries() -> Operation {
    admin(
        Operation::new("getWebhookDeliveries", "webhooks", "An endpoint's deliveries")
            .describe("Each event tried for the endpoint, in the order of its first try: its tries, the last status or error, and when the next try is due (`pending`), or `delivered`, or `failed` (given up after the last retry: send it again by hand). The newest 10,000 are kept.")
            .param_with(|_g| json!({
                "name": "after",
                "in": "query",
                "description": "Only deliveries after this cursor: the previous page's `next`.",
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
            }))
            .param_with(|_g| json!({
                "name": "limit",
                "in": "query",
                "description": "Page size, 1 to 1000.",
                "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
            }))
            .answers::<promocodes::wire::DeliveryList>(200, "One page of deliveries.")
            .problems(400, "A bad `after` or `limit`, or the path's id is not an endpoint's.", &["invalid_request"])
            .problems(404, "No endpoint of this id.", &["unknown_webhook"]),
    )
}

/// `POST /v1/webhooks/{id}/deliveries/{event_id}/retry`.
pub(super) fn retry_delivery() -> Operation {
    admin(
        Operation::new("retryWebhookDelivery", "webhooks", "Send an event again")
            .describe("Sends an event tried before (delivered, pending or failed) to the endpoint again, now, signed afresh under the same `webhook-id`; the answer is its delivery after this try. A failed event stays failed if this try fails too; a pending one keeps its next try.")
            .param_with(|_g| json!({
                "name": "event_id",
                "in": "path",
                "required": true,
                "description": "The event's id: its `webhook-id` (`evt_<code>_<n>`).",
                "schema": {"type": "string"},
            }))
            .answers::<promocodes::wire::DeliveryRecord>(200, "The delivery after this try.")
            .problems(400, "The path's id is not an endpoint's.", &["invalid_request"])
            .problems(404, "No endpoint of this id, or no try of this event to it.", &["unknown_webhook", "unknown_delivery"])
            .problems(503, "The object that keeps the event failed to read it.", &["store_unavailable"]),
    )
}
