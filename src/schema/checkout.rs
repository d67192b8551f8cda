//! The schemas of baskets, quotes, stacks and a redemption's answers, and of the checkout's requests.
//!
//! Ported from the hand-written description; see [the module](super).

use serde_json::json;

use super::{r, schema, with_ref};

schema!([] crate::Line => "Line", |g| json!({
    "description": "One line of a basket.",
    "type": "object",
    "required": ["sku", "quantity", "unit_price"],
    "properties": {
        "sku": r::<crate::Sku>(g),
        "quantity": {"type": "integer", "minimum": 1, "maximum": 10000},
        "unit_price": r::<crate::schema::MoneyInput>(g),
        "categories": {"type": "array", "items": r::<crate::Category>(g), "maxItems": 20},
    },
    "additionalProperties": false,
}));

schema!([] crate::Basket => "Basket", |g| json!({
    "description": "What is being bought: either `{total}`, or `{lines, shipping?}`.",
    "oneOf": [
        {
            "title": "total",
            "type": "object",
            "required": ["total"],
            "properties": {
                "total": with_ref::<crate::schema::MoneyInput>(g, json!({"description": "A basket known only by its total (shipping, if any, inside it)."})),
            },
            "additionalProperties": false,
        },
        {
            "title": "lines",
            "type": "object",
            "required": ["lines"],
            "properties": {
                "lines": {
                    "type": "array",
                    "items": r::<crate::Line>(g),
                    "minItems": 1,
                    "maxItems": 500,
                    "description": "Every amount in one currency.",
                },
                "shipping": with_ref::<crate::schema::MoneyInput>(g, json!({"description": "With `lines` only."})),
            },
            "additionalProperties": false,
        },
    ],
}));

/// What a request that names codes prices: a basket (with `customer_orders` or not), or nothing.
#[derive(Clone, Copy, PartialEq)]
enum Priced {
    /// A basket, `customer` and `customer_orders` (the API's quotes, holds and captures).
    WithOrders,
    /// A basket and `customer` (the demo's).
    Basket,
    /// No basket (releases).
    No,
}

/// A request that names its codes (`code`, or `codes` in place of it, and `automatic`), with a
/// basket in one of its three forms when it prices one, and its own fields (`more`).
fn request(
    g: &mut schemars::SchemaGenerator,
    description: &str,
    required: &[&str],
    codes: &str,
    automatic: &str,
    priced: Priced,
    more: serde_json::Value,
) -> serde_json::Value {
    let mut properties = json!({
        "code": r::<crate::schema::CodeInput>(g),
        "automatic": {"type": "boolean", "description": automatic},
        "codes": {
            "description": codes,
            "type": "array",
            "items": r::<crate::schema::CodeInput>(g),
            "minItems": 1,
            "maxItems": 5,
        },
    });
    if priced != Priced::No {
        properties["customer"] = r::<crate::schema::CustomerIdInput>(g);
        properties["total"] = with_ref::<crate::schema::MoneyInput>(
            g,
            json!({"description": "A basket known only by its total (shipping, if any, inside it)."}),
        );
        properties["lines"] = json!({
            "type": "array",
            "items": r::<crate::Line>(g),
            "minItems": 1,
            "maxItems": 500,
            "description": "Every amount in one currency.",
        });
        properties["shipping"] = with_ref::<crate::schema::MoneyInput>(g, json!({"description": "With `lines` only."}));
        properties["basket"] = r::<crate::Basket>(g);
    }
    if priced == Priced::WithOrders {
        properties["customer_orders"] = json!({
            "type": "integer",
            "minimum": 0,
            "description": "With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it.",
        });
    }
    if let (Some(properties), serde_json::Value::Object(more)) = (properties.as_object_mut(), more) {
        properties.extend(more);
    }
    let mut schema = json!({
        "description": description,
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": false,
        "anyOf": [{"required": ["code"]}, {"required": ["codes"]}, {"required": ["automatic"]}],
        "not": {"required": ["code", "codes"]},
    });
    if priced != Priced::No {
        // The basket's three forms: inline `total`, inline `lines` (and `shipping`), or nested.
        schema["oneOf"] = json!([
            {
                "title": "inline total",
                "required": ["total"],
                "not": {"anyOf": [{"required": ["lines"]}, {"required": ["shipping"]}, {"required": ["basket"]}]},
            },
            {
                "title": "inline lines",
                "required": ["lines"],
                "not": {"anyOf": [{"required": ["total"]}, {"required": ["basket"]}]},
            },
            {
                "title": "nested basket",
                "required": ["basket"],
                "not": {"anyOf": [{"required": ["total"]}, {"required": ["lines"]}, {"required": ["shipping"]}]},
            },
        ]);
    }
    schema
}

