//! The shop's webhook endpoints (`/v1/webhooks`, `/v1/webhooks/{id}`,
//! `/v1/webhooks/{id}/rotate`), kept in the catalog, and their deliveries
//! (`/v1/webhooks/{id}/deliveries`, kept in each endpoint's log); what each may be is
//! [`crate::outbox::endpoints`].

use promocodes::from_json;
use promocodes::wire::{
    AllWebhooks, CatalogCall, DeliveryList, DeliveryPage, DeliveryRecord, EventRef, RetryDelivery, WebhookEndpoint,
    WebhookId, WebhookList, WebhookRequest, WebhookRotation, WebhookWithSecret, WebhookWrite, WebhookWritten,
};
use worker::{Env, Request, Response};

use super::{bad_param, page_limit, Answer, Query};
use crate::clients::{to_catalog, to_catalog_named, to_object, webhook_log};
use crate::http::{percent_decode, read_body};
use crate::ledger::now;
use crate::limits::DEFAULT_BODY_LIMIT;
use crate::outbox::endpoints::{
    allowed_http_hosts, check_id, check_request, new_secret, MAX_ENDPOINTS, ROTATION_OVERLAP_S,
};
use crate::problem::Problem;
use crate::protocol::{internal, Call};

/// The variable listing the hosts an endpoint may reach over plain `http://`.
pub const ALLOW_HTTP_VAR: &str = "WEBHOOK_ALLOW_HTTP";

fn path_id(segment: &str) -> Result<String, Problem> {
    check_id(&percent_decode(segment)?)
}

/// `PUT /v1/webhooks/{id}`: defines the endpoint (201, with its secret shown
/// once) or replaces its URL, events and description (200, the secret kept,
/// enabled again if it was disabled). At most [`MAX_ENDPOINTS`].
pub async fn put(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_id(id)?;
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    let request: WebhookRequest = from_json(&body)?;
    let allow_http = env
        .var(ALLOW_HTTP_VAR)
        .map(|v| allowed_http_hosts(&v.to_string()))
        .unwrap_or_default();
    let request = check_request(request, &allow_http)?;
    let write = WebhookWrite {
        id,
        request,
        secret: new_secret()?,
        now: now()?,
        max: MAX_ENDPOINTS,
    };
    let written: WebhookWritten = to_catalog(env, CatalogCall::PutWebhook(write)).await?.json().await?;
    match written {
        WebhookWritten::Created(created) => Ok(Response::from_json(&created)?.with_status(201)),
        WebhookWritten::Replaced(endpoint) => Ok(Response::from_json(&endpoint)?),
        WebhookWritten::Full => Err(Problem::WebhookLimit { max: MAX_ENDPOINTS }),
    }
}

/// `GET /v1/webhooks`: every endpoint, in id order.
pub async fn list(env: &Env) -> Answer {
    let list: WebhookList = to_catalog(env, CatalogCall::Webhooks(AllWebhooks {}))
        .await?
        .json()
        .await?;
    Ok(Response::from_json(&list)?)
}

/// `GET /v1/webhooks/{id}`.
pub async fn get(env: &Env, id: &str) -> Answer {
    let id = path_id(id)?;
    let found: Option<WebhookEndpoint> = to_catalog(env, CatalogCall::Webhook(WebhookId { id: id.clone() }))
        .await?
        .json()
        .await?;
    Ok(Response::from_json(&found.ok_or(Problem::UnknownWebhook(id))?)?)
}

/// `DELETE /v1/webhooks/{id}`: 204; its pending deliveries are dropped as
/// the code objects next try them.
pub async fn delete(env: &Env, id: &str) -> Answer {
    let id = path_id(id)?;
    let existed: bool = to_catalog(env, CatalogCall::DeleteWebhook(WebhookId { id: id.clone() }))
        .await?
        .json()
        .await?;
    if !existed {
        return Err(Problem::UnknownWebhook(id));
    }
    Ok(Response::empty()?.with_status(204))
}

/// `POST /v1/webhooks/{id}/rotate`: a new secret, shown once; the one
/// before signs too for [`ROTATION_OVERLAP_S`] (both signatures are sent).
pub async fn rotate(env: &Env, id: &str) -> Answer {
    let id = path_id(id)?;
    let secret = new_secret()?;
    let until = now()?
        .checked_add_seconds(ROTATION_OVERLAP_S)
        .ok_or_else(|| Problem::Internal("the clock is out of range".to_owned()))?;
    let rotation = WebhookRotation {
        id: id.clone(),
        secret: secret.clone(),
        until,
    };
    let rotated: Option<WebhookEndpoint> = to_catalog(env, CatalogCall::RotateWebhook(rotation))
        .await?
        .json()
        .await?;
    let endpoint = rotated.ok_or(Problem::UnknownWebhook(id))?;
    Ok(Response::from_json(&WebhookWithSecret { endpoint, secret })?)
}

/// `GET /v1/webhooks/{id}/deliveries?after=&limit=`: a page of the
/// endpoint's deliveries (from its log), in the order of their first try.
pub async fn deliveries(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_id(id)?;
    let query = Query::of(req)?;
    let after = match query.get("after")? {
        None => 0,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| bad_param("after", format!("{text:?} is not a page's cursor")))?,
    };
    let limit = page_limit(&query, DEFAULT_DELIVERIES)?;
    known(env, &id).await?;
    let call = CatalogCall::Deliveries(DeliveryPage { after, limit });
    let list: DeliveryList = to_catalog_named(env, &webhook_log(&id), call).await?.json().await?;
    Ok(Response::from_json(&list)?)
}

/// `POST /v1/webhooks/{id}/deliveries/{event_id}/retry`: sends an event
/// tried before to the endpoint again, now ("Send again"); answers its
/// delivery record. The route table hands over the last segment only: the
/// endpoint's id is read from the path.
pub async fn retry(req: &Request, env: &Env, event: &str) -> Answer {
    let path = req.path();
    let id = path.split('/').nth(3).ok_or(Problem::NotFound)?;
    let id = path_id(id)?;
    let event_id = percent_decode(event)?;
    known(env, &id).await?;
    let call = CatalogCall::Delivery(EventRef {
        event_id: event_id.clone(),
    });
    let found: Option<DeliveryRecord> = to_catalog_named(env, &webhook_log(&id), call).await?.json().await?;
    let record = found.ok_or(Problem::UnknownDelivery(event_id))?;
    let body = serde_json::to_string(&RetryDelivery {
        endpoint: id,
        seq: record.seq,
    })
    .map_err(|e| Problem::Internal(e.to_string()))?;
    let (method, path) = Call::RetryDelivery.route();
    let request = internal(method, &format!("https://do{path}"), Some(body), &[])?;
    to_object(env, &record.object, request).await
}

/// The default page size of the deliveries.
pub const DEFAULT_DELIVERIES: u32 = 100;

/// 404 `unknown_webhook` unless endpoint `id` exists.
async fn known(env: &Env, id: &str) -> Result<(), Problem> {
    let found: Option<WebhookEndpoint> = to_catalog(env, CatalogCall::Webhook(WebhookId { id: id.to_owned() }))
        .await?
        .json()
        .await?;
    found.map(|_| ()).ok_or_else(|| Problem::UnknownWebhook(id.to_owned()))
}
