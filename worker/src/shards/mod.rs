//! A hot code spread over shard objects (`"shards": N` in its definition):
//! the Worker's routing of its holds, captures and releases, and the tables
//! of the escrow between the code's object and its shards.
//!
//! The code's own object is the **coordinator** ([`crate::ledger`]'s
//! `coordinator.rs`): it keeps, per shard, the allotment of uses and of
//! budget (minor units) it granted, so that its own uses, plus every shard's
//! allotment, never exceed the cap and the budget. A **shard** (an object of
//! the same class named [`shard_name`], `<code>#<i>`, `shard.rs` there)
//! decides a use alone, in one transaction, with the core's one decision
//! loop on the code's definition with its allotment for the caps
//! ([`PromoCode::allotted`](promocodes::PromoCode::allotted)). When its
//! allotment is used, it asks the coordinator for more (a grant); when
//! little is left, the coordinator first takes the other shards' unused
//! allotments back (a recall), so that a buyer is refused `exhausted` only
//! when the code's total is used. Grants and recalls are keyed: the side
//! that starts one records its id before asking, the other answers the same
//! id the same way, and either side settles an unfinished one later.

use std::cell::{Cell, RefCell};

use promocodes::wire::ShardsAnswer;
use promocodes::{Code, CustomerId, IdempotencyKey, PromoCode};
use serde::Deserialize;
use worker::{Env, Request};

use crate::bounded::BoundedMap;
use crate::clients;
use crate::handlers::Answer;
use crate::limits::KNOWN_CODES_MAX;
use crate::problem::Problem;
use crate::protocol::{
    Call, BASE_HEADER, KNOWN_ONLY_HEADER, MOVED_HEADER, ONE_SHARD_HEADER, SHARD_HEADER, STALE_LAYOUT_STATUS,
};

pub mod codes;
pub mod history;
pub mod tables;

/// The most times a code's `shards` may change: a shard asks each earlier
/// layout's objects about a key new to it, so each change adds to that.
pub const MAX_LAYOUT_CHANGES: usize = 8;

/// The smallest grant a shard asks for.
pub const MIN_GRANT: u64 = 4;
/// The largest grant a shard asks for.
pub const MAX_GRANT: u64 = 4096;
/// How many times a shard decides one request again before it answers a conflict. Each round
/// follows a grant (another use taken somewhere, or the allotment moved): near the end of a hot
/// code, a request may wait behind many small grants others used first; the bound only guards
/// against a bug.
pub const MAX_ROUNDS: usize = 1000;

/// The header on a shard's answer in test builds: the shard's number and the grants it asked for, as
/// `<shard>;<grants>` (the benchmark counts the requests each object sees with it).
pub const TEST_SHARD_HEADER: &str = "x-test-shard";

/// Test builds only (feature `conformance`): with the variable `OBJECT_RATE_LIMIT` (requests a
/// second), each request of an object waits for its turn (`paced_until`): a stand-in, on one
/// machine, for the platform's limit on one Durable Object (the benchmark sets 50).
pub async fn pace(env: &Env, paced_until: &Cell<u64>) {
    if !cfg!(feature = "conformance") {
        return;
    }
    let Some(limit) = env
        .var("OBJECT_RATE_LIMIT")
        .ok()
        .and_then(|v| v.to_string().parse::<u64>().ok())
        .filter(|limit| *limit > 0)
    else {
        return;
    };
    let now = worker::Date::now().as_millis();
    let start = paced_until.get().max(now);
    paced_until.set(start + 1000 / limit);
    if start > now {
        worker::Delay::from(std::time::Duration::from_millis(start - now)).await;
    }
}

/// The object of shard `shard` of `code`: `<code>#<shard>` (no code has a `#`).
pub fn shard_name(code: &Code, shard: u8) -> String {
    shard_in(code.as_str(), shard)
}

/// Shard `shard` of the escrow kept in object `base` (a code's own object, or a
/// campaign's `campaign:<id>`): `<base>#<shard>`.
pub fn shard_in(base: &str, shard: u8) -> String {
    format!("{base}#{shard}")
}

