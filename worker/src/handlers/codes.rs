//! The codes: the catalog (`GET /v1/codes`), a code's definition (`PUT`,
//! `PATCH`, `DELETE`), its public lookup (`GET`), and its history and figures.
//! Each change of a definition tells the catalog whether the code is an
//! automatic promotion (`automatic::note_change`).

use promocodes::wire::{CodeList, CodeSummary};
use promocodes::{Code, InputError, PromoCode};
use worker::{Env, Request, Response};

use super::{automatic, history, injected_failure, limit_public, page_of, Answer, Query};
use crate::catalog::Entry;
use crate::clients::{self, catalog_change, require_known, to_catalog};
use crate::edge_cache;
use crate::etag::Condition;
use crate::http::{forwarded_note, is_trusted, path_code, read_body, CHANGE_NOTE_HEADER};
use crate::limits::{DEFAULT_BODY_LIMIT, DEFINITION_BODY_LIMIT};
use crate::problem::Problem;
use crate::protocol::{Call, FOR_CACHE_HEADER};
use promocodes::api::CodePatch;

/// `PUT /v1/codes/{code}`: defines or replaces the code (201 created, 200
/// replaced), noted in the catalog before and after the code's object writes it.
/// With `If-Match`, the object writes only over the definition that tag names,
/// with `If-None-Match: *` only if there is none (else 412
/// `precondition_failed`); the answer carries the new `ETag`.
pub async fn put(req: &Request, env: &Env, code: &str) -> Answer {
    let code = path_code(code)?;
    let note = forwarded_note(req)?;
    let body = read_body(req, DEFINITION_BODY_LIMIT).await?;
    let promo = PromoCode::from_json(&body)?;
    if promo.code() != &code {
        return Err(Problem::CodeMismatch {
            path: code,
            body: promo.code().clone(),
        });
    }
    let condition = Condition::of(req.headers())?;
    catalog_change(env, crate::catalog::CatalogCall::Intend, &code, false).await?;
    let request = Call::PutDefinition.request(&code, &[], Some(body), &with_note(&condition, note.as_deref()))?;
    let response = clients::to_ledger(env, &code, request).await?;
    if injected_failure(req)? {
        return Err(Problem::Internal(
            "injected failure between the code's object and the catalog".to_owned(),
        ));
    }
    if response.status_code() >= 300 {
        // The object did not write it: the pending entry is repaired (or forgotten) by the next listing.
        return Ok(response);
    }
    catalog_change(env, crate::catalog::CatalogCall::Commit, &code, false).await?;
    let keep = cfg!(feature = "conformance") && req.headers().get(crate::protocol::TEST_KEEP_LAYOUT_HEADER)?.is_some();
    if !keep {
        crate::shards::remember(&code, promo.shards());
    }
    automatic::note_change(env, &code, Some(&promo)).await?;
    edge_cache::purge(&code).await;
    Ok(response)
}

/// `PATCH /v1/codes/{code}`: the kill switch, `{"active": bool}`, with
/// the conditions [`put`] takes.
pub async fn patch(req: &Request, env: &Env, code: &str) -> Answer {
    let code = path_code(code)?;
    let note = forwarded_note(req)?;
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    CodePatch::from_json(&body)?;
    require_known(env, &code).await?;
    let condition = Condition::of(req.headers())?;
    let request = Call::PatchDefinition.request(&code, &[], Some(body), &with_note(&condition, note.as_deref()))?;
    let (response, promo) = automatic::written(clients::to_ledger(env, &code, request).await?).await?;
    if let Some(promo) = &promo {
        automatic::note_change(env, &code, Some(promo)).await?;
    }
    edge_cache::purge(&code).await;
    Ok(response)
}

/// `DELETE /v1/codes/{code}`: archives the code; its history stays.
pub async fn archive(req: &Request, env: &Env, code: &str) -> Answer {
    let code = path_code(code)?;
    let note = forwarded_note(req)?;
    require_known(env, &code).await?;
    match catalog_change(env, crate::catalog::CatalogCall::Intend, &code, true).await {
        // The catalog refuses to take a campaign's code as a code of its own.
        Err(Problem::CodeExists(code)) => {
            // The isolate knows its campaign: `require_known` just found the code's object.
            let object = clients::known_campaign_object(&code).unwrap_or_default();
            let id = clients::campaign_id_of(&object).unwrap_or("{id}");
            return Err(Problem::Input(InputError::Malformed {
                path: "code".to_owned(),
                message: format!("{code} is a code of campaign {id}: archive the campaign (DELETE /v1/campaigns/{id})"),
            }));
        }
        other => other?,
    }
    let unconditional = Condition::default();
    let headers = with_note(&unconditional, note.as_deref());
    let request = Call::ArchiveDefinition.request(&code, &[], None, &headers)?;
    let response = clients::to_ledger(env, &code, request).await?;
    if response.status_code() == 200 {
        catalog_change(env, crate::catalog::CatalogCall::Commit, &code, true).await?;
        automatic::note_change(env, &code, None).await?;
    }
    edge_cache::purge(&code).await;
    Ok(response)
}

