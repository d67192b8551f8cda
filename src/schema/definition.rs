//! The schemas of a code's definition and of a campaign, as written and as a request gives them.
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema, with_ref};

schema!([] crate::Discount => "Discount", |g| json!({
    "description": "What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`). Buy X get Y: for each `buy` (units, or money spent on units not given), `get.quantity` units at `get.percent` or `get.amount` off each, at most `max_applications` times, the cheapest (or most expensive) units given; class `product`. Tiered: the highest tier the eligible subtotal (`by: subtotal`) or units (`by: quantity`) reach applies its percent or fixed discount.",
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": ["percent", "fixed", "free_shipping", "buy_x_get_y", "tiered"]},
    },
    "oneOf": [
        {
            "title": "percent",
            "required": ["kind", "percent"],
            "properties": {
                "kind": {"const": "percent"},
                "percent": {
                    "description": "Above 0, at most 100, at most 4 decimal places, written without trailing zeros.",
                    "type": "string",
                    "pattern": "^(0\\.[0-9]{0,3}[1-9]|[1-9][0-9]?(\\.[0-9]{0,3}[1-9])?|100)$",
                },
                "max": r::<crate::Money>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "fixed",
            "required": ["kind", "amount"],
            "properties": {
                "kind": {"const": "fixed"},
                "amount": r::<crate::Money>(g),
                "max": r::<crate::Money>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "free_shipping",
            "required": ["kind"],
            "properties": {"kind": {"const": "free_shipping"}, "max": r::<crate::Money>(g)},
            "additionalProperties": false,
        },
        {
            "title": "buy_x_get_y",
            "required": ["kind", "buy", "get", "selection"],
            "properties": {
                "kind": {"const": "buy_x_get_y"},
                "buy": {
                    "description": "What each application needs bought: `quantity` units or an `amount` spent, on `applies_to` (every line when left out).",
                    "type": "object",
                    "properties": {
                        "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "amount": r::<crate::Money>(g),
                        "applies_to": r::<crate::AppliesTo>(g),
                    },
                    "additionalProperties": false,
                },
                "get": {
                    "description": "What each application gives: `quantity` units of `applies_to` (the buy's when left out) at `percent` (100 is free) or `amount` off each unit (never above its price).",
                    "type": "object",
                    "required": ["quantity"],
                    "properties": {
                        "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "applies_to": r::<crate::AppliesTo>(g),
                        "percent": {
                            "description": "Above 0, at most 100, at most 4 decimal places, written without trailing zeros.",
                            "type": "string",
                            "pattern": "^(0\\.[0-9]{0,3}[1-9]|[1-9][0-9]?(\\.[0-9]{0,3}[1-9])?|100)$",
                        },
                        "amount": r::<crate::Money>(g),
                    },
                    "additionalProperties": false,
                },
                "max_applications": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "At most this many applications (as many as the basket holds when left out).",
                },
                "selection": {"type": "string", "enum": ["cheapest", "most_expensive"], "default": "cheapest"},
                "max": r::<crate::Money>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "tiered",
            "required": ["kind", "by", "tiers"],
            "properties": {
                "kind": {"const": "tiered"},
                "by": {"type": "string", "enum": ["subtotal", "quantity"]},
                "tiers": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 10,
                    "description": "`from` strictly increasing: money for `by: subtotal`, a count of units for `by: quantity`; each tier's discount a `percent` or `fixed` one.",
                    "items": {
                        "type": "object",
                        "required": ["from", "discount"],
                        "properties": {"from": r::<crate::TierFrom>(g), "discount": r::<crate::Discount>(g)},
                        "additionalProperties": false,
                    },
                },
            },
            "additionalProperties": false,
        },
    ],
}));

