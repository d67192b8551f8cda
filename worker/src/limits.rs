//! Every size and rate the Worker enforces, in one place, and the bound of
//! every map in memory that requests can grow.
//!
//! The request rate itself is counted by Cloudflare's Rate Limiting binding
//! ([`PUBLIC_LIMITER`]), configured in `wrangler.toml`'s `[[ratelimits]]`
//! (`simple = { limit = 60, period = 10 }` by default); only the period the
//! Worker announces in `Retry-After` lives here, and it must match the binding's.
//! The Worker keeps no bucket of its own: the binding counts, outside the isolate.
//!
//! The maps in memory a request can grow, each a cache of what storage holds
//! (so that an entry evicted is read again, never lost) or a count waiting to
//! be written (folded, never dropped), and each held to a bound here:
//! [`KNOWN_CODES_MAX`], [`CAMPAIGN_INDEX_MAX`] (with [`CAMPAIGN_LISTS_MAX`]), [`MIRRORED_CUSTOMERS_MAX`],
//! [`MIRRORED_CODES_MAX`] and [`PENDING_FIGURES_MAX`]. An object's mirror of its live holds is no
//! cache but the holds themselves, as SQLite has them: it is bounded by what
//! the code's limits let be held, and emptied as holds expire.

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

/// The longest operator's note on a definition change (`X-Change-Note`), in characters once decoded.
pub const CHANGE_NOTE_MAX_CHARS: usize = 500;

/// The Rate Limiting binding that counts public requests per client address.
pub const PUBLIC_LIMITER: &str = "PUBLIC_LIMITER";

/// The binding's period in seconds (`simple.period` in `wrangler.toml`,
/// 10 or 60), sent as `Retry-After` with a 429.
pub const PUBLIC_RATE_PERIOD_SECONDS: u32 = 10;

/// Seconds a client should wait before retrying a 409 conflict.
pub const CONFLICT_RETRY_AFTER_SECONDS: u32 = 1;

/// Seconds a browser may cache a CORS preflight answer.
pub const CORS_MAX_AGE_SECONDS: u32 = 600;

/// The longest `attempt` (the checkout attempt's id) the demo routes take: the
/// page sends a UUID (36 characters); the key is `demo-<attempt>`.
pub const DEMO_ATTEMPT_MAX_LEN: usize = 64;

/// The most codes an isolate remembers as known, with their object's name
/// ([`crate::clients`]): a code and a name of at most 64 characters each, so
/// at most a few MB of an isolate's 128 MB. Past it the oldest remembered is
/// forgotten, and asked of the catalog again when next used.
pub const KNOWN_CODES_MAX: usize = 10_000;

/// The most campaigns' codes an isolate keeps in its lists
/// ([`crate::campaign_index`]), all campaigns together: at 4 bytes and a
/// code's length (at most 64) a code, at most 6.8 MB of an isolate's 128 MB
/// (1.7 MB for codes of 12 characters), and about three times that while
/// one list loads (one at a time). A campaign that does not fit in what the
/// lists in use leave is not listed (its codes ask the catalog, as other
/// codes do); a list unused for [`CAMPAIGN_LIST_IDLE_MS`] gives its room up.
pub const CAMPAIGN_INDEX_MAX: usize = 100_000;

/// How long a campaign's list in an isolate may go unused before another
/// campaign's list may take its room, in milliseconds.
pub const CAMPAIGN_LIST_IDLE_MS: u64 = 60_000;

/// The most campaigns an isolate keeps a place for in its lists (listed or
/// not: a place remembers when the list may be asked for again).
pub const CAMPAIGN_LISTS_MAX: usize = 1_000;

/// How many codes a campaign's object reads a statement when it lists them
/// all for an isolate ([`crate::campaign_index`]): at 65 bytes a code at
/// most, about 1.3 MB, under the 2 MB that SQLite allows a value on Cloudflare.
pub const CODE_LINES_PAGE: i64 = 20_000;

/// The most customers whose captured uses a code's (or a campaign's) object
/// keeps in memory, read from SQLite for a limit per customer: a capture may
/// name any customer, so a crowd of them would grow the map without end.
/// Past it the oldest read is forgotten, and read from SQLite again when
/// next needed (a decision reads its few customers just before it uses them).
pub const MIRRORED_CUSTOMERS_MAX: usize = 10_000;

/// The most codes of a campaign whose own captured uses its object keeps in
/// memory, read from SQLite (a campaign may have millions of codes). Past it
/// the oldest read is forgotten, and read again when next needed.
pub const MIRRORED_CODES_MAX: usize = 10_000;

/// The most figures (a name in a minute) an object counts in memory before
/// writing them ([`crate::stats::Pending`], the quotes' figures): they are
/// written at least once a second, so a few minutes of some 40 names at most.
/// Past it the oldest minute's counts are folded into the all-time row
/// (minute 0): every count stays, only that minute's detail is lost.
pub const PENDING_FIGURES_MAX: usize = 512;
