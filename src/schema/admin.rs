//! The schemas of a problem's type and of the answers that flatten a
//! definition into themselves (a code's lookup and summary, a campaign's
//! summary): their definition is JSON of its own (`D`), so their fields are
//! written here, as the definition's are.
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema, with_ref};

// Its `enum` is the adapter's: the Worker's generator lists the types of its problems.
schema!([] crate::schema::ProblemType => "ProblemType", |_g| json!({
    "description": "`/problems/<slug>`, one per kind of error (worker/src/problem.rs). Relative URI references; each is described by its `*Problem` schema.",
    "type": "string",
}));

/// The fields of a definition as anyone may see it (without the audience's
/// customers), which a code's lookup, a catalog's summary and an automatic
/// promotion share.
fn public_fields(g: &mut schemars::SchemaGenerator) -> serde_json::Map<String, serde_json::Value> {
    let fields = json!({
        "code": r::<crate::Code>(g),
        "campaign": with_ref::<crate::Code>(g, json!({
            "description": "For a campaign's code: the campaign it belongs to (its definition is the campaign's, with `code` the code).",
        })),
        "uses_per_code": {
            "type": "integer",
            "minimum": 1,
            "description": "For a campaign's code: how often the code itself may be used.",
        },
        "active": {
            "type": "boolean",
            "description": "The kill switch: an inactive code is refused with `inactive`.",
        },
        "discount": r::<crate::Discount>(g),
        "applies_to": r::<crate::AppliesTo>(g),
        "limits": r::<crate::UsageLimits>(g),
        "starts_at": with_ref::<crate::Timestamp>(g, json!({"description": "The first moment the code is valid (inclusive)."})),
        "ends_at": with_ref::<crate::Timestamp>(g, json!({"description": "The first moment the code is no longer valid (exclusive)."})),
        "minimum": with_ref::<crate::Money>(g, json!({"description": "The smallest eligible subtotal the code applies to."})),
        "combines_with": {
            "description": "The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application.",
            "type": "array",
            "items": r::<crate::CodeClass>(g),
            "maxItems": 3,
            "uniqueItems": true,
        },
        "assigned": {
            "type": "boolean",
            "description": "Whether the code is assigned to named customers (who they are is not public).",
        },
        "first_order": {
            "type": "boolean",
            "const": true,
            "description": "A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.",
        },
        "automatic": {
            "type": "boolean",
            "description": AUTOMATIC,
        },
        "priority": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1_000_000,
            "description": PRIORITY,
        },
        "shards": {
            "type": "integer",
            "minimum": 2,
            "maximum": 64,
            "description": SHARDS,
        },
    });
    match fields {
        serde_json::Value::Object(fields) => fields,
        _ => unreachable!("an object"),
    }
}

/// `automatic` as a definition writes it.
pub(super) const AUTOMATIC: &str = "An automatic promotion: it joins a basket without being typed, when a request says `\"automatic\": true` (see `GET /v1/automatic`). Written only when true.";
/// `priority` as a definition writes it.
pub(super) const PRIORITY: &str =
    "Among automatic promotions, lower joins first (then by code). Written with `automatic`, or when not 100.";

/// `shards` as a definition writes it.
pub(super) const SHARDS: &str = "How many shard objects the code's holds and captures are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the cap its object grants. Written only when above 1. It may change on a defined code, to 2 or more (never back to 1), at most 8 times: its uses and keys stay where they were taken.";

/// `shards` as a campaign's definition writes it.
pub(super) const CAMPAIGN_SHARDS: &str = "How many shard objects the holds and captures of the campaign's codes are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the campaign's total and budget, and of each code's uses. Written only when above 1.";

/// An object schema: `description`, the public fields and `more`, `required`.
fn public_object(
    g: &mut schemars::SchemaGenerator,
    description: &str,
    more: serde_json::Value,
    required: &[&str],
) -> serde_json::Value {
    let mut properties = public_fields(g);
    if let serde_json::Value::Object(more) = more {
        properties.extend(more);
    }
    json!({
        "description": description,
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": false,
    })
}

/// Uses left and the budget left, as a lookup and a summary write them.
fn remaining(g: &mut schemars::SchemaGenerator) -> serde_json::Value {
    json!({
        "usage": r::<crate::wire::CodeUsage>(g),
        "remaining": {
            "type": "integer",
            "minimum": 0,
            "description": "Uses left: the least of what the total cap, a campaign code's `uses_per_code` and the budget leave (a budget counted in uses at the discount's full size: a fixed amount or its `max`, rounded down with `refuse` and up with `partial`; a discount of no fixed size counts only once nothing is left). Only when one of them bounds it.",
        },
        "remaining_budget": with_ref::<crate::Money>(g, json!({
            "description": "What is left of the budget (never below zero); only when the code has one.",
        })),
    })
}

