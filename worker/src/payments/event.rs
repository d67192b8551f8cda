//! Stripe's events: [`parse_event`] reads a verified event into an [`Action`]:
//! capture the code of a paid PaymentIntent, release it, or ignore the event.

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::amount::{major_amount, AmountError};

/// The event types that can lead to a capture or a release; every other type
/// is ignored. Enable these on the Stripe webhook endpoint.
pub const HANDLED_EVENT_TYPES: [&str; 4] = [
    "payment_intent.succeeded",
    "payment_intent.canceled",
    "payment_intent.payment_failed",
    "charge.refunded",
];

/// The metadata key that names the promotion code.
pub const META_PROMO_CODE: &str = "promo_code";
/// The metadata key that names the customer (optional).
pub const META_CUSTOMER: &str = "customer";
/// The metadata key that carries the basket as a JSON string (optional).
/// Stripe limits a metadata value to 500 characters (docs.stripe.com/metadata:
/// "value: 500-character limit"), so the basket must fit in 500.
pub const META_BASKET: &str = "promo_basket";

/// What a verified Stripe event asks of promocodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `payment_intent.succeeded` with `metadata.promo_code`: record the
    /// redemption. The PaymentIntent id is a natural idempotency key (Stripe
    /// may deliver one event more than once, and a PaymentIntent succeeds at
    /// most once).
    Capture {
        /// The event's `id` (`evt_...`).
        event_id: String,
        /// The PaymentIntent's `id` (`pi_...`).
        payment_intent: String,
        /// `metadata.promo_code`, as Stripe has it (the core validates it).
        code: String,
        /// `metadata.customer`, when present and not empty.
        customer: Option<String>,
        /// `metadata.promo_basket`, the basket as a JSON string, when present
        /// and not empty; not parsed here.
        basket_json: Option<String>,
        /// `amount_received` as a decimal in the currency's ISO 4217 minor
        /// unit ([`major_amount`]): what the customer actually paid.
        charged_major: String,
        /// The currency, upper case (`"EUR"`).
        currency: String,
    },
    /// Give the code's use back: the payment will not (or no longer) pay.
    ///
    /// - `payment_intent.canceled`: final; a canceled PaymentIntent cannot be
    ///   used again.
    /// - `payment_intent.payment_failed`: NOT final. Stripe's PaymentIntent
    ///   lifecycle (docs.stripe.com/payments/paymentintents/lifecycle): "If the
    ///   payment attempt fails (for example due to a decline), the
    ///   PaymentIntent's status returns to `requires_payment_method` so that
    ///   the payment can be retried." A `payment_intent.succeeded` for the same
    ///   PaymentIntent can follow this release.
    /// - `charge.refunded` when the whole charge is refunded.
    ///
    /// Does a Charge carry its PaymentIntent's metadata? Once, at
    /// confirmation. Stripe's support article "How metadata works with related
    /// objects" (support.stripe.com/questions/how-metadata-works-with-related-objects)
    /// says metadata is generally not inherited by related objects, with one
    /// important exception: when a PaymentIntent is confirmed, Stripe copies
    /// its metadata, with some other fields, to the Charge the PaymentIntent
    /// creates; this is a one-time copy, and later updates to the
    /// PaymentIntent's metadata do not update the Charge's. So a charge's
    /// `promo_code` is there when the code was set before confirmation, absent
    /// (`code: None`) or stale when it was set or changed afterwards: look the
    /// redemption up by `payment_intent` and treat `code` as a hint.
    Release {
        /// The event's `id` (`evt_...`).
        event_id: String,
        /// The PaymentIntent's `id` (`pi_...`): for a charge, its
        /// `payment_intent`.
        payment_intent: String,
        /// `metadata.promo_code` of the PaymentIntent (always present for the
        /// PaymentIntent events) or of the charge (may be absent).
        code: Option<String>,
        /// Why, for the log: the event type, then the detail Stripe gives
        /// (`"payment_intent.canceled: requested_by_customer"`).
        reason: String,
        /// True when only a hold may be released (`payment_intent.canceled`,
        /// `payment_intent.payment_failed`); false for a full refund, which
        /// releases a capture. Stripe does not deliver events in order, so a
        /// `payment_failed` of an earlier attempt may arrive after the
        /// `succeeded` of the retry: it must not release what was paid.
        holds_only: bool,
    },
    /// Nothing to do: an unhandled type, no promotion code, a partial refund.
    Ignore {
        /// The event's `id` (`evt_...`).
        event_id: String,
        /// Why, as a sentence for the log.
        why: String,
    },
}

