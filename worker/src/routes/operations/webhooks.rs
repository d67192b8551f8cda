//! The shop's webhook endpoints: list, define, read, delete, rotate the secret.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

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
