//! The protocol between the Worker and a code's object ([`crate::ledger::Ledger`]):
//! every request the Worker sends it is a [`Call`], and this file is the one
//! place that says its method, its path, its log name and its headers. The
//! Worker builds requests with [`Call::request`]; the object reads them back
//! with [`Call::of`].

use worker::{Headers, Method, Request, RequestInit, Result};

use promocodes::Code;
use wasm_bindgen::JsValue;

use crate::problem::Problem;

/// The header that carries a hold's, capture's or release's outcome from the
/// object to the Worker, which logs it.
pub const OUTCOME_HEADER: &str = "x-promocodes-outcome";

/// The header on a campaign's list of codes ([`Call::CodeLines`]): the
/// `seq` of the last code the campaign added, which a later load passes as
/// `after` to read only the codes added since.
pub const CODES_SEQ_HEADER: &str = "x-promocodes-codes-seq";

/// The header on a lookup the Worker will keep in the edge cache.
pub const FOR_CACHE_HEADER: &str = "x-promocodes-for-cache";

/// The header on a lookup for the edge cache when a hold will expire (and
/// the counts change without a write) sooner than the cache would keep it:
/// the whole seconds until then.
pub const FRESH_FOR_HEADER: &str = "x-promocodes-fresh-for";

/// The header that carries a hold's or capture's idempotency key.
pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";

/// Test builds only: makes every compare-and-set of a capture lose, to see a
/// 409 end to end.
pub const TEST_CONFLICT_HEADER: &str = "x-test-conflict";

/// Test builds only (feature `conformance`; ignored otherwise): a hold or
/// capture of a stack (`codes`) stops after its first code is written and
/// waits [`TEST_STALL_SECONDS`] before the next, so that a test can kill the
/// process (`kill -9`) between two codes and retry with the same key.
pub const TEST_STALL_HEADER: &str = "x-test-stall-after-first-code";

/// Test builds only (feature `conformance`; ignored otherwise): codes of
/// `POST /v1/campaigns/{id}/codes` are drawn from a generator seeded with
/// this number instead of the cryptographic one, so that a test can make a
/// generated code collide with an existing one (and see it drawn again).
pub const TEST_SEED_HEADER: &str = "x-test-seed";

/// Test builds only (feature `conformance`; ignored otherwise): a code's
/// `PUT` leaves this isolate's layout of the code as it was, so that the
/// isolate plays one of the many that have not heard of a change of
/// `shards` yet (`tests/worker/reshard.test.mjs`).
pub const TEST_KEEP_LAYOUT_HEADER: &str = "x-test-keep-layout";

/// How long a stack stalled by [`TEST_STALL_HEADER`] waits: longer than any test.
pub const TEST_STALL_SECONDS: u64 = 300;

/// The header on a hold, capture or release sent to one of a sharded code's
/// shard objects: the shard's number (see [`crate::shards`]).
pub const SHARD_HEADER: &str = "x-promocodes-shard";

/// The header on a hold, capture or release sent to a shard of a campaign
/// spread over shards: the campaign's object (`campaign:<id>`), whose
/// escrow the shard draws on (a code's shard draws on its code's object).
pub const BASE_HEADER: &str = "x-promocodes-base";

/// The header on a payment's release sent to every shard of a sharded code
/// first: a shard with nothing under the payment's id answers 404 and
/// records nothing (see [`crate::shards::send_payment_release`]).
pub const KNOWN_ONLY_HEADER: &str = "x-promocodes-known-only";

/// The header on a payment's release sent to a code's own object by a
/// Worker that knows the code on one shard: an object whose code is spread
/// over shards now answers [`STALE_LAYOUT_STATUS`] and records nothing, and
/// the Worker asks for the layout (see [`crate::shards::send_payment_release`]).
pub const ONE_SHARD_HEADER: &str = "x-promocodes-one-shard";

/// What a code's object answers a request whose sender's layout is stale
/// (421 Misdirected Request): it was sent as if the code were on one shard.
pub const STALE_LAYOUT_STATUS: u16 = 421;

/// The header on a hold, capture or payment an object sent on to the one
/// that decides it (a code whose `shards` changed: see
/// [`crate::ledger`]'s `shard.rs`): how many times it was sent on. An object
/// sends on at most [`MAX_FORWARDS`] times.
pub const FORWARDED_HEADER: &str = "x-promocodes-forwarded";

/// The header on the answer to a request an object sent on (see
/// [`FORWARDED_HEADER`]): the layout the Worker routed it on is out of date.
/// The Worker takes it off the answer and asks for the code's layout before
/// its next request of that code (an isolate keeps a code on one shard for
/// its life otherwise, and every request would take the extra hop).
pub const MOVED_HEADER: &str = "x-promocodes-moved";