schema!([D] crate::wire::PublicCode<D> => "PublicCode", |g| {
    let more = remaining(g);
    public_object(
        g,
        "A code as anyone may see it: the definition without the audience's customers, its live usage and, when capped, what remains.",
        more,
        &["code", "active", "discount", "assigned", "usage"],
    )
});

schema!([D] crate::wire::CodeSummary<D> => "CodeSummary", |g| {
    let mut more = remaining(g);
    more["archived"] = json!({"type": "boolean"});
    more["defined_at"] = with_ref::<crate::Timestamp>(g, json!({
        "description": "When the code was first defined; left out for a code defined before this was kept.",
    }));
    public_object(
        g,
        "A code as the catalog lists it: the public view, whether it is archived and when it was first defined.",
        more,
        &["code", "active", "discount", "assigned", "archived", "usage"],
    )
});

schema!([] crate::schema::PublicDefinition => "PublicDefinition", |g| public_object(
    g,
    "A code's definition as anyone may see it: without the audience's customers (`assigned` says whether it has any).",
    json!({}),
    &["code", "active", "discount", "assigned"],
));

schema!([D] crate::wire::AutomaticPromotions<D> => "AutomaticPromotions", |g| json!({
    "description": "`GET /v1/automatic`: the public definitions of the active automatic promotions (each as `PublicCode` shows a definition: the audience only as `assigned`), by priority then code, at most 20.",
    "type": "object",
    "required": ["promotions"],
    "properties": {
        "promotions": {
            "type": "array",
            "maxItems": crate::Stack::MAX_AUTOMATIC,
            "items": r::<crate::schema::PublicDefinition>(g),
        },
    },
    "additionalProperties": false,
}));

schema!([D] crate::wire::CampaignSummary<D> => "CampaignSummary", |g| json!({
    "description": "A campaign with its usage now (every code's: `total`, `held`, `discounted` in its currency and the holds' part of it, `held_discounted`), the uses left under its total (`remaining`) and its codes (`count`, and `used`: those with a use that counts).",
    "type": "object",
    "required": ["id", "uses_per_code", "active", "discount", "archived", "usage", "codes"],
    "properties": {
        "id": r::<crate::Code>(g),
        "uses_per_code": {"type": "integer", "minimum": 1},
        "active": {"type": "boolean"},
        "discount": r::<crate::Discount>(g),
        "applies_to": r::<crate::AppliesTo>(g),
        "limits": r::<crate::UsageLimits>(g),
        "starts_at": r::<crate::Timestamp>(g),
        "ends_at": r::<crate::Timestamp>(g),
        "minimum": r::<crate::Money>(g),
        "audience": {"type": "array", "items": r::<crate::CustomerId>(g)},
        "combines_with": {
            "description": "The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application.",
            "type": "array",
            "items": r::<crate::CodeClass>(g),
            "maxItems": 3,
            "uniqueItems": true,
        },
        "shards": {"type": "integer", "minimum": 2, "maximum": 64, "description": CAMPAIGN_SHARDS},
        "archived": {"type": "boolean"},
        "usage": {
            "type": "object",
            "required": ["total", "held"],
            "properties": {
                "total": {"type": "integer", "minimum": 0},
                "held": {"type": "integer", "minimum": 0},
                "discounted": r::<crate::Money>(g),
                "held_discounted": with_ref::<crate::Money>(g, json!({
                    "description": "Of `discounted`, the discounts of the active holds.",
                })),
            },
            "additionalProperties": false,
        },
        "remaining": {
            "description": "Uses left across every code: the least of what the campaign's total cap and its budget leave (the budget counted in uses as for a code's `remaining`); only when one of them bounds it.",
            "type": "integer",
            "minimum": 0,
        },
        "remaining_budget": r::<crate::Money>(g),
        "codes": {
            "type": "object",
            "required": ["count", "used"],
            "properties": {
                "count": {"type": "integer", "minimum": 0},
                "used": {"type": "integer", "minimum": 0},
            },
            "additionalProperties": false,
        },
        "defined_at": with_ref::<crate::Timestamp>(g, json!({
            "description": "When the campaign was first defined; left out for a campaign defined before this was kept.",
        })),
    },
    "additionalProperties": false,
}));