/// The object that keeps `promo`'s escrow and grants its shards their
/// allotments: the code's own, or for a campaign's code its campaign's.
pub fn coordinator_of(promo: &PromoCode) -> String {
    match promo.campaign() {
        Some(id) => promocodes::Campaign::key_of(id.as_str()),
        None => promo.code().as_str().to_owned(),
    }
}

/// Shard `shard` of `promo`'s escrow (see [`coordinator_of`]).
pub fn shard_object(promo: &PromoCode, shard: u8) -> String {
    shard_in(&coordinator_of(promo), shard)
}

/// What `promo`'s uses count under in a store: the code, or its campaign's `campaign:<id>`.
pub fn counter(promo: &PromoCode) -> String {
    crate::sqlite::counter_of(promo.code(), promo.campaign())
}

/// In the Worker: the object that keeps `code`'s escrow, as this isolate
/// knows it (its campaign's once the catalog or a campaign's list named one).
pub fn base_of(code: &Code) -> String {
    clients::known_campaign_object(code).unwrap_or_else(|| code.as_str().to_owned())
}

/// What an object keeps in memory for the escrow: one grant or recall at a time.
#[derive(Default)]
pub struct Local {
    /// The coordinator's: one grant (with its recalls) at a time.
    pub escrow: futures_util::lock::Mutex<()>,
    /// A shard's: one request for a grant at a time (the others wait, then use it).
    pub grant: futures_util::lock::Mutex<()>,
    /// A campaign's object's: one claim of a code's uses (with its recalls) at a time.
    pub code_escrow: futures_util::lock::Mutex<()>,
    /// A shard's ids, unique in this instance.
    pub next_id: Cell<u64>,
    /// A shard's grant asked for in this instance whose answer it waits for now: a recall leaves it be.
    pub in_flight: RefCell<Option<String>>,
    /// A shard's requests waiting for a grant: the demand the next grant is sized to.
    pub waiting: Cell<u64>,
    /// A shard's grants asked for, in this instance (test builds show it on each answer: the benchmark's count
    /// of the requests that reach the code's object).
    pub grants_asked: Cell<u64>,
    /// Test builds only: when this object's next request may start under `OBJECT_RATE_LIMIT` (Unix milliseconds).
    pub paced_until: Cell<u64>,
    /// A shard's last answer of nothing left: the allotment's version it was
    /// asked on, and when it came (Unix milliseconds). A request that decided
    /// on that version before then is refused without asking again.
    pub nothing: Cell<Option<(i64, u64)>>,
    /// The coordinator's: since when nothing is left anywhere (a recall
    /// found every shard's allotment used, and no hold that could expire).
    /// Cleared by a use given back (a shard's release, a definition change,
    /// a new instance): until then a grant is answered nothing without a recall.
    pub exhausted: Cell<bool>,
    /// The coordinator's last sum of its shards' counts, and when it was read (Unix milliseconds).
    pub totals: RefCell<Option<Totals>>,
    /// A sharded campaign's object's: no code is watched for `code.exhausted` (see
    /// `shards::codes::watch`), as its table said; false in a new instance (read it).
    pub unwatched: Cell<bool>,
    /// A shard's: whether this instance wrote its number down (its events are written under its name).
    pub noted: Cell<bool>,
    /// A campaign's shard's: whether this instance wrote down the campaign's object it draws on.
    pub base_noted: Cell<bool>,
    /// A shard's: its last grant left nothing to grant at the code's object (`GrantAnswer::drained`):
    /// the write that uses the last of it tells the code's object (`/shard-spent`).
    pub drained: Cell<bool>,
    /// The coordinator's: when it reads its shards' totals next for the code's own events (Unix milliseconds).
    pub poll_at: Cell<Option<i64>>,
    /// The coordinator's: the wait between two such reads now (milliseconds; 0 before the first).
    pub poll_every: Cell<u64>,
    /// The code's earlier layouts as this object has them (`None`: read them again from its table).
    pub prior: RefCell<Option<Vec<u8>>>,
    /// A shard's: the keys each object of the code's earlier layouts knew,
    /// by code (a campaign's shard has many) and object (`None`: the code's
    /// own object, or its campaign's), as it answered, for the generation
    /// they were asked on (see [`key_hash`]); a newer layout asks again.
    pub known_keys: RefCell<KnownKeys>,
    /// A shard's: one such question at a time (the requests that wait use its answer).
    pub keys_turn: futures_util::lock::Mutex<()>,
}