schema!([] crate::schema::QuoteRequest => "QuoteRequest", |g| {
    let more = json!({});
    request(
        g,
        "The body of `POST /v1/quotes`: a code (or several: `codes`, in place of `code`) and a basket, inline (`total`, or `lines` and `shipping`) or nested as `basket`; `customer` needs a server's token. Unknown fields are refused; `code` and `codes` together are bad input.",
        &[],
        "Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`).",
        "Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's.",
        Priced::WithOrders,
        more,
    )
});

schema!([] crate::schema::HoldRequest => "HoldRequest", |g| {
    let more = json!({
        "ttl_seconds": {
            "default": 900,
            "description": "How long the hold counts, in seconds.",
            "maximum": 3600,
            "minimum": 1,
            "type": "integer",
        },
    });
    request(
        g,
        "The body of `POST /v1/holds`: a quote's body and `ttl_seconds`.",
        &[],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is.",
        "Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's.",
        Priced::WithOrders,
        more,
    )
});

schema!([] crate::schema::CaptureRequest => "CaptureRequest", |g| {
    let more = json!({
        "quote": {
            "description": "The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured).",
            "oneOf": [r::<crate::Quote>(g), r::<crate::StackQuote>(g)],
        },
    });
    request(
        g,
        "The body of `POST /v1/captures`: a quote's body and, to pin the price, `quote`.",
        &[],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is.",
        "Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's.",
        Priced::WithOrders,
        more,
    )
});

schema!([] crate::schema::DemoHoldRequest => "DemoHoldRequest", |g| {
    let more = json!({
        "attempt": {
            "description": "The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`.",
            "pattern": "^[!-~]{1,64}$",
            "type": "string",
        },
        "ttl_seconds": {
            "default": 900,
            "description": "How long the hold counts, in seconds.",
            "maximum": 3600,
            "minimum": 1,
            "type": "integer",
        },
    });
    request(
        g,
        "The body of `POST /demo/hold`: a hold's body and `attempt`. With `codes` in place of `code`: a stack's hold, as `POST /v1/holds` takes it.",
        &["attempt"],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is.",
        "Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's.",
        Priced::Basket,
        more,
    )
});

schema!([] crate::schema::DemoPayRequest => "DemoPayRequest", |g| {
    let more = json!({
        "attempt": {
            "description": "The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`.",
            "pattern": "^[!-~]{1,64}$",
            "type": "string",
        },
        "quote": {
            "description": "The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured).",
            "oneOf": [r::<crate::Quote>(g), r::<crate::StackQuote>(g)],
        },
    });
    request(
        g,
        "The body of `POST /demo/pay`: a capture's body and `attempt`. With `codes` in place of `code`: a stack's capture, as `POST /v1/captures` takes it (`quote`: the stack's quote as shown).",
        &["attempt"],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is.",
        "Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's.",
        Priced::Basket,
        more,
    )
});

schema!([] crate::api::ReleaseRequest => "ReleaseRequest", |g| {
    let more = json!({
        "key": r::<crate::IdempotencyKey>(g),
        "reason": {
            "description": "Why, for the record: at most 200 characters, no control characters.",
            "maxLength": 200,
            "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
            "type": "string",
        },
    });
    request(
        g,
        "The body of `POST /v1/releases`: the hold or capture to give back, by its idempotency key.",
        &["key"],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is.",
        "Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone).",
        Priced::No,
        more,
    )
});

schema!([] crate::schema::DemoCancelRequest => "DemoCancelRequest", |g| {
    let more = json!({
        "attempt": {
            "description": "The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`.",
            "pattern": "^[!-~]{1,64}$",
            "type": "string",
        },
        "reason": {
            "description": "Why, for the record: at most 200 characters, no control characters.",
            "maxLength": 200,
            "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
            "type": "string",
        },
    });
    request(
        g,
        "The body of `POST /demo/cancel`: releases the checkout attempt's hold or capture (`demo-<attempt>`). With `codes` in place of `code`: every code of the stack is released.",
        &["attempt"],
        "Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is.",
        "Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone).",
        Priced::No,
        more,
    )
});

