//! The schemas of the core's values: money, currencies, identifiers, times, usage, refusals.
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema};

schema!([] crate::Currency => "Currency", |_g| json!({
    "description": "An ISO 4217 code the core knows (src/values/iso4217.rs: active currencies with minor units), upper case.",
    "type": "string",
    "enum": crate::Currency::all().map(crate::Currency::code).collect::<Vec<_>>(),
}));

schema!([] crate::Money => "Money", |g| json!({
    "description": "An amount as the API writes it: a decimal string with exactly the currency's minor-unit places (`\"8.00\"`, JPY `\"1000\"`), never a number.",
    "type": "object",
    "required": ["amount", "currency"],
    "properties": {
        "amount": {"type": "string", "pattern": "^(0|[1-9][0-9]*)(\\.[0-9]+)?$"},
        "currency": r::<crate::Currency>(g),
    },
    "additionalProperties": false,
}));

schema!([] crate::schema::MoneyInput => "MoneyInput", |g| json!({
    "description": "An amount as a request gives it: a non-negative decimal string (`\"80\"`, `\"80.00\"`), at most the currency's places, at most 10^15; never a number.",
    "type": "object",
    "required": ["amount", "currency"],
    "properties": {
        "amount": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$", "maxLength": 40},
        "currency": r::<crate::Currency>(g),
    },
    "additionalProperties": false,
}));

schema!([] crate::Code => "Code", |_g| json!({
    "description": "A normalised promo code: 1 to 64 of `A-Z 0-9 _ -`.",
    "type": "string",
    "pattern": "^[A-Z0-9_-]{1,64}$",
}));

schema!([] crate::schema::CodeInput => "CodeInput", |_g| json!({
    "description": "A promo code as typed: trimmed and upper-cased by the API, then 1 to 64 of `A-Z 0-9 _ -`.",
    "type": "string",
    "pattern": "^\\s*[A-Za-z0-9_-]{1,64}\\s*$",
}));

schema!([] crate::CustomerId => "CustomerId", |_g| json!({
    "description": "Who is buying: 1 to 256 characters after trimming, no control characters.",
    "type": "string",
    "minLength": 1,
    "maxLength": 256,
    "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
}));

schema!([] crate::schema::CustomerIdInput => "CustomerIdInput", |_g| json!({
    "description": "Who is buying, as given: trimmed by the API, then 1 to 256 characters, no control characters.",
    "type": "string",
    "minLength": 1,
}));

schema!([] crate::IdempotencyKey => "IdempotencyKey", |_g| json!({
    "description": "1 to 255 visible ASCII characters (`!` to `~`), compared exactly.",
    "type": "string",
    "pattern": "^[!-~]{1,255}$",
}));

schema!([] crate::Sku => "Sku", |_g| json!({
    "description": "A product's stock-keeping unit: 1 to 64 visible ASCII characters, case-sensitive.",
    "type": "string",
    "pattern": "^[!-~]{1,64}$",
}));

schema!([] crate::Category => "Category", |_g| json!({
    "description": "A product category: 1 to 64 visible ASCII characters, case-sensitive.",
    "type": "string",
    "pattern": "^[!-~]{1,64}$",
}));

schema!([] crate::Timestamp => "Timestamp", |_g| json!({
    "description": "An instant as the API writes it: RFC 3339 in UTC (`Z`), with 0, 3, 6 or 9 fractional digits.",
    "type": "string",
    "format": "date-time",
    "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{3}|\\.[0-9]{6}|\\.[0-9]{9})?Z$",
}));

schema!([] crate::schema::TimestampInput => "TimestampInput", |_g| json!({
    "description": "An RFC 3339 time with any offset (converted to UTC), years 0000 to 9999.",
    "type": "string",
    "format": "date-time",
}));

schema!([] crate::UsageCounts => "UsageCounts", |g| json!({
    "description": "Redemptions counting now: by anyone (`total`) and by the customer of the request (`per_customer`, 0 without one), and the sum of their discounts (`discounted`). For a campaign's code, also `per_code`.",
    "type": "object",
    "required": ["total", "per_customer", "discounted"],
    "properties": {
        "total": {"type": "integer", "minimum": 0},
        "per_customer": {"type": "integer", "minimum": 0},
        "discounted": {
            "oneOf": [r::<crate::Money>(g), {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$"}],
            "description": "The sum of the discounts of the uses counting (captured and held): money in the quote's currency in every answer that has a quote (a hold, a capture, a release, a listed redemption); a decimal string where there is none (a refund recorded before any payment).",
        },
        "per_code": {
            "type": "integer",
            "minimum": 0,
            "description": "For a campaign's code: the uses of the code itself (`total`, `per_customer` and `discounted` are then the campaign's, across all of its codes).",
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::ReservationState => "ReservationState", |_g| json!({
    "description": "Where a use is: `held` (until `expires_at`), `captured`, `released`, or `expired` (a hold whose time passed).",
    "type": "string",
    "enum": ["held", "captured", "released", "expired"],
}));

schema!([] crate::Rejection => "RejectionCode", |_g| json!({
    "description": "Why a rule refused (the core's `Rejection::code`), checked in this order; `quote_changed` only on a capture pinned to a quote. `budget_exhausted` (nothing left of the budget, or less than the discount when it refuses a short budget) is checked after the basket's currency and lines, before the minimum. `not_combinable` (after `below_minimum`) refuses a code in a basket with several codes when it and a code listed before it do not both list each other's class in `combines_with`. `not_first_order` refuses a first-order code for a customer whose `customer_orders` is above 0; `not_enough_items` (after `no_eligible_items`) a buy X get Y short of one application or a tiered code by quantity below its first tier, its detail saying what is missing.",
    "type": "string",
    "enum": crate::Rejection::ALL.map(crate::Rejection::code),
}));

schema!([] crate::CodeClass => "CodeClass", |_g| json!({
    "description": "What a code discounts, from its definition: `shipping` for a free-shipping discount, `product` when it has `applies_to`, `order` otherwise. In a basket with several codes, product codes apply first (each to its eligible lines after the product codes before it), then order codes (each to the subtotal after every discount before it), then shipping codes; within a class, in the order listed.",
    "type": "string",
    "enum": ["product", "order", "shipping"],
}));
