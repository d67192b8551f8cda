//! Delivery of the outbox's events to the shop's endpoints, from the
//! object's alarm (never in a write's path): in order per endpoint, at
//! least once, signed as Standard Webhooks signs, retried on a schedule.

use std::time::Duration;

use futures_util::future::{select, Either};
use promocodes::wire::{
    CatalogCall, DeliveryRecord, DeliveryState, EventType, RetryDelivery, WebhookDisable, WebhookTarget,
};
use worker::{AbortController, Delay, Fetch, Headers, Method, RequestInit};

use super::*;
use crate::outbox::signature::{signature_header, WebhookSecret};
use crate::sqlite::{DeliveryRow, OutboxEvent};

/// The waits before each retry (after the 1st to the 9th failed try), in
/// seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; after the
/// 10th failed try the event is given up (`failed`, retried by hand).
pub const RETRY_SCHEDULE_S: [i64; 9] = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

/// How long one try may take before it counts as failed.
pub const TRY_TIMEOUT: Duration = Duration::from_secs(15);

/// The most tries one alarm makes per endpoint before it sets itself again.
const TRIES_PER_ALARM: usize = 50;

/// The longest `Retry-After` honoured (a day), in seconds.
const MAX_RETRY_AFTER_S: i64 = 86_400;

/// How long the outbox keeps an event that every endpoint got (delivered
/// or given up): 7 days, for the deliveries list and "Send again"; a test
/// build may shorten it with [`RETENTION_VAR`].
pub const OUTBOX_RETENTION_S: i64 = 7 * 86_400;

/// Test builds (feature `conformance`) only: the variable that sets
/// [`OUTBOX_RETENTION_S`] (in seconds), so that a test sees pruning.
pub const RETENTION_VAR: &str = "OUTBOX_RETENTION_S";

/// The most events one alarm prunes.
const PRUNE_PER_ALARM: u32 = 500;

/// Test builds (feature `conformance`) only: the variable that divides
/// every wait of [`RETRY_SCHEDULE_S`] (and `Retry-After`), so that a test
/// sees retries in milliseconds.
pub const RETRY_DIVISOR_VAR: &str = "WEBHOOK_RETRY_DIVISOR";

/// What a try came to.
enum Tried {
    Delivered(u16),
    Gone,
    Failed {
        status: Option<u16>,
        error: String,
        retry_after: Option<i64>,
    },
}

impl Ledger {
    /// The divisor of the retry schedule: 1, or in test builds [`RETRY_DIVISOR_VAR`].
    fn retry_divisor(&self) -> i64 {
        if !cfg!(feature = "conformance") {
            return 1;
        }
        self.env
            .var(RETRY_DIVISOR_VAR)
            .ok()
            .and_then(|v| v.to_string().parse::<i64>().ok())
            .filter(|d| *d >= 1)
            .unwrap_or(1)
    }

    /// How long the outbox keeps an event every endpoint got, in seconds.
    fn retention_s(&self) -> i64 {
        if !cfg!(feature = "conformance") {
            return OUTBOX_RETENTION_S;
        }
        self.env
            .var(RETENTION_VAR)
            .ok()
            .and_then(|v| v.to_string().parse::<i64>().ok())
            .filter(|s| *s >= 0)
            .unwrap_or(OUTBOX_RETENTION_S)
    }

    /// Removes the outbox's events older than the retention that every
    /// endpoint has passed (`through`), at most once a minute (or once a
    /// retention, when that is shorter) per instance; a failure is logged.
    fn prune(&self, store: &SqliteRedemptionStore, through: i64, at: Timestamp) {
        let retention_ms = self.retention_s().saturating_mul(1000);
        let every_ms = retention_ms.min(60_000);
        let millis = at.as_unix_millis();
        if millis < self.pruned_at.get().saturating_add(every_ms) {
            return;
        }
        self.pruned_at.set(millis);
        let Ok(before) = Timestamp::from_unix_millis(millis.saturating_sub(retention_ms)) else {
            return;
        };
        match store.prune_outbox(through, before, PRUNE_PER_ALARM) {
            Ok(0) => {}
            Ok(n) => worker::console_log!("pruned {n} delivered events older than {before}"),
            Err(error) => worker::console_error!("pruning the outbox failed: {error}"),
        }
    }

