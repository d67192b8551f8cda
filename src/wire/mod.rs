//! The wire: every request and answer of the HTTP API (problems included)
//! and every call the Worker makes to its Durable Objects, as typed Rust
//! values, defined once here and written by serde.
//!
//! Adapters build their answers from these types and read their calls
//! back into them; none patches a `serde_json::Value`. The core's own
//! values ([`Quote`](crate::Quote), [`UsageCounts`](crate::UsageCounts),
//! [`Money`](crate::Money), ...) appear in them as they are: their JSON is
//! theirs. Request bodies the core validates live in [`api`](crate::api).
//!
//! One file a resource: `checkout` (quotes, holds, captures, releases, one
//! code or a stack, and the demo routes), `payments` (the payment provider's
//! webhook and the code object's payment flow), `admin` (codes and
//! campaigns: definitions, lookups, listings, generated codes), `history`
//! (a code's or a campaign's redemptions and figures), `changes` (the
//! history of a definition's changes), `problem` (an RFC
//! 9457 problem's body), `catalog` (the catalog object's calls and answers),
//! `outcome` (a hold's, capture's or release's log line, from a code's object),
//! `events` (the events sent to the shop's webhook endpoints), `webhooks` (those
//! endpoints, as the admin API and the catalog keep them).

mod admin;
mod catalog;
mod changes;
mod checkout;
mod events;
mod history;
mod outcome;
mod payments;
mod problem;
mod shards;
mod webhooks;

pub use admin::*;
pub use catalog::*;
pub use changes::*;
pub use checkout::*;
pub use events::*;
pub use history::*;
pub use outcome::*;
pub use payments::*;
pub use problem::*;
pub use shards::*;
pub use webhooks::*;
