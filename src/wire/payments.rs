//! The payment provider's webhook (`POST /v1/webhooks/stripe`) and the code
//! object's payment flow: the calls the Worker makes to a code's object for
//! a payment ([`PaymentCapture`], [`PaymentRelease`]), what the object answers
//! ([`WebhookAnswer`], [`PaymentReleaseAnswer`]), what it records of a capture
//! refused after the money moved ([`PaymentRefusal`]), and what the webhook
//! answers the provider ([`WebhookAnswer`]).

use serde::{Deserialize, Deserializer, Serialize};

use crate::{Code, IdempotencyKey, Quote, Receipt, Rejection, Released, ReservationState, Timestamp, UsageCounts};

/// What the Worker forwards of a payment provider's confirmation: the code,
/// the payment's id as the key, and the metadata's customer and basket as
/// given (the object reads them, so that a bad one is recorded, not lost).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentCapture {
    /// The code from the metadata, normalised.
    pub code: String,
    /// The payment's id (`pi_...`): the capture's idempotency key.
    pub key: String,
    /// The metadata's customer, if any.
    pub customer: Option<String>,
    /// The metadata's basket (JSON text), if any.
    pub basket: Option<String>,
    /// The amount charged, in major units (`"72.00"`).
    pub charged: String,
    /// Its currency (`"EUR"`).
    pub currency: String,
    /// The provider's event id, for the record.
    pub event_id: String,
}

/// What the Worker forwards of a payment provider's "give the use back":
/// the code, the payment's id, the reason, and whether only a hold may be
/// released (a failed or cancelled payment) or a capture too (a refund).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRelease {
    /// The code, normalised.
    pub code: String,
    /// The payment's id (`pi_...`).
    pub key: String,
    /// Why, for the record.
    pub reason: String,
    /// True for `payment_intent.canceled` and `payment_intent.payment_failed`:
    /// they release a hold, never a capture (Stripe does not order its
    /// events, so a late `payment_failed` can arrive after the retry that paid).
    pub holds_only: bool,
}

/// What was done with a payment event (`action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WebhookAction {
    /// The payment's use (or every code's of a stack) was captured.
    Captured,
    /// The event had been handled before: its first answer, nothing written.
    Replayed,
    /// A use was given back (or a full refund recorded as final).
    Released,
    /// The capture was refused after the money moved (recorded for the operator).
    Refused,
    /// Nothing to do: `why` says why.
    Ignored,
}

/// What the Worker did with a Stripe event (always 200, `received: true`),
/// and what a code's object answers for a payment call. Which fields are
/// there depends on `action`; a field not given is left out. For a stack
/// (`metadata.promo_codes`): `receipts` (captured or replayed, one per code
/// in the order they apply), or `code` (the code whose write was refused,
/// or found its payment refunded) with `releases` (what every other code
/// gave back) and `rejections`; a cancel, failure or refund of a stack
/// answers `releases`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebhookAnswer {
    /// Always `true`: the event was handled, replayed or deliberately ignored.
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub received: bool,
    /// What was done.
    #[cfg_attr(feature = "schema", schemars(with = "String", extend("enum" = ["captured", "replayed", "released", "refused", "ignored"])))]
    pub action: WebhookAction,
    /// One code's capture (`captured`, `replayed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Receipt"))]
    pub receipt: Option<Receipt>,
    /// One code's use given back (`released`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Released"))]
    pub release: Option<PaymentReleased>,
    /// The rule that refused the capture (`refused`); `null` when the
    /// payment's own data was unusable (`detail` says why).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Rejection>"))]
    pub rejection: Option<Option<Rejection>>,
    /// Why the capture was refused, in words (`refused`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub detail: Option<String>,
    /// True when the payment was settled before (a refund, a refused
    /// capture): this answer replays it and nothing was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "bool"))]
    pub replayed: Option<bool>,
    /// Why nothing (more) was done (`ignored`, or a refund recorded before
    /// any code of its payment was known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub why: Option<String>,
    /// A stack's receipts, one per code, in the order the codes apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Receipt>"))]
    pub receipts: Option<Vec<Receipt>>,
    /// A refused stack: every code that refused, and why (empty when the
    /// metadata itself was unusable: `detail` says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::StackRefusal>"))]
    pub rejections: Option<Vec<super::RefusedCode>>,
    /// A stack's releases, one per code: what each code gave back under the PaymentIntent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<CodeRelease>"))]
    pub releases: Option<Vec<CodeRelease>>,
    /// A stack's code whose write was refused (or found its payment
    /// refunded), which stopped the stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Code"))]
    pub code: Option<Code>,
}

