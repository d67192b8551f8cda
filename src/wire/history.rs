//! A code's or a campaign's history (`GET /v1/codes/{code}/redemptions`,
//! `GET /v1/campaigns/{id}/redemptions`) and figures (`GET …/stats`), and the
//! test builds' figure writes and conformance run. See [the module](super).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{Code, CustomerId, Money, Quote, ReservationState, Timestamp, UsageCounts, UsageInCurrency};

/// One page of a code's history, oldest first (`GET /v1/codes/{code}/redemptions`).
#[derive(Debug, Clone, Serialize)]
pub struct RedemptionList {
    /// The code.
    pub code: Code,
    /// Its records on this page: holds and captures, refused payment
    /// captures, and refunds that came before their payment.
    pub redemptions: Vec<HistoryRecord>,
    /// The `after` of the next page (a `seq`, as text; for a sharded code,
    /// one position for its object and each shard, joined by `~`), or null
    /// on the last.
    pub next: Option<String>,
}

/// One page of a campaign's whole history, oldest first
/// (`GET /v1/campaigns/{id}/redemptions`): every record of every code of the
/// campaign, each with the code it came through.
#[derive(Debug, Clone, Serialize)]
pub struct CampaignRedemptionList {
    /// The campaign's id.
    pub code: Code,
    /// Its records on this page.
    pub redemptions: Vec<CampaignRecord>,
    /// The `after` of the next page (a `seq`, as text), or null on the last.
    pub next: Option<String>,
}

/// A record of a campaign's history: a code's record, with that code.
#[derive(Debug, Clone, Serialize)]
pub struct CampaignRecord {
    /// The record, as a code's history lists it.
    #[serde(flatten)]
    pub record: HistoryRecord,
    /// The code it came through.
    pub code: Code,
}

/// One record of a code's history; `state` tells which (`refused` a
/// refused payment capture; `released` without a `quote` a refund that came
/// before its payment; any other a hold or capture).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum HistoryRecord {
    /// A hold or capture, with its state at the moment of the listing.
    Redemption(Box<RecordedRedemption>),
    /// A payment capture refused after the money moved.
    Refused(RefusedPaymentCapture),
    /// A full refund that came before anything was held or captured under its payment.
    RefundBeforePayment(RefundBeforePayment),
}

impl HistoryRecord {
    /// Its position in the history (the pagination cursor).
    pub fn seq(&self) -> i64 {
        match self {
            HistoryRecord::Redemption(r) => r.seq,
            HistoryRecord::Refused(r) => r.seq,
            HistoryRecord::RefundBeforePayment(r) => r.seq,
        }
    }
}

/// One hold or capture in a code's history, with its state at the moment of the listing.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct RecordedRedemption {
    /// Its position in the code's history (the pagination cursor).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub seq: i64,
    /// The key it was recorded under, if any.
    #[cfg_attr(feature = "schema", schemars(with = "Option<crate::IdempotencyKey>"))]
    pub idempotency_key: Option<String>,
    /// `held`, `captured`, `released` or `expired`, at the moment of the listing.
    pub state: ReservationState,
    /// Who redeemed, if known.
    pub customer: Option<CustomerId>,
    /// What is charged.
    pub quote: Quote,
    /// The counts right after its last change (`discounted` as money in the quote's currency).
    #[cfg_attr(feature = "schema", schemars(with = "UsageCounts"))]
    pub usage: UsageInCurrency,
    /// When a hold stops counting.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub expires_at: Option<Timestamp>,
    /// When it was captured.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub captured_at: Option<Timestamp>,
    /// When it was released.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub released_at: Option<Timestamp>,
    /// Why it was released.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub reason: Option<String>,
    /// What it was when released: `held` or `captured`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::WasState"))]
    pub was: Option<ReservationState>,
    /// On a capture made under the key of a hold that had expired (for the
    /// hold's customer and basket): when that hold expired. The hold stays in
    /// the history, `expired`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Timestamp"))]
    pub hold_expired_at: Option<Timestamp>,
}

/// A payment capture refused after the money moved (a payment provider's
/// capture that a rule refused), recorded once per payment for the operator
/// to refund or honour.
#[derive(Debug, Clone, Serialize)]
pub struct RefusedPaymentCapture {
    /// Its position in the code's history.
    pub seq: i64,
    /// The payment's key.
    pub idempotency_key: Option<String>,
    /// Always `refused`.
    pub state: Refused,
    /// The refusal as the payment flow recorded it: `customer`, `rejection`
    /// (null when the payment's own data was unusable), `detail`, `charged`
    /// (`amount`, `currency`), `event_id`, `refused_at` and `quote` (null
    /// when the rules gave no price).
    #[serde(flatten)]
    pub refusal: serde_json::Map<String, serde_json::Value>,
}

/// The `state` of a [`RefusedPaymentCapture`]: `refused`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Refused {
    /// `refused`.
    Refused,
}

