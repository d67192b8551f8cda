//! Request shapes, validated by the core so that every adapter (the edge
//! Worker, the browser module, a server of your own) refuses the same input.
//!
//! Only the shapes live here; the HTTP mapping belongs to the adapter.

use serde::Deserialize;

use super::from_json;
use super::wire::{into_lines, LineRepr};
use crate::redemption::{check_hold_ttl, check_reason};
use crate::rules::{Basket, Quote, UsageCounts};
use crate::values::{Code, CustomerId, IdempotencyKey, InputError, Money, Timestamp};

/// What a page may know besides the basket when it quotes:
/// `{"customer": "alice", "customer_orders": 0, "usage": {"total": 3, "per_customer": 0}, "now": "2026-12-02T10:00:00Z"}`,
/// every field optional (`customer_orders`: the orders the customer placed
/// before, which a first-order code needs; see [`QuoteOptions::basket`]). Unknown fields are refused.
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
    /// The orders the customer placed before, if the shop says.
    #[serde(default)]
    pub customer_orders: Option<u64>,
}

impl QuoteOptions {
    /// `basket` with the options' `customer_orders`, if any: what the rules are run on.
    pub fn basket(&self, basket: Basket) -> Basket {
        with_orders(basket, self.customer_orders)
    }
}

/// `basket` with `orders`, if any.
fn with_orders(basket: Basket, orders: Option<u64>) -> Basket {
    match orders {
        Some(orders) => basket.with_customer_orders(orders),
        None => basket,
    }
}

/// What a page may know besides the basket when it quotes several codes
/// ([`Stack`](crate::Stack)): `{"customer": "alice", "usage": [{"total": 3,
/// "per_customer": 0}, {"total": 0, "per_customer": 0}], "now":
/// "2026-12-02T10:00:00Z"}`, every field optional. `usage` holds each code's
/// usage in the order the codes are listed (a code past its end: no
/// redemptions). Unknown fields are refused.
///
/// # Example
///
/// ```
/// use promocodes::api::StackOptions;
/// use promocodes::from_json;
///
/// let options: StackOptions = from_json(r#"{"usage": [{"total": 0, "per_customer": 0}, {"total": 3, "per_customer": 0}]}"#)?;
/// assert_eq!(options.usage()[1].total(), 3);
/// assert!(StackOptions::default().usage().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackOptions {
    /// Who is buying, if known.
    #[serde(default)]
    pub customer: Option<CustomerId>,
    /// Each code's usage, in the order the codes are listed.
    #[serde(default)]
    pub usage: Option<Vec<UsageCounts>>,
    /// When to quote at (the caller's clock when absent).
    #[serde(default)]
    pub now: Option<Timestamp>,
    /// The orders the customer placed before, if the shop says.
    #[serde(default)]
    pub customer_orders: Option<u64>,
}

impl StackOptions {
    /// Each code's usage as listed, for [`Stack::quote`](crate::Stack::quote) (empty when not given).
    pub fn usage(&self) -> &[UsageCounts] {
        self.usage.as_deref().unwrap_or_default()
    }

    /// `basket` with the options' `customer_orders`, if any: what the rules are run on.
    pub fn basket(&self, basket: Basket) -> Basket {
        with_orders(basket, self.customer_orders)
    }
}

/// Which request a [`BasketRequest`] is: each takes the basket, and some one field more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BasketRequestKind {
    /// `POST /v1/quotes`: the basket only.
    Quote,
    /// `POST /v1/holds`: the basket and `ttl_seconds`.
    Hold,
    /// `POST /v1/captures`: the basket and `quote`, the quote the buyer was shown.
    Capture,
}