schema!([] crate::QuoteLine => "QuoteLine", |g| json!({
    "type": "object",
    "required": ["sku", "amount", "discount"],
    "properties": {
        "sku": r::<crate::Sku>(g),
        "amount": r::<crate::Money>(g),
        "discount": r::<crate::Money>(g),
    },
    "additionalProperties": false,
}));

schema!([] crate::QuoteShipping => "QuoteShipping", |g| json!({
    "type": "object",
    "required": ["amount", "discount"],
    "properties": {"amount": r::<crate::Money>(g), "discount": r::<crate::Money>(g)},
    "additionalProperties": false,
}));

schema!([] crate::Quote => "Quote", |g| json!({
    "description": "A priced basket: `discount + payable == total`, exactly. A basket with lines also has each line's part of the discount, and the shipping's.",
    "type": "object",
    "required": ["code", "total", "discount", "payable", "quoted_at"],
    "properties": {
        "code": r::<crate::Code>(g),
        "total": r::<crate::Money>(g),
        "discount": r::<crate::Money>(g),
        "payable": r::<crate::Money>(g),
        "quoted_at": r::<crate::Timestamp>(g),
        "lines": {"type": "array", "items": r::<crate::QuoteLine>(g), "minItems": 1, "maxItems": 500},
        "shipping": r::<crate::QuoteShipping>(g),
        "note": {
            "type": "string",
            "description": "Something the buyer should know (e.g. why free shipping took nothing off).",
        },
        "budget_clipped": {
            "type": "boolean",
            "const": true,
            "description": "Only when a budget that takes a partial discount clipped it to what was left.",
        },
        "desired": with_ref::<crate::Money>(g, json!({"description": "With `budget_clipped`: the discount before the clip."})),
        "tier": with_ref::<crate::TierReached>(g, json!({"description": "A tiered code's tier reached."})),
        "next_tier": with_ref::<crate::NextTier>(g, json!({"description": "A tiered code below its top tier: the next tier and what is missing."})),
    },
    "additionalProperties": false,
}));

