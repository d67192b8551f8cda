//! The Worker's clients of its two Durable Objects: a code's object
//! ([`crate::ledger::Ledger`], over [`Call`]s) and the catalog
//! ([`crate::catalog::Catalog`]), and the isolate's memory of which codes
//! exist.

use std::cell::RefCell;

use promocodes::wire::OutcomeLine;
use promocodes::Code;
use worker::{Env, Method, Request};

use crate::bounded::BoundedMap;
use crate::campaign_index;
use crate::catalog::{CatalogCall, Change, Entry};
use crate::edge_cache;
use crate::handlers::Answer;
use crate::limits::KNOWN_CODES_MAX;
use crate::problem::Problem;
use crate::protocol::{internal, Call, OUTCOME_HEADER};

/// The code objects' binding in `wrangler.toml`.
pub const LEDGER_BINDING: &str = "LEDGER";
/// The catalog's binding in `wrangler.toml`.
pub const CATALOG_BINDING: &str = "CATALOG";
/// The catalog's one object.
pub const CATALOG_NAME: &str = "catalog";

/// Another object's answer (`response`, whose headers cannot change) as a new answer of this one:
/// the same status and body, its headers but `drop` (if one is named), and `add`.
///
/// # Errors
///
/// A runtime error reading the answer.
pub async fn restamped(mut response: worker::Response, drop: Option<&str>, add: &[(&str, &str)]) -> Answer {
    let headers = worker::Headers::new();
    for (name, value) in response
        .headers()
        .entries()
        .filter(|(name, _)| Some(name.as_str()) != drop)
    {
        headers.set(&name, &value)?;
    }
    for (name, value) in add {
        headers.set(name, value)?;
    }
    let status = response.status_code();
    let bytes = response.bytes().await?;
    Ok(worker::Response::from_bytes(bytes)?
        .with_status(status)
        .with_headers(headers))
}

/// Sends `req` to the code object named `name`.
pub async fn to_object(env: &Env, name: &str, req: Request) -> Answer {
    let stub = env.durable_object(LEDGER_BINDING)?.id_from_name(name)?.get_stub()?;
    Ok(stub.fetch_with_request(req).await?)
}

/// Sends `req` to the object of `code`: its own, or for a campaign's code
/// the campaign's (`campaign:<id>`, which keeps all of its codes and counts).
pub async fn to_ledger(env: &Env, code: &Code, req: Request) -> Answer {
    let name = object_of(env, code).await?;
    to_object(env, &name, req).await
}

/// The object a campaign's counts and codes live in: named by
/// [`Campaign::key_of`](promocodes::Campaign::key_of).
pub fn campaign_object(id: &Code) -> String {
    promocodes::Campaign::key_of(id.as_str())
}

/// The campaign id in a [`campaign_object`]'s name (`None` for another object's).
pub fn campaign_id_of(object: &str) -> Option<&str> {
    object.strip_prefix(&promocodes::Campaign::key_of(""))
}

/// Sends `call` for campaign `id` to the campaign's object, with `query`, `body` and `headers`.
pub async fn call_campaign(
    env: &Env,
    id: &Code,
    call: Call,
    query: &[(&str, &str)],
    body: Option<String>,
    headers: &[(&str, &str)],
) -> Answer {
    to_object(env, &campaign_object(id), call.request(id, query, body, headers)?).await
}

/// Sends `call` for `code` to its object, with `body`.
pub async fn call(env: &Env, code: &Code, call: Call, body: Option<String>) -> Answer {
    to_ledger(env, code, call.request(code, &[], body, &[])?).await
}

/// Sends a hold, capture or release to the object of `code`, and writes its
/// one JSON log line: the outcome the object decided, and the milliseconds
/// the request took there (a Worker's clock moves across I/O, not inside it).
///
/// A request that changed the code's counts after its public lookup was
/// cached (the object says `purge`) also purges that lookup: a buyer's next
/// lookup sees the change.
pub async fn to_ledger_logged(env: &Env, code: &Code, req: Request) -> Answer {
    let started = worker::Date::now().as_millis();
    let response = to_ledger(env, code, req).await?;
    note_outcome(code, &response, started).await?;
    Ok(response)
}

/// Writes the one JSON log line of a hold, capture or release of `code`
/// that the object named in `response` (see [`to_ledger_logged`]), begun at
/// `started` (Unix milliseconds), and purges the lookup it changed.
///
/// # Errors
///
/// A runtime error reading the answer's headers.
pub async fn note_outcome(code: &Code, response: &worker::Response, started: u64) -> std::result::Result<(), Problem> {
    if let Some(line) = response.headers().get(OUTCOME_HEADER)? {
        if let Ok(mut line) = serde_json::from_str::<OutcomeLine>(&line) {
            line.code.get_or_insert_with(|| code.as_str().to_owned());
            line.ms = Some(worker::Date::now().as_millis().saturating_sub(started));
            if let Ok(text) = serde_json::to_string(&line) {
                worker::console_log!("{text}");
            }
            if line.purge {
                edge_cache::purge(code).await;
            }
        }
    }
    Ok(())
}

/// Sends `call` to the catalog, as it answers.
async fn send(env: &Env, call: &CatalogCall) -> Answer {
    send_to(env, CATALOG_NAME, call).await
}

/// The object of the catalog's class that keeps webhook endpoint `id`'s log of deliveries.
pub fn webhook_log(id: &str) -> String {
    format!("webhook:{id}")
}