/// A shard's copy of the keys the objects of its code's earlier layouts knew: the generation
/// (how many earlier layouts) they were asked on, and each code's and object's sorted key hashes
/// (`None`: too many to send). Emptied past [`KNOWN_KEY_LISTS_MAX`] lists (a campaign's shard).
pub type KnownKeys = (
    usize,
    std::collections::HashMap<(Code, Option<u8>), Option<std::rc::Rc<Vec<u32>>>>,
);

/// The most lists of keys a shard keeps (see [`KnownKeys`]): a campaign of many codes asks each
/// earlier object for each code's keys once, and past this asks again.
pub const KNOWN_KEY_LISTS_MAX: usize = 10_000;

/// The most keys an object sends in one [`KeysAnswer`](promocodes::wire::KeysAnswer) (past it, none: each is looked up).
/// 400 KB of hashes, kept by each shard that asked, for each object of the earlier layouts.
pub const KNOWN_KEYS_MAX: usize = 100_000;

/// The most keys an object lists: [`KNOWN_KEYS_MAX`], or in test builds (feature `conformance`)
/// the variable `KNOWN_KEYS_MAX`, so that a test reaches the lookups past it.
pub fn known_keys_max(env: &Env) -> usize {
    if !cfg!(feature = "conformance") {
        return KNOWN_KEYS_MAX;
    }
    env.var("KNOWN_KEYS_MAX")
        .ok()
        .and_then(|v| v.to_string().parse().ok())
        .unwrap_or(KNOWN_KEYS_MAX)
}

/// A key's 32-bit hash, as a [`KeysAnswer`](promocodes::wire::KeysAnswer) lists it (FNV-1a).
pub fn key_hash(key: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in key.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// The sum of a sharded code's shards' counts, as the code's object read it last.
#[derive(Debug, Clone)]
pub struct Totals {
    /// When it was read (Unix milliseconds).
    pub read_at: u64,
    /// The uses that count and their discounts.
    pub usage: promocodes::UsageCounts,
    /// Of them, held.
    pub held: u64,
    /// The held ones' discounts.
    pub held_discounted: rust_decimal::Decimal,
    /// A campaign's: the code they were read for, and its own uses across the shards.
    pub code: Option<(Code, u64)>,
}

/// How old the sum of a sharded code's shards' counts may be in an anonymous lookup (milliseconds).
pub const TOTALS_MAX_AGE_MS: u64 = 1000;

impl Local {
    /// A new id for a grant or a recall: `prefix`, the time, this instance's count and a random number.
    pub fn id(&self, prefix: &str) -> String {
        let n = self.next_id.get() + 1;
        self.next_id.set(n);
        let random = (worker::js_sys::Math::random() * 4_294_967_296.0) as u64;
        format!("{prefix}-{}-{n}-{random:08x}", worker::Date::now().as_millis())
    }
}

/// How a code's holds and captures are spread, as its object said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Its shards now (1: its own object decides every use).
    pub shards: u8,
    /// The `shards` it had before each change, oldest first.
    pub prior: Vec<u8>,
}

impl Layout {
    /// How many shard objects its layouts used, now or before: `<code>#0` to
    /// `<code>#<objects - 1>` (0 for a code never spread over shards).
    pub fn objects(&self) -> u8 {
        objects(self.shards, &self.prior)
    }

