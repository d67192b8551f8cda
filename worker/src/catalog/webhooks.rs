//! The shop's webhook endpoints, kept in the catalog: one row each, its
//! secret (and the one before the last rotation, until its time runs out).

use promocodes::wire::{
    DeliveryList, DeliveryPage, DeliveryRecord, EventRef, EventType, WebhookDisable, WebhookEndpoint, WebhookList,
    WebhookRotation, WebhookTarget, WebhookWithSecret, WebhookWrite, WebhookWritten,
};
use promocodes::Timestamp;
use serde::Deserialize;
use worker::SqlStorage;

use crate::problem::Problem;

/// The endpoints' table, created with the catalog's others.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS webhooks(id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL,
  description TEXT, secret TEXT NOT NULL, previous TEXT, previous_until TEXT, created_at TEXT NOT NULL,
  disabled TEXT);
";

#[derive(Deserialize)]
struct Row {
    id: String,
    url: String,
    events: String,
    #[serde(default)]
    description: Option<String>,
    secret: String,
    #[serde(default)]
    previous: Option<String>,
    #[serde(default)]
    previous_until: Option<String>,
    created_at: String,
    #[serde(default)]
    disabled: Option<String>,
}

const COLUMNS: &str = "id, url, events, description, secret, previous, previous_until, created_at, disabled";

fn time(text: &str) -> Result<Timestamp, Problem> {
    text.parse()
        .map_err(|_| Problem::Internal(format!("the catalog holds a bad time: {text:?}")))
}

impl Row {
    fn endpoint(&self, now: Option<Timestamp>) -> Result<WebhookEndpoint, Problem> {
        let events: Vec<EventType> = serde_json::from_str(&self.events)
            .map_err(|err| Problem::Internal(format!("the catalog holds bad events: {err}")))?;
        let until = self.previous_until.as_deref().map(time).transpose()?;
        Ok(WebhookEndpoint {
            id: self.id.clone(),
            url: self.url.clone(),
            events,
            description: self.description.clone(),
            created_at: time(&self.created_at)?,
            disabled: self.disabled.clone(),
            previous_secret_until: until.filter(|until| now.is_none_or(|now| *until > now)),
        })
    }
}

fn rows(sql: &SqlStorage, id: Option<&str>) -> Result<Vec<Row>, Problem> {
    Ok(match id {
        Some(id) => sql
            .exec(
                &format!("SELECT {COLUMNS} FROM webhooks WHERE id = ?"),
                vec![id.to_owned().into()],
            )?
            .to_array()?,
        None => sql
            .exec(&format!("SELECT {COLUMNS} FROM webhooks ORDER BY id"), None)?
            .to_array()?,
    })
}

/// Defines or replaces an endpoint, in one synchronous turn (so that two
/// racing `PUT`s never pass the limit together). A replaced endpoint keeps
/// its secret and is enabled again.
pub(super) fn put(sql: &SqlStorage, write: &WebhookWrite) -> Result<WebhookWritten, Problem> {
    let events = serde_json::to_string(&write.request.events).map_err(|err| Problem::Internal(err.to_string()))?;
    let description = write.request.description.clone();
    if !rows(sql, Some(&write.id))?.is_empty() {
        sql.exec(
            "UPDATE webhooks SET url = ?, events = ?, description = ?, disabled = NULL WHERE id = ?",
            vec![
                write.request.url.clone().into(),
                events.into(),
                description.into(),
                write.id.clone().into(),
            ],
        )?;
        let row = rows(sql, Some(&write.id))?.into_iter().next();
        let row = row.ok_or_else(|| Problem::Internal("the endpoint vanished".to_owned()))?;
        return Ok(WebhookWritten::Replaced(row.endpoint(Some(write.now))?));
    }
    if rows(sql, None)?.len() >= write.max as usize {
        return Ok(WebhookWritten::Full);
    }
    sql.exec(
        "INSERT INTO webhooks(id, url, events, description, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        vec![
            write.id.clone().into(),
            write.request.url.clone().into(),
            events.into(),
            description.into(),
            write.secret.clone().into(),
            write.now.to_string().into(),
        ],
    )?;
    let row = rows(sql, Some(&write.id))?.into_iter().next();
    let row = row.ok_or_else(|| Problem::Internal("the endpoint was not written".to_owned()))?;
    Ok(WebhookWritten::Created(WebhookWithSecret {
        endpoint: row.endpoint(Some(write.now))?,
        secret: write.secret.clone(),
    }))
}

/// One endpoint, if it exists.
pub(super) fn get(sql: &SqlStorage, id: &str) -> Result<Option<WebhookEndpoint>, Problem> {
    rows(sql, Some(id))?.first().map(|row| row.endpoint(None)).transpose()
}

