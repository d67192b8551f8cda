//! The schemas of a history's pages, whose records are one of three shapes
//! (`oneOf`, not schemars' `anyOf` of an untagged enum), and of a refused
//! payment capture (its refusal a flattened map).
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema};

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
            "description": "The `after` of the next page (a `seq`; for a sharded code, one position for its object and each shard, joined by `~`), or null on the last.",
            "oneOf": [{"type": "string", "pattern": "^[0-9]+(~[0-9]+)*$"}, {"type": "null"}],
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
