//! The payment provider's webhook, this description, and the test builds' routes.
//!
//! Each function is one route's operation; see [`Handler::operation`](crate::routes::Handler).

use serde_json::json;

use crate::openapi::{r, Operation};

/// `POST /v1/webhooks/stripe`.
pub(super) fn stripe_webhook() -> Operation {
    Operation::new("postStripeWebhook", "webhooks", "Stripe webhook")
        .describe("Stripe posts an event; the Worker verifies `Stripe-Signature` over the raw body with `STRIPE_WEBHOOK_SECRET` (HMAC-SHA256, any `v1`, constant time, at most 300 s off). `payment_intent.succeeded` with `metadata.promo_code` captures under the PaymentIntent's id, pinned to `amount_received` (converted with Stripe's own minor units), converting a hold taken under that id; a capture refused then is recorded as a refused payment capture and answered 200 (`action: refused`). `payment_intent.canceled`, `payment_intent.payment_failed` and a full `charge.refunded` release what is recorded under the PaymentIntent's id. Stripe does not order its events: a full refund is final for its PaymentIntent, in any order and under concurrent delivery, whether the refund names the codes, the PaymentIntent named them earlier, or neither has been seen yet (recorded as released even when nothing was held or captured yet; a refund that no code is known for yet is kept by PaymentIntent id and answered 200 `action: released` with `why`; a `payment_intent.succeeded` after it captures nothing, gives back a hold under the PaymentIntent's id, and is answered 200 `action: released`, `replayed: true`), and so is a refused payment capture (a redelivery answers `action: refused`, `replayed: true`). Only a hold released by `payment_intent.canceled` or `payment_intent.payment_failed` may be followed by a capture afresh, under `<pi>:paid`. `metadata.promo_codes` (comma-separated, beside `promo_code`) names several codes in one basket, a stack, captured, released and refunded as one: the stack is priced on `metadata.promo_basket` (required for a stack; a code already captured or held under the PaymentIntent is taken as it was, never priced again, so a redelivery of a captured stack answers `action: replayed` with the first delivery's receipts after any edit) and its payable must be `amount_received`, then each code goes through its own payment flow under the PaymentIntent's id, with the basket its part applied to, all or none (`receipts`: one receipt per code, in the order they apply). A stack refused before anything is written (a code's own rule, `not_combinable`, a changed price) records nothing and is answered 200 `action: refused` with `rejections`; a code refused at its write (its counts moved) is recorded for that code as a refused payment capture and every other code's use under the PaymentIntent is given back for good (`releases`). A cancel, failure or refund of a stack answers `releases`, one entry per code. A list of one is one code. An event naming both `promo_code` and `promo_codes`, or a malformed list (an empty item, a code twice, more than 5), is answered 200 and ignored with `why`. Other events are answered 200 and ignored. A conflict or a store failure is a 5xx, so that Stripe delivers the event again.")
        .param_with(|_g| json!({
            "name": "Stripe-Signature",
            "in": "header",
            "required": true,
            "description": "`t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...]`; a timestamp more than 300 s from now is refused.",
            "schema": {"type": "string"},
        }))
        .body::<promocodes::schema::StripeEvent>(Some("The event exactly as Stripe sent it (signed byte for byte)."))
        .answers::<promocodes::wire::WebhookAnswer>(200, "The event was handled, replayed or deliberately ignored; Stripe stops delivering it.")
        .content(400, "The signature does not verify the body (or is missing or too far from now), or a verified body is not an event promocodes can read. Nothing happened.", "application/problem+json", |g| json!({
            "allOf": [
                r::<promocodes::wire::ProblemDetails>(g),
                {
                    "oneOf": [
                        {"$ref": "#/components/schemas/InvalidSignatureProblem"},
                        {"$ref": "#/components/schemas/InvalidEventProblem"},
                    ],
                },
            ],
        }))
        .content(413, "The body is over 64 KiB; the rest is not read.", "application/problem+json", |g| json!({
            "allOf": [
                r::<promocodes::wire::ProblemDetails>(g),
                {"$ref": "#/components/schemas/PayloadTooLargeProblem"},
            ],
        }))
        .content(500, "`STRIPE_WEBHOOK_SECRET` is not configured, or a runtime error: Stripe delivers again.", "application/problem+json", |g| json!({
            "allOf": [
                r::<promocodes::wire::ProblemDetails>(g),
                {
                    "oneOf": [
                        {"$ref": "#/components/schemas/MisconfiguredProblem"},
                        {"$ref": "#/components/schemas/InternalProblem"},
                    ],
                },
            ],
        }))
        .content(503, "A conflict (every attempt lost) or a store failure: Stripe delivers again.", "application/problem+json", |g| json!({
            "allOf": [
                r::<promocodes::wire::ProblemDetails>(g),
                {
                    "oneOf": [
                        {"$ref": "#/components/schemas/WebhookConflictProblem"},
                        {"$ref": "#/components/schemas/StoreUnavailableProblem"},
                    ],
                },
            ],
        }))
}

/// `GET /v1/openapi.json`.
pub(super) fn open_api() -> Operation {
    Operation::new("getOpenApi", "meta", "This description")
        .describe("docs/openapi.json, as the Worker was built with it.")
        .content(200, "The OpenAPI 3.1 description.", "application/json", |_g| {
            json!({
                "type": "object",
                "required": ["openapi", "info", "paths"],
                "properties": {"openapi": {"const": "3.1.0"}},
            })
        })
        .problems(500, "A runtime error.", &["internal"])
}

/// `POST /v1/__conformance`.
pub(super) fn conformance() -> Operation {
    Operation::new("postConformance", "meta", "Run the store conformance suite (test builds only)")
        .describe("Exists only in builds with the `conformance` feature: runs the core's store conformance suite against the SQLite store inside a Durable Object.")
        .answers::<promocodes::wire::Conformance>(200, "The suite passed.")
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
}

/// `GET /v1/__figures/{code}`.
pub(super) fn figure_writes() -> Operation {
    Operation::new("getFigureWrites", "meta", "Count a code's figures writes (test builds only)")
        .describe("Exists only in builds with the `conformance` feature: when the code's object (this instance of it) wrote figures to SQLite, and how many counted events wait in memory to be written. It writes nothing.")
        .answers::<promocodes::wire::FigureWrites>(200, "The counts.")
        .problems(400, "The path's code is not a code.", &["invalid_request"])
        .problems(401, "No or a wrong bearer token.", &["unauthorized"])
        .header("WWW-Authenticate", "WWWAuthenticate")
        .problems(404, "No definition is stored for the code, or it is archived.", &["unknown_code"])
        .problems(500, "A secret or binding the route needs is missing, or a runtime error.", &["internal", "misconfigured"])
        .problems(503, "The code's SQLite store failed. Nothing was recorded.", &["store_unavailable"])
}