schema!([] crate::StackQuote => "StackQuote", |g| json!({
    "description": "A basket priced with several codes (`POST /v1/quotes` with `codes`): each code's part in the order they applied (product codes, then order codes, then shipping codes; within a class as listed), and the sums. `discount + payable == total` exactly; `lines` and `shipping` carry each line's (and the shipping's) summed discount, never above its amount.",
    "type": "object",
    "required": ["codes", "total", "discount", "payable", "quoted_at"],
    "properties": {
        "codes": {"type": "array", "items": r::<crate::StackPart>(g), "minItems": 0, "maxItems": 25},
        "total": r::<crate::Money>(g),
        "discount": r::<crate::Money>(g),
        "payable": r::<crate::Money>(g),
        "quoted_at": r::<crate::Timestamp>(g),
        "lines": {"type": "array", "items": r::<crate::QuoteLine>(g), "minItems": 1, "maxItems": 500},
        "shipping": r::<crate::QuoteShipping>(g),
        "skipped": {
            "type": "array",
            "items": r::<crate::Skipped>(g),
            "minItems": 1,
            "maxItems": 20,
            "description": "With `\"automatic\": true`: the automatic promotions that did not join, by priority then code; left out when none.",
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::StackPart => "StackPart", |g| json!({
    "description": "One code's part of a stack's quote: its class and what it took off the basket the codes before it left (`lines` and `shipping`: the amounts it applied to, and its own split of its discount).",
    "type": "object",
    "required": ["code", "class", "discount"],
    "properties": {
        "code": r::<crate::Code>(g),
        "class": r::<crate::CodeClass>(g),
        "automatic": {
            "type": "boolean",
            "const": true,
            "description": "Only for an automatic promotion (not typed).",
        },
        "discount": r::<crate::Money>(g),
        "lines": {"type": "array", "items": r::<crate::QuoteLine>(g), "minItems": 1, "maxItems": 500},
        "shipping": r::<crate::QuoteShipping>(g),
        "note": {
            "type": "string",
            "description": "Something the buyer should know (e.g. why free shipping took nothing off).",
        },
        "budget_clipped": {
            "type": "boolean",
            "const": true,
            "description": "Only when a budget that takes a partial discount clipped it to what was left.",
        },
        "desired": with_ref::<crate::Money>(g, json!({"description": "With `budget_clipped`: the discount before the clip."})),
    },
    "additionalProperties": false,
}));

schema!([] crate::Skipped => "Skipped", |g| json!({
    "description": "An automatic promotion that did not join: the first rule that kept it out (`not_combinable` when it does not combine with a code taken before it, or would leave one refused), and a sentence for the buyer.",
    "type": "object",
    "required": ["code", "rejection", "detail"],
    "properties": {
        "code": r::<crate::Code>(g),
        "rejection": r::<crate::Rejection>(g),
        "detail": {"type": "string"},
    },
    "additionalProperties": false,
}));

schema!([] crate::StackRefusal => "StackRefusal", |g| json!({
    "description": "One code of a refused stack: the code, the rule that refused it, the code listed before it that it cannot combine with (`not_combinable`), and the buyer's sentence.",
    "type": "object",
    "required": ["code", "rejection", "message"],
    "properties": {
        "code": r::<crate::Code>(g),
        "rejection": r::<crate::Rejection>(g),
        "with": r::<crate::Code>(g),
        "message": {"type": "string"},
    },
    "additionalProperties": false,
}));

schema!([] crate::Hold => "Hold", |g| json!({
    "description": "A use reserved for the buyer until `expires_at`. A replay answers with the reservation as it stands now.",
    "type": "object",
    "required": ["key", "state", "expires_at", "quote", "usage", "replayed"],
    "properties": {
        "key": r::<crate::IdempotencyKey>(g),
        "state": r::<crate::ReservationState>(g),
        "expires_at": r::<crate::Timestamp>(g),
        "quote": r::<crate::Quote>(g),
        "usage": r::<crate::UsageCounts>(g),
        "replayed": {"type": "boolean", "description": "True when a known key answered: nothing was written."},
    },
    "additionalProperties": false,
}));

schema!([] crate::Receipt => "Receipt", |g| json!({
    "description": "A use spent (or, replayed, given back since).",
    "type": "object",
    "required": ["key", "state", "quote", "usage", "replayed"],
    "properties": {
        "key": r::<crate::IdempotencyKey>(g),
        "state": {"type": "string", "enum": ["captured", "released"]},
        "quote": r::<crate::Quote>(g),
        "usage": r::<crate::UsageCounts>(g),
        "replayed": {"type": "boolean", "description": "True when a known key answered: nothing was written."},
        "released_at": r::<crate::Timestamp>(g),
        "reason": {"type": "string"},
    },
    "additionalProperties": false,
}));

schema!([] crate::Released => "Released", |g| json!({
    "description": "A use given back.",
    "type": "object",
    "required": ["key", "state", "was", "released_at", "reason", "usage", "replayed"],
    "properties": {
        "key": r::<crate::IdempotencyKey>(g),
        "state": {"const": "released"},
        "was": {
            "oneOf": [{"type": "string", "enum": ["held", "captured"]}, {"type": "null"}],
            "description": "`held` (a checkout abandoned) or `captured` (an order cancelled or refunded); `null` for a full refund that came before anything was held or captured under its PaymentIntent (recorded so that the payment's later success captures nothing).",
        },
        "released_at": r::<crate::Timestamp>(g),
        "reason": {"type": ["string", "null"]},
        "usage": r::<crate::UsageCounts>(g),
        "replayed": {
            "type": "boolean",
            "description": "True when it had been released before: nothing changed.",
        },
    },
    "additionalProperties": false,
}));

schema!([] crate::schema::StripeEvent => "StripeEvent", |_g| json!({
    "description": "A Stripe event, exactly as Stripe sent it: the signature covers the raw bytes.",
    "type": "object",
    "required": ["id", "object", "type"],
    "properties": {
        "id": {"type": "string"},
        "object": {"const": "event"},
        "type": {"type": "string"},
        "data": {"type": "object"},
    },
}));

schema!([] crate::TierReached => "QuoteTier", |g| json!({
    "description": "The tier of a tiered code the quote reached: its position (from 0) and where it starts.",
    "type": "object",
    "required": ["index", "from"],
    "properties": {"index": {"type": "integer", "minimum": 0, "maximum": 9}, "from": r::<crate::TierFrom>(g)},
    "additionalProperties": false,
}));

schema!([] crate::NextTier => "QuoteNextTier", |g| json!({
    "description": "The tier above the one reached (or the first): where it starts and the money or units still missing (\"spend EUR 20.00 more for 15% off\").",
    "type": "object",
    "required": ["index", "from", "missing"],
    "properties": {
        "index": {"type": "integer", "minimum": 0, "maximum": 9},
        "from": r::<crate::TierFrom>(g),
        "missing": r::<crate::TierFrom>(g),
    },
    "additionalProperties": false,
}));