/// Every endpoint, in id order.
pub(super) fn list(sql: &SqlStorage) -> Result<WebhookList, Problem> {
    let webhooks = rows(sql, None)?
        .iter()
        .map(|row| row.endpoint(None))
        .collect::<Result<_, _>>()?;
    Ok(WebhookList { webhooks })
}

/// Deletes an endpoint: whether there was one.
pub(super) fn delete(sql: &SqlStorage, id: &str) -> Result<bool, Problem> {
    let existed = !rows(sql, Some(id))?.is_empty();
    sql.exec("DELETE FROM webhooks WHERE id = ?", vec![id.to_owned().into()])?;
    Ok(existed)
}

/// A new secret; the current one signs too until the rotation's `until`.
pub(super) fn rotate(sql: &SqlStorage, rotation: &WebhookRotation) -> Result<Option<WebhookEndpoint>, Problem> {
    sql.exec(
        "UPDATE webhooks SET previous = secret, previous_until = ?, secret = ? WHERE id = ?",
        vec![
            rotation.until.to_string().into(),
            rotation.secret.clone().into(),
            rotation.id.clone().into(),
        ],
    )?;
    get(sql, &rotation.id)
}

/// Disables an endpoint (it answered 410 Gone).
pub(super) fn disable(sql: &SqlStorage, disable: &WebhookDisable) -> Result<(), Problem> {
    sql.exec(
        "UPDATE webhooks SET disabled = ? WHERE id = ?",
        vec![disable.reason.clone().into(), disable.id.clone().into()],
    )?;
    Ok(())
}

/// The enabled endpoints with the secrets that sign at `now` (the newest first).
pub(super) fn targets(sql: &SqlStorage, now: Timestamp) -> Result<Vec<WebhookTarget>, Problem> {
    let mut targets = Vec::new();
    for row in rows(sql, None)? {
        if row.disabled.is_some() {
            continue;
        }
        let endpoint = row.endpoint(Some(now))?;
        let mut secrets = vec![row.secret.clone()];
        if let (Some(previous), Some(_)) = (&row.previous, endpoint.previous_secret_until) {
            secrets.push(previous.clone());
        }
        targets.push(WebhookTarget {
            id: endpoint.id,
            url: endpoint.url,
            events: endpoint.events,
            created_at: endpoint.created_at,
            secrets,
        });
    }
    Ok(targets)
}

/// An endpoint's log of deliveries (in its own object of the catalog's class,
/// `webhook:<id>`): one row per event, in the order of its first try.
pub(super) const LOG_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS delivery_log(n INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE,
  json TEXT NOT NULL);
";

/// The most deliveries an endpoint's log keeps (the oldest go first).
pub const LOG_KEPT: i64 = 10_000;

#[derive(Deserialize)]
struct LogRow {
    n: i64,
    json: String,
}

fn record_of(row: &LogRow) -> Result<DeliveryRecord, Problem> {
    serde_json::from_str(&row.json).map_err(|err| Problem::Internal(format!("a bad delivery record: {err}")))
}

/// Records a try (the latest of an event replaces its earlier, keeping its place).
pub(super) fn record(sql: &SqlStorage, record: &DeliveryRecord) -> Result<(), Problem> {
    let json = serde_json::to_string(record).map_err(|err| Problem::Internal(err.to_string()))?;
    sql.exec(
        "INSERT INTO delivery_log(event_id, json) VALUES (?1, ?2) ON CONFLICT(event_id) DO UPDATE SET json = ?2",
        vec![record.event_id.clone().into(), json.into()],
    )?;
    sql.exec(
        "DELETE FROM delivery_log WHERE n <= (SELECT max(n) FROM delivery_log) - ?",
        vec![LOG_KEPT.into()],
    )?;
    Ok(())
}

/// A page of the log after `page.after`, and the next page's cursor.
pub(super) fn deliveries(sql: &SqlStorage, page: &DeliveryPage) -> Result<DeliveryList, Problem> {
    let limit = page.limit.clamp(1, crate::limits::MAX_PAGE);
    let rows: Vec<LogRow> = sql
        .exec(
            "SELECT n, json FROM delivery_log WHERE n > ? ORDER BY n LIMIT ?",
            vec![page.after.into(), (i64::from(limit) + 1).into()],
        )?
        .to_array()?;
    let more = rows.len() > limit as usize;
    let rows = &rows[..rows.len().min(limit as usize)];
    Ok(DeliveryList {
        deliveries: rows.iter().map(record_of).collect::<Result<_, _>>()?,
        next: more.then(|| rows.last().map(|row| row.n.to_string())).flatten(),
    })
}

/// One event's delivery, if it was tried.
pub(super) fn delivery(sql: &SqlStorage, event: &EventRef) -> Result<Option<DeliveryRecord>, Problem> {
    let rows: Vec<LogRow> = sql
        .exec(
            "SELECT n, json FROM delivery_log WHERE event_id = ?",
            vec![event.event_id.clone().into()],
        )?
        .to_array()?;
    rows.first().map(record_of).transpose()
}