    /// Delivers what is due to every endpoint; returns when the next try is
    /// due, if any is pending.
    pub(super) async fn deliver(
        &self,
        store: &SqliteRedemptionStore,
        at: Timestamp,
    ) -> std::result::Result<Option<Timestamp>, Problem> {
        if store.last_event()? == 0 {
            return Ok(None);
        }
        let mut answer = crate::clients::to_catalog(&self.env, CatalogCall::WebhookTargets(Default::default())).await?;
        let targets: Vec<WebhookTarget> = answer.json().await?;
        let mut next: Option<Timestamp> = None;
        // The last event every endpoint got: what may be pruned once old.
        let mut through = store.last_event()?;
        for target in &targets {
            if let Some(due) = self.deliver_to(store, target, at).await? {
                next = Some(next.map_or(due, |n| n.min(due)));
            }
            through = through.min(store.delivery_cursor(&target.id)?);
        }
        self.prune(store, through, at);
        Ok(next)
    }

    /// Delivers to one endpoint, in order, until an event must wait; then
    /// writes the tries to the endpoint's log for the admin API in one call
    /// (a failure there is logged: the object's own record decides).
    async fn deliver_to(
        &self,
        store: &SqliteRedemptionStore,
        target: &WebhookTarget,
        at: Timestamp,
    ) -> std::result::Result<Option<Timestamp>, Problem> {
        let mut log = Vec::new();
        let next = self.deliver_in_order(store, target, at, &mut log).await;
        self.write_log(&target.id, log).await;
        next
    }

    /// [`Ledger::deliver_to`]'s tries, each recorded in the object and noted in `log`.
    async fn deliver_in_order(
        &self,
        store: &SqliteRedemptionStore,
        target: &WebhookTarget,
        at: Timestamp,
        log: &mut Vec<DeliveryRecord>,
    ) -> std::result::Result<Option<Timestamp>, Problem> {
        let mut cursor = store.delivery_cursor(&target.id)?;
        for _ in 0..TRIES_PER_ALARM {
            let Some(event) = store.event_after(cursor)? else {
                return Ok(None);
            };
            let wanted = EventType::parse(&event.kind).is_some_and(|t| target.events.contains(&t))
                && event
                    .at
                    .parse::<Timestamp>()
                    .is_ok_and(|when| when >= target.created_at);
            if !wanted {
                store.move_cursor(&target.id, event.seq)?;
                cursor = event.seq;
                continue;
            }
            let earlier = store.delivery(&target.id, event.seq)?;
            if let Some(due) = earlier.as_ref().and_then(|row| row.next_at) {
                let due = Timestamp::from_unix_millis(due).map_err(|e| Problem::Internal(e.to_string()))?;
                if due > now()? {
                    return Ok(Some(due));
                }
            }
            let attempts = earlier.map_or(0, |row| row.attempts) + 1;
            match self.try_once(target, &event).await? {
                Tried::Delivered(status) => {
                    note(
                        store,
                        &target.id,
                        &event,
                        &row(event.seq, attempts, "delivered", None, Some(status), None)?,
                        log,
                    )?;
                    cursor = event.seq;
                }
                Tried::Gone => {
                    note(
                        store,
                        &target.id,
                        &event,
                        &row(
                            event.seq,
                            attempts,
                            "pending",
                            None,
                            Some(410),
                            Some("410 Gone".to_owned()),
                        )?,
                        log,
                    )?;
                    let reason = format!("answered 410 Gone to {} at {}", event.id(), now()?);
                    let call = CatalogCall::DisableWebhook(WebhookDisable {
                        id: target.id.clone(),
                        reason,
                    });
                    crate::clients::to_catalog(&self.env, call).await?;
                    return Ok(None);
                }
                Tried::Failed {
                    status,
                    error,
                    retry_after,
                } => {
                    let index = usize::try_from(attempts - 1).unwrap_or(usize::MAX);
                    let Some(wait) = RETRY_SCHEDULE_S.get(index) else {
                        note(
                            store,
                            &target.id,
                            &event,
                            &row(event.seq, attempts, "failed", None, status, Some(error))?,
                            log,
                        )?;
                        cursor = event.seq;
                        continue;
                    };
                    let wait_ms = match retry_after {
                        Some(seconds) => seconds.clamp(0, MAX_RETRY_AFTER_S) * 1000,
                        None => jittered(*wait * 1000),
                    } / self.retry_divisor();
                    let due = now()?.as_unix_millis().saturating_add(wait_ms.max(1));
                    let pending = row(event.seq, attempts, "pending", Some(due), status, Some(error))?;
                    note(store, &target.id, &event, &pending, log)?;
                    let due = Timestamp::from_unix_millis(due).map_err(|e| Problem::Internal(e.to_string()))?;
                    return Ok(Some(due));
                }
            }
        }
        // More to send: the alarm comes back at once.
        Ok(Some(at))
    }

