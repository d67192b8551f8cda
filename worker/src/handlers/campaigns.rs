//! Campaigns of many codes: a campaign's definition (`PUT`, `GET`) and its
//! codes (`POST` to generate or import, `GET` a page). A campaign and all of
//! its codes live in one object, `campaign:<id>`, so that one SQLite
//! transaction reaches a code's count, the campaign's counts and its budget;
//! the catalog knows every code, so that each is unique across codes and
//! campaigns and a code's requests find the campaign's object.

use promocodes::api::CodePatch;
use promocodes::wire::{CampaignCodeList, CampaignList, CampaignSummary, CodesPlan};
use promocodes::{Campaign, Code};
use worker::{Env, Request, Response};

use super::{history, page_of, Answer, Query};
use crate::catalog::{Change, Registered, Registration, Unregistration};
use crate::clients::{call_campaign, to_catalog};
use crate::etag::Condition;
use crate::http::{forwarded_note, idempotency_key, path_code, read_body};
use crate::limits::{CODES_BODY_LIMIT, DEFAULT_BODY_LIMIT, DEFINITION_BODY_LIMIT};
use crate::problem::Problem;
use crate::protocol::{Call, IDEMPOTENCY_KEY_HEADER, TEST_SEED_HEADER};

/// `PUT /v1/campaigns/{id}`: defines or replaces the campaign (201 created,
/// 200 replaced): a code's definition without `code`, plus `uses_per_code`.
/// `If-Match` / `If-None-Match: *` make it conditional, as for a code (412
/// `/problems/precondition_failed` when the campaign changed since).
pub async fn put(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let note = forwarded_note(req)?;
    let body = read_body(req, DEFINITION_BODY_LIMIT).await?;
    // Bad input is a 400 before anything is addressed or written.
    Campaign::from_json(id.clone(), &body)?;
    let condition = Condition::of(req.headers())?;
    let headers = super::codes::with_note(&condition, note.as_deref());
    let response = call_campaign(env, &id, Call::PutCampaign, &[], Some(body), &headers).await?;
    if response.status_code() < 300 {
        let change = Change {
            code: id.as_str().to_owned(),
            archived: false,
        };
        to_catalog(env, crate::catalog::CatalogCall::Campaign(change)).await?;
    }
    Ok(response)
}

/// `PATCH /v1/campaigns/{id}`: the kill switch, `{"active": bool}`, for all
/// of its codes, with the conditions [`put`] takes.
pub async fn patch(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let note = forwarded_note(req)?;
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    CodePatch::from_json(&body)?;
    known_campaign(env, &id).await?;
    let condition = Condition::of(req.headers())?;
    let headers = super::codes::with_note(&condition, note.as_deref());
    call_campaign(env, &id, Call::PatchCampaign, &[], Some(body), &headers).await
}

/// `DELETE /v1/campaigns/{id}`: archives the campaign; its codes are then
/// the same 404 as an unknown code, and its counts and history stay.
pub async fn archive(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let note = forwarded_note(req)?;
    known_campaign(env, &id).await?;
    let unconditional = Condition::default();
    let headers = super::codes::with_note(&unconditional, note.as_deref());
    let response = call_campaign(env, &id, Call::ArchiveCampaign, &[], None, &headers).await?;
    if response.status_code() == 200 {
        let change = Change {
            code: id.as_str().to_owned(),
            archived: true,
        };
        to_catalog(env, crate::catalog::CatalogCall::Campaign(change)).await?;
    }
    Ok(response)
}

