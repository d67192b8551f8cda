//! The public lookup of a code (`GET /v1/codes/{code}`) served from the edge
//! cache (the Workers Cache API, `caches.default`) for a few seconds, so that a
//! crowd typing one code costs its Durable Object about one read per edge
//! location per period instead of one per buyer.
//!
//! Only anonymous lookups use it: a request with a valid token (an operator,
//! a shop's server) always reads the object's live counts. Redefining a code,
//! switching it off or archiving it purges the entry (in the data center that
//! handled the change; elsewhere it ages out within [`MAX_AGE_SECONDS`]). The
//! usage a buyer's page shows may therefore be a few seconds old; every
//! decision (hold, capture) is made by the object on its live counts.

use promocodes::Code;
use worker::{Cache, Request, Response};

/// A copy of `response` whose headers can be changed (a subrequest's are immutable).
///
/// # Errors
///
/// A runtime error reading the body.
pub async fn mutable(mut response: Response) -> Result<Response, Problem> {
    let status = response.status_code();
    let headers = response.headers().clone();
    let body = response.bytes().await?;
    Ok(Response::from_bytes(body)?.with_status(status).with_headers(headers))
}

use crate::problem::Problem;

/// How long a lookup is served from the cache, in seconds.
pub const MAX_AGE_SECONDS: u32 = 5;

/// The header that says whether an answer came from the cache (`hit`) or the object (`miss`).
pub const CACHE_STATUS: &str = "x-promocodes-cache";

/// The cache key of `code`'s public lookup: the request's origin and the code's normalised path.
fn key(req: &Request, code: &Code) -> Result<String, Problem> {
    let url = req.url()?;
    Ok(format!("{}/v1/codes/{code}", url.origin().ascii_serialization()))
}

/// The cached lookup of `code`, if one is fresh.
///
/// # Errors
///
/// A runtime error from the cache.
pub async fn lookup(req: &Request, code: &Code) -> Result<Option<Response>, Problem> {
    let hit = Cache::default().get(key(req, code)?, true).await?;
    Ok(match hit {
        Some(response) => {
            let mut response = mutable(response).await?;
            response.headers_mut().set(CACHE_STATUS, "hit")?;
            Some(response)
        }
        None => None,
    })
}

/// Stores a fresh lookup answer (200 only) and returns it, marked cacheable.
///
/// # Errors
///
/// A runtime error from the cache or the headers.
pub async fn store(req: &Request, code: &Code, response: Response) -> Result<Response, Problem> {
    if response.status_code() != 200 {
        return Ok(response);
    }
    let mut response = mutable(response).await?;
    response
        .headers_mut()
        .set("cache-control", &format!("public, max-age={MAX_AGE_SECONDS}"))?;
    let copy = response.cloned()?;
    Cache::default().put(key(req, code)?, copy).await?;
    response.headers_mut().set(CACHE_STATUS, "miss")?;
    Ok(response)
}

/// Drops `code`'s cached lookup (after a change of its definition).
///
/// # Errors
///
/// A runtime error from the cache.
pub async fn purge(req: &Request, code: &Code) -> Result<(), Problem> {
    Cache::default().delete(key(req, code)?, true).await?;
    Ok(())
}