impl Action {
    /// The event's `id` (`evt_...`), whatever the action.
    pub fn event_id(&self) -> &str {
        match self {
            Action::Capture { event_id, .. } | Action::Release { event_id, .. } | Action::Ignore { event_id, .. } => {
                event_id
            }
        }
    }
}

/// Why a verified body is not an event promocodes can act on. Permanent:
/// sending the same body again gives the same error.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventError {
    /// Not JSON, or not a Stripe event (no string `id` or `type`, or an
    /// `object` other than `"event"`).
    Malformed {
        /// What the parser said.
        detail: String,
    },
    /// A handled event type whose `data.object` is missing, of another kind,
    /// or lacks a field promocodes needs.
    InvalidObject {
        /// The event's `id`.
        event_id: String,
        /// The event's `type`.
        event_type: String,
        /// What is wrong.
        detail: String,
    },
    /// The amount of a capture cannot be read as money.
    Amount {
        /// The event's `id`.
        event_id: String,
        /// Why.
        source: AmountError,
    },
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::Malformed { detail } => write!(f, "the body is not a Stripe event: {detail}"),
            EventError::InvalidObject {
                event_id,
                event_type,
                detail,
            } => write!(
                f,
                "Stripe event {event_id} ({event_type}) has an unusable data.object: {detail}"
            ),
            EventError::Amount { event_id, source } => {
                write!(f, "Stripe event {event_id} has an unusable amount: {source}")
            }
        }
    }
}

impl std::error::Error for EventError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EventError::Amount { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Reads a Stripe event (the raw, verified webhook body) into an [`Action`].
///
/// Tolerant of every field Stripe adds: only the fields named in [`Action`]
/// are read. Shapes as Stripe documents them: `{"id":"evt_..","object":"event",
/// "type":"..","data":{"object":{..}}, ..}` with a PaymentIntent (`id`,
/// `amount_received`, `currency`, `metadata`, `cancellation_reason`,
/// `last_payment_error`) or a Charge (`id`, `payment_intent`, `amount`,
/// `amount_refunded`, `refunded`, `currency`, `metadata`).
///
/// # Errors
///
/// [`EventError::Malformed`] for a body that is not an event,
/// [`EventError::InvalidObject`] for a handled type with an unusable object,
/// [`EventError::Amount`] for a capture whose amount is not money. An event
/// that is fine but not for promocodes is `Ok(Action::Ignore { .. })`.
pub fn parse_event(body: &[u8]) -> Result<Action, EventError> {
    // JSON is UTF-8 (RFC 8259); reading a str shares the core's JSON parser.
    let text = std::str::from_utf8(body).map_err(|err| EventError::Malformed {
        detail: format!("it is not UTF-8 ({err})"),
    })?;
    let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|err| EventError::Malformed {
        detail: err.to_string(),
    })?;
    if let Some(object) = envelope.object.as_deref().filter(|object| *object != "event") {
        return Err(EventError::Malformed {
            detail: format!("its object is \"{object}\", not \"event\""),
        });
    }
    match envelope.kind.as_str() {
        "payment_intent.succeeded" => payment_succeeded(Event::read(envelope, "payment_intent")?),
        "payment_intent.canceled" | "payment_intent.payment_failed" => {
            payment_abandoned(Event::read(envelope, "payment_intent")?)
        }
        "charge.refunded" => charge_refunded(Event::read(envelope, "charge")?),
        other => Ok(Action::Ignore {
            why: format!("event type {other} is not one promocodes acts on"),
            event_id: envelope.id,
        }),
    }
}

/// A Stripe event: what tells the events apart, and `data` left unread
/// until the type says it matters (an unhandled type's object is never read).
#[derive(Deserialize)]
struct Envelope<'a> {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    object: Option<String>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct EventData {
    #[serde(default)]
    object: Option<StripeObject>,
}