/// The body of `POST /v1/quotes`, `/v1/holds` and `/v1/captures`:
/// a code, the basket, and optionally who is buying.
///
/// The basket is given inline, in either of its forms:
///
/// - `{"code": "SAVE10", "total": {"amount": "80.00", "currency": "EUR"}, "customer": "alice"}`
/// - `{"code": "SAVE10", "lines": [{"sku": "MUG-1", "quantity": 2, "unit_price": <Money>}], "shipping": <Money>}`
///
/// or nested as `{"code": "SAVE10", "basket": <Basket>}`. A hold may add
/// `"ttl_seconds": 900` (1 to 3600; 900 when absent), a capture `"quote":
/// <Quote>`, the quote the buyer was shown, to pin it.
///
/// Unknown fields are refused, and every field is checked as it is read:
/// the code is normalised ([`Code::parse`]), the basket's amounts are valid
/// [`Money`] in one currency, the customer a valid [`CustomerId`]. An error
/// names the field as it sits in the body: `lines[3].quantity` inline,
/// `basket.lines[3].quantity` nested.
///
/// # Example
///
/// ```
/// use promocodes::api::{BasketRequest, BasketRequestKind};
///
/// let req = BasketRequest::from_json(r#"{"code": "save10", "total": {"amount": "80.00", "currency": "EUR"}}"#)?;
/// assert_eq!(req.code.as_str(), "SAVE10");
/// assert_eq!(req.basket.total().to_string(), "EUR 80.00");
/// assert!(req.customer.is_none());
///
/// let err = BasketRequest::parse(
///     r#"{"code": "X", "lines": [{"sku": "A", "quantity": 1.5, "unit_price": {"amount": "1", "currency": "EUR"}}]}"#,
///     BasketRequestKind::Quote,
/// ).unwrap_err();
/// assert_eq!(err.path(), Some("lines[0].quantity"));
///
/// assert!(BasketRequest::from_json(r#"{"code": "SAVE10", "total": {"amount": "1", "currency": "EUR"}, "x": 1}"#).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BasketRequest {
    /// The promo code, normalised.
    pub code: Code,
    /// What is being bought.
    pub basket: Basket,
    /// Who is buying, if known.
    pub customer: Option<CustomerId>,
    /// The orders the customer placed before, if the shop says (also on
    /// `basket`, see [`Basket::with_customer_orders`]).
    pub customer_orders: Option<u64>,
    /// A hold's time to live, in seconds (holds only).
    pub ttl_seconds: Option<u64>,
    /// The quote the buyer was shown (captures only).
    pub quote: Option<Quote>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BasketRequestRepr {
    code: Code,
    #[serde(default)]
    customer: Option<CustomerId>,
    #[serde(default)]
    customer_orders: Option<u64>,
    #[serde(default)]
    total: Option<Money>,
    #[serde(default)]
    lines: Option<Vec<LineRepr>>,
    #[serde(default)]
    shipping: Option<Money>,
    #[serde(default)]
    basket: Option<Basket>,
    #[serde(default)]
    ttl_seconds: Option<u64>,
    #[serde(default)]
    quote: Option<Quote>,
}

impl BasketRequest {
    /// Parses and validates a quote's request body (no `ttl_seconds`, no `quote`).
    ///
    /// # Errors
    ///
    /// As [`BasketRequest::parse`].
    pub fn from_json(json: &str) -> Result<BasketRequest, InputError> {
        BasketRequest::parse(json, BasketRequestKind::Quote)
    }

    /// Parses and validates the body of a `kind` request.
    ///
    /// # Errors
    ///
    /// [`InputError::NotJson`], [`InputError::Malformed`] or
    /// [`InputError::Field`] naming the field that is wrong, as
    /// [`from_json`] does; a field the request does not
    /// take is an unknown field.
    pub fn parse(json: &str, kind: BasketRequestKind) -> Result<BasketRequest, InputError> {
        let repr: BasketRequestRepr = from_json(json)?;
        let unknown = |field: &str| InputError::Malformed {
            path: field.to_owned(),
            message: format!("unknown field `{field}`; a {kind:?} request does not take it").to_lowercase(),
        };
        if repr.ttl_seconds.is_some() && kind != BasketRequestKind::Hold {
            return Err(unknown("ttl_seconds"));
        }
        if repr.quote.is_some() && kind != BasketRequestKind::Capture {
            return Err(unknown("quote"));
        }
        if let Some(ttl) = repr.ttl_seconds {
            check_hold_ttl(ttl).map_err(|e| e.at("ttl_seconds"))?;
        }
        let inline = repr.total.is_some() || repr.lines.is_some() || repr.shipping.is_some();
        let basket =
            match (repr.basket, inline) {
                (Some(_), true) => return Err(InputError::BasketForm {
                    message:
                        "give the basket either as `basket` or inline (`total`, or `lines` and `shipping`), not both",
                }
                .at("basket")),
                (Some(basket), false) => basket,
                (None, _) => {
                    let lines = repr.lines.map(into_lines).transpose()?;
                    Basket::from_parts(repr.total, lines, repr.shipping)?
                }
            };
        Ok(BasketRequest {
            code: repr.code,
            basket: with_orders(basket, repr.customer_orders),
            customer: repr.customer,
            customer_orders: repr.customer_orders,
            ttl_seconds: repr.ttl_seconds,
            quote: repr.quote,
        })
    }
}

