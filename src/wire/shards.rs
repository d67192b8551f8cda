//! The calls between a sharded code's object (the coordinator) and its
//! shard objects: a shard asks for an allotment ([`GrantCall`],
//! [`GrantAnswer`]), the coordinator takes unused allotments back
//! ([`RecallCall`], [`RecallAnswer`]), the Worker asks how many shards a
//! code has ([`ShardsAnswer`]). Money moves in minor units of the code's currency.

use serde::{Deserialize, Serialize};

use crate::PromoCode;

/// A shard's request for more of the code's uses and budget (`POST
/// /shard-grant` to the code's object), under its own `id`: sent again
/// with the same id after a crash, it is answered as it was the first time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrantCall {
    /// The code.
    pub code: String,
    /// The shard asking (0 to `shards - 1`).
    pub shard: u8,
    /// The grant's id, chosen by the shard and recorded on both sides.
    pub id: String,
    /// The uses it would like.
    pub uses: u64,
    /// The budget it would like, in minor units (`None`: as much as the coordinator spares a shard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<i64>,
    /// Its holds that count now (each may expire and free a use).
    #[serde(default)]
    pub held: u64,
    /// The budget, in minor units, the request that asks lacks beyond the
    /// shard's unused allotment. When less is free, even after a recall, all
    /// that is free is granted: the shard then holds all that is left and
    /// decides the end in one place (`when_budget_short: partial` clips the
    /// last use there; a refusal says what is left).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short: Option<i64>,
}

/// What the coordinator granted under a [`GrantCall`]'s id, with the code's
/// definition as it is now (a shard decides with it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrantAnswer {
    /// The grant's id.
    pub id: String,
    /// The uses granted (0: none are left anywhere, after a recall).
    pub uses: u64,
    /// The budget granted, in minor units.
    pub budget: i64,
    /// The grant was cancelled by a recall before it reached the shard: nothing was granted.
    pub cancelled: bool,
    /// The code's definition (a campaign's code's as written, naming its campaign).
    #[serde(deserialize_with = "super::checkout::written_definition")]
    pub definition: PromoCode,
    /// Whether the code is archived.
    pub archived: bool,
    /// The grant is all that was left after every other shard's unused
    /// allotment was recalled, and less than the asking request lacked
    /// ([`GrantCall::short`]): the shard decides once more on it and asks no
    /// more (a refusal then stands, a partial budget's last use is clipped).
    #[serde(default)]
    pub all: bool,
    /// Nothing is left to grant at the code's object after this grant: when
    /// the shard uses the last of it, the code may be used up, and the shard
    /// says so (the code's object then reads every shard's counts for its
    /// `code.exhausted`).
    #[serde(default)]
    pub drained: bool,
    /// The code's earlier layouts, oldest first: the `shards` it had before
    /// each change (see [`ShardDefinition::prior`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior: Vec<u8>,
}

/// The coordinator takes back a shard's unused allotment (`POST /shard-recall` to the shard), under `id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecallCall {
    /// The code.
    pub code: String,
    /// The recall's id, chosen by the coordinator and recorded on both sides.
    pub id: String,
}

/// What a shard gave back under a [`RecallCall`]'s id: answered the same when asked again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecallAnswer {
    /// The recall's id.
    pub id: String,
    /// The unused uses given back.
    pub uses: u64,
    /// The unused budget given back, in minor units.
    pub budget: i64,
    /// The grants the shard had asked for and not yet received: it will never apply them.
    pub cancelled: Vec<String>,
    /// Its holds that count now (each may expire and free a use).
    #[serde(default)]
    pub held: u64,
    /// A grant the shard is waiting for the answer to, right now: not
    /// cancelled (taking it back in flight would starve the shard: two
    /// shards recalling each other's grants at the end of a code livelock),
    /// so the code's object may still have uses to give after all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<String>,
}

/// How many shards a code's holds and captures are spread over (`GET /shards` to its object).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardsAnswer {
    /// 1 for a code that is not sharded.
    pub shards: u8,
    /// The code's earlier layouts, oldest first (see [`ShardDefinition::prior`]):
    /// a release looks for its key in every object they used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior: Vec<u8>,
}

/// A shard's counts (`GET /shard-usage` to the shard): what the code's
/// object adds to its own for a lookup, `remaining`, the summary and the stats.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShardUsage {
    /// Uses that count (captured, and held not expired).
    pub total: u64,
    /// Of them, held.
    pub held: u64,
    /// The sum of their discounts, as decimal text.
    pub discounted: String,
    /// The sum of the held ones' discounts, as decimal text.
    #[serde(default)]
    pub held_discounted: String,
    /// A campaign's shard: the uses of the code asked about (held ones included), of `total`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub code: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The code's definition as it is after a change (`POST /shard-definition` to each shard, from the
/// code's object): a kill switch or an archive reaches the shards at once, not with their next grant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardDefinition {
    /// The code's definition (a campaign's code's as written, naming its campaign).
    #[serde(deserialize_with = "super::checkout::written_definition")]
    pub definition: PromoCode,
    /// Whether the code is archived.
    pub archived: bool,
    /// The code's earlier layouts, oldest first: the `shards` it had before
    /// each change of `shards` (1: its own object took the uses). Its length
    /// is the layout's generation: an object keeps the newest it heard of,
    /// and decides a key new to it only when the newest layout sends that
    /// key to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior: Vec<u8>,
}

impl ShardDefinition {
    /// The layout's generation: how many times the code's `shards` changed.
    pub fn generation(&self) -> usize {
        self.prior.len()
    }
}

