//! Campaigns of many codes: a campaign's definition (`PUT`, `GET`) and its
//! codes (`POST` to generate or import, `GET` a page). A campaign and all of
//! its codes live in one object, `campaign:<id>`, so that one SQLite
//! transaction reaches a code's count, the campaign's counts and its budget;
//! the catalog knows every code, so that each is unique across codes and
//! campaigns and a code's requests find the campaign's object.

use promocodes::{Campaign, Code};
use serde_json::Value;
use worker::{Env, Request, Response};

use super::Answer;
use crate::catalog::{Change, Registered, Registration};
use crate::clients::{call_campaign, to_catalog};
use crate::http::{idempotency_key, path_code, read_body};
use crate::limits::{CODES_BODY_LIMIT, DEFINITION_BODY_LIMIT};
use crate::problem::Problem;
use crate::protocol::{Call, IDEMPOTENCY_KEY_HEADER};

/// `PUT /v1/campaigns/{id}`: defines or replaces the campaign (201 created,
/// 200 replaced): a code's definition without `code`, plus `uses_per_code`.
pub async fn put(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let body = read_body(req, DEFINITION_BODY_LIMIT).await?;
    // Bad input is a 400 before anything is addressed or written.
    Campaign::from_json(id.clone(), &body)?;
    let response = call_campaign(env, &id, Call::PutCampaign, &[], Some(body), &[]).await?;
    if response.status_code() < 300 {
        let change = Change {
            code: id.as_str().to_owned(),
            archived: false,
        };
        to_catalog(env, "/campaign", &change).await?;
    }
    Ok(response)
}

/// `GET /v1/campaigns/{id}`: the definition, `archived`, `usage` (`total`,
/// `held`, `discounted`) and `codes` (`count`, `used`).
pub async fn get(env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    known_campaign(env, &id).await?;
    call_campaign(env, &id, Call::GetCampaign, &[], None, &[]).await
}

/// `GET /v1/campaigns/{id}/codes?after=&limit=`: a page of the campaign's
/// codes, each with its uses and active holds, and the cursor of the next.
pub async fn list_codes(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    known_campaign(env, &id).await?;
    let url = req.url()?;
    let query: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| k == "after" || k == "limit")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let query: Vec<(&str, &str)> = query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    call_campaign(env, &id, Call::CampaignCodes, &query, None, &[]).await
}

/// `POST /v1/campaigns/{id}/codes` (`Idempotency-Key` required): generates
/// `{"count", "pattern"?, "charset"?}` or imports `{"codes": [...]}`. The
/// campaign's object plans the codes under the key (a retry answers the
/// same plan), the catalog registers them all or none (an existing code is a
/// 409 naming it, and nothing of the call is created), then the object adds them.
pub async fn add_codes(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let key = idempotency_key(req)?;
    let body = read_body(req, CODES_BODY_LIMIT).await?;
    known_campaign(env, &id).await?;
    let headers = [(IDEMPOTENCY_KEY_HEADER, key.as_str())];
    let mut planned = call_campaign(env, &id, Call::PlanCodes, &[], Some(body), &headers).await?;
    if planned.status_code() >= 300 {
        return Ok(planned);
    }
    let planned: Value = planned.json().await?;
    let plan = &planned["plan"];
    if planned["committed"] != Value::Bool(true) {
        let codes: Vec<String> = plan["codes"]
            .as_array()
            .map(|codes| codes.iter().filter_map(|c| c.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let registration = Registration {
            campaign: id.as_str().to_owned(),
            codes,
        };
        let mut registered = to_catalog(env, "/register", &registration).await?;
        let registered: Registered = registered.json().await?;
        if let Some(taken) = registered.taken {
            return Err(Problem::CodeExists(Code::parse(&taken)?));
        }
        let committed = call_campaign(env, &id, Call::CommitCodes, &[], None, &headers).await?;
        if committed.status_code() >= 300 {
            return Ok(committed);
        }
    }
    Ok(Response::from_json(plan)?.with_status(201))
}

/// Refuses a campaign never defined (404, as an unknown code), without creating its object.
async fn known_campaign(env: &Env, id: &Code) -> std::result::Result<(), Problem> {
    let change = Change {
        code: id.as_str().to_owned(),
        archived: false,
    };
    let mut response = to_catalog(env, "/campaign-exists", &change).await?;
    let known: bool = response.json().await?;
    if known {
        Ok(())
    } else {
        Err(Problem::UnknownCode(id.clone()))
    }
}