/// The body of `POST /v1/releases`: `{"code": "SAVE10", "key": "pi_123", "reason": "refunded"}`,
/// `reason` optional (at most 200 characters, no control characters).
///
/// # Example
///
/// ```
/// use promocodes::api::ReleaseRequest;
///
/// let req = ReleaseRequest::from_json(r#"{"code": "save10", "key": "pi_123", "reason": "order cancelled"}"#)?;
/// assert_eq!(req.key.as_str(), "pi_123");
/// assert!(ReleaseRequest::from_json(&format!(r#"{{"code": "A", "key": "k", "reason": "{}"}}"#, "x".repeat(201))).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ReleaseRequest {
    /// The code.
    pub code: Code,
    /// The idempotency key of the hold or capture to give back.
    pub key: IdempotencyKey,
    /// Why, if known.
    #[serde(default)]
    pub reason: Option<String>,
}

impl ReleaseRequest {
    /// Parses and validates a release's request body.
    ///
    /// # Errors
    ///
    /// As [`from_json`]; [`InputError::InvalidReason`] at `reason`.
    pub fn from_json(json: &str) -> Result<ReleaseRequest, InputError> {
        let req: ReleaseRequest = from_json(json)?;
        if let Some(reason) = &req.reason {
            check_reason(reason).map_err(|e| e.at("reason"))?;
        }
        Ok(req)
    }
}

/// The body of `PATCH /v1/codes/{code}`: the kill switch, nothing else.
/// `{"active": false}` switches a code off at once, `{"active": true}` back on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct CodePatch {
    /// Whether the code is switched on.
    pub active: bool,
}

impl CodePatch {
    /// Parses a patch body.
    ///
    /// # Errors
    ///
    /// As [`from_json`].
    pub fn from_json(json: &str) -> Result<CodePatch, InputError> {
        from_json(json)
    }
}

#[cfg(test)]
mod tests {
    use super::{BasketRequest, BasketRequestKind};
    use crate::InputError;