/// Test builds only (feature `conformance`): the header the Worker puts on an answer in place of
/// [`MOVED_HEADER`], so that a test sees which requests an object sent on.
pub const TEST_MOVED_HEADER: &str = "x-test-moved";

/// The most times a request is sent on from object to object.
pub const MAX_FORWARDS: u8 = 4;

/// The header on a request an object sends on, for a code whose `shards`
/// changed: the sender's layout (`wire::ShardDefinition` as JSON). A shard
/// that knew an older one takes it first, so two objects that knew
/// different layouts do not send a request back and forth.
pub const LAYOUT_HEADER: &str = "x-promocodes-layout";

/// One request of the Worker to a code's object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `PUT /definition`: define or replace the code (the body is the
    /// definition), with the client's `If-Match` when it sent one.
    PutDefinition,
    /// `PATCH /definition`: the kill switch (`{"active": bool}`), with the
    /// client's `If-Match` when it sent one.
    PatchDefinition,
    /// `DELETE /definition`: archive the code.
    ArchiveDefinition,
    /// `GET /definition`: the public lookup (with [`FOR_CACHE_HEADER`] when it
    /// goes to the edge cache; without it, the answer carries the `ETag`).
    GetDefinition,
    /// `GET /summary`: the catalog listing's summary of the code.
    Summary,
    /// `POST /quote`: price a basket.
    Quote,
    /// `POST /stack-part`: the code's whole definition and its usage (for
    /// `{"customer"?}`), for the Worker to price a stack of codes with.
    StackPart,
    /// `POST /hold`: hold a use (with [`IDEMPOTENCY_KEY_HEADER`]).
    Hold,
    /// `POST /capture`: capture a use (with [`IDEMPOTENCY_KEY_HEADER`]).
    Capture,
    /// `POST /release`: give a use back.
    Release,
    /// `POST /payment-capture`: a payment provider's confirmation.
    PaymentCapture,
    /// `POST /payment-release`: a payment provider's cancel, failure or refund.
    PaymentRelease,
    /// `GET /redemptions`: a page of the code's history.
    Redemptions,
    /// `GET /stats`: the code's figures.
    Stats,
    /// `GET /changes`: a page of the changes of the code's (or the campaign's) definition.
    Changes,
    /// `POST /tries`: the checkout page's report of the code tried (`{"refused"?}`), counted in memory.
    Tries,
    /// `PUT /campaign`: define or replace the campaign (the body is its definition; `code` is its id).
    PutCampaign,
    /// `GET /campaign`: the campaign's definition, usage and codes.
    GetCampaign,
    /// `PATCH /campaign`: the campaign's kill switch (`{"active": bool}`), for all of its codes.
    PatchCampaign,
    /// `DELETE /campaign`: archive the campaign (its codes are then unknown to buyers).
    ArchiveCampaign,
    /// `POST /codes`: plan the codes a call adds (with [`IDEMPOTENCY_KEY_HEADER`]),
    /// generated or imported; a known key answers its plan.
    PlanCodes,
    /// `POST /codes/commit`: add the codes planned under the key, once the catalog has them.
    CommitCodes,
    /// `POST /codes/redraw?taken=`: draw again, in the generated plan under the key, a code the
    /// catalog found existing elsewhere.
    RedrawCode,
    /// `GET /codes`: a page of the campaign's codes.
    CampaignCodes,
    /// `GET /code-lines?max=`: every code of the campaign, one a line (`413` past `max`), for the
    /// Worker's isolate to find its codes in ([`crate::campaign_index`]).
    CodeLines,
    /// `POST /retry-delivery`: send one event to one webhook endpoint again (`{"endpoint", "seq"}`).
    RetryDelivery,
    /// `GET /shards`: how many shards the code is spread over (`wire::ShardsAnswer`).
    ShardCount,
    /// `POST /shard-grant`: a shard asks the code's object for an allotment (`wire::GrantCall`).
    ShardGrant,
    /// `POST /shard-recall`: the code's object takes a shard's unused allotment back (`wire::RecallCall`).
    ShardRecall,
    /// `GET /shard-usage`: a shard's counts (`wire::ShardUsage`).
    ShardUsage,
    /// `POST /shard-freed`: a shard gave a use back (a release): the code's object recalls again.
    ShardFreed,
    /// `POST /shard-spent`: a shard used the last of an allotment that drained the code's object:
    /// the code's object reads its shards' totals now (its own events: `code.exhausted`).
    ShardSpent,
    /// `POST /shard-definition`: the code's object tells a shard its definition changed (`wire::ShardDefinition`).
    ShardDefinition,
    /// `POST /shard-claim`: a customer's shard claims an idempotency key at the key's shard (`wire::KeyClaim`).
    ShardClaim,
    /// `GET /shard-figures`: a shard's figures, for the code's stats (`wire::ShardFigures`).
    ShardFigures,
    /// `POST /shard-lookup`: a shard of a code whose `shards` changed asks an object of an earlier
    /// layout what it has of a key and a customer (`wire::PriorLookup`).
    ShardLookup,
    /// `POST /shard-keys`: a shard of a code whose `shards` changed asks an object of an earlier
    /// layout for every key it knows, once (`wire::KeysCall`).
    ShardKeys,
    /// `POST /shard-code-claim`: a campaign's shard asks the campaign's object for more of one
    /// code's uses (`wire::CodeClaim`).
    ShardCodeClaim,
    /// `POST /shard-code-recall`: the campaign's object takes back what a shard has not used of one
    /// code (`wire::CodeRecall`).
    ShardCodeRecall,
    /// `POST /shard-code-counts`: the campaign's object asks a shard for some of its codes' counts
    /// (`wire::CodeCountsCall`).
    ShardCodeCounts,
    /// `POST /conformance`: test builds only, the store conformance suite.
    #[cfg(feature = "conformance")]
    Conformance,
    /// `GET /figure-writes`: test builds only, when the object wrote its figures.
    #[cfg(feature = "conformance")]
    FigureWrites,
}