/// A full refund (`charge.refunded`) that arrived before anything was held
/// or captured under its PaymentIntent's id: recorded as released, final
/// for that PaymentIntent (a later `payment_intent.succeeded` captures nothing).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct RefundBeforePayment {
    /// Its position in the code's history.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub seq: i64,
    /// The payment's id.
    pub idempotency_key: crate::IdempotencyKey,
    /// Always `released`.
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::ReleasedState"))]
    pub state: ReservationState,
    /// The code's counts when it was recorded (unchanged by it); for a
    /// campaign's code, the campaign's, with the code's own uses in `per_code`.
    pub usage: UsageCounts,
    /// When it was recorded.
    pub released_at: Timestamp,
    /// Why (the refund's reason).
    pub reason: String,
}

/// A code's live figures (or a campaign's, every code's): since it was
/// defined, for the last hour, 24 hours and seven days (`GET …/stats`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct Stats {
    /// The code, or the campaign's id.
    pub code: Code,
    /// When it was first defined; null for a code defined before this was kept.
    #[cfg_attr(feature = "schema", schemars(with = "Option<Timestamp>"))]
    pub defined_at: Option<String>,
    /// When the figures were read.
    pub at: Timestamp,
    /// Since it was defined.
    pub total: Figures,
    /// The last hour.
    pub last_hour: Figures,
    /// The last 24 hours (to the hour: an hour counts whole once its first minute is in).
    pub last_day: Figures,
    /// The last seven days (to the hour, as `last_day`).
    pub last_week: Figures,
    /// The last hour minute by minute, oldest first: 60 entries, the last
    /// one the minute of `at` (zero figures where nothing happened).
    #[cfg_attr(feature = "schema", schemars(length(min = 60, max = 60)))]
    pub by_minute: Vec<MinuteFigures>,
    /// The last seven days hour by hour, oldest first: 168 entries, the last
    /// one the hour of `at` (zero figures where nothing happened).
    #[cfg_attr(feature = "schema", schemars(length(min = 168, max = 168)))]
    pub by_hour: Vec<HourFigures>,
}

/// One hour's figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct HourFigures {
    /// The hour's first moment.
    pub hour: Timestamp,
    /// What happened in it.
    pub figures: Figures,
}

/// One minute's figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct MinuteFigures {
    /// The minute's first moment.
    pub minute: Timestamp,
    /// What happened in it.
    pub figures: Figures,
}

/// What happened to a code in a period.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct Figures {
    /// New captures.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub captures: i64,
    /// Answers that replayed an earlier capture, hold or release.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub replays: i64,
    /// New holds.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub holds: i64,
    /// Releases of holds and captures.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub releases: i64,
    /// Holds that expired before they were captured or released.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub expired: i64,
    /// Requests that lost every compare-and-set attempt (409).
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub conflicts: i64,
    /// Quotes priced.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub quotes: i64,
    /// Tries of the code the checkout page reported (`POST /v1/codes/{code}/tries`
    /// with `{}`: a buyer typed it and the page looked it up); the refusals
    /// it then showed are in `rejections.page`.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub tries: i64,
    /// Refusals by rejection code, per operation.
    pub rejections: Rejections,
    /// The discounts of new captures in the period, in the code's currency;
    /// left out for a code without a currency of its own. What a budget has
    /// spent is `discounted` less `returned` (held uses aside).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Money"))]
    pub discounted: Option<Money>,
    /// The discounts of captures released in the period, in the code's
    /// currency; left out for a code without a currency of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Money"))]
    pub returned: Option<Money>,
}

/// Refusals by rejection code, per operation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(inline, deny_unknown_fields))]
pub struct Rejections {
    /// On `POST /v1/quotes`.
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::RejectionCounts"))]
    pub quotes: BTreeMap<String, i64>,
    /// On `POST /v1/holds`.
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::RejectionCounts"))]
    pub holds: BTreeMap<String, i64>,
    /// On `POST /v1/captures` (and the payment provider's captures).
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::RejectionCounts"))]
    pub captures: BTreeMap<String, i64>,
    /// Shown by the checkout page, as it reported them (`POST /v1/codes/{code}/tries`):
    /// refusals the browser priced, which no quote of the Worker's counts.
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::RejectionCounts"))]
    pub page: BTreeMap<String, i64>,
}

/// Test builds only: when an instance of a code's object wrote the code's
/// figures, and how many counted events wait in memory.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct FigureWrites {
    /// The code.
    pub code: Code,
    /// How many times this instance of the code's object wrote figures to SQLite.
    pub writes: usize,
    /// When, in Unix milliseconds (the object's clock), oldest first.
    pub written_at: Vec<i64>,
    /// Events counted in memory, not yet written.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub pending: i64,
}

/// Test builds only: the store conformance suite passed in a code's object.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct Conformance {
    /// Always `passed` (a failed check fails the request).
    #[cfg_attr(feature = "schema", schemars(extend("const" = "passed")))]
    pub conformance: &'static str,
    /// The store it ran on: `sqlite`.
    #[cfg_attr(feature = "schema", schemars(extend("const" = "sqlite")))]
    pub store: &'static str,
    /// Whether a transaction that failed part way left nothing behind.
    pub failed_transaction_rolled_back: bool,
}
