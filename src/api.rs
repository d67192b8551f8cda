//! Request shapes, validated by the core so that every adapter (the edge
//! Worker, the browser module, a server of your own) refuses the same input.
//!
//! Only the shapes live here; the HTTP mapping belongs to the adapter.

use serde::Deserialize;

use crate::error::InputError;
use crate::ids::{Code, CustomerId};
use crate::json::from_json;
use crate::money::Money;
use crate::rules::UsageCounts;
use crate::time::Timestamp;

/// The basket a page prices: `{"total": {"amount": "80.00", "currency": "EUR"}}`.
///
/// Unknown fields are refused.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Basket {
    /// The basket total.
    pub total: Money,
}

/// What a page may know besides the basket when it quotes:
/// `{"customer": "alice", "usage": {"total": 3, "per_customer": 0}, "now": "2026-12-02T10:00:00Z"}`,
/// every field optional. Unknown fields are refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteOptions {
    /// Who is buying, if known.
    #[serde(default)]
    pub customer: Option<CustomerId>,
    /// The code's usage, if the page knows it (none means no redemptions).
    #[serde(default)]
    pub usage: Option<UsageCounts>,
    /// When to quote at (the caller's clock when absent).
    #[serde(default)]
    pub now: Option<Timestamp>,
}

/// The body of `POST /v1/quotes` and `POST /v1/captures`:
/// `{"code": "SAVE10", "total": {"amount": "80.00", "currency": "EUR"}, "customer": "alice"}`.
///
/// `customer` is optional. Unknown fields are refused, and every field is
/// checked as it is read: the code is normalised ([`Code::parse`]), the
/// total is valid [`Money`], the customer a valid [`CustomerId`].
///
/// # Example
///
/// ```
/// use promocodes::api::BasketRequest;
///
/// let req = BasketRequest::from_json(r#"{"code": "save10", "total": {"amount": "80.00", "currency": "EUR"}}"#)?;
/// assert_eq!(req.code.as_str(), "SAVE10");
/// assert_eq!(req.total.to_string(), "EUR 80.00");
/// assert!(req.customer.is_none());
///
/// assert!(BasketRequest::from_json(r#"{"code": "SAVE10", "total": {"amount": "1", "currency": "EUR"}, "x": 1}"#).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasketRequest {
    /// The promo code, normalised.
    pub code: Code,
    /// The basket total.
    pub total: Money,
    /// Who is buying, if known.
    #[serde(default)]
    pub customer: Option<CustomerId>,
}

impl BasketRequest {
    /// Parses and validates a request body.
    ///
    /// # Errors
    ///
    /// [`InputError::Malformed`] naming the field that is wrong (malformed
    /// JSON, a wrong type, a missing or unknown field, or a field whose value
    /// its type refuses, with that type's message).
    pub fn from_json(json: &str) -> Result<BasketRequest, InputError> {
        from_json(json)
    }
}

#[cfg(test)]
mod tests {
    use super::BasketRequest;
    use crate::InputError;

    fn path_of(json: &str) -> String {
        match BasketRequest::from_json(json) {
            Err(InputError::Malformed { path, .. }) => path,
            other => panic!("expected a malformed error for {json}, got {other:?}"),
        }
    }

    #[test]
    fn reads_a_full_request() {
        let req = BasketRequest::from_json(
            r#"{"code":" save10 ","total":{"amount":"80.00","currency":"EUR"},"customer":"alice"}"#,
        )
        .unwrap();
        assert_eq!(req.code.as_str(), "SAVE10");
        assert_eq!(req.customer.unwrap().as_str(), "alice");
    }

    #[test]
    fn names_the_field_that_is_wrong() {
        assert_eq!(
            path_of(r#"{"code":"","total":{"amount":"1","currency":"EUR"}}"#),
            "code"
        );
        assert_eq!(
            path_of(r#"{"code":"A","total":{"amount":"-1","currency":"EUR"}}"#),
            "total"
        );
        assert_eq!(
            path_of(r#"{"code":"A","total":{"amount":"1","currency":"XXX"}}"#),
            "total.currency"
        );
        assert_eq!(
            path_of(r#"{"code":"A","total":{"amount":1,"currency":"EUR"}}"#),
            "total.amount"
        );
        assert_eq!(
            path_of(r#"{"code":"A","total":{"amount":"1","currency":"EUR"},"extra":true}"#),
            "extra"
        );
        assert_eq!(
            path_of(r#"{"code":"A","total":{"amount":"1","currency":"EUR"},"customer":""}"#),
            "customer"
        );
        assert_eq!(path_of(r#"{"total":{"amount":"1","currency":"EUR"}}"#), ".");
        assert!(BasketRequest::from_json("{\"code\":").is_err());
    }
}