impl Call {
    /// Every call, for the tests that check the table both ways.
    pub const ALL: &'static [Call] = &[
        Call::PutDefinition,
        Call::PatchDefinition,
        Call::ArchiveDefinition,
        Call::GetDefinition,
        Call::Summary,
        Call::Quote,
        Call::StackPart,
        Call::Hold,
        Call::Capture,
        Call::Release,
        Call::PaymentCapture,
        Call::PaymentRelease,
        Call::Redemptions,
        Call::Stats,
        Call::Changes,
        Call::Tries,
        Call::PutCampaign,
        Call::GetCampaign,
        Call::PatchCampaign,
        Call::ArchiveCampaign,
        Call::PlanCodes,
        Call::CommitCodes,
        Call::RedrawCode,
        Call::CampaignCodes,
        Call::CodeLines,
        Call::RetryDelivery,
        Call::ShardCount,
        Call::ShardGrant,
        Call::ShardRecall,
        Call::ShardUsage,
        Call::ShardFreed,
        Call::ShardSpent,
        Call::ShardDefinition,
        Call::ShardClaim,
        Call::ShardFigures,
        Call::ShardLookup,
        Call::ShardKeys,
        Call::ShardCodeClaim,
        Call::ShardCodeRecall,
        Call::ShardCodeCounts,
        #[cfg(feature = "conformance")]
        Call::Conformance,
        #[cfg(feature = "conformance")]
        Call::FigureWrites,
    ];

    /// Its method and path inside the object.
    pub fn route(self) -> (Method, &'static str) {
        match self {
            Call::PutDefinition => (Method::Put, "/definition"),
            Call::PatchDefinition => (Method::Patch, "/definition"),
            Call::ArchiveDefinition => (Method::Delete, "/definition"),
            Call::GetDefinition => (Method::Get, "/definition"),
            Call::Summary => (Method::Get, "/summary"),
            Call::Quote => (Method::Post, "/quote"),
            Call::StackPart => (Method::Post, "/stack-part"),
            Call::Hold => (Method::Post, "/hold"),
            Call::Capture => (Method::Post, "/capture"),
            Call::Release => (Method::Post, "/release"),
            Call::PaymentCapture => (Method::Post, "/payment-capture"),
            Call::PaymentRelease => (Method::Post, "/payment-release"),
            Call::Redemptions => (Method::Get, "/redemptions"),
            Call::Stats => (Method::Get, "/stats"),
            Call::Changes => (Method::Get, "/changes"),
            Call::Tries => (Method::Post, "/tries"),
            Call::PutCampaign => (Method::Put, "/campaign"),
            Call::GetCampaign => (Method::Get, "/campaign"),
            Call::PatchCampaign => (Method::Patch, "/campaign"),
            Call::ArchiveCampaign => (Method::Delete, "/campaign"),
            Call::PlanCodes => (Method::Post, "/codes"),
            Call::CommitCodes => (Method::Post, "/codes/commit"),
            Call::RedrawCode => (Method::Post, "/codes/redraw"),
            Call::CampaignCodes => (Method::Get, "/codes"),
            Call::CodeLines => (Method::Get, "/code-lines"),
            Call::RetryDelivery => (Method::Post, "/retry-delivery"),
            Call::ShardCount => (Method::Get, "/shards"),
            Call::ShardGrant => (Method::Post, "/shard-grant"),
            Call::ShardRecall => (Method::Post, "/shard-recall"),
            Call::ShardUsage => (Method::Get, "/shard-usage"),
            Call::ShardFreed => (Method::Post, "/shard-freed"),
            Call::ShardSpent => (Method::Post, "/shard-spent"),
            Call::ShardDefinition => (Method::Post, "/shard-definition"),
            Call::ShardClaim => (Method::Post, "/shard-claim"),
            Call::ShardFigures => (Method::Get, "/shard-figures"),
            Call::ShardLookup => (Method::Post, "/shard-lookup"),
            Call::ShardKeys => (Method::Post, "/shard-keys"),
            Call::ShardCodeClaim => (Method::Post, "/shard-code-claim"),
            Call::ShardCodeRecall => (Method::Post, "/shard-code-recall"),
            Call::ShardCodeCounts => (Method::Post, "/shard-code-counts"),
            #[cfg(feature = "conformance")]
            Call::Conformance => (Method::Post, "/conformance"),
            #[cfg(feature = "conformance")]
            Call::FigureWrites => (Method::Get, "/figure-writes"),
        }
    }

    /// The call a request to the object is, from its method and path.
    pub fn of(method: &Method, path: &str) -> Option<Call> {
        Call::ALL.iter().copied().find(|call| {
            let (m, p) = call.route();
            &m == method && p == path
        })
    }

    /// The operation it is in the log lines: a hold, a capture or a release
    /// (from the API or a payment provider), else `None`.
    pub fn log_name(self) -> Option<&'static str> {
        match self {
            Call::Hold => Some("hold"),
            Call::Capture | Call::PaymentCapture => Some("capture"),
            Call::Release | Call::PaymentRelease => Some("release"),
            _ => None,
        }
    }

    /// The request for `code`'s object: `https://do<path>?code=<code>` plus
    /// `query`, with `body` (JSON) and `headers`.
    ///
    /// # Errors
    ///
    /// A runtime error building the request.
    pub fn request(
        self,
        code: &Code,
        query: &[(&str, &str)],
        body: Option<String>,
        headers: &[(&str, &str)],
    ) -> Result<Request> {
        let (method, path) = self.route();
        let mut url = format!("https://do{path}?code={code}");
        for (name, value) in query {
            url.push_str(&format!(
                "&{name}={}",
                String::from(worker::js_sys::encode_uri_component(value))
            ));
        }
        internal(method, &url, body, headers)
    }
}