    fn path_of(json: &str) -> String {
        match BasketRequest::from_json(json) {
            Err(err) => err.path().unwrap_or("<none>").to_owned(),
            other => panic!("expected an error for {json}, got {other:?}"),
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
            "total.amount"
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
        assert!(matches!(
            BasketRequest::from_json("{\"code\":"),
            Err(InputError::NotJson { .. })
        ));
    }

    #[test]
    fn names_the_line_that_is_wrong_inline_and_nested() {
        let line =
            |q: &str| format!(r#"{{"sku":"A","quantity":{q},"unit_price":{{"amount":"1.00","currency":"EUR"}}}}"#);
        let lines = [line("1"), line("1"), line("1"), line("0")].join(",");
        assert_eq!(
            path_of(&format!(r#"{{"code":"A","lines":[{lines}]}}"#)),
            "lines[3].quantity"
        );
        assert_eq!(
            path_of(&format!(r#"{{"code":"A","basket":{{"lines":[{lines}]}}}}"#)),
            "basket.lines[3].quantity"
        );
        let mixed = r#"[{"sku":"A","quantity":1,"unit_price":{"amount":"1.00","currency":"EUR"}},
            {"sku":"B","quantity":1,"unit_price":{"amount":"1.00","currency":"USD"}}]"#;
        assert_eq!(
            path_of(&format!(r#"{{"code":"A","lines":{mixed}}}"#)),
            "lines[1].unit_price"
        );
        assert_eq!(
            path_of(&format!(r#"{{"code":"A","basket":{{"lines":{mixed}}}}}"#)),
            "basket.lines[1].unit_price"
        );
    }

    #[test]
    fn holds_and_captures_take_one_field_more() {
        let hold = r#"{"code":"A","total":{"amount":"1.00","currency":"EUR"},"ttl_seconds":60}"#;
        assert_eq!(
            BasketRequest::parse(hold, BasketRequestKind::Hold).unwrap().ttl_seconds,
            Some(60)
        );
        assert_eq!(path_of(hold), "ttl_seconds");
        let long = r#"{"code":"A","total":{"amount":"1.00","currency":"EUR"},"ttl_seconds":3601}"#;
        let err = BasketRequest::parse(long, BasketRequestKind::Hold).unwrap_err();
        assert_eq!(err.path(), Some("ttl_seconds"));
        assert!(matches!(err.kind(), InputError::HoldTtlOutOfRange { .. }));
    }
}

/// Whether a request body takes the stack's path: it names several codes
/// (`"codes": [...]`) rather than one (`"code"`), or asks for the automatic
/// promotions (`"automatic"`, beside `code` or `codes` or alone): what `POST
/// /v1/quotes` reads first. Text that is not a JSON object answers `false`,
/// for the one-code reader to refuse by name.
///
/// # Errors
///
/// [`InputError::Malformed`] at `codes` when the body names both.
///
/// # Example
///
/// ```
/// use promocodes::api::names_several_codes;
///
/// assert!(names_several_codes(r#"{"codes": ["A", "B"], "total": {"amount": "1", "currency": "EUR"}}"#)?);
/// assert!(!names_several_codes(r#"{"code": "A", "total": {"amount": "1", "currency": "EUR"}}"#)?);
/// assert!(names_several_codes(r#"{"code": "A", "codes": ["A"]}"#).is_err());
/// assert!(names_several_codes(r#"{"code": "A", "automatic": true, "total": {"amount": "1", "currency": "EUR"}}"#)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn names_several_codes(body: &str) -> Result<bool, InputError> {
    #[derive(Deserialize)]
    struct Which {
        #[serde(default)]
        code: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        codes: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        automatic: Option<serde::de::IgnoredAny>,
    }
    let Ok(which) = serde_json::from_str::<Which>(body) else {
        return Ok(false);
    };
    match (which.code, which.codes) {
        (Some(_), Some(_)) => Err(InputError::Malformed {
            path: "codes".to_owned(),
            message: "a request names either `code` (one code) or `codes` (several), not both".to_owned(),
        }),
        (_, codes) => Ok(codes.is_some() || which.automatic.is_some()),
    }
}

/// The body of `POST /v1/quotes` with several codes: `"codes": [...]` (1 to
/// [`Stack::MAX_CODES`](crate::Stack::MAX_CODES), each once, normalised) in
/// place of `"code"`, the basket inline or nested and the customer exactly as
/// in a [`BasketRequest`], whose reader checks them (with the same paths).
///
/// With `"automatic": true` the shop's automatic promotions are offered
/// too ([`Stack::with_automatic`](crate::Stack::with_automatic)): beside
/// `codes`, beside one `code` (read as a list of one), or alone (no typed
/// code). `"automatic": false` is as if it were left out.
///
/// # Example
///
/// ```
/// use promocodes::api::StackRequest;
///
/// let req = StackRequest::parse(r#"{"codes": ["save10", "SHIPFREE"], "total": {"amount": "80.00", "currency": "EUR"}}"#)?;
/// assert_eq!(req.codes.iter().map(|c| c.as_str()).collect::<Vec<_>>(), ["SAVE10", "SHIPFREE"]);
/// let twice = StackRequest::parse(r#"{"codes": ["A", "a"], "total": {"amount": "1", "currency": "EUR"}}"#).unwrap_err();
/// assert_eq!(twice.to_string(), "codes: A is listed twice; a basket takes each code once");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StackRequest {
    /// The codes, normalised, in the order given.
    pub codes: Vec<Code>,
    /// What is being bought.
    pub basket: Basket,
    /// Who is buying, if known.
    pub customer: Option<CustomerId>,
    /// The orders the customer placed before, if the shop says (also on `basket`).
    pub customer_orders: Option<u64>,
    /// A hold's time to live, in seconds (holds only).
    pub ttl_seconds: Option<u64>,
    /// The stack's quote the buyer was shown (captures only), to pin it.
    pub quote: Option<crate::ShownStack>,
    /// Whether the shop's automatic promotions are offered too.
    pub automatic: bool,
}

impl StackRequest {
    /// Parses and validates a stack's quote request.
    ///
    /// # Errors
    ///
    /// An [`InputError`] naming the field: `codes` (not a list of codes, none
    /// without `automatic`, more than 5, one twice), `automatic` (not a
    /// boolean), or the basket's and customer's fields as
    /// [`BasketRequest::parse`] names them.
    pub fn parse(json: &str) -> Result<StackRequest, InputError> {
        StackRequest::parse_for(json, BasketRequestKind::Quote)
    }

    /// Parses and validates a stack's quote, hold (`ttl_seconds` allowed) or
    /// capture request (`quote` allowed: the stack's quote as shown, see
    /// [`ShownStack`](crate::ShownStack)).
    ///
    /// # Errors
    ///
    /// As [`StackRequest::parse`], and `quote` on a capture when it is not a
    /// stack's quote.
    pub fn parse_for(json: &str, kind: BasketRequestKind) -> Result<StackRequest, InputError> {
        let mut body: serde_json::Map<String, serde_json::Value> = from_json(json)?;
        let mut quote = None;
        if kind == BasketRequestKind::Capture {
            if let Some(shown) = body.remove("quote") {
                quote = Some(from_json::<crate::ShownStack>(&shown.to_string()).map_err(|err| err.at("quote"))?);
            }
        }
        let automatic = match body.remove("automatic") {
            None => false,
            Some(flag) => from_json::<bool>(&flag.to_string()).map_err(|err| err.at("automatic"))?,
        };
        let codes: Vec<Code> = match (body.remove("codes"), body.remove("code")) {
            (Some(_), Some(_)) => {
                return Err(InputError::Malformed {
                    path: "codes".to_owned(),
                    message: "a request names either `code` (one code) or `codes` (several), not both".to_owned(),
                })
            }
            (Some(listed), None) => from_json(&listed.to_string()).map_err(|err| err.at("codes"))?,
            (None, Some(one)) => vec![from_json(&one.to_string()).map_err(|err| err.at("code"))?],
            (None, None) if automatic => Vec::new(),
            (None, None) => from_json("null").map_err(|err| err.at("codes"))?,
        };
        if !(automatic && codes.is_empty()) {
            check_code_list(&codes).map_err(|err| err.at("codes"))?;
        }
        // The rest is a one-code request's: read by its reader, with its paths (a stand-in code
        // when none is typed).
        let first = codes.first().map_or("AUTOMATIC", Code::as_str);
        body.insert("code".to_owned(), serde_json::Value::String(first.to_owned()));
        let one = BasketRequest::parse(&serde_json::Value::Object(body).to_string(), kind)?;
        Ok(StackRequest {
            codes,
            basket: one.basket,
            customer: one.customer,
            customer_orders: one.customer_orders,
            ttl_seconds: one.ttl_seconds,
            quote,
            automatic,
        })
    }
}

/// 1 to [`Stack::MAX_CODES`](crate::Stack::MAX_CODES) codes, each once.
fn check_code_list(codes: &[Code]) -> Result<(), InputError> {
    let max = crate::Stack::MAX_CODES;
    if codes.is_empty() {
        return Err(InputError::EmptyStack);
    }
    if codes.len() > max {
        return Err(InputError::TooMany {
            field: "codes",
            count: codes.len(),
            max,
        });
    }
    for (i, code) in codes.iter().enumerate() {
        if codes[..i].contains(code) {
            return Err(InputError::DuplicateCode {
                code: code.as_str().to_owned(),
            });
        }
    }
    Ok(())
}
