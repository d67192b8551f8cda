//! The schemas of a history's pages, whose records are one of three shapes
//! (`oneOf`, not schemars' `anyOf` of an untagged enum), of a refused
//! payment capture (its refusal a flattened map), and of the figures (their
//! counts keyed by rejection code).
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema, with_ref};

schema!([] crate::wire::RedemptionList => "RedemptionList", |g| json!({
    "description": "One page of a code's holds, captures, refused payment captures and refunds that came before their payment, oldest first.",
    "type": "object",
    "required": ["code", "redemptions", "next"],
    "properties": {
        "code": r::<crate::Code>(g),
        "redemptions": {
            "type": "array",
            "items": {
                "oneOf": [
                    r::<crate::wire::RecordedRedemption>(g),
                    r::<crate::wire::RefusedPaymentCapture>(g),
                    r::<crate::wire::RefundBeforePayment>(g),
                ],
            },
            "maxItems": 1000,
        },
        "next": {
            "description": "The `after` of the next page (a `seq`), or null on the last.",
            "oneOf": [{"type": "string", "pattern": "^[0-9]+$"}, {"type": "null"}],
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::wire::CampaignRedemptionList => "CampaignRedemptionList", |g| json!({
    "description": "A page of a campaign's whole history, oldest first: every record of every code of the campaign (uses, refused payment captures, refunds recorded before their payment, with the campaign's counts) as `GET /v1/codes/{code}/redemptions` lists a code's, with the `code` it came through; `code` at the top is the campaign's id; `next` the cursor of the next page, or null.",
    "type": "object",
    "required": ["code", "redemptions", "next"],
    "properties": {
        "code": r::<crate::Code>(g),
        "redemptions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seq", "state", "code"],
                "properties": {
                    "seq": {"type": "integer"},
                    "state": {"type": "string"},
                    "code": r::<crate::Code>(g),
                },
            },
        },
        "next": {"type": ["string", "null"]},
    },
    "additionalProperties": false,
}));

schema!([] crate::wire::RefusedPaymentCapture => "RefusedPaymentCapture", |g| json!({
    "description": "A payment capture refused after the money moved (a Stripe webhook's capture that a rule refused): recorded once per PaymentIntent, for the operator to refund or honour.",
    "type": "object",
    "required": ["seq", "idempotency_key", "state", "detail", "charged", "event_id", "refused_at"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "idempotency_key": r::<crate::IdempotencyKey>(g),
        "state": {"const": "refused"},
        "customer": {"type": ["string", "null"]},
        "rejection": {"oneOf": [r::<crate::Rejection>(g), {"type": "null"}]},
        "detail": {"type": "string"},
        "charged": {
            "type": "object",
            "required": ["amount", "currency"],
            "properties": {"amount": {"type": "string"}, "currency": {"type": "string"}},
            "additionalProperties": false,
        },
        "event_id": {"type": "string"},
        "refused_at": r::<crate::Timestamp>(g),
        "quote": {"oneOf": [r::<crate::Quote>(g), {"type": "null"}]},
    },
    "additionalProperties": false,
}));

schema!([] crate::wire::Figures => "Figures", |g| json!({
    "description": "What happened to a code in a period.",
    "type": "object",
    "required": [
        "captures",
        "replays",
        "holds",
        "releases",
        "expired",
        "conflicts",
        "quotes",
        "rejections",
    ],
    "properties": {
        "captures": {"type": "integer", "minimum": 0},
        "replays": {
            "type": "integer",
            "minimum": 0,
            "description": "Answers that replayed an earlier capture, hold or release.",
        },
        "holds": {"type": "integer", "minimum": 0},
        "releases": {"type": "integer", "minimum": 0},
        "expired": {
            "type": "integer",
            "minimum": 0,
            "description": "Holds that expired before they were captured or released.",
        },
        "conflicts": {"type": "integer", "minimum": 0},
        "quotes": {"type": "integer", "minimum": 0},
        "rejections": {
            "description": "Refusals by rejection code, per operation.",
            "type": "object",
            "required": ["quotes", "holds", "captures"],
            "properties": {
                "quotes": {
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": {"type": "integer", "minimum": 1},
                },
                "holds": {
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": {"type": "integer", "minimum": 1},
                },
                "captures": {
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": {"type": "integer", "minimum": 1},
                },
            },
            "additionalProperties": false,
        },
        "discounted": with_ref::<crate::Money>(g, json!({
            "description": "The discounts of new captures in the period, in the code's currency; left out for a code without a currency of its own. What a budget has spent is `discounted` less `returned` (held uses aside).",
        })),
        "returned": with_ref::<crate::Money>(g, json!({
            "description": "The discounts of captures released in the period, in the code's currency; left out for a code without a currency of its own.",
        })),
    },
    "additionalProperties": false,
}));