/// Asks the object of the catalog's class named `name` (the catalog, or an
/// endpoint's [`webhook_log`]): `call`'s answer, or [`Problem::Internal`] when it refuses it.
pub async fn to_catalog_named(env: &Env, name: &str, call: CatalogCall) -> Answer {
    let response = send_to(env, name, &call).await?;
    if response.status_code() >= 300 {
        return Err(refused(&call, response.status_code()));
    }
    Ok(response)
}

/// Sends `call` to the object of the catalog's class named `name`, as it answers.
async fn send_to(env: &Env, name: &str, call: &CatalogCall) -> Answer {
    let body = serde_json::to_string(call).map_err(|e| Problem::Internal(e.to_string()))?;
    let stub = env.durable_object(CATALOG_BINDING)?.id_from_name(name)?.get_stub()?;
    let url = format!("https://do{}", call.route().path());
    Ok(stub
        .fetch_with_request(internal(Method::Post, &url, Some(body), &[])?)
        .await?)
}

/// Asks the catalog: `call`'s answer (its JSON is the type the call's
/// variant names), or [`Problem::Internal`] when the catalog refuses it.
pub async fn to_catalog(env: &Env, call: CatalogCall) -> Answer {
    let response = send(env, &call).await?;
    if response.status_code() >= 300 {
        return Err(refused(&call, response.status_code()));
    }
    Ok(response)
}

/// Records a definition change of `code` in the catalog: `step` is
/// [`CatalogCall::Intend`] before the code's object is written,
/// [`CatalogCall::Commit`] after (or [`CatalogCall::Forget`] when it never was).
///
/// # Errors
///
/// [`Problem::CodeExists`] when `intend` names a campaign's code (it is not defined alone).
pub async fn catalog_change(
    env: &Env,
    step: fn(Change) -> CatalogCall,
    code: &Code,
    archived: bool,
) -> std::result::Result<(), Problem> {
    let call = step(Change {
        code: code.as_str().to_owned(),
        archived,
    });
    match send(env, &call).await?.status_code() {
        409 if matches!(call, CatalogCall::Intend(_)) => Err(Problem::CodeExists(code.clone())),
        status if status >= 300 => Err(refused(&call, status)),
        _ => Ok(()),
    }
}

/// The catalog refused `call` with `status`: a bug or an outage.
fn refused(call: &CatalogCall, status: u16) -> Problem {
    Problem::Internal(format!("the catalog answered {status} to {}", call.route().path()))
}

thread_local! {
    /// Codes this isolate has seen in the catalog, with the name of their
    /// object. A code, once defined, stays known and keeps its object (an
    /// archived code's object answers 404 itself), so this never goes
    /// stale; only the unknown (and the forgotten, past [`KNOWN_CODES_MAX`])
    /// are asked for again.
    static KNOWN: RefCell<BoundedMap<Code, String, KNOWN_CODES_MAX>> = RefCell::new(BoundedMap::default());
}

/// Whether `code` was ever defined, without addressing its object (which would create it).
pub async fn is_known(env: &Env, code: &Code) -> std::result::Result<bool, Problem> {
    Ok(known_object(env, code).await?.is_some())
}

/// The name of `code`'s object if the catalog knows the code: the code, or
/// its campaign's object.
async fn known_object(env: &Env, code: &Code) -> std::result::Result<Option<String>, Problem> {
    if let Some(name) = KNOWN.with(|known| known.borrow().get(code).cloned()) {
        return Ok(Some(name));
    }
    // A campaign's code the isolate has listed: no catalog's round trip for each new code.
    if let Some(name) = campaign_index::object_of(code) {
        return Ok(Some(name));
    }
    let change = Change {
        code: code.as_str().to_owned(),
        archived: false,
    };
    let mut response = to_catalog(env, CatalogCall::Exists(change)).await?;
    let entry: Option<Entry> = response.json().await?;
    let Some(entry) = entry else {
        return Ok(None);
    };
    let name = match entry.campaign.as_deref().map(Code::parse) {
        Some(Ok(id)) => {
            let name = campaign_object(&id);
            campaign_index::learn(env, &id, &name, code).await;
            name
        }
        Some(Err(err)) => {
            return Err(Problem::Internal(format!(
                "the catalog names a campaign that is not an id: {err}"
            )))
        }
        None => code.as_str().to_owned(),
    };
    KNOWN.with(|map| map.borrow_mut().insert(code.clone(), name.clone()));
    Ok(Some(name))
}

/// Whether this isolate knows `code` as a campaign's code (asks nothing: a
/// code not remembered, or not listed, is `false`).
pub fn known_in_campaign(code: &Code) -> bool {
    known_campaign_object(code).is_some()
}

/// The object of the campaign this isolate knows `code` in (asks nothing).
pub fn known_campaign_object(code: &Code) -> Option<String> {
    let remembered = KNOWN.with(|known| known.borrow().get(code).cloned());
    match remembered {
        Some(name) => (name != code.as_str()).then_some(name),
        None => campaign_index::object_of(code),
    }
}

/// The object of `code`: its campaign's if the catalog says it has one, else
/// its own (a code being defined is not in the catalog's answer yet).
async fn object_of(env: &Env, code: &Code) -> std::result::Result<String, Problem> {
    Ok(known_object(env, code)
        .await?
        .unwrap_or_else(|| code.as_str().to_owned()))
}

/// Refuses a code that was never defined with [`Problem::UnknownCode`], without creating its object.
pub async fn require_known(env: &Env, code: &Code) -> std::result::Result<(), Problem> {
    if is_known(env, code).await? {
        Ok(())
    } else {
        Err(Problem::UnknownCode(code.clone()))
    }
}