schema!([] crate::schema::DiscountInput => "DiscountInput", |g| json!({
    "description": "What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`). Buy X get Y: for each `buy` (units, or money spent on units not given), `get.quantity` units at `get.percent` or `get.amount` off each, at most `max_applications` times, the cheapest (or most expensive) units given; class `product`. Tiered: the highest tier the eligible subtotal (`by: subtotal`) or units (`by: quantity`) reach applies its percent or fixed discount.",
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": ["percent", "fixed", "free_shipping", "buy_x_get_y", "tiered"]},
    },
    "oneOf": [
        {
            "title": "percent",
            "required": ["kind", "percent"],
            "properties": {
                "kind": {"const": "percent"},
                "percent": {
                    "description": "A decimal string above 0 and at most 100, at most 4 decimal places.",
                    "type": "string",
                    "pattern": "^[0-9]+(\\.[0-9]+)?$",
                },
                "max": r::<crate::schema::MoneyInput>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "fixed",
            "required": ["kind", "amount"],
            "properties": {
                "kind": {"const": "fixed"},
                "amount": r::<crate::schema::MoneyInput>(g),
                "max": r::<crate::schema::MoneyInput>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "free_shipping",
            "required": ["kind"],
            "properties": {"kind": {"const": "free_shipping"}, "max": r::<crate::schema::MoneyInput>(g)},
            "additionalProperties": false,
        },
        {
            "title": "buy_x_get_y",
            "required": ["kind", "buy", "get"],
            "properties": {
                "kind": {"const": "buy_x_get_y"},
                "buy": {
                    "description": "What each application needs bought: `quantity` units or an `amount` spent, on `applies_to` (every line when left out).",
                    "type": "object",
                    "properties": {
                        "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "amount": r::<crate::schema::MoneyInput>(g),
                        "applies_to": r::<crate::schema::AppliesToInput>(g),
                    },
                    "additionalProperties": false,
                },
                "get": {
                    "description": "What each application gives: `quantity` units of `applies_to` (the buy's when left out) at `percent` (100 is free) or `amount` off each unit (never above its price).",
                    "type": "object",
                    "required": ["quantity"],
                    "properties": {
                        "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "applies_to": r::<crate::schema::AppliesToInput>(g),
                        "percent": {
                            "description": "A decimal string above 0 and at most 100, at most 4 decimal places.",
                            "type": "string",
                            "pattern": "^[0-9]+(\\.[0-9]+)?$",
                        },
                        "amount": r::<crate::schema::MoneyInput>(g),
                    },
                    "additionalProperties": false,
                },
                "max_applications": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "At most this many applications (as many as the basket holds when left out).",
                },
                "selection": {"type": "string", "enum": ["cheapest", "most_expensive"], "default": "cheapest"},
                "max": r::<crate::schema::MoneyInput>(g),
            },
            "additionalProperties": false,
        },
        {
            "title": "tiered",
            "required": ["kind", "by", "tiers"],
            "properties": {
                "kind": {"const": "tiered"},
                "by": {"type": "string", "enum": ["subtotal", "quantity"]},
                "tiers": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 10,
                    "description": "`from` strictly increasing: money for `by: subtotal`, a count of units for `by: quantity`; each tier's discount a `percent` or `fixed` one.",
                    "items": {
                        "type": "object",
                        "required": ["from", "discount"],
                        "properties": {
                            "from": r::<crate::schema::TierFromInput>(g),
                            "discount": r::<crate::schema::DiscountInput>(g),
                        },
                        "additionalProperties": false,
                    },
                },
            },
            "additionalProperties": false,
        },
    ],
}));

schema!([] crate::TierFrom => "TierFrom", |g| json!({
    "description": "Where a tier starts, or what is missing to reach it: money (`by: subtotal`) or a count of units (`by: quantity`).",
    "oneOf": [r::<crate::Money>(g), {"type": "integer", "minimum": 1}],
}));

schema!([] crate::schema::TierFromInput => "TierFromInput", |g| json!({
    "description": "Where a tier starts: money (`by: subtotal`) or a count of units, 1 to 1,000,000 (`by: quantity`).",
    "oneOf": [r::<crate::schema::MoneyInput>(g), {"type": "integer", "minimum": 1, "maximum": 1000000}],
}));