    /// Whether its own object took uses under an earlier layout (it had `shards: 1` then).
    pub fn at_code(&self) -> bool {
        self.prior.contains(&1)
    }
}

/// How many shard objects a code with `shards` shards now and `prior` before used (0: none).
pub fn objects(shards: u8, prior: &[u8]) -> u8 {
    prior
        .iter()
        .copied()
        .chain([shards])
        .filter(|n| *n > 1)
        .max()
        .unwrap_or(0)
}

/// How long an isolate keeps a sharded code's layout before it asks its
/// object again (milliseconds): another isolate may have changed its `shards`
/// meanwhile. Until then, a hold or capture routed on the old layout is sent
/// on by the object it reached to the one the new layout names, and a release
/// that finds nothing asks again at once. A code on one shard is asked once
/// per isolate: its own object sends on what it no longer decides.
pub const LAYOUT_MAX_AGE_MS: u64 = 10_000;

thread_local! {
    /// The layout of each code this isolate has routed, as its object said, and when (Unix milliseconds).
    static SHARDS: RefCell<BoundedMap<Code, (Layout, u64), KNOWN_CODES_MAX>> = RefCell::new(BoundedMap::default());
    /// The layout of each campaign whose codes this isolate has routed, by its object (`campaign:<id>`),
    /// and when: kept as a code's is (see [`LAYOUT_MAX_AGE_MS`]).
    static CAMPAIGN_LAYOUTS: RefCell<BoundedMap<String, (Layout, u64), KNOWN_CODES_MAX>> = RefCell::new(BoundedMap::default());
}

/// Notes that `code` was just written here with `shards` shards. A code
/// with one shard never had more (`shards` never goes back to 1), so that
/// is its whole layout; a sharded code's changed layout is asked for again.
pub fn remember(code: &Code, shards: u8) {
    SHARDS.with(|map| {
        let mut map = map.borrow_mut();
        if map.get(code).is_some_and(|(layout, _)| layout.shards == shards) {
            return;
        }
        let at = if shards <= 1 {
            worker::Date::now().as_millis()
        } else {
            0
        };
        let layout = Layout {
            shards,
            prior: Vec::new(),
        };
        map.insert(code.clone(), (layout, at));
    });
}

/// How `code`'s holds and captures are spread: asked of its object once per
/// isolate, and again after [`LAYOUT_MAX_AGE_MS`] for a sharded code.
///
/// # Errors
///
/// A problem reaching the code's object.
pub async fn layout_of(env: &Env, code: &Code) -> std::result::Result<Layout, Problem> {
    let now = worker::Date::now().as_millis();
    let fresh = |(layout, at): &(Layout, u64)| layout.shards <= 1 || now.saturating_sub(*at) < LAYOUT_MAX_AGE_MS;
    let known = SHARDS.with(|map| {
        map.borrow()
            .get(code)
            .filter(|kept| fresh(kept))
            .map(|(layout, _)| layout.clone())
    });
    match known {
        Some(layout) => Ok(layout),
        // A campaign's codes share its layout, asked once per campaign (and again as a code's is):
        // asking for each code would be one more request at each single-use code's capture.
        None => match clients::known_campaign_object(code) {
            Some(base) => {
                let kept = CAMPAIGN_LAYOUTS.with(|map| {
                    map.borrow()
                        .get(&base)
                        .filter(|kept| fresh(kept))
                        .map(|(layout, _)| layout.clone())
                });
                match kept {
                    Some(layout) => Ok(layout),
                    None => fresh_layout(env, code).await,
                }
            }
            None => fresh_layout(env, code).await,
        },
    }
}