/// `GET /v1/codes/{code}`: the public lookup, through the edge cache for
/// buyers; live, never cached and with the definition's `ETag`, for a server
/// with a token.
pub async fn get(req: &Request, env: &Env, code: &str) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let code = path_code(code)?;
    if !trusted {
        if let Some(cached) = edge_cache::lookup(&code).await? {
            return Ok(cached);
        }
    }
    require_known(env, &code).await?;
    let for_cache: &[(&str, &str)] = if trusted { &[] } else { &[(FOR_CACHE_HEADER, "1")] };
    let request = Call::GetDefinition.request(&code, &[], None, for_cache)?;
    let response = clients::to_ledger(env, &code, request).await?;
    if trusted {
        let mut response = edge_cache::mutable(response).await?;
        response.headers_mut().set("cache-control", "no-store")?;
        Ok(response)
    } else {
        edge_cache::store(&code, response).await
    }
}

/// `GET /v1/codes`: a page of the catalog, each code with its definition
/// (audience as `assigned`), `archived` and live `usage`, read from its
/// object. A pending entry (a `PUT` that failed before its commit) is
/// repaired from the code's object here.
pub async fn list(req: &Request, env: &Env) -> Answer {
    let page = page_of(req)?;
    let mut response = to_catalog(env, crate::catalog::CatalogCall::List(page.clone())).await?;
    let (entries, more): (Vec<Entry>, bool) = response.json().await?;
    let summaries = futures_util::future::join_all(entries.iter().map(|entry| summary(env, entry))).await;
    let mut codes = Vec::with_capacity(entries.len());
    for summary in summaries {
        let Some(summary) = summary? else {
            continue;
        };
        if page.archived || !summary.archived {
            codes.push(summary);
        }
    }
    let next = if more {
        entries.last().map(|e| e.code.clone())
    } else {
        None
    };
    Ok(Response::from_json(&CodeList { codes, next })?)
}

/// A listed code's summary from its object; for a pending entry, the repair:
/// commit it if the object has a definition, forget it if not.
async fn summary(env: &Env, entry: &Entry) -> std::result::Result<Option<CodeSummary>, Problem> {
    let code = Code::parse(&entry.code)?;
    let mut response = clients::call(env, &code, Call::Summary, None).await?;
    match response.status_code() {
        200 => {
            let summary: CodeSummary = response.json().await?;
            if entry.pending {
                catalog_change(env, crate::catalog::CatalogCall::Commit, &code, summary.archived).await?;
            }
            Ok(Some(summary))
        }
        404 if entry.pending => {
            catalog_change(env, crate::catalog::CatalogCall::Forget, &code, false).await?;
            Ok(None)
        }
        404 => Ok(None),
        status => Err(Problem::Internal(format!("the object of {code} answered {status}"))),
    }
}

/// A write's headers for the object: its conditions, and the operator's note if any.
pub(super) fn with_note<'a>(condition: &'a Condition, note: Option<&'a str>) -> Vec<(&'static str, &'a str)> {
    let mut headers = condition.headers();
    if let Some(note) = note {
        headers.push((CHANGE_NOTE_HEADER, note));
    }
    headers
}

/// The admin reads of one code: its redemptions (`?after=&limit=`; with
/// `Accept: text/csv` the whole history as CSV, see [`history::csv`]) and its figures.
pub async fn admin_read(req: &Request, env: &Env, code: &str, call: Call) -> Answer {
    let code = path_code(code)?;
    require_known(env, &code).await?;
    if call == Call::Redemptions && history::wants_csv(req)? {
        return history::csv(env, history::Whose::Code(code));
    }
    let query = Query::of(req)?;
    if call == Call::Redemptions {
        let layout = crate::shards::layout_of(env, &code).await?;
        if layout.shards > 1 {
            // A sharded code's history: its object's and its shards', merged (see `shards::history`).
            let limit = super::history_limit(&query)?;
            let after = query.get("after")?.unwrap_or_default();
            let page = crate::shards::history::page(env, &code, layout.objects(), after, limit).await?;
            return crate::ledger::json_response(&page, 200);
        }
    }
    let query = query.forwarded(&["after", "limit"])?;
    clients::to_ledger(env, &code, call.request(&code, &query, None, &[])?).await
}
