//! The checkout on the wire: a stack's answers (`POST /v1/holds`,
//! `/v1/captures` and `/v1/releases` with `"codes": [...]`, and the demo
//! routes that play them), the problem a stack answers when one code's
//! object refused it, and the calls the Worker makes to a code's object for
//! a stack: its part (`/stack-part`), each code's hold or capture, and each
//! code's release.
//!
//! One code's quote, hold, capture and release answer the core's own values
//! ([`Quote`], [`Hold`], [`Receipt`], [`Released`]); a stack's quote is the
//! core's [`StackQuote`](crate::StackQuote). See [the module](super).

use serde::{Deserialize, Deserializer, Serialize};

use crate::UsageCounts;
use crate::{Basket, Code, CustomerId, Hold, IdempotencyKey, PromoCode, Quote, Receipt, Released, Skipped};

/// The body of the Worker's call for one code's part of a stack
/// (`/stack-part`): for whom its usage is counted, and the request's key
/// whose use the code answers as recorded.
///
/// # Example
///
/// ```
/// use promocodes::wire::StackPartCall;
///
/// let call: StackPartCall = serde_json::from_str(r#"{"customer": "alice"}"#)?;
/// assert_eq!(call.customer.unwrap().as_str(), "alice");
/// assert!(call.key.is_none() && !call.payment);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackPartCall {
    /// The buyer whose own uses `usage.per_customer` counts; left out when none is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<CustomerId>,
    /// The hold's or capture's idempotency key, whose use (held or captured)
    /// the answer's `recorded` is; left out for a quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<IdempotencyKey>,
    /// Whether `key` is a payment's id, whose use is looked up as the
    /// payment flow captures it.
    #[serde(default)]
    pub payment: bool,
}

/// A code object's answer to a [`StackPartCall`]: the code's whole
/// definition, its usage, and the quote of the use it has under the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackPartAnswer {
    /// The code's whole definition as its object writes it (a campaign's
    /// code names its `campaign`, so that its own cap counts).
    #[serde(deserialize_with = "written_definition")]
    pub definition: PromoCode,
    /// The code's usage, for the named customer.
    pub usage: UsageCounts,
    /// The quote of the use the code has under the call's key (an active
    /// hold, or a capture), which a retry takes as it is; `null` when none.
    #[serde(default)]
    pub recorded: Option<Quote>,
    /// Whether that use is a capture (not a hold): a capture retried under
    /// its key replays its automatic promotions, one converting holds
    /// decides them afresh.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub captured: bool,
}

/// A definition as an object writes it, read back with
/// [`PromoCode::from_written_json`].
pub(super) fn written_definition<'de, D: Deserializer<'de>>(deserializer: D) -> Result<PromoCode, D::Error> {
    let written = serde_json::Value::deserialize(deserializer)?;
    PromoCode::from_written_json(&written.to_string()).map_err(serde::de::Error::custom)
}

/// The body of the Worker's hold or capture of one code of a stack, sent to
/// that code's object under the request's `Idempotency-Key`: a `POST
/// /v1/holds` or `/v1/captures` body for the code alone, with the basket its
/// part applied to (nested).
///
/// # Example
///
/// ```
/// use promocodes::wire::StackCodeCall;
/// use promocodes::{Basket, Code, Currency, Money};
///
/// let call = StackCodeCall {
///     code: Code::parse("SAVE10")?,
///     basket: Basket::from(Money::parse("80.00", Currency::EUR)?),
///     customer: None,
///     customer_orders: None,
///     ttl_seconds: Some(600),
///     quote: None,
/// };
/// assert_eq!(
///     serde_json::to_string(&call)?,
///     r#"{"code":"SAVE10","basket":{"total":{"amount":"80.00","currency":"EUR"}},"ttl_seconds":600}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackCodeCall {
    /// The code.
    pub code: Code,
    /// The basket the code's part applied to: the request's, less the parts before it.
    pub basket: Basket,
    /// Who is buying; left out when no customer is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<CustomerId>,
    /// The orders the customer placed before, as the request said (a
    /// first-order code needs it); left out when it did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_orders: Option<u64>,
    /// A hold's time to live in seconds; left out for a capture, or when the request gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<u64>,
    /// A capture pinned to the stack's quote as shown: the code's own part of
    /// it; left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<Quote>,
}