/// The fields read from a PaymentIntent or a Charge; which ones are required
/// depends on the event type (`Event::required`).
#[derive(Deserialize)]
struct StripeObject {
    object: Option<String>,
    id: Option<String>,
    amount: Option<i64>,
    amount_received: Option<i64>,
    amount_refunded: Option<i64>,
    refunded: Option<bool>,
    currency: Option<String>,
    payment_intent: Option<String>,
    metadata: Option<Metadata>,
    cancellation_reason: Option<String>,
    last_payment_error: Option<PaymentError>,
}

/// The metadata keys promocodes reads ([`META_PROMO_CODE`], [`META_CUSTOMER`],
/// [`META_BASKET`]); any other key is left alone.
#[derive(Deserialize)]
struct Metadata {
    promo_code: Option<String>,
    customer: Option<String>,
    promo_basket: Option<String>,
}

#[derive(Deserialize)]
struct PaymentError {
    code: Option<String>,
    decline_code: Option<String>,
}

/// A handled event with its `data.object` read.
struct Event {
    id: String,
    kind: String,
    object: StripeObject,
}

impl Event {
    /// Reads `data.object`, which must be there and of the Stripe `object` kind expected.
    fn read(envelope: Envelope<'_>, kind: &str) -> Result<Event, EventError> {
        let invalid = |detail: String| EventError::InvalidObject {
            event_id: envelope.id.clone(),
            event_type: envelope.kind.clone(),
            detail,
        };
        let data = match envelope.data {
            Some(raw) => serde_json::from_str::<EventData>(raw.get()).map_err(|err| invalid(err.to_string()))?,
            None => EventData { object: None },
        };
        let object = data
            .object
            .ok_or_else(|| invalid("the event has no data.object".to_owned()))?;
        if let Some(found) = object.object.as_deref().filter(|found| *found != kind) {
            return Err(invalid(format!("it is a {found}, not a {kind}")));
        }
        let event = Event {
            id: envelope.id,
            kind: envelope.kind,
            object,
        };
        Ok(event)
    }

    /// A field of the object that this event type needs: present and not null.
    fn required<T>(&mut self, field: &str, take: impl FnOnce(&mut StripeObject) -> Option<T>) -> Result<T, EventError> {
        take(&mut self.object).ok_or_else(|| EventError::InvalidObject {
            event_id: self.id.clone(),
            event_type: self.kind.clone(),
            detail: format!("it has no {field}"),
        })
    }

    /// A metadata value of the object, when present and not empty.
    fn metadata(&self, key: impl Fn(&Metadata) -> &Option<String>) -> Option<String> {
        let metadata = self.object.metadata.as_ref()?;
        key(metadata).as_ref().filter(|value| !value.is_empty()).cloned()
    }

    fn ignore(self, why: String) -> Action {
        Action::Ignore { event_id: self.id, why }
    }
}

fn payment_succeeded(mut event: Event) -> Result<Action, EventError> {
    let payment_intent = event.required("id", |object| object.id.take())?;
    let amount_received = event.required("amount_received", |object| object.amount_received)?;
    let currency = event.required("currency", |object| object.currency.take())?;
    let Some(code) = event.metadata(|m| &m.promo_code) else {
        return Ok(no_promo_code(event, &payment_intent));
    };
    let charged_major = major_amount(amount_received, &currency).map_err(|source| EventError::Amount {
        event_id: event.id.clone(),
        source,
    })?;
    Ok(Action::Capture {
        customer: event.metadata(|m| &m.customer),
        basket_json: event.metadata(|m| &m.promo_basket),
        event_id: event.id,
        payment_intent,
        code,
        charged_major,
        currency: currency.to_ascii_uppercase(),
    })
}

fn payment_abandoned(mut event: Event) -> Result<Action, EventError> {
    let payment_intent = event.required("id", |object| object.id.take())?;
    let Some(code) = event.metadata(|m| &m.promo_code) else {
        return Ok(no_promo_code(event, &payment_intent));
    };
    let detail = if event.kind == "payment_intent.canceled" {
        event
            .object
            .cancellation_reason
            .take()
            .filter(|reason| !reason.is_empty())
    } else {
        event.object.last_payment_error.take().and_then(PaymentError::describe)
    };
    Ok(Action::Release {
        reason: with_detail(&event.kind, detail),
        event_id: event.id,
        payment_intent,
        code: Some(code),
        holds_only: true,
    })
}