/// Forgets the layout this isolate keeps for `code` (its campaign's, for a campaign's code) when
/// `response` says an object sent the request on ([`MOVED_HEADER`]: the layout is out of date),
/// and answers it without that header: the next request asks for the layout again.
///
/// # Errors
///
/// A runtime error reading the answer.
pub async fn forget_if_moved(code: &Code, response: worker::Response) -> Answer {
    if response.headers().get(MOVED_HEADER)?.is_none() {
        return Ok(response);
    }
    SHARDS.with(|map| map.borrow_mut().remove(code));
    if let Some(base) = clients::known_campaign_object(code) {
        CAMPAIGN_LAYOUTS.with(|map| map.borrow_mut().remove(&base));
    }
    let marked: &[(&str, &str)] = if cfg!(feature = "conformance") {
        &[(crate::protocol::TEST_MOVED_HEADER, "1")]
    } else {
        &[]
    };
    clients::restamped(response, Some(MOVED_HEADER), marked).await
}

/// Whether this isolate knows `code` on one shard, never changed (kept by [`layout_of`]; asks nothing).
fn known_on_one_shard(code: &Code) -> bool {
    SHARDS.with(|map| {
        map.borrow()
            .get(code)
            .is_some_and(|(layout, _)| layout.shards <= 1 && layout.prior.is_empty())
    })
}

/// `code`'s layout as its object says it now (kept for [`layout_of`]): 1 shard for a code it does not know.
///
/// # Errors
///
/// A problem reaching the code's object, or an answer other than its layout or 404.
pub async fn fresh_layout(env: &Env, code: &Code) -> std::result::Result<Layout, Problem> {
    let mut response = clients::to_ledger(env, code, Call::ShardCount.request(code, &[], None, &[])?).await?;
    match response.status_code() {
        200 => {}
        404 => {
            return Ok(Layout {
                shards: 1,
                prior: Vec::new(),
            })
        }
        status => {
            return Err(Problem::Internal(format!(
                "the object of {code} answered {status} when asked for its shards"
            )))
        }
    }
    let answer: ShardsAnswer = response.json().await?;
    let layout = Layout {
        shards: answer.shards,
        prior: answer.prior,
    };
    let now = worker::Date::now().as_millis();
    // Asking reached the code's object through the catalog: the isolate knows its campaign now, if any.
    if let Some(base) = clients::known_campaign_object(code) {
        CAMPAIGN_LAYOUTS.with(|map| map.borrow_mut().insert(base, (layout.clone(), now)));
        return Ok(layout);
    }
    SHARDS.with(|map| map.borrow_mut().insert(code.clone(), (layout.clone(), now)));
    Ok(layout)
}

/// How many shards `code` is spread over now (see [`layout_of`]).
///
/// # Errors
///
/// A problem reaching the code's object.
pub async fn shards_of(env: &Env, code: &Code) -> std::result::Result<u8, Problem> {
    Ok(layout_of(env, code).await?.shards)
}

/// The customer a basket request names, if it names a valid one.
#[derive(Deserialize)]
struct Who {
    #[serde(default)]
    customer: Option<serde_json::Value>,
}

fn customer_of(body: &str) -> Option<CustomerId> {
    let who: Who = serde_json::from_str(body).ok()?;
    CustomerId::parse(who.customer?.as_str()?).ok()
}

/// Sends a hold or capture of `code` (`request`, whose body is `body`): to
/// the code's object, or for a sharded code to the shard of its customer, else of its key.
///
/// # Errors
///
/// A problem reaching the object.
pub async fn send_keyed(env: &Env, code: &Code, key: &IdempotencyKey, body: &str, request: Request) -> Answer {
    let shards = shards_of(env, code).await?;
    if shards <= 1 {
        let response = clients::to_ledger_logged(env, code, request).await?;
        return forget_if_moved(code, response).await;
    }
    let shard = promocodes::shard_of(shards, customer_of(body).as_ref(), key);
    let base = base_of(code);
    let mut request = request;
    request.headers_mut()?.set(SHARD_HEADER, &shard.to_string())?;
    if base != code.as_str() {
        request.headers_mut()?.set(BASE_HEADER, &base)?;
    }
    let started = worker::Date::now().as_millis();
    let response = clients::to_object(env, &shard_in(&base, shard), request).await?;
    clients::note_outcome(code, &response, started).await?;
    forget_if_moved(code, response).await
}