/// The body of the Worker's release of one code's use (of a stack's
/// release, or of a stack's write given back): a `POST /v1/releases` body
/// for the code alone.
///
/// # Example
///
/// ```
/// use promocodes::wire::ReleaseCall;
/// use promocodes::{Code, IdempotencyKey};
///
/// let call = ReleaseCall { code: Code::parse("save10")?, key: IdempotencyKey::parse("pi_1")?, reason: None };
/// assert_eq!(serde_json::to_string(&call)?, r#"{"code":"SAVE10","key":"pi_1"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseCall {
    /// The code.
    pub code: Code,
    /// The idempotency key of the hold or capture to give back.
    pub key: IdempotencyKey,
    /// Why; left out when no reason was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A stack's hold (`POST /v1/holds` with `codes`, and `/demo/hold`): one
/// hold per code, each as a single code's answer (its quote is its part,
/// priced on the basket the codes before it left), in the order the codes
/// apply. 201 when any was new, 200 when every one replayed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StackHolds {
    /// Each code's own hold (a code whose use the key had replays it).
    #[cfg_attr(feature = "schema", schemars(length(min = 0, max = 25)))]
    pub holds: Vec<Hold>,
    /// With `"automatic": true`, the automatic promotions that did not join
    /// (see [`StackQuote::skipped`](crate::StackQuote::skipped)); left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 20)))]
    pub skipped: Vec<Skipped>,
}

/// A stack's capture (`POST /v1/captures` with `codes`, and `/demo/pay`):
/// one receipt per code, each as a single code's answer, in the order the
/// codes apply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StackReceipts {
    /// Each code's own receipt (a code whose use the key had replays it).
    #[cfg_attr(feature = "schema", schemars(length(min = 0, max = 25)))]
    pub receipts: Vec<Receipt>,
    /// With `"automatic": true`, the automatic promotions that did not join;
    /// left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 20)))]
    pub skipped: Vec<Skipped>,
}