    /// Writes tries to `endpoint`'s log for the admin API, in one call; a
    /// failure is logged (the object's own record decides).
    async fn write_log(&self, endpoint: &str, log: Vec<DeliveryRecord>) {
        if log.is_empty() {
            return;
        }
        let call = CatalogCall::RecordDelivery(log);
        if let Err(problem) =
            crate::clients::to_catalog_named(&self.env, &crate::clients::webhook_log(endpoint), call).await
        {
            worker::console_error!("the delivery log of {endpoint} was not written: {}", problem.body());
        }
    }

    /// `POST /retry-delivery`: sends one event to one enabled endpoint again,
    /// now, out of the retry schedule (by hand); answers its delivery record.
    pub(super) async fn handle_retry_delivery(&self, retry: &RetryDelivery) -> std::result::Result<Response, Problem> {
        let store = self.store()?.ok_or(Problem::UnknownDelivery(retry.seq.to_string()))?;
        let event = store
            .event_at(retry.seq)?
            .ok_or(Problem::UnknownDelivery(retry.seq.to_string()))?;
        let mut answer = crate::clients::to_catalog(&self.env, CatalogCall::WebhookTargets(Default::default())).await?;
        let targets: Vec<WebhookTarget> = answer.json().await?;
        let target = targets
            .iter()
            .find(|t| t.id == retry.endpoint)
            .ok_or_else(|| Problem::UnknownWebhook(retry.endpoint.clone()))?;
        let earlier = store.delivery(&target.id, event.seq)?;
        let attempts = earlier.as_ref().map_or(0, |row| row.attempts) + 1;
        // A pending event keeps its place in the schedule; any other is delivered or failed now.
        let pending = earlier.as_ref().is_some_and(|row| row.state == "pending");
        let row = match self.try_once(target, &event).await? {
            Tried::Delivered(status) => row(event.seq, attempts, "delivered", None, Some(status), None)?,
            Tried::Gone => row(
                event.seq,
                attempts,
                "failed",
                None,
                Some(410),
                Some("410 Gone".to_owned()),
            )?,
            Tried::Failed { status, error, .. } if pending => {
                let next = earlier.and_then(|row| row.next_at);
                row(event.seq, attempts, "pending", next, status, Some(error))?
            }
            Tried::Failed { status, error, .. } => row(event.seq, attempts, "failed", None, status, Some(error))?,
        };
        let mut log = Vec::new();
        note(&store, &target.id, &event, &row, &mut log)?;
        self.write_log(&target.id, log).await;
        json_response(&record_of(&event, &row)?, 200)
    }

