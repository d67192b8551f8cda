//! JSON Schemas of the wire (feature `schema`): what `docs/openapi.json`'s
//! `components.schemas` is generated from.
//!
//! The wire types whose serde is derived derive
//! [`JsonSchema`] too; the core's values, whose serde
//! is written by hand (a [`Money`](crate::Money) is a decimal string with the
//! currency's places, a [`PromoCode`](crate::PromoCode) is read through its
//! own checks), have their schema written by hand here, one module a topic,
//! beside none of their serde: the schema is a description for readers of
//! the HTTP API, and keeping it in one feature-gated module keeps schemars
//! out of every build that does not describe (the browser module, the
//! Worker's wasm). Each schema names its subschemas through
//! [`SchemaGenerator::subschema_for`], so that generating one type's schema
//! brings every schema it refers to.
//!
//! A few wire types keep a schema written here too, where the derived one
//! would be looser or another shape: the answers that flatten a definition
//! (`PublicCode`, `CodeSummary`, `CampaignSummary`), a history's pages and
//! a refused payment capture (`RedemptionList`, `CampaignRedemptionList`,
//! `RefusedPaymentCapture`), and `ReleaseRequest`
//! (the HTTP body also takes a stack's `codes`, read by the Worker).
//!
//! Some names of the description have no Rust type of their own (a request
//! as a client may write it, `MoneyInput`, `QuoteRequest`, ...): the
//! uninhabited enums below carry them.
//!
//! # Example
//!
//! ```
//! use schemars::generate::SchemaSettings;
//!
//! let mut generator = SchemaSettings::draft2020_12()
//!     .with(|s| s.definitions_path = "/components/schemas".into())
//!     .into_generator();
//! let money = generator.subschema_for::<promocodes::Money>();
//! assert_eq!(money.get("$ref").unwrap(), "#/components/schemas/Money");
//! assert!(generator.definitions().contains_key("Currency"));
//! ```

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

mod admin;
mod checkout;
mod definition;
mod history;
mod values;

/// A `$ref` to `T`'s schema, registering it.
fn r<T: JsonSchema + ?Sized>(g: &mut SchemaGenerator) -> Value {
    g.subschema_for::<T>().to_value()
}

/// A `$ref` to `T`'s schema with more keywords beside it (a description, a `const`).
fn with_ref<T: JsonSchema + ?Sized>(g: &mut SchemaGenerator, more: Value) -> Value {
    let mut value = r::<T>(g);
    if let (Some(object), Value::Object(more)) = (value.as_object_mut(), more) {
        object.extend(more);
    }
    value
}

/// A schema from its JSON.
fn finish(value: Value) -> Schema {
    Schema::try_from(value).expect("a schema is a JSON object")
}

/// `impl JsonSchema` for a type (with its generic parameters in brackets),
/// named `$name`, its schema the JSON `$body` builds with the generator `$g`.
macro_rules! schema {
    ([$($param:ident),*] $ty:ty => $name:literal, |$g:ident| $body:expr) => {
        impl<$($param),*> schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema($g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                super::finish($body)
            }
        }
    };
}
use schema;

/// `held` or `captured`: what a released use was (a history's `was`).
///
/// A name for the description only, written in place: no value has this type.
#[derive(Debug)]
pub enum WasState {}

impl JsonSchema for WasState {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WasState".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        finish(serde_json::json!({"type": "string", "enum": ["held", "captured"]}))
    }
}

/// Refusals counted by rejection code: each key a [`Rejection`](crate::Rejection)'s
/// code, each count at least 1 (a code never refused is left out).
///
/// A name for the description only, written in place: no value has this type.
#[derive(Debug)]
pub enum RejectionCounts {}

impl JsonSchema for RejectionCounts {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RejectionCounts".into()
    }

    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        finish(serde_json::json!({
            "type": "object",
            "propertyNames": r::<crate::Rejection>(g),
            "additionalProperties": {"type": "integer", "minimum": 1},
        }))
    }
}

/// `released`, always: the state of a refund recorded before its payment.
///
/// A name for the description only, written in place: no value has this type.
#[derive(Debug)]
pub enum ReleasedState {}

impl JsonSchema for ReleasedState {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ReleasedState".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        finish(serde_json::json!({"const": "released"}))
    }
}

/// A code's definition as anyone may see it (`GET /v1/automatic`'s promotions).
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum PublicDefinition {}

/// Where a tier starts, as a request gives it: money or a count of units.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum TierFromInput {}

/// An amount as a request gives it: a non-negative decimal string (`"80"`, `"80.00"`), at most the currency's places, at most 10^15; never a number.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum MoneyInput {}

/// A promo code as typed: trimmed and upper-cased by the API, then 1 to 64 of `A-Z 0-9 _ -`.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum CodeInput {}

/// Who is buying, as given: trimmed by the API, then 1 to 256 characters, no control characters.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum CustomerIdInput {}

/// An RFC 3339 time with any offset (converted to UTC), years 0000 to 9999.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum TimestampInput {}

/// What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`).
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum DiscountInput {}

/// The lines a code applies to: skus and categories (up to 1000 of each; not both empty).
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum AppliesToInput {}

/// Caps on uses: overall and per customer, each at least 1, and a money budget above zero; a missing cap is unlimited.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum UsageLimitsInput {}

/// The body of `PUT /v1/codes/{code}`: the core's definition. Only `code` and `discount` are required; `active` defaults to true, no `applies_to` means every line, no `audience` means public, no `combines_with` means the code shares a basket with no other code. Unknown fields are refused; the window must end after it starts, and every amount must be in one currency.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum DefinitionInput {}

/// The body of `PUT /v1/campaigns/{id}`: a code's definition without `code` (the id names the campaign), plus `uses_per_code` (default 1). Its `limits` (`total`, `per_customer`, `budget`) hold across all of the campaign's codes; `uses_per_code` caps each code.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum CampaignInput {}

/// The body of `POST /v1/quotes`: a code (or several: `codes`, in place of `code`) and a basket, inline (`total`, or `lines` and `shipping`) or nested as `basket`; `customer` needs a server's token. Unknown fields are refused; `code` and `codes` together are bad input.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum QuoteRequest {}

/// The body of `POST /v1/holds`: a quote's body and `ttl_seconds`.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum HoldRequest {}

/// The body of `POST /v1/captures`: a quote's body and, to pin the price, `quote`.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum CaptureRequest {}

/// The body of `POST /demo/hold`: a hold's body and `attempt`. With `codes` in place of `code`: a stack's hold, as `POST /v1/holds` takes it.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum DemoHoldRequest {}

/// The body of `POST /demo/pay`: a capture's body and `attempt`. With `codes` in place of `code`: a stack's capture, as `POST /v1/captures` takes it (`quote`: the stack's quote as shown).
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum DemoPayRequest {}

/// The body of `POST /demo/cancel`: releases the checkout attempt's hold or capture (`demo-<attempt>`). With `codes` in place of `code`: every code of the stack is released.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum DemoCancelRequest {}

/// A Stripe event, exactly as Stripe sent it: the signature covers the raw bytes.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum StripeEvent {}

/// `/problems/<slug>`, one per kind of error (worker/src/problem.rs). Relative URI references; each is described by its `*Problem` schema.
///
/// A name for the description only: no value has this type.
#[derive(Debug)]
pub enum ProblemType {}