/// A stack's release (`POST /v1/releases` with `codes`, and
/// `/demo/cancel`): one answer per code, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StackReleases {
    /// Each code's own release.
    #[cfg_attr(feature = "schema", schemars(length(min = 0, max = 25)))]
    pub releases: Vec<Released>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{capture, hold, release, Campaign, CaptureOptions, HoldOptions, InMemoryRedemptionStore, Timestamp};

    /// Each value, written, read back and written again, is the same text.
    fn same_again<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> String {
        let written = serde_json::to_string(value).unwrap();
        let again: T = serde_json::from_str(&written).unwrap();
        assert_eq!(serde_json::to_string(&again).unwrap(), written);
        written
    }

    fn basket() -> Basket {
        crate::from_json(
            r#"{"lines": [{"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}}],
                "shipping": {"amount": "4.90", "currency": "EUR"}}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_stacks_holds_receipts_and_releases_read_back_as_they_were_written() {
        let budgeted = PromoCode::from_json(
            r#"{"code": "HALF", "discount": {"kind": "percent", "percent": "50"},
                "limits": {"total": 5, "budget": {"amount": "100.00", "currency": "EUR"}}}"#,
        )
        .unwrap();
        let campaign = Campaign::from_json(
            Code::parse("SPRING").unwrap(),
            r#"{"discount": {"kind": "fixed", "amount": {"amount": "3.00", "currency": "EUR"}}, "uses_per_code": 2}"#,
        )
        .unwrap();
        let theirs = campaign.code(Code::parse("SPRING-1").unwrap());
        let now: Timestamp = "2026-12-02T10:00:00Z".parse().unwrap();
        let store = InMemoryRedemptionStore::new();
        let alice = CustomerId::parse("alice").unwrap();
        let (held, kept) = (
            IdempotencyKey::parse("pi_held").unwrap(),
            IdempotencyKey::parse("pi_kept").unwrap(),
        );
        let mut holds = Vec::new();
        let mut receipts = Vec::new();
        for promo in [&budgeted, &theirs] {
            let options = HoldOptions::new();
            holds.push(hold(promo, &store, Some(&alice), &basket(), now, &held, options).unwrap());
            let options = CaptureOptions::new().idempotency_key(&kept);
            receipts.push(capture(promo, &store, Some(&alice), &basket(), now, options).unwrap());
        }
        let releases = vec![
            release(&store, budgeted.code(), &held, now, None).unwrap(),
            release(&store, theirs.code(), &kept, now, Some("order cancelled")).unwrap(),
        ];
        let holds = same_again(&StackHolds {
            holds,
            skipped: Vec::new(),
        });
        assert!(
            holds.contains(r#""discounted":{"amount":"12.50","currency":"EUR"}"#),
            "{holds}"
        );
        assert!(holds.contains(r#""per_code":1"#), "{holds}");
        same_again(&StackReceipts {
            receipts,
            skipped: Vec::new(),
        });
        let releases = same_again(&StackReleases { releases });
        // Money in the released use's currency, as the object wrote it (not a decimal string).
        assert!(
            releases.contains(r#""discounted":{"amount":"12.50","currency":"EUR"}"#),
            "{releases}"
        );
        assert!(releases.contains(r#""reason":null"#), "{releases}");
    }

    #[test]
    fn a_part_reads_a_plain_code_back_whole_and_names_a_wrong_field() {
        let promo = PromoCode::from_json(
            r#"{"code": "MUGS3", "discount": {"kind": "buy_x_get_y", "buy": {"quantity": 2, "applies_to": {"categories": ["mugs"]}},
                "get": {"quantity": 1, "percent": "50"}}, "limits": {"total": 50, "per_customer": 2,
                "budget": {"amount": "300.00", "currency": "EUR"}, "when_budget_short": "partial"},
                "audience": ["alice"], "starts_at": "2026-12-01T00:00:00Z", "ends_at": "2026-12-31T00:00:00Z",
                "combines_with": ["order"], "active": true}"#,
        )
        .unwrap();
        let part = StackPartAnswer {
            definition: promo,
            usage: UsageCounts::new(3, 1).unwrap(),
            recorded: None,
            captured: false,
        };
        let written = same_again(&part);
        let read: StackPartAnswer = serde_json::from_str(&written).unwrap();
        assert_eq!(read, part);
        // A definition that breaks a rule is refused, the field named.
        let wrong = written.replace(r#""percent":"50""#, r#""percent":"150""#);
        assert_ne!(wrong, written);
        let err = serde_json::from_str::<StackPartAnswer>(&wrong).unwrap_err().to_string();
        assert!(err.contains("get.percent"), "{err}");
    }

    #[test]
    fn a_part_reads_a_campaigns_code_back_with_its_campaign() {
        let campaign = Campaign::from_json(
            Code::parse("SPRING").unwrap(),
            r#"{"discount": {"kind": "percent", "percent": "10"}, "limits": {"total": 100}, "uses_per_code": 1}"#,
        )
        .unwrap();
        let part = StackPartAnswer {
            definition: campaign.code(Code::parse("SPRING-1").unwrap()),
            usage: UsageCounts::new(3, 1).unwrap().with_code_uses(1).unwrap(),
            recorded: None,
            captured: false,
        };
        let written = same_again(&part);
        let read: StackPartAnswer = serde_json::from_str(&written).unwrap();
        assert_eq!(read, part);
        assert_eq!(read.definition.limits().total(), Some(100));
        assert!(serde_json::from_str::<StackPartCall>(r#"{"customer": "alice", "other": 1}"#).is_err());
        assert_eq!(
            serde_json::to_string(&StackPartCall::default()).unwrap(),
            r#"{"payment":false}"#
        );
    }
}

/// The checkout page's report about a code (`POST /v1/codes/{code}/tries`):
/// `{}` when a buyer tried it (the page looked it up), or
/// `{"refused": "<rejection>"}` when the page showed that refusal for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TryReport {
    /// The refusal the page showed for the code, as the core's rejection code; left out for a try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<crate::Rejection>,
}

impl TryReport {
    /// Reads a report from JSON text: an object only (serde would also take a
    /// struct from an array, `[]`, which the description refuses).
    ///
    /// # Errors
    ///
    /// [`serde_json::Error`] for anything but a report's object.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{wire::TryReport, Rejection};
    ///
    /// let report = TryReport::from_json(r#"{"refused": "below_minimum"}"#)?;
    /// assert_eq!(report.refused, Some(Rejection::BelowMinimum));
    /// assert_eq!(TryReport::from_json("{}")?.refused, None);
    /// assert!(TryReport::from_json(r#"{"refused": "nope"}"#).is_err());
    /// assert!(TryReport::from_json("[]").is_err(), "an object only");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(text: &str) -> Result<TryReport, serde_json::Error> {
        let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text)?;
        serde_json::from_value(serde_json::Value::Object(object))
    }
}
