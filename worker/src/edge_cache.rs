//! The public lookup of a code (`GET /v1/codes/{code}`) served from the edge
//! cache (the Workers Cache API, `caches.default`) for a few seconds, so that a
//! crowd typing one code costs its Durable Object about one read per edge
//! location per period instead of one per buyer. There is one entry per code,
//! whatever host the lookup came through ([`key`]).
//!
//! Only anonymous lookups use it: a request with a valid token (an operator,
//! a shop's server) always reads the object's live counts. Redefining a code,
//! switching it off or archiving it purges the entry, and so does the first
//! hold, capture or release after the object answered a lookup for the cache
//! (in the data center that handled the change; elsewhere the entry ages out
//! within [`MAX_AGE_SECONDS`]). An entry is kept no longer than the code's
//! next hold has to run, since the counts change when it expires. So a crowd
//! that only looks costs the object about one read per period, a crowd that
//! also buys about one read per write, and a buyer's lookup after a write in
//! the same data center sees it. Every decision (hold, capture) is made by
//! the object on its live counts.
//!
//! A campaign's codes are never cached: a use of any code of the campaign
//! moves every code's counts (its total, its budget), which a purge by code
//! could not follow, and each such code is mostly one buyer's, so a copy
//! would save little.
//!
//! The list of automatic promotions (`GET /v1/automatic`) is cached the same
//! way under one entry ([`AUTOMATIC_KEY`]), purged on any change of an
//! automatic definition (its `PUT`, `PATCH` or archive, in the data center
//! that handled it; elsewhere it ages out within [`MAX_AGE_SECONDS`]). It
//! holds definitions only, no counts, so no hold or capture purges it.
//!
//! The client is told `Cache-Control: no-cache`: a browser asks again each
//! time (the edge answers), so it never shows a copy a purge has dropped.

use promocodes::Code;
use worker::{Cache, Response};

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
use crate::protocol::FRESH_FOR_HEADER;

/// How long a lookup is served from the cache, in seconds.
pub const MAX_AGE_SECONDS: u32 = 5;

/// The header that says whether an answer came from the cache (`hit`) or the object (`miss`).
pub const CACHE_STATUS: &str = "x-promocodes-cache";

/// The origin of every cache key: a fixed name under the reserved `.invalid`
/// top-level domain, never fetched. Lookups are keyed by the code alone, not
/// by the host they came through, so that a write through any host purges
/// the one entry, and no `Host` header makes an entry of its own.
pub const CACHE_ORIGIN: &str = "https://promocodes.invalid";

/// The cache key of `code`'s public lookup: [`CACHE_ORIGIN`] and the code's
/// normalised path, whatever the request's host.
pub fn key(code: &Code) -> String {
    format!("{CACHE_ORIGIN}/v1/codes/{code}")
}

/// The cache key of the list of automatic promotions.
pub const AUTOMATIC_KEY: &str = "https://promocodes.invalid/v1/automatic";

/// The cached lookup of `code`, if one is fresh.
///
/// # Errors
///
/// A runtime error from the cache.
pub async fn lookup(code: &Code) -> Result<Option<Response>, Problem> {
    lookup_at(key(code)).await
}

/// The cached answer under `key`, if one is fresh.
///
/// # Errors
///
/// A runtime error from the cache.
pub async fn lookup_at(key: String) -> Result<Option<Response>, Problem> {
    let hit = Cache::default().get(key, true).await?;
    Ok(match hit {
        Some(response) => {
            let mut response = mutable(response).await?;
            response.headers_mut().set("cache-control", CLIENT_CACHE_CONTROL)?;
            response.headers_mut().set(CACHE_STATUS, "hit")?;
            Some(response)
        }
        None => None,
    })
}

/// What a client is told of a lookup from the edge cache: ask again (the
/// edge answers at once); the edge's copy is purged by writes, a browser's
/// could not be.
pub const CLIENT_CACHE_CONTROL: &str = "no-cache";

/// Stores the object's answer to a lookup for the cache (200 only), for
/// [`MAX_AGE_SECONDS`] or until the code's next hold expires if that is
/// sooner ([`FRESH_FOR_HEADER`]; not at all under a second), and returns it.
///
/// # Errors
///
/// A runtime error from the cache or the headers.
pub async fn store(code: &Code, response: Response) -> Result<Response, Problem> {
    store_at(key(code), response).await
}

/// [`store`] under `key`.
///
/// # Errors
///
/// A runtime error from the cache or the headers.
pub async fn store_at(key: String, response: Response) -> Result<Response, Problem> {
    if response.status_code() != 200 {
        return Ok(response);
    }
    let mut response = mutable(response).await?;
    let fresh_for = response
        .headers()
        .get(FRESH_FOR_HEADER)?
        .and_then(|seconds| seconds.parse::<u32>().ok())
        .map_or(MAX_AGE_SECONDS, |seconds| seconds.min(MAX_AGE_SECONDS));
    response.headers_mut().delete(FRESH_FOR_HEADER)?;
    if fresh_for > 0 {
        response
            .headers_mut()
            .set("cache-control", &format!("public, max-age={fresh_for}"))?;
        let copy = response.cloned()?;
        Cache::default().put(key, copy).await?;
    }
    response.headers_mut().set("cache-control", CLIENT_CACHE_CONTROL)?;
    response.headers_mut().set(CACHE_STATUS, "miss")?;
    Ok(response)
}

/// Drops `code`'s cached lookup (after a change of its definition or counts).
///
/// It runs after the change is committed, so a failure is logged, never
/// returned: the change's answer stands, and the copy ages out within
/// [`MAX_AGE_SECONDS`].
pub async fn purge(code: &Code) {
    purge_at(key(code)).await;
}

/// Drops the cached answer under `key`, as [`purge`] does (a failure is logged).
pub async fn purge_at(key: String) {
    let purged = Cache::default().delete(key.as_str(), true).await;
    if let Err(err) = purged {
        worker::console_error!("purging the cached {key} failed: {}", Problem::from(err).body());
    }
}

#[cfg(test)]
mod tests {
    use promocodes::Code;

    use super::key;

    #[test]
    fn the_key_is_the_normalised_code_under_one_origin() {
        let code = Code::parse("save10").unwrap();
        assert_eq!(key(&code), "https://promocodes.invalid/v1/codes/SAVE10");
    }
}
