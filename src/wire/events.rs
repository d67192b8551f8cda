//! The events a code's or a campaign's writes send to the shop's webhook
//! endpoints (`{"type", "timestamp", "data"}`, Standard Webhooks' payload
//! shape), and the endpoints' own calls and answers. See [the module](super).

use serde::{Deserialize, Serialize};

use crate::{Code, CustomerId, IdempotencyKey, Money, Quote, ReservationState, Timestamp, UsageInCurrency};

/// What an event says happened; its JSON name is the payload's `type`.
///
/// # Example
///
/// ```
/// use promocodes::wire::EventType;
///
/// assert_eq!(EventType::BudgetThreshold.as_str(), "budget.threshold");
/// assert_eq!(EventType::parse("code.exhausted"), Some(EventType::CodeExhausted));
/// assert_eq!(EventType::parse("code.deleted"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum EventType {
    /// A use was held while the buyer pays.
    #[serde(rename = "redemption.held")]
    RedemptionHeld,
    /// A use was captured (spent).
    #[serde(rename = "redemption.captured")]
    RedemptionCaptured,
    /// A held or captured use was given back.
    #[serde(rename = "redemption.released")]
    RedemptionReleased,
    /// A hold's time ran out before it was captured or released.
    #[serde(rename = "redemption.expired")]
    RedemptionExpired,
    /// The code has no use left under its caps or its budget.
    #[serde(rename = "code.exhausted")]
    CodeExhausted,
    /// The spend crossed 50 %, 80 % or 100 % of the budget, upwards.
    #[serde(rename = "budget.threshold")]
    BudgetThreshold,
    /// The campaign has no use left under its shared cap or its budget.
    #[serde(rename = "campaign.exhausted")]
    CampaignExhausted,
    /// The code's definition changed, or it was switched on or off, archived or restored.
    #[serde(rename = "code.updated")]
    CodeUpdated,
    /// The same for a campaign.
    #[serde(rename = "campaign.updated")]
    CampaignUpdated,
}

impl EventType {
    /// Every event type, in the order the documentation lists them.
    pub const ALL: [EventType; 9] = [
        EventType::RedemptionHeld,
        EventType::RedemptionCaptured,
        EventType::RedemptionReleased,
        EventType::RedemptionExpired,
        EventType::CodeExhausted,
        EventType::BudgetThreshold,
        EventType::CampaignExhausted,
        EventType::CodeUpdated,
        EventType::CampaignUpdated,
    ];

    /// Its JSON name: `"redemption.held"`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::RedemptionHeld => "redemption.held",
            EventType::RedemptionCaptured => "redemption.captured",
            EventType::RedemptionReleased => "redemption.released",
            EventType::RedemptionExpired => "redemption.expired",
            EventType::CodeExhausted => "code.exhausted",
            EventType::BudgetThreshold => "budget.threshold",
            EventType::CampaignExhausted => "campaign.exhausted",
            EventType::CodeUpdated => "code.updated",
            EventType::CampaignUpdated => "campaign.updated",
        }
    }

    /// The type named `name`, if there is one.
    pub fn parse(name: &str) -> Option<EventType> {
        EventType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// One event as the shop receives it: `{"type", "timestamp", "data"}`, at
/// most [`EventPayload::MAX_BYTES`] of JSON (see [`EventPayload::to_body`]).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct EventPayload {
    /// What happened.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// When the write that caused it committed.
    pub timestamp: Timestamp,
    /// The code (and campaign), the key, the quote and the usage after the write.
    pub data: EventData,
}

/// An event's `data`: what the write was about; each field is there when
/// the event's type has it.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct EventData {
    /// The code (for `campaign.*` events, the campaign's id).
    pub code: String,
    /// The campaign the code belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign: Option<Code>,
    /// The use's idempotency key (`redemption.*`, and the write that exhausted or crossed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<IdempotencyKey>,
    /// Who redeemed, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer: Option<CustomerId>,
    /// The use's state after the write (`redemption.*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<ReservationState>,
    /// What the use charged. Left out (and `quote_omitted` set) when the
    /// payload would pass [`EventPayload::MAX_BYTES`] with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<Quote>,
    /// True when the quote was left out for the size limit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub quote_omitted: bool,
    /// The counts right after the write (`discounted` as money in the quote's currency).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<crate::UsageCounts>"))]
    pub usage: Option<UsageInCurrency>,
    /// `budget.threshold`: the percentage crossed (50, 80 or 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<u8>,
    /// `budget.threshold`: what the budget has given after the write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spent: Option<Money>,
    /// `budget.threshold`: the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Money>,
    /// `code.updated`, `campaign.updated`: what changed (`defined`,
    /// `switched_on`, `switched_off`, `archived`, `restored`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<String>,
}

impl EventPayload {
    /// The most bytes of JSON a payload may have (20 kB).
    pub const MAX_BYTES: usize = 20 * 1024;

    /// The payload as the JSON body sent to the shop, at most
    /// [`MAX_BYTES`](EventPayload::MAX_BYTES): a quote too large to fit (a
    /// basket of many lines) is left out and `quote_omitted` says so.
    ///
    /// # Errors
    ///
    /// A [`serde_json::Error`] if a value fails to serialize (none of the
    /// core's do).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::wire::{EventData, EventPayload, EventType};
    ///     ///
    /// let payload = EventPayload {
    ///     kind: EventType::CodeUpdated,
    ///     timestamp: "2026-12-06T10:00:00Z".parse()?,
    ///     data: EventData { code: "SAVE10".into(), change: Some("switched_off".into()), ..EventData::default() },
    /// };
    /// assert_eq!(
    ///     payload.to_body()?,
    ///     r#"{"type":"code.updated","timestamp":"2026-12-06T10:00:00Z","data":{"code":"SAVE10","change":"switched_off"}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_body(&self) -> Result<String, serde_json::Error> {
        let body = serde_json::to_string(self)?;
        if body.len() <= EventPayload::MAX_BYTES || self.data.quote.is_none() {
            return Ok(body);
        }
        let mut smaller = self.clone();
        smaller.data.quote = None;
        smaller.data.quote_omitted = true;
        serde_json::to_string(&smaller)
    }
}