/// Sends a release of `code` under `key` (`body`): to the code's object, or
/// for a sharded code to every shard (the one that holds the key answers;
/// its answer is the release's, else the key's shard's).
///
/// # Errors
///
/// A problem reaching an object.
pub async fn send_release(env: &Env, code: &Code, key: &IdempotencyKey, body: String) -> Answer {
    let started = worker::Date::now().as_millis();
    let layout = layout_of(env, code).await?;
    let mut response = release_on(env, code, key, &body, &layout).await?;
    if response.status_code() == 404 {
        // Nothing under the key where this isolate's layout looked: another isolate may have moved
        // the code's shards since, so the release looks again on the layout its object has now.
        let now = fresh_layout(env, code).await?;
        if now != layout {
            response = release_on(env, code, key, &body, &now).await?;
        }
    }
    clients::note_outcome(code, &response, started).await?;
    Ok(response)
}

/// A release of `code` under `key` (`body`) on `layout`: its object's answer, or for a sharded
/// code every object the layouts used at once, and the answer of the one that has the key (else
/// the key's shard's).
async fn release_on(env: &Env, code: &Code, key: &IdempotencyKey, body: &str, layout: &Layout) -> Answer {
    if layout.shards <= 1 {
        return clients::to_ledger(env, code, Call::Release.request(code, &[], Some(body.to_owned()), &[])?).await;
    }
    // Every shard object its layouts used, and its own object when it took uses itself once.
    let code_object = layout.at_code().then_some(None);
    let targets: Vec<Option<u8>> = (0..layout.objects()).map(Some).chain(code_object).collect();
    let base = base_of(code);
    let sends = targets.iter().map(|target| {
        let body = body.to_owned();
        let base = base.as_str();
        async move {
            match target {
                Some(shard) => {
                    let number = shard.to_string();
                    let mut headers = vec![(SHARD_HEADER, number.as_str())];
                    if base != code.as_str() {
                        headers.push((BASE_HEADER, base));
                    }
                    let request = Call::Release.request(code, &[], Some(body), &headers)?;
                    clients::to_object(env, &shard_in(base, *shard), request).await
                }
                None => clients::to_object(env, base, Call::Release.request(code, &[], Some(body), &[])?).await,
            }
        }
    });
    let mut answers = futures_util::future::join_all(sends).await;
    let found = answers
        .iter()
        .position(|answer| answer.as_ref().is_ok_and(|r| r.status_code() < 300));
    let chosen = found.unwrap_or_else(|| usize::from(promocodes::shard_of(layout.shards, None, key)));
    answers.swap_remove(chosen)
}

