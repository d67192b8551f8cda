//! The per-address limit on the public routes, counted by Cloudflare's Rate
//! Limiting binding [`PUBLIC_LIMITER`] (`[[ratelimits]]` in `wrangler.toml`,
//! 60 requests per 10 s by default). The key is the client address
//! (`CF-Connecting-IP`).

use worker::{Env, Request};

use crate::http::client_address;
use crate::limits::{PUBLIC_LIMITER, PUBLIC_RATE_PERIOD_SECONDS};
use crate::problem::Problem;

/// Counts this request against its client address.
///
/// # Errors
///
/// [`Problem::TooManyRequests`] over the limit; [`Problem::Misconfigured`]
/// when the binding is missing.
pub async fn check(req: &Request, env: &Env) -> Result<(), Problem> {
    let key = client_address(req)?;
    let limiter = env
        .rate_limiter(PUBLIC_LIMITER)
        .map_err(|_| Problem::Misconfigured(PUBLIC_LIMITER))?;
    if limiter.limit(key).await?.success {
        Ok(())
    } else {
        Err(Problem::TooManyRequests {
            retry_after: PUBLIC_RATE_PERIOD_SECONDS,
        })
    }
}