/// A field that is there, `null` or not: `Some(None)` for `null`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}

impl WebhookAnswer {
    /// `{"received": true, "action": action}`, every other field left out.
    pub fn new(action: WebhookAction) -> WebhookAnswer {
        WebhookAnswer {
            received: true,
            action,
            receipt: None,
            release: None,
            rejection: None,
            detail: None,
            replayed: None,
            why: None,
            receipts: None,
            rejections: None,
            releases: None,
            code: None,
        }
    }

    /// `ignored`, with why.
    pub fn ignored(why: impl Into<String>) -> WebhookAnswer {
        WebhookAnswer {
            why: Some(why.into()),
            ..WebhookAnswer::new(WebhookAction::Ignored)
        }
    }
}

/// One code of a stack given back under a PaymentIntent (`releases`):
/// `released` (with the release), or `ignored` with why (nothing held or
/// captured under it, or a capture a failed or cancelled payment may not release).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WebhookCodeRelease"))]
#[serde(deny_unknown_fields)]
pub struct CodeRelease {
    /// The code.
    pub code: Code,
    /// `released`, or `ignored` (with why).
    #[cfg_attr(feature = "schema", schemars(with = "String", extend("enum" = ["released", "ignored"])))]
    pub action: WebhookAction,
    /// The use given back (`released`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Released"))]
    pub release: Option<PaymentReleased>,
    /// True when the payment was refunded before: this replays that release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "bool"))]
    pub replayed: Option<bool>,
    /// Why nothing was given back (`ignored`): nothing held or captured under
    /// the payment, a code not defined, or a capture a failed or cancelled
    /// payment may not release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub why: Option<String>,
}

impl CodeRelease {
    /// `ignored`, with why.
    pub fn ignored(code: Code, why: impl Into<String>) -> CodeRelease {
        CodeRelease {
            code,
            action: WebhookAction::Ignored,
            release: None,
            replayed: None,
            why: Some(why.into()),
        }
    }

    /// A code's entry from its object's answer to a [`PaymentRelease`].
    pub fn of(code: Code, answer: PaymentReleaseAnswer) -> CodeRelease {
        match answer {
            PaymentReleaseAnswer::Settled(answer) => CodeRelease {
                code,
                action: answer.action,
                release: answer.release,
                replayed: answer.replayed,
                why: answer.why,
            },
            PaymentReleaseAnswer::Released(release) => CodeRelease {
                code,
                action: WebhookAction::Released,
                release: Some(PaymentReleased::Release(release)),
                replayed: None,
                why: None,
            },
        }
    }
}

/// What a code's object answers a [`PaymentRelease`] with (200): the
/// release itself, or a payment settled before (`received` is there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PaymentReleaseAnswer {
    /// Settled by the payment flow: a refund replayed or recorded before
    /// anything was held, or a capture a failed or cancelled payment may not
    /// release (`ignored`).
    Settled(Box<WebhookAnswer>),
    /// The use given back, as `POST /v1/releases` answers it.
    Released(Released),
}

/// A use given back under a payment (`release`): as a release answers it,
/// or a full refund recorded before anything was held or captured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PaymentReleased {
    /// The use given back, as `POST /v1/releases` answers it.
    Release(Released),
    /// A full refund recorded before anything was held or captured under its payment.
    BeforePayment(UnpaidRefund),
}

impl PaymentReleased {
    /// True when it had been released before: nothing changed.
    pub fn replayed(&self) -> bool {
        match self {
            PaymentReleased::Release(released) => released.replayed,
            PaymentReleased::BeforePayment(refund) => refund.replayed,
        }
    }
}

/// A full refund recorded before anything was held or captured under its
/// payment: a [`Released`] whose `was` is `null` (nothing was held or
/// captured), which a [`Released`] cannot carry; its `usage.discounted` is a
/// decimal string, no currency being known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnpaidRefund {
    /// The key that was released (the payment's id).
    pub key: IdempotencyKey,
    /// `released`.
    pub state: ReservationState,
    /// Always `null`: nothing was held or captured under the payment.
    pub was: (),
    /// When it was released.
    pub released_at: Timestamp,
    /// Why, if a reason was given.
    pub reason: Option<String>,
    /// The counts right after the release.
    pub usage: UsageCounts,
    /// True when it had been released before: nothing changed.
    pub replayed: bool,
}