impl PaymentError {
    /// `card_declined (insufficient_funds)`, `card_declined`, or nothing.
    fn describe(self) -> Option<String> {
        let code = self.code.filter(|code| !code.is_empty());
        let decline = self.decline_code.filter(|decline| !decline.is_empty());
        match (code, decline) {
            (Some(code), Some(decline)) => Some(format!("{code} ({decline})")),
            (code, decline) => code.or(decline),
        }
    }
}

fn with_detail(kind: &str, detail: Option<String>) -> String {
    match detail {
        Some(detail) => format!("{kind}: {detail}"),
        None => kind.to_owned(),
    }
}

fn no_promo_code(event: Event, payment_intent: &str) -> Action {
    let why =
        format!("payment_intent {payment_intent} has no metadata.{META_PROMO_CODE}; nothing to do for promocodes");
    event.ignore(why)
}

fn charge_refunded(mut event: Event) -> Result<Action, EventError> {
    let charge = event.required("id", |object| object.id.take())?;
    let amount = event.required("amount", |object| object.amount)?;
    let amount_refunded = event.required("amount_refunded", |object| object.amount_refunded)?;
    let currency = event.required("currency", |object| object.currency.take())?;
    let Some(payment_intent) = event.object.payment_intent.take().filter(|id| !id.is_empty()) else {
        let why = format!("charge {charge} has no payment_intent; promocodes captures from PaymentIntents only");
        return Ok(event.ignore(why));
    };
    if !(event.object.refunded == Some(true) || amount_refunded >= amount) {
        let why = format!(
            "partial refund of {} of {} on charge {charge}; nothing released",
            amount_for_log(amount_refunded, &currency),
            amount_for_log(amount, &currency),
        );
        return Ok(event.ignore(why));
    }
    Ok(Action::Release {
        reason: format!("{}: charge {charge} refunded in full", event.kind),
        code: event.metadata(|m| &m.promo_code),
        event_id: event.id,
        payment_intent,
        holds_only: false,
    })
}