/// An internal request to a Durable Object at `url`, with a JSON body and extra headers.
///
/// # Errors
///
/// A runtime error building the request.
pub fn internal(method: Method, url: &str, body: Option<String>, headers: &[(&str, &str)]) -> Result<Request> {
    let all = Headers::new();
    for (name, value) in headers {
        all.set(name, value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(all);
    if let Some(body) = body {
        init.with_body(Some(JsValue::from_str(&body)));
    }
    Request::new_with_init(url, &init)
}

/// Reads the body of a call that only this crate writes (a shard's grant,
/// a key's claim, a stack's part, ...): with serde_json alone, since such a
/// body is never a person's input to be told which field is wrong. Reading
/// these through [`promocodes::from_json`] compiled each type's reader a
/// second time, around `serde_path_to_error`, into the Worker's upload.
///
/// # Errors
///
/// [`Problem::Internal`] naming what could not be read: a call this crate
/// wrote wrongly, a bug.
pub fn read<T: serde::de::DeserializeOwned>(body: &str) -> std::result::Result<T, Problem> {
    serde_json::from_str(body).map_err(|err| {
        Problem::Internal(format!(
            "an internal call's {} unreadable: {err}",
            std::any::type_name::<T>()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_or_named_as_a_bug() {
        let read: (u8, bool) = read("[4, true]").expect("read");
        assert_eq!(read, (4, true));
        let err = super::read::<(u8, bool)>("[4]").unwrap_err();
        assert!(
            matches!(err, Problem::Internal(ref why) if why.contains("unreadable")),
            "{err:?}"
        );
    }

    #[test]
    fn every_call_is_read_back_from_its_route() {
        for &call in Call::ALL {
            let (method, path) = call.route();
            assert_eq!(Call::of(&method, path), Some(call), "{call:?}");
        }
        assert_eq!(Call::of(&Method::Get, "/hold"), None);
        assert_eq!(Call::of(&Method::Post, "/nothing"), None);
    }

    #[test]
    fn only_holds_captures_and_releases_are_logged() {
        let logged: Vec<_> = Call::ALL.iter().filter_map(|c| c.log_name()).collect();
        assert_eq!(logged, ["hold", "capture", "release", "capture", "release"]);
    }
}