schema!([] crate::AppliesTo => "AppliesTo", |g| json!({
    "description": "The lines a code applies to: a line is eligible when its sku or any of its categories is listed. Lists are sorted and without repeats; an empty one is left out.",
    "type": "object",
    "minProperties": 1,
    "properties": {
        "skus": {
            "type": "array",
            "items": r::<crate::Sku>(g),
            "minItems": 1,
            "maxItems": 1000,
            "uniqueItems": true,
        },
        "categories": {
            "type": "array",
            "items": r::<crate::Category>(g),
            "minItems": 1,
            "maxItems": 1000,
            "uniqueItems": true,
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::schema::AppliesToInput => "AppliesToInput", |g| json!({
    "description": "The lines a code applies to: skus and categories (up to 1000 of each; not both empty).",
    "type": "object",
    "properties": {
        "skus": {"type": "array", "items": r::<crate::Sku>(g), "maxItems": 1000},
        "categories": {"type": "array", "items": r::<crate::Category>(g), "maxItems": 1000},
    },
    "additionalProperties": false,
}));

schema!([] crate::UsageLimits => "UsageLimits", |g| json!({
    "description": "Caps on uses (held and captured): overall and per customer, and a money budget; a missing cap is unlimited. Left out of an answer when there is none.",
    "type": "object",
    "minProperties": 1,
    "properties": {
        "total": {"type": "integer", "minimum": 1},
        "per_customer": {"type": "integer", "minimum": 1},
        "budget": with_ref::<crate::Money>(g, json!({
            "description": "A money budget: the discounts of the uses counting (captured and held) add up to at most this, in the code's currency.",
        })),
        "when_budget_short": {
            "type": "string",
            "enum": ["refuse", "partial"],
            "description": "What a discount that does not fit what is left of the budget does: `refuse` (the default: `budget_exhausted`) or `partial` (take off what is left; the quote says `budget_clipped` and `desired`). Only with a `budget`.",
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::schema::UsageLimitsInput => "UsageLimitsInput", |g| json!({
    "description": "Caps on uses: overall and per customer, each at least 1, and a money budget above zero; a missing cap is unlimited.",
    "type": "object",
    "properties": {
        "total": {"type": "integer", "minimum": 1},
        "per_customer": {"type": "integer", "minimum": 1},
        "budget": with_ref::<crate::schema::MoneyInput>(g, json!({
            "description": "A money budget: the discounts of the uses counting (captured and held) add up to at most this, in the code's currency. Above zero.",
        })),
        "when_budget_short": {
            "type": "string",
            "enum": ["refuse", "partial"],
            "description": "What a discount that does not fit what is left of the budget does: `refuse` (the default: `budget_exhausted`) or `partial` (take off what is left; the quote says `budget_clipped` and `desired`). Only with a `budget`.",
        },
    },
    "additionalProperties": false,
}));

/// The fields a code's definition and a campaign share, as written: everything but `code` (or a
/// campaign's `id` and `uses_per_code`) and the automatic promotion's two.
fn shared_fields(g: &mut schemars::SchemaGenerator) -> serde_json::Value {
    json!({
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
        "audience": {
            "description": "The customers the code is assigned to, sorted, without repeats; left out for a public code.",
            "type": "array",
            "items": r::<crate::CustomerId>(g),
            "minItems": 1,
            "maxItems": 10000,
            "uniqueItems": true,
        },
        "combines_with": {
            "description": "The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application.",
            "type": "array",
            "items": r::<crate::CodeClass>(g),
            "maxItems": 3,
            "uniqueItems": true,
        },
        "first_order": {"type": "boolean", "const": true, "description": "A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise."},
    })
}

/// The fields a code's definition and a campaign share, as a request gives them.
fn shared_input_fields(g: &mut schemars::SchemaGenerator) -> serde_json::Value {
    json!({
        "active": {"type": "boolean", "default": true},
        "discount": r::<crate::schema::DiscountInput>(g),
        "applies_to": r::<crate::schema::AppliesToInput>(g),
        "limits": r::<crate::schema::UsageLimitsInput>(g),
        "starts_at": r::<crate::schema::TimestampInput>(g),
        "ends_at": r::<crate::schema::TimestampInput>(g),
        "minimum": r::<crate::schema::MoneyInput>(g),
        "audience": {
            "type": "array",
            "items": r::<crate::schema::CustomerIdInput>(g),
            "minItems": 1,
            "maxItems": 10000,
        },
        "combines_with": {
            "description": "The classes of code this code may share a basket with; default none. Two codes combine only when each lists the other's class.",
            "type": "array",
            "items": r::<crate::CodeClass>(g),
        },
        "first_order": {
            "type": "boolean",
            "default": false,
            "description": "A first-order code: quotes, holds and captures need `customer` and `customer_orders`, and `customer_orders` above 0 is refused with `not_first_order`; `limits.per_customer` defaults to 1.",
        },
    })
}

/// A closed object schema: `description`, `required`, and `fields` with `more`.
fn object(
    description: &str,
    required: &[&str],
    mut fields: serde_json::Value,
    more: serde_json::Value,
) -> serde_json::Value {
    if let (Some(fields), serde_json::Value::Object(more)) = (fields.as_object_mut(), more) {
        fields.extend(more);
    }
    json!({
        "description": description,
        "type": "object",
        "required": required,
        "properties": fields,
        "additionalProperties": false,
    })
}

schema!([] crate::PromoCode => "Definition", |g| {
    let more = json!({
        "code": r::<crate::Code>(g),
        "automatic": {"type": "boolean", "description": super::admin::AUTOMATIC},
        "priority": {"type": "integer", "minimum": 0, "maximum": 1_000_000, "description": super::admin::PRIORITY},
        "shards": {"type": "integer", "minimum": 2, "maximum": 64, "description": super::admin::SHARDS},
    });
    object(
        "A code's whole definition, as the admin sees it (with its audience). Optional fields are left out when unset.",
        &["code", "active", "discount"],
        shared_fields(g),
        more,
    )
});

schema!([] crate::schema::DefinitionInput => "DefinitionInput", |g| {
    let more = json!({
        "code": r::<crate::schema::CodeInput>(g),
        "automatic": {
            "type": "boolean",
            "default": false,
            "description": "An automatic promotion: it joins a basket without being typed (requests with `\"automatic\": true`).",
        },
        "priority": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1_000_000,
            "default": 100,
            "description": "Among automatic promotions, lower joins first (then by code).",
        },
        "shards": {
            "type": "integer",
            "minimum": 1,
            "maximum": 64,
            "default": 1,
            "description": "Spreads the code's holds and captures over this many shard objects (by the customer, else the idempotency key), for a code too hot for one object; its caps stay exact: the code's object grants each shard an allotment of the uses and of the budget left.",
        },
    });
    object(
        "The body of `PUT /v1/codes/{code}`: the core's definition. Only `code` and `discount` are required; `active` defaults to true, no `applies_to` means every line, no `audience` means public, no `combines_with` means the code shares a basket with no other code. Unknown fields are refused; the window must end after it starts, and every amount must be in one currency.",
        &["code", "discount"],
        shared_input_fields(g),
        more,
    )
});

schema!([] crate::Campaign => "Campaign", |g| {
    let more = json!({
        "id": r::<crate::Code>(g),
        "uses_per_code": {"type": "integer", "minimum": 1},
        "shards": {"type": "integer", "minimum": 2, "maximum": 64, "description": super::admin::CAMPAIGN_SHARDS},
    });
    object(
        "A campaign's definition: `id`, `uses_per_code`, and the definition its codes share (as a code's, without `code`).",
        &["id", "uses_per_code", "active", "discount"],
        shared_fields(g),
        more,
    )
});

schema!([] crate::schema::CampaignInput => "CampaignInput", |g| object(
    "The body of `PUT /v1/campaigns/{id}`: a code's definition without `code` (the id names the campaign), plus `uses_per_code` (default 1). Its `limits` (`total`, `per_customer`, `budget`) hold across all of the campaign's codes; `uses_per_code` caps each code.",
    &["discount"],
    shared_input_fields(g),
    json!({
        "uses_per_code": {"type": "integer", "minimum": 1, "default": 1},
        "automatic": {
            "type": "boolean",
            "const": false,
            "description": "A campaign cannot be automatic: `true` is 400 naming `automatic`.",
        },
        "shards": {
            "type": "integer",
            "minimum": 1,
            "maximum": 64,
            "default": 1,
            "description": "Spreads the holds and captures of the campaign's codes over this many shard objects (by the customer, else the idempotency key); its caps stay exact: the campaign's object grants each shard an allotment of the total and the budget left, and each code's uses are granted by the shard the code belongs to.",
        },
    }),
));