/// A payment capture refused after the money moved, as the code's object
/// records it (once per key), for the operator to refund or honour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRefusal {
    /// The metadata's customer, as given.
    pub customer: Option<String>,
    /// The rule that refused it; `null` when the payment's data was unusable.
    pub rejection: Option<Rejection>,
    /// Why, in words.
    pub detail: String,
    /// What the provider charged.
    pub charged: Charged,
    /// The provider's event id.
    pub event_id: String,
    /// When it was refused.
    pub refused_at: Timestamp,
    /// The price the rules gave, when they gave one.
    pub quote: Option<Quote>,
}

/// An amount as the payment provider charged it, before it was read as money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charged {
    /// The amount in major units (`"72.00"`).
    pub amount: String,
    /// Its currency code (`"EUR"`).
    pub currency: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<T: Serialize + for<'de> Deserialize<'de>>(json: &str) -> String {
        let value: T = serde_json::from_str(json).expect(json);
        serde_json::to_string(&value).unwrap()
    }

    #[test]
    fn a_release_reads_back_as_the_object_wrote_it() {
        // A release's counts in the quote's currency, and a refund recorded before any
        // payment: `was` null and `discounted` a decimal string.
        for json in [
            r#"{"key":"pi_1","state":"released","was":"captured","released_at":"2026-01-01T00:00:00Z","reason":"refund","usage":{"total":0,"per_customer":0,"discounted":{"amount":"8.00","currency":"EUR"}},"replayed":false}"#,
            r#"{"key":"pi_1","state":"released","was":null,"released_at":"2026-01-01T00:00:00Z","reason":null,"usage":{"total":2,"per_customer":0,"discounted":"12.50","per_code":1},"replayed":true}"#,
        ] {
            assert_eq!(roundtrip::<PaymentReleased>(json), json);
        }
        let captured = r#"{"key":"pi_1","state":"released","was":"captured","released_at":"2026-01-01T00:00:00Z","reason":null,"usage":{"total":0,"per_customer":0,"discounted":{"amount":"8.00","currency":"EUR"}},"replayed":false}"#;
        assert!(matches!(
            serde_json::from_str(captured).unwrap(),
            PaymentReleased::Release(_)
        ));
    }

    #[test]
    fn an_object_answer_is_told_from_a_bare_release() {
        let release = r#"{"key":"pi_1","state":"released","was":"held","released_at":"2026-01-01T00:00:00Z","reason":null,"usage":{"total":0,"per_customer":0,"discounted":"0"},"replayed":false}"#;
        let bare: PaymentReleaseAnswer = serde_json::from_str(release).unwrap();
        assert!(matches!(bare, PaymentReleaseAnswer::Released(_)));
        let code = Code::parse("SAVE10").unwrap();
        let entry = serde_json::to_string(&CodeRelease::of(code.clone(), bare)).unwrap();
        assert_eq!(
            entry,
            format!(r#"{{"code":"SAVE10","action":"released","release":{release}}}"#)
        );

        let ignored = r#"{"received":true,"action":"ignored","why":"pi_1 is captured"}"#;
        let settled: PaymentReleaseAnswer = serde_json::from_str(ignored).unwrap();
        assert!(matches!(settled, PaymentReleaseAnswer::Settled(_)));
        let entry = serde_json::to_string(&CodeRelease::of(code, settled)).unwrap();
        assert_eq!(
            entry,
            r#"{"code":"SAVE10","action":"ignored","why":"pi_1 is captured"}"#
        );
    }

    #[test]
    fn a_rejection_is_left_out_null_or_a_code() {
        let refused = r#"{"received":true,"action":"refused","rejection":null,"detail":"metadata.customer: empty","replayed":false}"#;
        let answer: WebhookAnswer = serde_json::from_str(refused).unwrap();
        assert_eq!(answer.rejection, Some(None));
        assert_eq!(serde_json::to_string(&answer).unwrap(), refused);
        let exhausted = r#"{"received":true,"action":"refused","rejection":"exhausted","detail":"used up"}"#;
        let answer: WebhookAnswer = serde_json::from_str(exhausted).unwrap();
        assert_eq!(answer.rejection, Some(Some(Rejection::Exhausted)));
        assert_eq!(
            serde_json::to_string(&WebhookAnswer::ignored("no promo code X is defined")).unwrap(),
            r#"{"received":true,"action":"ignored","why":"no promo code X is defined"}"#
        );
    }
}