/// What a shard of a code whose `shards` changed asks an object an earlier
/// layout used (`POST /shard-lookup`), before it decides a key new to it:
/// whether that object has the key, and the customer's uses there. The
/// asking shard's layout rides along: the object takes it on first (an
/// object of an earlier layout then decides no key the new layout sends
/// elsewhere), so what it answers stays true.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriorLookup {
    /// The code.
    pub code: String,
    /// The idempotency key, when this object was the key's under an earlier layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The customer, when this object was the customer's under an earlier layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    /// The asking shard's layout.
    pub layout: ShardDefinition,
}

/// What a shard of a code whose `shards` changed asks an object an earlier
/// layout used, once (`POST /shard-keys`): every idempotency key it knows
/// (a use, a refused payment, a payment's refund, a claim), as
/// [`KeysAnswer::hashes`]. The asking shard's layout rides along and is
/// taken on first (as with a [`PriorLookup`]): from then on the object
/// takes no key an earlier layout sent to it, so a key missing from the
/// answer was never there, and needs no [`PriorLookup`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeysCall {
    /// The code.
    pub code: String,
    /// The asking shard's layout.
    pub layout: ShardDefinition,
}

/// The answer to a [`KeysCall`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct KeysAnswer {
    /// The 32-bit hashes of the keys, sorted, without repeats; `None` when
    /// there are too many to send (the asker then looks each key up).
    pub hashes: Option<Vec<u32>>,
    /// This object knows a newer layout than the asking shard's: this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newer: Option<ShardDefinition>,
}

/// The answer to a [`PriorLookup`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PriorAnswer {
    /// Something is recorded here under the key (a use, a refused payment, a payment's refund).
    pub recorded: bool,
    /// The key was claimed here (by the customer named, `None` for a request with none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_by: Option<Option<String>>,
    /// The customer's uses that count here.
    pub customer_uses: u64,
    /// This object knows a newer layout than the asking shard's: this one
    /// (the asker takes it and routes again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newer: Option<ShardDefinition>,
}

/// A shard's claim of an idempotency key at the key's own shard (`POST /shard-claim`): a request
/// with a customer goes to the customer's shard, so a key used before for another customer (or for
/// none) is known only where the key itself routes. The first claim of a key wins; another
/// customer's is refused, so that a key names one call across the shards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyClaim {
    /// The code.
    pub code: String,
    /// The idempotency key.
    pub key: String,
    /// The customer the claiming request names.
    pub customer: Option<String>,
    /// Only look: claim nothing, answer the payment capture refused under the key here, if any
    /// (a payment's refusal is final for its key, wherever the payment's next event lands).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub peek: bool,
    /// The claiming shard's layout, for a code whose `shards` changed (see
    /// [`ShardDefinition::prior`]): a claim from an older layout is refused
    /// with the newer one, a newer one is taken on first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<ShardDefinition>,
}

/// The answer to a [`KeyClaim`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyClaimAnswer {
    /// Whether the key is this customer's: claimed now, or by this customer before.
    pub claimed: bool,
    /// For a [`KeyClaim::peek`]: the payment capture refused under the key at this shard, as recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<serde_json::Value>,
    /// The claim came from an older layout than this shard's: nothing was
    /// claimed, and this is the newer one (the claimer takes it and routes again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newer: Option<ShardDefinition>,
}

/// A shard's figures (`GET /shard-figures` to the shard): every count it
/// keeps, written or not, as `(minute, name, n)` rows (minute 0 is all
/// time), for the code's object to add to its own in the stats.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShardFigures {
    /// The counts.
    pub counts: Vec<(i64, String, i64)>,
}

/// A campaign's shard asks the campaign's object for more of one code's own
/// uses (`POST /shard-code-claim`): the code's `uses_per_code` is an escrow
/// across the shards, since a campaign's requests are routed by customer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeClaim {
    /// The campaign's code.
    pub code: String,
    /// The shard asking.
    pub shard: u8,
    /// The version of the allotment of the code the shard has (0: none). When the campaign's
    /// object knows a newer one, it answers that one and grants nothing more.
    pub version: i64,
    /// How many more uses it would like.
    pub want: u64,
}

/// A shard's allotment of one code's uses, with its version: the answer to a
/// [`CodeClaim`], and to a [`CodeRecall`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeAllotment {
    /// The uses the shard may have taken of the code, in all (held or captured included).
    pub granted: i64,
    /// The allotment's version: a shard keeps only a newer one than it has.
    pub version: i64,
}

/// The campaign's object takes back what a shard has not used of one code
/// (`POST /shard-code-recall` to the shard): the shard lowers its allotment
/// to the uses it has (held or captured), under `version`, in one write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeRecall {
    /// The campaign's code.
    pub code: String,
    /// The new version, newer than any the campaign's object gave the shard for the code.
    pub version: i64,
}

/// The campaign's object asks a shard of its campaign for some of its codes' counts
/// (`POST /shard-code-counts`): a page of codes' uses and holds, and how many
/// codes are in use there.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CodeCountsCall {
    /// The codes whose captured uses and holds are asked for (a page of the campaign's codes).
    #[serde(default)]
    pub codes: Vec<String>,
    /// Codes more than one shard holds an allotment of: which of them are in use at this shard
    /// (so that the campaign counts a code in use on two shards once).
    #[serde(default)]
    pub shared: Vec<String>,
}

/// A shard's answer to a [`CodeCountsCall`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CodeCounts {
    /// For each code asked about, in order: its captured uses and its holds that count now.
    pub counts: Vec<(u64, u64)>,
    /// How many codes are in use at the shard (captured, or held).
    pub in_use: u64,
    /// Of the `shared` codes, those in use at the shard.
    pub shared_in_use: Vec<String>,
}