/// `4.00 EUR`, or Stripe's own figures when they are not money.
fn amount_for_log(minor: i64, currency: &str) -> String {
    match major_amount(minor, currency) {
        Ok(major) => format!("{major} {}", currency.to_ascii_uppercase()),
        Err(_) => format!("{minor} {currency} (Stripe minor units)"),
    }
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::super::vector::*;
    use super::*;
    use serde_json::{json, Value};

    fn event(kind: &str, object: Value) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "id": "evt_1",
            "object": "event",
            "api_version": "2024-06-20",
            "created": 1_700_000_000,
            "livemode": false,
            "pending_webhooks": 1,
            "request": { "id": null, "idempotency_key": null },
            "type": kind,
            "data": { "object": object }
        }))
        .unwrap()
    }

    fn intent(status: &str, metadata: Value) -> Value {
        json!({
            "id": "pi_1",
            "object": "payment_intent",
            "amount": 7200,
            "amount_capturable": 0,
            "amount_details": { "tip": {} },
            "amount_received": if status == "succeeded" { 7200 } else { 0 },
            "application": null,
            "automatic_payment_methods": { "enabled": true },
            "canceled_at": null,
            "cancellation_reason": null,
            "capture_method": "automatic",
            "client_secret": "pi_1_secret_x",
            "confirmation_method": "automatic",
            "created": 1_699_999_000,
            "currency": "eur",
            "customer": "cus_1",
            "description": null,
            "last_payment_error": null,
            "latest_charge": "ch_1",
            "livemode": false,
            "metadata": metadata,
            "next_action": null,
            "payment_method": "pm_1",
            "payment_method_types": ["card"],
            "status": status
        })
    }

    fn charge(amount: i64, amount_refunded: i64, refunded: bool, metadata: Value) -> Value {
        json!({
            "id": "ch_1",
            "object": "charge",
            "amount": amount,
            "amount_captured": amount,
            "amount_refunded": amount_refunded,
            "balance_transaction": "txn_1",
            "captured": true,
            "created": 1_699_999_100,
            "currency": "eur",
            "customer": "cus_1",
            "livemode": false,
            "metadata": metadata,
            "paid": true,
            "payment_intent": "pi_1",
            "payment_method": "pm_1",
            "payment_method_details": { "card": { "brand": "visa", "last4": "4242" }, "type": "card" },
            "refunded": refunded,
            "status": "succeeded"
        })
    }

    fn parse(kind: &str, object: Value) -> Result<Action, EventError> {
        parse_event(&event(kind, object))
    }

    #[test]
    fn a_succeeded_payment_with_a_code_is_a_capture() {
        let metadata = json!({
            "promo_code": "SUMMER24",
            "customer": "alice",
            "promo_basket": "{\"lines\":[]}",
            "order": "o-17"
        });
        let action = parse("payment_intent.succeeded", intent("succeeded", metadata)).unwrap();
        assert_eq!(
            action,
            Action::Capture {
                event_id: "evt_1".to_owned(),
                payment_intent: "pi_1".to_owned(),
                code: "SUMMER24".to_owned(),
                customer: Some("alice".to_owned()),
                basket_json: Some("{\"lines\":[]}".to_owned()),
                charged_major: "72.00".to_owned(),
                currency: "EUR".to_owned(),
            }
        );
        assert_eq!(action.event_id(), "evt_1");
    }

    #[test]
    fn the_capture_charges_amount_received_not_amount() {
        let mut object = intent("succeeded", json!({ "promo_code": "SUMMER24" }));
        object["amount_received"] = json!(5000);
        let Action::Capture {
            charged_major,
            customer,
            basket_json,
            ..
        } = parse("payment_intent.succeeded", object).unwrap()
        else {
            panic!("not a capture");
        };
        assert_eq!(charged_major, "50.00");
        assert_eq!((customer, basket_json), (None, None));
    }

    #[test]
    fn the_signature_vector_is_a_capture_too() {
        let Action::Capture {
            code,
            charged_major,
            currency,
            ..
        } = parse_event(VECTOR_BODY.as_bytes()).unwrap()
        else {
            panic!("not a capture");
        };
        assert_eq!(
            (code.as_str(), charged_major.as_str(), currency.as_str()),
            ("SUMMER24", "72.00", "EUR")
        );
    }

    #[test]
    fn payments_without_a_code_are_ignored() {
        for metadata in [
            json!({}),
            json!({ "promo_code": "" }),
            json!(null),
            json!({ "order": "o-1" }),
        ] {
            for kind in [
                "payment_intent.succeeded",
                "payment_intent.canceled",
                "payment_intent.payment_failed",
            ] {
                let status = if kind == "payment_intent.succeeded" {
                    "succeeded"
                } else {
                    "canceled"
                };
                let action = parse(kind, intent(status, metadata.clone())).unwrap();
                assert_eq!(
                    action,
                    Action::Ignore {
                        event_id: "evt_1".to_owned(),
                        why: "payment_intent pi_1 has no metadata.promo_code; nothing to do for promocodes".to_owned()
                    },
                    "{kind} {metadata}"
                );
            }
        }
        let mut no_metadata = intent("succeeded", json!({}));
        no_metadata.as_object_mut().unwrap().remove("metadata");
        assert!(matches!(
            parse("payment_intent.succeeded", no_metadata),
            Ok(Action::Ignore { .. })
        ));
    }

    #[test]
    fn a_capture_in_a_special_currency() {
        let mut object = intent("succeeded", json!({ "promo_code": "X" }));
        object["currency"] = json!("isk");
        object["amount_received"] = json!(990_000);
        let Action::Capture {
            charged_major,
            currency,
            ..
        } = parse("payment_intent.succeeded", object.clone()).unwrap()
        else {
            panic!("not a capture");
        };
        assert_eq!((charged_major.as_str(), currency.as_str()), ("9900", "ISK"));
        object["amount_received"] = json!(990_050);
        assert_eq!(
            parse("payment_intent.succeeded", object),
            Err(EventError::Amount {
                event_id: "evt_1".to_owned(),
                source: AmountError::NotRepresentable {
                    minor: 990_050,
                    currency: "ISK".to_owned(),
                    stripe_places: 2,
                    iso_places: 0
                }
            })
        );
    }

    #[test]
    fn a_canceled_payment_releases_with_the_cancellation_reason() {
        let mut object = intent("canceled", json!({ "promo_code": "SUMMER24" }));
        object["cancellation_reason"] = json!("requested_by_customer");
        assert_eq!(
            parse("payment_intent.canceled", object.clone()).unwrap(),
            Action::Release {
                event_id: "evt_1".to_owned(),
                payment_intent: "pi_1".to_owned(),
                code: Some("SUMMER24".to_owned()),
                reason: "payment_intent.canceled: requested_by_customer".to_owned(),
                holds_only: true,
            }
        );
        object["cancellation_reason"] = json!(null);
        let Action::Release { reason, .. } = parse("payment_intent.canceled", object).unwrap() else {
            panic!("not a release");
        };
        assert_eq!(reason, "payment_intent.canceled");
    }

    #[test]
    fn a_failed_payment_releases_with_the_decline() {
        let mut object = intent("requires_payment_method", json!({ "promo_code": "SUMMER24" }));
        object["last_payment_error"] = json!({
            "code": "card_declined",
            "decline_code": "insufficient_funds",
            "message": "Your card has insufficient funds.",
            "type": "card_error"
        });
        let Action::Release { reason, code, .. } = parse("payment_intent.payment_failed", object.clone()).unwrap()
        else {
            panic!("not a release");
        };
        assert_eq!(
            reason,
            "payment_intent.payment_failed: card_declined (insufficient_funds)"
        );
        assert_eq!(code.as_deref(), Some("SUMMER24"));
        object["last_payment_error"] = json!({ "code": "expired_card", "type": "card_error" });
        let Action::Release { reason, .. } = parse("payment_intent.payment_failed", object.clone()).unwrap() else {
            panic!("not a release");
        };
        assert_eq!(reason, "payment_intent.payment_failed: expired_card");
        object["last_payment_error"] = json!(null);
        let Action::Release { reason, .. } = parse("payment_intent.payment_failed", object).unwrap() else {
            panic!("not a release");
        };
        assert_eq!(reason, "payment_intent.payment_failed");
    }

    #[test]
    fn a_full_refund_releases_with_the_charge_code() {
        let expected = Action::Release {
            event_id: "evt_1".to_owned(),
            payment_intent: "pi_1".to_owned(),
            code: Some("SUMMER24".to_owned()),
            reason: "charge.refunded: charge ch_1 refunded in full".to_owned(),
            holds_only: false,
        };
        let by_flag = charge(7200, 7200, true, json!({ "promo_code": "SUMMER24" }));
        assert_eq!(parse("charge.refunded", by_flag).unwrap(), expected);
        let by_amount = charge(7200, 7200, false, json!({ "promo_code": "SUMMER24" }));
        assert_eq!(parse("charge.refunded", by_amount).unwrap(), expected);
    }

    #[test]
    fn previous_attributes_and_unknown_envelope_fields_are_tolerated() {
        let mut event: Value =
            serde_json::from_slice(&event("charge.refunded", charge(7200, 7200, true, json!({})))).unwrap();
        event["data"]["previous_attributes"] = json!({ "amount_refunded": 0, "refunded": false });
        event["context"] = json!("acct_1");
        let action = parse_event(&serde_json::to_vec(&event).unwrap()).unwrap();
        assert!(matches!(action, Action::Release { code: None, .. }), "{action:?}");
    }

    #[test]
    fn a_full_refund_without_a_code_on_the_charge_releases_by_payment_intent() {
        let action = parse("charge.refunded", charge(7200, 7200, true, json!({}))).unwrap();
        let Action::Release {
            payment_intent, code, ..
        } = action
        else {
            panic!("not a release");
        };
        assert_eq!((payment_intent.as_str(), code), ("pi_1", None));
    }

    #[test]
    fn a_partial_refund_releases_nothing() {
        let action = parse(
            "charge.refunded",
            charge(7200, 400, false, json!({ "promo_code": "SUMMER24" })),
        )
        .unwrap();
        assert_eq!(
            action,
            Action::Ignore {
                event_id: "evt_1".to_owned(),
                why: "partial refund of 4.00 EUR of 72.00 EUR on charge ch_1; nothing released".to_owned(),
            }
        );
    }

    #[test]
    fn a_refunded_charge_without_a_payment_intent_is_ignored() {
        let mut object = charge(7200, 7200, true, json!({ "promo_code": "SUMMER24" }));
        object["payment_intent"] = json!(null);
        let Action::Ignore { why, .. } = parse("charge.refunded", object).unwrap() else {
            panic!("not ignored");
        };
        assert_eq!(
            why,
            "charge ch_1 has no payment_intent; promocodes captures from PaymentIntents only"
        );
    }

    #[test]
    fn other_event_types_are_ignored() {
        for kind in [
            "payment_intent.created",
            "charge.succeeded",
            "charge.refund.updated",
            "customer.created",
        ] {
            let action = parse(kind, json!({ "id": "x", "object": "whatever" })).unwrap();
            assert_eq!(
                action,
                Action::Ignore {
                    event_id: "evt_1".to_owned(),
                    why: format!("event type {kind} is not one promocodes acts on"),
                }
            );
        }
        // An unhandled type needs no data at all.
        let bare = parse_event(br#"{"id":"evt_2","type":"ping"}"#).unwrap();
        assert_eq!(bare.event_id(), "evt_2");
    }

    #[test]
    fn a_body_that_is_not_an_event_is_malformed() {
        for body in [
            &b"not json"[..],
            b"",
            b"[]",
            b"{}",
            br#"{"id":"evt_1"}"#,
            br#"{"type":"charge.refunded"}"#,
            br#"{"id":7,"type":"charge.refunded"}"#,
            br#"{"id":"ch_1","object":"charge","type":"charge.refunded"}"#,
            b"{\"id\":\"evt_\xff\",\"type\":\"ping\"}",
        ] {
            assert!(
                matches!(parse_event(body), Err(EventError::Malformed { .. })),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
    }

    fn invalid_detail(result: Result<Action, EventError>) -> String {
        match result {
            Err(EventError::InvalidObject { detail, .. }) => detail,
            other => panic!("expected InvalidObject, got {other:?}"),
        }
    }

    #[test]
    fn a_handled_event_with_an_unusable_object_is_invalid() {
        let mut no_amount = intent("succeeded", json!({ "promo_code": "X" }));
        no_amount.as_object_mut().unwrap().remove("amount_received");
        assert!(invalid_detail(parse("payment_intent.succeeded", no_amount)).contains("amount_received"));

        let mut null_currency = intent("succeeded", json!({ "promo_code": "X" }));
        null_currency["currency"] = json!(null);
        invalid_detail(parse("payment_intent.succeeded", null_currency));

        let fractional = {
            let mut object = intent("succeeded", json!({ "promo_code": "X" }));
            object["amount_received"] = json!(72.5);
            object
        };
        invalid_detail(parse("payment_intent.succeeded", fractional));

        let mut no_refunded_amount = charge(7200, 7200, true, json!({}));
        no_refunded_amount.as_object_mut().unwrap().remove("amount_refunded");
        assert!(invalid_detail(parse("charge.refunded", no_refunded_amount)).contains("amount_refunded"));

        let wrong_kind = parse("payment_intent.succeeded", charge(7200, 0, false, json!({})));
        assert_eq!(invalid_detail(wrong_kind), "it is a charge, not a payment_intent");

        let number_metadata = intent("canceled", json!({ "promo_code": 17 }));
        invalid_detail(parse("payment_intent.canceled", number_metadata));

        let no_data = parse_event(br#"{"id":"evt_3","object":"event","type":"charge.refunded"}"#);
        assert_eq!(
            no_data,
            Err(EventError::InvalidObject {
                event_id: "evt_3".to_owned(),
                event_type: "charge.refunded".to_owned(),
                detail: "the event has no data.object".to_owned(),
            })
        );
    }

    #[test]
    fn event_errors_read_as_sentences() {
        let err = parse_event(br#"{"id":"evt_3","object":"event","type":"charge.refunded"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Stripe event evt_3 (charge.refunded) has an unusable data.object: the event has no data.object"
        );
        let amount = EventError::Amount {
            event_id: "evt_4".to_owned(),
            source: AmountError::UnknownCurrency { code: "XYZ".to_owned() },
        };
        assert_eq!(
            amount.to_string(),
            "Stripe event evt_4 has an unusable amount: XYZ is not an ISO 4217 currency with minor units that \
             promocodes knows"
        );
        assert!(std::error::Error::source(&amount).is_some());
    }

    #[test]
    fn the_handled_types_are_the_ones_parse_event_acts_on() {
        for kind in HANDLED_EVENT_TYPES {
            let object = if kind.starts_with("charge.") {
                charge(7200, 7200, true, json!({ "promo_code": "X" }))
            } else {
                intent("succeeded", json!({ "promo_code": "X" }))
            };
            let action = parse(kind, object).unwrap();
            assert!(!matches!(action, Action::Ignore { .. }), "{kind}: {action:?}");
        }
    }
}
