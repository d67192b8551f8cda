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
    "required": json!(["code", "redemptions", "next"]),
    "properties": json!({
        "code": r::<crate::Code>(g),
        "redemptions": json!({
            "type": "array",
            "items": json!({
                "oneOf": json!([
                    r::<crate::wire::RecordedRedemption>(g),
                    r::<crate::wire::RefusedPaymentCapture>(g),
                    r::<crate::wire::RefundBeforePayment>(g),
                ]),
            }),
            "maxItems": 1000,
        }),
        "next": json!({
            "description": "The `after` of the next page (a `seq`), or null on the last.",
            "oneOf": json!([json!({"type": "string", "pattern": "^[0-9]+$"}), json!({"type": "null"})]),
        }),
    }),
    "additionalProperties": false,
}));

schema!([] crate::wire::CampaignRedemptionList => "CampaignRedemptionList", |g| json!({
    "description": "A page of a campaign's whole history, oldest first: every record of every code of the campaign (uses, refused payment captures, refunds recorded before their payment, with the campaign's counts) as `GET /v1/codes/{code}/redemptions` lists a code's, with the `code` it came through; `code` at the top is the campaign's id; `next` the cursor of the next page, or null.",
    "type": "object",
    "required": json!(["code", "redemptions", "next"]),
    "properties": json!({
        "code": r::<crate::Code>(g),
        "redemptions": json!({
            "type": "array",
            "items": json!({
                "type": "object",
                "required": json!(["seq", "state", "code"]),
                "properties": json!({
                    "seq": json!({"type": "integer"}),
                    "state": json!({"type": "string"}),
                    "code": r::<crate::Code>(g),
                }),
            }),
        }),
        "next": json!({"type": json!(["string", "null"])}),
    }),
    "additionalProperties": false,
}));

schema!([] crate::wire::RefusedPaymentCapture => "RefusedPaymentCapture", |g| json!({
    "description": "A payment capture refused after the money moved (a Stripe webhook's capture that a rule refused): recorded once per PaymentIntent, for the operator to refund or honour.",
    "type": "object",
    "required": json!(["seq", "idempotency_key", "state", "detail", "charged", "event_id", "refused_at"]),
    "properties": json!({
        "seq": json!({"type": "integer", "minimum": 1}),
        "idempotency_key": r::<crate::IdempotencyKey>(g),
        "state": json!({"const": "refused"}),
        "customer": json!({"type": json!(["string", "null"])}),
        "rejection": json!({"oneOf": json!([r::<crate::Rejection>(g), json!({"type": "null"})])}),
        "detail": json!({"type": "string"}),
        "charged": json!({
            "type": "object",
            "required": json!(["amount", "currency"]),
            "properties": json!({"amount": json!({"type": "string"}), "currency": json!({"type": "string"})}),
            "additionalProperties": false,
        }),
        "event_id": json!({"type": "string"}),
        "refused_at": r::<crate::Timestamp>(g),
        "quote": json!({"oneOf": json!([r::<crate::Quote>(g), json!({"type": "null"})])}),
    }),
    "additionalProperties": false,
}));

schema!([] crate::wire::Figures => "Figures", |g| json!({
    "description": "What happened to a code in a period.",
    "type": "object",
    "required": json!([
        "captures",
        "replays",
        "holds",
        "releases",
        "expired",
        "conflicts",
        "quotes",
        "rejections",
    ]),
    "properties": json!({
        "captures": json!({"type": "integer", "minimum": 0}),
        "replays": json!({
            "type": "integer",
            "minimum": 0,
            "description": "Answers that replayed an earlier capture, hold or release.",
        }),
        "holds": json!({"type": "integer", "minimum": 0}),
        "releases": json!({"type": "integer", "minimum": 0}),
        "expired": json!({
            "type": "integer",
            "minimum": 0,
            "description": "Holds that expired before they were captured or released.",
        }),
        "conflicts": json!({"type": "integer", "minimum": 0}),
        "quotes": json!({"type": "integer", "minimum": 0}),
        "rejections": json!({
            "description": "Refusals by rejection code, per operation.",
            "type": "object",
            "required": json!(["quotes", "holds", "captures"]),
            "properties": json!({
                "quotes": json!({
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": json!({"type": "integer", "minimum": 1}),
                }),
                "holds": json!({
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": json!({"type": "integer", "minimum": 1}),
                }),
                "captures": json!({
                    "type": "object",
                    "propertyNames": r::<crate::Rejection>(g),
                    "additionalProperties": json!({"type": "integer", "minimum": 1}),
                }),
            }),
            "additionalProperties": false,
        }),
        "discounted": with_ref::<crate::Money>(g, json!({
            "description": "The discounts of new captures in the period, in the code's currency; left out for a code without a currency of its own. What a budget has spent is `discounted` less `returned` (held uses aside).",
        })),
        "returned": with_ref::<crate::Money>(g, json!({
            "description": "The discounts of captures released in the period, in the code's currency; left out for a code without a currency of its own.",
        })),
    }),
    "additionalProperties": false,
}));