/// `GET /v1/campaigns?prefix=&after=&limit=&archived=`: a page of the
/// campaigns in id order, each as `GET /v1/campaigns/{id}` answers it.
pub async fn list(req: &Request, env: &Env) -> Answer {
    let page = page_of(req)?;
    let mut response = to_catalog(env, crate::catalog::CatalogCall::ListCampaigns(page)).await?;
    let (ids, more): (Vec<String>, bool) = response.json().await?;
    let mut campaigns = Vec::with_capacity(ids.len());
    for id in &ids {
        let id = Code::parse(id)?;
        let mut summary = call_campaign(env, &id, Call::GetCampaign, &[], None, &[]).await?;
        if summary.status_code() == 200 {
            campaigns.push(summary.json::<CampaignSummary>().await?);
        }
    }
    let next = if more { ids.last().cloned() } else { None };
    Ok(Response::from_json(&CampaignList { campaigns, next })?)
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
/// With `Accept: text/csv`, the whole campaign as CSV (`code,uses,held`, a
/// header row), streamed a page of 1,000 codes at a time, each cell as
/// [`csv_cell`](crate::csv::csv_cell) writes it (a code may start with `-`).
pub async fn list_codes(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    known_campaign(env, &id).await?;
    let accept = req.headers().get("accept")?.unwrap_or_default();
    if accept.to_ascii_lowercase().contains("text/csv") {
        return csv(env, id);
    }
    let query = Query::of(req)?;
    let query = query.forwarded(&["after", "limit"])?;
    call_campaign(env, &id, Call::CampaignCodes, &query, None, &[]).await
}

/// `POST /v1/campaigns/{id}/codes` (`Idempotency-Key` required): generates
/// `{"count", "pattern"?, "charset"?}` or imports `{"codes": [...]}`. The
/// campaign's object plans the codes under the key (a retry answers the
/// same plan), the catalog registers them all or none (an existing code is a
/// 409 naming it, and nothing of the call is created; a generated code that
/// exists elsewhere is drawn again), then the object adds them, after checking
/// the campaign's limits again (a call refused then leaves nothing behind).
pub async fn add_codes(req: &Request, env: &Env, id: &str) -> Answer {
    let id = path_code(id)?;
    let key = idempotency_key(req)?;
    let body = read_body(req, CODES_BODY_LIMIT).await?;
    known_campaign(env, &id).await?;
    // Passed on as sent: the object reads it only in test builds.
    let seed = req.headers().get(TEST_SEED_HEADER)?;
    let mut headers = vec![(IDEMPOTENCY_KEY_HEADER, key.as_str())];
    if let Some(seed) = &seed {
        headers.push((TEST_SEED_HEADER, seed.as_str()));
    }
    let mut planned = call_campaign(env, &id, Call::PlanCodes, &[], Some(body), &headers).await?;
    if planned.status_code() >= 300 {
        return Ok(planned);
    }
    let mut planned: CodesPlan = planned.json().await?;
    if !planned.committed {
        let mut redraws = 0;
        loop {
            let codes: Vec<String> = planned.plan.codes.iter().map(|c| c.as_str().to_owned()).collect();
            let registration = Registration {
                campaign: id.as_str().to_owned(),
                batch: key.as_str().to_owned(),
                codes,
            };
            let mut registered = to_catalog(env, crate::catalog::CatalogCall::Register(registration)).await?;
            let registered: Registered = registered.json().await?;
            let Some(taken) = registered.taken else { break };
            // A generated code that exists elsewhere is drawn again (the object answers
            // `code_exists` for an imported one); a pattern that keeps colliding is a 409.
            redraws += 1;
            if redraws > MAX_REDRAWS {
                return Err(Problem::CodeExists(Code::parse(&taken)?));
            }
            let query = [("taken", taken.as_str())];
            let mut redrawn = call_campaign(env, &id, Call::RedrawCode, &query, None, &headers).await?;
            if redrawn.status_code() >= 300 {
                return Ok(redrawn);
            }
            planned = redrawn.json().await?;
        }
        let committed = call_campaign(env, &id, Call::CommitCodes, &[], None, &headers).await?;
        if committed.status_code() >= 300 {
            // Refused on a second look (another call filled the campaign meanwhile): its codes
            // leave the catalog, and the plan is gone, so a retry plans afresh.
            let unregistration = Unregistration {
                campaign: id.as_str().to_owned(),
                batch: key.as_str().to_owned(),
            };
            to_catalog(env, crate::catalog::CatalogCall::Unregister(unregistration)).await?;
            return Ok(committed);
        }
    }
    Ok(Response::from_json(&planned.plan)?.with_status(201))
}

/// How many generated codes one call draws again when they exist elsewhere
/// before it gives up with a 409 (each draw is one in a million or rarer).
const MAX_REDRAWS: u32 = 16;

/// The admin reads of a campaign: its redemptions (`?after=&limit=`, each
/// with the code it came through; with `Accept: text/csv` the whole history
/// as CSV, see [`history::csv`]) and its figures (every code's).
pub async fn admin_read(req: &Request, env: &Env, id: &str, call: Call) -> Answer {
    let id = path_code(id)?;
    known_campaign(env, &id).await?;
    if call == Call::Redemptions && history::wants_csv(req)? {
        return history::csv(env, history::Whose::Campaign(id));
    }
    let query = Query::of(req)?;
    if call == Call::Redemptions {
        let shards = campaign_shards(env, &id).await?;
        if shards > 1 {
            // A sharded campaign's history: its object's and its shards', merged (see `shards::history`).
            let limit = super::history_limit(&query)?;
            let after = query.get("after")?.unwrap_or("");
            let page = crate::shards::history::campaign_page(env, &id, shards, after, limit).await?;
            return crate::ledger::json_response(&page, 200);
        }
    }
    let query = query.forwarded(&["after", "limit"])?;
    call_campaign(env, &id, call, &query, None, &[]).await
}

/// How many shard objects campaign `id`'s layouts used, now or before (0: none), as its object says.
pub(crate) async fn campaign_shards(env: &Env, id: &Code) -> std::result::Result<u8, Problem> {
    let mut response = call_campaign(env, id, Call::ShardCount, &[], None, &[]).await?;
    if response.status_code() != 200 {
        return Err(Problem::Internal(format!(
            "the object of campaign {id} answered {} when asked for its shards",
            response.status_code()
        )));
    }
    let answer: promocodes::wire::ShardsAnswer = response.json().await?;
    Ok(crate::shards::objects(answer.shards, &answer.prior))
}

/// Refuses a campaign never defined (404, as an unknown code), without creating its object.
async fn known_campaign(env: &Env, id: &Code) -> std::result::Result<(), Problem> {
    let change = Change {
        code: id.as_str().to_owned(),
        archived: false,
    };
    let mut response = to_catalog(env, crate::catalog::CatalogCall::CampaignExists(change)).await?;
    let known: bool = response.json().await?;
    if known {
        Ok(())
    } else {
        Err(Problem::UnknownCode(id.clone()))
    }
}

/// The campaign's codes as CSV, streamed: each chunk one page from its object.
fn csv(env: &Env, id: Code) -> Answer {
    let env = env.clone();
    crate::csv::stream(move |after| {
        let (env, id) = (env.clone(), id.clone());
        async move { csv_page(&env, &id, &after).await }
    })
}

/// One page of the CSV (with the header row before the first), and the next page's cursor.
async fn csv_page(env: &Env, id: &Code, after: &str) -> std::result::Result<(Vec<u8>, Option<String>), Problem> {
    let mut query = vec![("limit", "1000")];
    if !after.is_empty() {
        query.push(("after", after));
    }
    let mut page = call_campaign(env, id, Call::CampaignCodes, &query, None, &[]).await?;
    if page.status_code() != 200 {
        return Err(Problem::Internal(format!(
            "the campaign's object answered {}",
            page.status_code()
        )));
    }
    let page: CampaignCodeList = page.json().await?;
    let mut text = String::new();
    if after.is_empty() {
        text.push_str("code,uses,held\n");
    }
    for row in &page.codes {
        text.push_str(&format!(
            "{},{},{}\n",
            crate::csv::csv_cell(row.code.as_str()),
            row.uses,
            row.held
        ));
    }
    Ok((text.into_bytes(), page.next))
}
