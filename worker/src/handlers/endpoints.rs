//! The shop's webhook endpoints (`/v1/webhooks`, `/v1/webhooks/{id}`,
//! `/v1/webhooks/{id}/rotate`), kept in the catalog; what each may be is
//! [`crate::outbox::endpoints`].

use promocodes::from_json;
use promocodes::wire::{
    AllWebhooks, CatalogCall, WebhookEndpoint, WebhookId, WebhookList, WebhookRequest, WebhookRotation,
    WebhookWithSecret, WebhookWrite, WebhookWritten,
};
use worker::{Env, Request, Response};

use super::Answer;
use crate::clients::to_catalog;
use crate::http::{percent_decode, read_body};
use crate::ledger::now;
use crate::limits::DEFAULT_BODY_LIMIT;
use crate::outbox::endpoints::{
    allowed_http_hosts, check_id, check_request, new_secret, MAX_ENDPOINTS, ROTATION_OVERLAP_S,
};
use crate::problem::Problem;

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
