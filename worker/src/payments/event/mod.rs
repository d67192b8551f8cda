//! Stripe's events: [`parse_event`] reads a verified event into an [`Action`]:
//! capture the code of a paid PaymentIntent, release it, or ignore the event.

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use promocodes::{Code, Stack};

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
/// The metadata key that names several codes in one basket, comma-separated
/// (`"MUGS20,SAVE10"`; spaces around a code are trimmed): a stack, captured,
/// released and refunded as one. An event names either [`META_PROMO_CODE`] or
/// this, not both.
pub const META_PROMO_CODES: &str = "promo_codes";
/// The metadata key that names the customer (optional).
pub const META_CUSTOMER: &str = "customer";
/// The metadata key that carries the basket as a JSON string (optional).
/// Stripe limits a metadata value to 500 characters (docs.stripe.com/metadata:
/// "value: 500-character limit"), so the basket must fit in 500.
pub const META_BASKET: &str = "promo_basket";

/// The code or codes a payment's metadata names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Promo {
    /// `metadata.promo_code`: one code, as Stripe has it (the core validates it).
    Code(String),
    /// `metadata.promo_codes`: a stack of 1 to [`Stack::MAX_CODES`] codes,
    /// each normalised and listed once, in the order given.
    Stack(Vec<Code>),
}

/// What a verified Stripe event asks of promocodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `payment_intent.succeeded` with `metadata.promo_code` (or
    /// `promo_codes`): record the redemption (of every code, or none). The PaymentIntent id is a natural idempotency key (Stripe
    /// may deliver one event more than once, and a PaymentIntent succeeds at
    /// most once).
    Capture {
        /// The event's `id` (`evt_...`).
        event_id: String,
        /// The PaymentIntent's `id` (`pi_...`).
        payment_intent: String,
        /// `metadata.promo_code` or `metadata.promo_codes`.
        promo: Promo,
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
        /// `metadata.promo_code` (or `promo_codes`) of the PaymentIntent
        /// (always present for the PaymentIntent events) or of the charge (may
        /// be absent, and is `None` when the charge's is malformed).
        promo: Option<Promo>,
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

/// The metadata keys promocodes reads ([`META_PROMO_CODE`], [`META_PROMO_CODES`],
/// [`META_CUSTOMER`], [`META_BASKET`]); any other key is left alone.
#[derive(Deserialize)]
struct Metadata {
    promo_code: Option<String>,
    promo_codes: Option<String>,
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

    /// The code or codes the metadata names: `Ok(None)` for neither,
    /// `Err(why)` for both at once or a malformed `promo_codes` (an empty
    /// item, a code that is not one, a code twice, more than
    /// [`Stack::MAX_CODES`]): bad metadata, ignored as a bad `promo_code` is.
    fn promo(&self) -> Result<Option<Promo>, String> {
        let one = self.metadata(|m| &m.promo_code);
        let Some(list) = self.metadata(|m| &m.promo_codes) else {
            return Ok(one.map(Promo::Code));
        };
        if one.is_some() {
            return Err(format!(
                "metadata has both {META_PROMO_CODE} and {META_PROMO_CODES}; name one code in \
                 {META_PROMO_CODE} or several in {META_PROMO_CODES}, not both"
            ));
        }
        parse_promo_codes(&list).map(|codes| Some(Promo::Stack(codes)))
    }

    fn ignore(self, why: String) -> Action {
        Action::Ignore { event_id: self.id, why }
    }
}

/// Reads `metadata.promo_codes`: codes separated by commas, each trimmed
/// and normalised, 1 to [`Stack::MAX_CODES`] of them, each once.
///
/// # Errors
///
/// A sentence for the log: an empty item, a code that is not one, a code
/// listed twice, or too many.
pub fn parse_promo_codes(list: &str) -> Result<Vec<Code>, String> {
    let items: Vec<&str> = list.split(',').collect();
    if items.len() > Stack::MAX_CODES {
        return Err(format!(
            "metadata.{META_PROMO_CODES} names {} codes; a basket takes at most {}",
            items.len(),
            Stack::MAX_CODES
        ));
    }
    let mut codes: Vec<Code> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if item.trim().is_empty() {
            return Err(format!(
                "metadata.{META_PROMO_CODES} {list:?} has an empty item (at {i})"
            ));
        }
        let code = Code::parse(item).map_err(|err| {
            format!(
                "metadata.{META_PROMO_CODES}: {:?} is not a promo code ({err})",
                item.trim()
            )
        })?;
        if codes.contains(&code) {
            return Err(format!(
                "metadata.{META_PROMO_CODES} lists {code} twice; a basket takes each code once"
            ));
        }
        codes.push(code);
    }
    Ok(codes)
}

fn payment_succeeded(mut event: Event) -> Result<Action, EventError> {
    let payment_intent = event.required("id", |object| object.id.take())?;
    let amount_received = event.required("amount_received", |object| object.amount_received)?;
    let currency = event.required("currency", |object| object.currency.take())?;
    let promo = match event.promo() {
        Ok(Some(promo)) => promo,
        Ok(None) => return Ok(no_promo_code(event, &payment_intent)),
        Err(why) => return Ok(event.ignore(why)),
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
        promo,
        charged_major,
        currency: currency.to_ascii_uppercase(),
    })
}

fn payment_abandoned(mut event: Event) -> Result<Action, EventError> {
    let payment_intent = event.required("id", |object| object.id.take())?;
    let promo = match event.promo() {
        Ok(Some(promo)) => promo,
        Ok(None) => return Ok(no_promo_code(event, &payment_intent)),
        Err(why) => return Ok(event.ignore(why)),
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
        promo: Some(promo),
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
    let why = format!(
        "payment_intent {payment_intent} has no metadata.{META_PROMO_CODE} or {META_PROMO_CODES}; nothing to do for promocodes"
    );
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
        // Only a hint (the payment index decides): a malformed one is none.
        promo: event.promo().ok().flatten(),
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
mod tests;
