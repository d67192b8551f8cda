//! The shop's webhook endpoints (`/v1/webhooks/{id}`): the request that
//! defines one, the answers, and the catalog's calls that keep them. See
//! [the module](super).

use serde::{Deserialize, Serialize};

use super::EventType;
use crate::Timestamp;

/// `PUT /v1/webhooks/{id}`'s body: where to send which events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebhookRequest {
    /// Where the events are sent: `https://` (or `http://` for a host in `WEBHOOK_ALLOW_HTTP`).
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 2048)))]
    pub url: String,
    /// The event types it receives (at least one).
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub events: Vec<EventType>,
    /// A note for the operator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 500)))]
    pub description: Option<String>,
}

/// One webhook endpoint as the admin API shows it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct WebhookEndpoint {
    /// Its id (the path's).
    pub id: String,
    /// Where the events are sent.
    pub url: String,
    /// The event types it receives, in the documentation's order.
    pub events: Vec<EventType>,
    /// The operator's note, if any.
    #[serde(default)]
    pub description: Option<String>,
    /// When it was first defined.
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub created_at: Timestamp,
    /// Why it receives nothing any more (it answered 410 Gone), or null while it is enabled.
    /// A `PUT` enables it again.
    #[serde(default)]
    pub disabled: Option<String>,
    /// Until when the secret before the last rotation signs too, or null.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Timestamp>"))]
    pub previous_secret_until: Option<Timestamp>,
}

/// The answer that shows a signing secret, once: `PUT /v1/webhooks/{id}`
/// creating the endpoint (201), or `POST /v1/webhooks/{id}/rotate`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct WebhookWithSecret {
    /// The endpoint.
    #[serde(flatten)]
    pub endpoint: WebhookEndpoint,
    /// The signing secret, `whsec_` and the key in base64: shown here only.
    pub secret: String,
}

/// `GET /v1/webhooks`: every endpoint, in id order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct WebhookList {
    /// The endpoints (at most 16).
    pub webhooks: Vec<WebhookEndpoint>,
}

/// The catalog's call that defines or replaces an endpoint: the checked
/// request, a new secret (kept only when the endpoint is new) and the time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookWrite {
    /// Its id.
    pub id: String,
    /// The checked request.
    pub request: WebhookRequest,
    /// A fresh secret, `whsec_...`: the endpoint's if it is new.
    pub secret: String,
    /// Now, as the Worker read it.
    pub now: Timestamp,
    /// The most endpoints there may be.
    pub max: u32,
}

/// The catalog's answer to a [`WebhookWrite`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WebhookWritten {
    /// A new endpoint, with its secret.
    Created(WebhookWithSecret),
    /// An endpoint replaced (its secret kept).
    Replaced(WebhookEndpoint),
    /// Nothing written: there are as many endpoints as may be.
    Full,
}

/// The catalog's call naming one endpoint: `{"id": "shop"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookId {
    /// Its id.
    pub id: String,
}

/// The catalog's call that rotates an endpoint's secret: the old one signs
/// too until `until`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookRotation {
    /// Its id.
    pub id: String,
    /// The new secret, `whsec_...`.
    pub secret: String,
    /// Until when the old one signs too.
    pub until: Timestamp,
}

/// The catalog's call that disables an endpoint (it answered 410 Gone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookDisable {
    /// Its id.
    pub id: String,
    /// Why, for the operator.
    pub reason: String,
}

/// An endpoint as a code's object delivers to it: the catalog's answer to
/// its delivery list, with the secrets that sign now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookTarget {
    /// Its id.
    pub id: String,
    /// Where to send.
    pub url: String,
    /// What it receives.
    pub events: Vec<EventType>,
    /// When it was defined: it receives the events written from then on.
    pub created_at: Timestamp,
    /// The secrets that sign (the newest first), `whsec_...`.
    pub secrets: Vec<String>,
}

/// Where one event's delivery to one endpoint stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    /// Not delivered yet: the next try is due at `next_try`.
    Pending,
    /// The endpoint answered 2xx.
    Delivered,
    /// Given up after the last retry (or a try by hand that failed): sent again only by hand.
    Failed,
}

/// One event's delivery to one endpoint: its tries and what came of the last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct DeliveryRecord {
    /// The event's id: its `webhook-id`, the same on every try.
    pub event_id: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// When its write committed.
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub at: Timestamp,
    /// Tries so far.
    pub attempts: u32,
    /// Where it stands.
    pub state: DeliveryState,
    /// The status the endpoint answered last, or null (no answer: see `error`).
    pub status: Option<u16>,
    /// What went wrong last, or null.
    pub error: Option<String>,
    /// When it was last tried.
    #[cfg_attr(feature = "schema", schemars(with = "Option<Timestamp>"))]
    pub tried_at: Option<Timestamp>,
    /// When the next try is due, while pending.
    #[cfg_attr(feature = "schema", schemars(with = "Option<Timestamp>"))]
    pub next_try: Option<Timestamp>,
    /// The object that keeps the event (a code, or `campaign:<id>`).
    pub object: String,
    /// Its position in that object's events.
    pub seq: i64,
}

/// `GET /v1/webhooks/{id}/deliveries`: a page of an endpoint's deliveries,
/// in the order of their first try.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct DeliveryList {
    /// The deliveries on this page.
    pub deliveries: Vec<DeliveryRecord>,
    /// The `after` of the next page, or null on the last.
    pub next: Option<String>,
}

/// The catalog's call for a page of an endpoint's deliveries (to the endpoint's own log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryPage {
    /// Only deliveries after this position (the previous page's `next`).
    pub after: i64,
    /// At most this many.
    pub limit: u32,
}

/// The catalog's call naming one event's delivery in an endpoint's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRef {
    /// The event's id.
    pub event_id: String,
}

/// A code object's call: send the event at `seq` to the endpoint `endpoint` again, now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryDelivery {
    /// The endpoint's id.
    pub endpoint: String,
    /// The event's position in the object.
    pub seq: i64,
}
