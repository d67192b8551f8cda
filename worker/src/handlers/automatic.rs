//! Automatic promotions: `GET /v1/automatic` (the public definitions of the
//! active ones, through the edge cache), the catalog's note of which codes
//! are automatic after each change of a definition, and the codes a stack's
//! `"automatic": true` offers. Which of them join a basket is the core's
//! ([`promocodes::Stack::with_automatic`]).

use promocodes::wire::{AutomaticPromotions, DefinitionFields, PublicCode};
use promocodes::{Code, PromoCode};
use worker::{Env, Request, Response};

use super::{limit_public, Answer};
use crate::catalog::{AutomaticChange, AutomaticChanged, AutomaticEntry, AutomaticQuery, CatalogCall};
use crate::clients::{self, to_catalog};
use crate::edge_cache::{self, AUTOMATIC_KEY};
use crate::http::is_trusted;
use crate::problem::Problem;
use crate::protocol::Call;

/// `GET /v1/automatic`: `{"promotions": [...]}`, the public definitions of
/// the active automatic promotions by priority then code, through the edge
/// cache for buyers (purged by any change of an automatic definition); live
/// for a server with a token.
pub async fn get(req: &Request, env: &Env) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    if !trusted {
        if let Some(cached) = edge_cache::lookup_at(AUTOMATIC_KEY.to_owned()).await? {
            return Ok(cached);
        }
    }
    let promotions = public_definitions(env).await?;
    let response = Response::from_json(&AutomaticPromotions { promotions })?;
    if trusted {
        let mut response = response;
        response.headers_mut().set("cache-control", "no-store")?;
        return Ok(response);
    }
    edge_cache::store_at(AUTOMATIC_KEY.to_owned(), response).await
}

/// The public definitions of the active automatic promotions, each read
/// from its object (one the catalog lists that its object no longer has as
/// an active automatic promotion, a change racing this read, is left out).
async fn public_definitions(env: &Env) -> std::result::Result<Vec<DefinitionFields>, Problem> {
    let listed = listed(env, false).await?;
    let reads = listed.iter().map(|entry| lookup(env, entry));
    let mut promotions = Vec::with_capacity(listed.len());
    for read in futures_util::future::join_all(reads).await {
        if let Some(definition) = read? {
            promotions.push(definition);
        }
    }
    Ok(promotions)
}

/// One listed promotion's public definition, when its object has it as an
/// active automatic promotion.
async fn lookup(env: &Env, entry: &AutomaticEntry) -> std::result::Result<Option<DefinitionFields>, Problem> {
    let code = Code::parse(&entry.code)?;
    let request = Call::GetDefinition.request(&code, &[], None, &[])?;
    // An automatic promotion is a plain code (a campaign cannot be automatic): its own object.
    let mut response = clients::to_object(env, code.as_str(), request).await?;
    if response.status_code() != 200 {
        return Ok(None);
    }
    let public: PublicCode<DefinitionFields> = response.json().await?;
    let definition = public.definition;
    let is = |field: &str| definition.get(field) == Some(&serde_json::Value::Bool(true));
    Ok((is("automatic") && is("active")).then_some(definition))
}

/// The automatic promotions the catalog lists: the active ones, and with
/// `inactive` the switched-off ones after them.
async fn listed(env: &Env, inactive: bool) -> std::result::Result<Vec<AutomaticEntry>, Problem> {
    let mut response = to_catalog(env, CatalogCall::ListAutomatic(AutomaticQuery { inactive })).await?;
    Ok(response.json().await?)
}

/// The codes a stack's `"automatic": true` offers: for a quote (`keyed`
/// false) the active ones as `GET /v1/automatic` serves them (from the edge
/// cache when it holds them); for a hold or capture (`keyed`), the catalog's
/// live list, switched-off ones included, so that a retry finds a use its
/// key recorded on one switched off since (the Worker offers those only when
/// they have one).
pub(crate) async fn offered(env: &Env, keyed: bool) -> std::result::Result<Vec<Code>, Problem> {
    if keyed {
        let listed = listed(env, true).await?;
        return listed.iter().map(|entry| Ok(Code::parse(&entry.code)?)).collect();
    }
    let cached = edge_cache::lookup_at(AUTOMATIC_KEY.to_owned()).await?;
    let mut response = match cached {
        Some(response) => response,
        None => {
            let promotions = public_definitions(env).await?;
            let response = Response::from_json(&AutomaticPromotions { promotions })?;
            edge_cache::store_at(AUTOMATIC_KEY.to_owned(), response).await?
        }
    };
    let answer: AutomaticPromotions = response.json().await?;
    let codes = answer.promotions.iter().filter_map(|d| d.get("code")?.as_str());
    codes.map(|code| Ok(Code::parse(code)?)).collect()
}

/// Notes in the catalog whether `code` is an automatic promotion after a
/// change of its definition (`promo`: the definition now, `None` once
/// archived), and purges the cached list when it is or was one.
pub(crate) async fn note_change(env: &Env, code: &Code, promo: Option<&PromoCode>) -> std::result::Result<(), Problem> {
    let automatic = promo.is_some_and(PromoCode::is_automatic);
    let change = AutomaticChange {
        code: code.as_str().to_owned(),
        automatic,
        active: promo.is_some_and(PromoCode::active),
        priority: promo.map_or(PromoCode::DEFAULT_PRIORITY, PromoCode::priority),
    };
    let mut response = to_catalog(env, CatalogCall::Automatic(change)).await?;
    let changed: AutomaticChanged = response.json().await?;
    if automatic || changed.was {
        edge_cache::purge_at(AUTOMATIC_KEY.to_owned()).await;
    }
    Ok(())
}

/// A code object's answer to a `PUT` or `PATCH` of a definition, read for
/// its definition (written by the object) and given back as it came.
pub(crate) async fn written(response: Response) -> std::result::Result<(Response, Option<PromoCode>), Problem> {
    let mut response = edge_cache::mutable(response).await?;
    if response.status_code() >= 300 {
        return Ok((response, None));
    }
    let status = response.status_code();
    let headers = response.headers().clone();
    let text = response.text().await?;
    let promo = PromoCode::from_written_json(&text).ok();
    Ok((Response::ok(text)?.with_status(status).with_headers(headers), promo))
}