    /// One try: the event's body, signed, to the endpoint, within [`TRY_TIMEOUT`].
    async fn try_once(&self, target: &WebhookTarget, event: &OutboxEvent) -> std::result::Result<Tried, Problem> {
        let secrets = target
            .secrets
            .iter()
            .map(|s| WebhookSecret::parse(s))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Problem::Internal(e.to_string()))?;
        let id = event.id();
        let timestamp = now()?.as_unix_seconds();
        let headers = Headers::new();
        headers.set("content-type", "application/json")?;
        headers.set("webhook-id", &id)?;
        headers.set("webhook-timestamp", &timestamp.to_string())?;
        headers.set(
            "webhook-signature",
            &signature_header(&secrets, &id, timestamp, &event.body),
        )?;
        let mut init = RequestInit::new();
        init.with_method(Method::Post)
            .with_headers(headers)
            .with_body(Some(event.body.clone().into()));
        let request = match worker::Request::new_with_init(&target.url, &init) {
            Ok(request) => request,
            Err(err) => {
                return Ok(Tried::Failed {
                    status: None,
                    error: err.to_string(),
                    retry_after: None,
                })
            }
        };
        let controller = AbortController::default();
        let signal = controller.signal();
        let fetch = Fetch::Request(request);
        let sent = std::pin::pin!(fetch.send_with_signal(&signal));
        let timeout = std::pin::pin!(Delay::from(TRY_TIMEOUT));
        let response = match select(sent, timeout).await {
            Either::Left((response, _)) => response,
            Either::Right(((), _)) => {
                controller.abort();
                return Ok(Tried::Failed {
                    status: None,
                    error: format!("no answer within {} s", TRY_TIMEOUT.as_secs()),
                    retry_after: None,
                });
            }
        };
        Ok(match response {
            Ok(response) => {
                let status = response.status_code();
                let retry_after = match status {
                    429 | 503 => response
                        .headers()
                        .get("retry-after")
                        .ok()
                        .flatten()
                        .and_then(|v| v.trim().parse::<i64>().ok()),
                    _ => None,
                };
                match status {
                    200..=299 => Tried::Delivered(status),
                    410 => Tried::Gone,
                    _ => Tried::Failed {
                        status: Some(status),
                        error: format!("answered {status}"),
                        retry_after,
                    },
                }
            }
            Err(err) => Tried::Failed {
                status: None,
                error: err.to_string(),
                retry_after: None,
            },
        })
    }
}

/// Records a try in the object (moving the endpoint's cursor past an event
/// delivered or given up) and notes it in `log`, for the endpoint's log.
fn note(
    store: &SqliteRedemptionStore,
    endpoint: &str,
    event: &OutboxEvent,
    row: &DeliveryRow,
    log: &mut Vec<DeliveryRecord>,
) -> std::result::Result<(), Problem> {
    store.record_delivery(endpoint, row)?;
    log.push(record_of(event, row)?);
    Ok(())
}

/// The admin API's record of `row`, a try of `event`.
fn record_of(event: &OutboxEvent, row: &DeliveryRow) -> std::result::Result<DeliveryRecord, Problem> {
    let bad = |e: promocodes::InputError| Problem::Internal(e.to_string());
    let kind =
        EventType::parse(&event.kind).ok_or_else(|| Problem::Internal(format!("an event of type {}", event.kind)))?;
    let state = match row.state.as_str() {
        "delivered" => DeliveryState::Delivered,
        "failed" => DeliveryState::Failed,
        _ => DeliveryState::Pending,
    };
    Ok(DeliveryRecord {
        event_id: event.id(),
        kind,
        at: event.at.parse().map_err(bad)?,
        attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
        state,
        status: row.status.and_then(|s| u16::try_from(s).ok()),
        error: row.error.clone(),
        tried_at: row.tried_at.as_deref().map(str::parse).transpose().map_err(bad)?,
        next_try: row.next_at.map(Timestamp::from_unix_millis).transpose().map_err(bad)?,
        object: event.counter.clone(),
        seq: event.seq,
    })
}

/// A delivery record as of now.
fn row(
    seq: i64,
    attempts: i64,
    state: &str,
    next_at: Option<i64>,
    status: Option<u16>,
    error: Option<String>,
) -> std::result::Result<DeliveryRow, Problem> {
    Ok(DeliveryRow {
        seq,
        attempts,
        state: state.to_owned(),
        next_at,
        status: status.map(i64::from),
        error,
        tried_at: Some(now()?.to_string()),
    })
}

/// `ms` with up to ±10 % of jitter (from the runtime's `Math.random`: no
/// secret depends on it).
fn jittered(ms: i64) -> i64 {
    let r = worker::js_sys::Math::random();
    let spread = (ms as f64 * 0.1 * (2.0 * r - 1.0)) as i64;
    ms + spread
}