/// Sends a payment's release of `code` (`body`, a [`PaymentRelease`](crate::payments::flow::PaymentRelease)):
/// to the code's object (marked [`ONE_SHARD_HEADER`] when this isolate knows
/// the code on one shard: an object whose code is sharded since says so, and
/// the layout is asked for); for a sharded code first to the code's object and
/// every shard at once, asking only the ones with something under the payment
/// (its hold or capture, a stack's part, or its refund) to answer. When none
/// has, the release goes to all of them: each records the refund as final (a
/// success racing it finds it wherever it lands: its customer's shard is not
/// known here), or releases the use a success recorded meanwhile; the answer
/// is the one that released a use, else the code's object's.
///
/// # Errors
///
/// A problem reaching an object.
pub async fn send_payment_release(env: &Env, code: &Code, body: String) -> Answer {
    // A code this isolate knows on one shard (a campaign's code always is): its own object answers,
    // unless the code is spread over shards since (it then answers STALE_LAYOUT_STATUS, records nothing, and the layout is
    // asked for). One request, as before shards.
    if known_on_one_shard(code) || clients::known_in_campaign(code) {
        let headers = [(ONE_SHARD_HEADER, "1")];
        let request = Call::PaymentRelease.request(code, &[], Some(body.clone()), &headers)?;
        let started = worker::Date::now().as_millis();
        let response = clients::to_ledger(env, code, request).await?;
        if response.status_code() != STALE_LAYOUT_STATUS {
            clients::note_outcome(code, &response, started).await?;
            return Ok(response);
        }
    }
    // Asked now: a refund recorded as final on an old layout would miss the object that took the use.
    let layout = fresh_layout(env, code).await?;
    let shards = layout.objects();
    if layout.shards <= 1 {
        let request = Call::PaymentRelease.request(code, &[], Some(body), &[])?;
        return clients::to_ledger_logged(env, code, request).await;
    }
    let started = worker::Date::now().as_millis();
    let mut answers = release_everywhere(env, code, shards, &body, true).await;
    let found = answers
        .iter()
        .position(|answer| answer.as_ref().map_or(true, |r| r.status_code() != 404));
    let response = match found {
        Some(found) => answers.swap_remove(found)?,
        None => {
            let mut answers = release_everywhere(env, code, shards, &body, false).await;
            let mut chosen = 0;
            for (i, answer) in answers.iter_mut().enumerate() {
                if let Ok(response) = answer {
                    if response.status_code() != 200 {
                        continue;
                    }
                    let text = response.cloned()?.text().await?;
                    let answer: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
                    if answer.pointer("/release/was").is_some_and(|was| !was.is_null()) {
                        chosen = i;
                        break;
                    }
                }
            }
            answers.swap_remove(chosen)?
        }
    };
    clients::note_outcome(code, &response, started).await?;
    Ok(response)
}

/// A payment's release (`body`) sent to the code's object (answer 0) and to
/// each of its `shards` shard objects (answer `i + 1` for shard `i`) at once; `known_only`
/// as [`KNOWN_ONLY_HEADER`] says.
async fn release_everywhere(env: &Env, code: &Code, shards: u8, body: &str, known_only: bool) -> Vec<Answer> {
    let base = base_of(code);
    let base = base.as_str();
    let sends = (0..=shards).map(|i| async move {
        let number = i.saturating_sub(1).to_string();
        let mut headers = Vec::new();
        if i > 0 {
            headers.push((SHARD_HEADER, number.as_str()));
        }
        if known_only {
            headers.push((KNOWN_ONLY_HEADER, "1"));
        }
        if i > 0 && base != code.as_str() {
            headers.push((BASE_HEADER, base));
        }
        let request = Call::PaymentRelease.request(code, &[], Some(body.to_owned()), &headers)?;
        let name = match i {
            0 => base.to_owned(),
            i => shard_in(base, i - 1),
        };
        clients::to_object(env, &name, request).await
    });
    futures_util::future::join_all(sends).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_objects_of_a_code_are_every_shard_any_layout_used() {
        let layout = |shards, prior: &[u8]| Layout {
            shards,
            prior: prior.to_vec(),
        };
        // Never sharded: its own object only.
        assert_eq!(layout(1, &[]).objects(), 0);
        assert!(!layout(1, &[]).at_code());
        // Grown from 1: the new shards, and its own object still has the uses it took then.
        assert_eq!(layout(4, &[1]).objects(), 4);
        assert!(layout(4, &[1]).at_code());
        // Shrunk from 16 to 2: shards 2 to 15 keep their uses, so releases still reach them.
        assert_eq!(layout(2, &[4, 16]).objects(), 16);
        assert!(!layout(2, &[4, 16]).at_code());
        assert_eq!(objects(3, &[1, 8, 2]), 8);
    }

    #[test]
    fn a_key_hash_is_fnv1a_and_stable_across_builds() {
        // The 32-bit FNV-1a test vectors: both sides of a key list must agree in every build.
        assert_eq!(key_hash(""), 0x811c_9dc5);
        assert_eq!(key_hash("a"), 0xe40c_292c);
        assert_eq!(key_hash("foobar"), 0xbf9c_f968);
        assert_ne!(key_hash("order-1"), key_hash("order-2"));
    }
}
