//! Every size and rate the Worker enforces, in one place.
//!
//! The request rate itself is counted by Cloudflare's Rate Limiting binding
//! ([`PUBLIC_LIMITER`]), configured in `wrangler.toml`'s `[[ratelimits]]`
//! (`simple = { limit = 60, period = 10 }` by default); only the period the
//! Worker announces in `Retry-After` lives here, and it must match the binding's.

/// The most bytes of a `PUT /v1/codes/{code}` body: a definition may assign
/// up to 10,000 customers.
pub const DEFINITION_BODY_LIMIT: usize = 1024 * 1024;

/// The most bytes of a basket (`POST /v1/quotes`, `/v1/captures`, the
/// coming `/v1/holds`, and the demo routes): up to 500 lines.
pub const BASKET_BODY_LIMIT: usize = 64 * 1024;

/// The body of `POST /v1/campaigns/{id}/codes`: up to 10,000 imported codes of 64 characters.
pub const CODES_BODY_LIMIT: usize = 1024 * 1024;

/// The most bytes of a payment provider's webhook (Stripe's events are a few KB).
pub const WEBHOOK_BODY_LIMIT: usize = 64 * 1024;

/// How far a webhook signature's timestamp may be from now, in seconds (Stripe's default).
pub const WEBHOOK_TOLERANCE_SECONDS: i64 = crate::payments::DEFAULT_TOLERANCE_S;

/// The most items one page of an admin list returns (`GET /v1/codes`, a code's redemptions).
pub const MAX_PAGE: u32 = 1000;

/// The most bytes of any other request body.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024;

/// The Rate Limiting binding that counts public requests per client address.
pub const PUBLIC_LIMITER: &str = "PUBLIC_LIMITER";

/// The binding's period in seconds (`simple.period` in `wrangler.toml`,
/// 10 or 60), sent as `Retry-After` with a 429.
pub const PUBLIC_RATE_PERIOD_SECONDS: u32 = 10;

/// Seconds a client should wait before retrying a 409 conflict.
pub const CONFLICT_RETRY_AFTER_SECONDS: u32 = 1;

/// Seconds a browser may cache a CORS preflight answer.
pub const CORS_MAX_AGE_SECONDS: u32 = 600;
