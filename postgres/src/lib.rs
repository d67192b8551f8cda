/*!
A PostgreSQL store for [`promocodes`]: usage caps enforced by a
compare-and-set transaction on the database a shop already runs, with the
calling code unchanged.

[`PgRedemptionStore`] implements [`AsyncRedemptionStore`], so the core's
[`capture_async`](promocodes::capture_async),
[`hold_async`](promocodes::hold_async),
[`release_async`](promocodes::release_async) and
[`redeem_async`](promocodes::redeem_async) run over it exactly as
[`capture`](promocodes::capture) and the others run over the in-memory
store: the same decision loop (read the counts, run every
rule, write against exactly those counts, re-decide after a lost race), now
with the counts in PostgreSQL, shared by every process of the shop.

# A tour

## Connect and migrate

Build the store from a connection URL (or from a [`deadpool_postgres::Pool`]
you already have, with [`PgRedemptionStore::new`]), then create or upgrade
its tables once at start-up. [`migrate`](PgRedemptionStore::migrate) is
versioned and idempotent, and safe to run from every process at once:

```no_run
use promocodes_postgres::PgRedemptionStore;

# async fn start() -> Result<(), promocodes::StoreError> {
let store = PgRedemptionStore::connect("postgres://shop@localhost/shop", 16)?;
store.migrate().await?;
# Ok(())
# }
```

## Capture as before

```no_run
use promocodes::{capture_async, Basket, CaptureOptions, Code, Currency, Discount, IdempotencyKey};
use promocodes::{Money, PromoCode, Timestamp, UsageLimits};
use promocodes_postgres::PgRedemptionStore;

# async fn pay(store: &PgRedemptionStore) -> Result<(), Box<dyn std::error::Error>> {
let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?)
    .limits(UsageLimits::new(Some(1000), Some(1))?)
    .build()?;
let basket = Basket::from(Money::parse("80", Currency::EUR)?);
let event = IdempotencyKey::parse("evt_1")?;
let now = Timestamp::from_unix_nanos(1_796_000_000_000_000_000)?;
let receipt = capture_async(&promo, store, None, &basket, now, CaptureOptions::new().idempotency_key(&event)).await?;
assert_eq!(receipt.quote.payable().to_string(), "EUR 72.00");
# Ok(())
# }
```

The store never reads a clock: every read and write takes the `now` the
caller passes, as the core's contract requires.

# How a write stays exact

Every write of a code ([`record`](AsyncRedemptionStore::record),
[`convert`](AsyncRedemptionStore::convert),
[`release`](AsyncRedemptionStore::release)) is one transaction at
`READ COMMITTED` (PostgreSQL's default, which each write sets for itself
whatever a database or role defaults to) that takes **the code's write
lock** (a transaction-scoped advisory lock on the code, key
[`ADVISORY_LOCK_KEY`]) before it reads what it compares. In `READ
COMMITTED` each statement reads under a snapshot of its own, so a read that
follows the lock sees every write of the code committed before it: the
comparison is exact, and nothing retries on serialization failures (there
are none).

The hot path, [`record`](AsyncRedemptionStore::record) (every capture
without a hold, and every hold), is one round trip: `BEGIN`, the code's
write lock (a campaign's code takes the campaign's lock after it), one
statement that decides and writes, and `COMMIT`, sent together.

1. The statement's snapshot is taken after the lock. It looks the
   idempotency key up (a known key answers with its reservation,
   `replayed`: the one exception is a capture that names the hold under
   the key, expired at `now`, which it follows; then the hold stays in the
   history, marked `expired`, and the key moves to the capture) and the
   counts at `now` (captured uses plus holds with `expires > now`, overall
   and for the customer, with the discount sum).
2. If they are not exactly the counts the rules were checked against
   (compared as one value), the write is stale: `Ok(None)`, and nothing
   was written.
3. Still the same counts: in the same statement (data-modifying `WITH`
   clauses, each writing only when the comparison holds) it writes the
   reservation (its JSON already carries the counts after it, since it can
   only land on exactly the expected ones), its idempotency key (the
   primary key of `promocodes_idempotency_keys`, so its uniqueness is the
   database's), and the hold or the captured counts. Then it commits.

[`convert`](AsyncRedemptionStore::convert) and
[`release`](AsyncRedemptionStore::release), the rarer writes (a payment
under a hold, a refund), send `BEGIN`, the lock and the read of the key
together, read the counts of its customer, decide in Rust as the in-memory
store does, then send their one writing statement and `COMMIT` together:
three round trips.

The lock is held only inside a write's transaction, never while the rules
run: the rules run before, in the core, against the counts of
[`usage_for`](AsyncRedemptionStore::usage_for); a write that lost the race
finds other counts, answers stale, and the core decides again (on the
counts the write found, which the store keeps as its hint, or on a read).
An advisory lock lives in memory: a write that finds, under it, that it
has lost its race has written nothing, not even a row lock to the log, so
its commit waits for no disk.

Why not a lone `UPDATE ... WHERE n = $expected`? A hold counts while
`expires > now`, and `now` is the caller's: the count compared is a
function of `now` over a table of holds, not a column. A conditional
`UPDATE` that waits on a concurrent writer re-checks its `WHERE` against
the newest version of the row it updates, but against the old snapshot of
every other table, so it would compare with the holds as they were before
the wait. Locking first and reading after makes the comparison of the
whole [`UsageCounts`] exact.

# A capture in one round trip

The store remembers the counts its own reads and writes last saw of each
code without a campaign, overall and per customer seen (at most 10,000 of
each), and offers them as its
[`usage_hint`](AsyncRedemptionStore::usage_hint), a customer it has not
seen guessed at no uses (most captures are a customer's first of a
code). The core's decision
loop starts a capture from them, so a capture of a code this process
wrote last is one round trip (the write) instead of two (a read, then the
write). The hint is never trusted for an answer: the write compares it
exactly as it compares a read, a stale write on it is decided again on a
read in the same pass (without using up an attempt), and a refusal on
hinted counts is confirmed by a read before the buyer sees it. When
another process wrote the code since, the write finds other counts under
the lock; it answers stale and leaves those counts as the hint, so the
decision's next pass writes on them without a read. Conversions and
releases forget the code's hint; a campaign's codes have none (every code
of the campaign moves its counts).

A call whose connection fails or whose future is dropped never gives that
connection back to the pool: it is closed, so the server rolls back what
was begun, and no later call inherits an open transaction. A write is
whole or absent: a connection lost before the commit leaves nothing; a
future dropped after the commit was sent may leave the whole write, which
a retry under the same idempotency key then replays.

# Many buyers on one code at once

A compare-and-set is exact, and a lost race costs little (its turn
under the code's lock, behind the writes of the code already waiting, and
no disk flush: it wrote nothing), but with many
writers on one code each capture that lands makes every other writer's
read stale: without a queue they all read and decide again (with 50
connections on one code, about 49 calls per capture; docs/performance.md
in the repository has the runs). So the store queues its own decisions:
one per code (per campaign, for a campaign's codes) is in flight in this
store and its clones at a time ([`turn`](AsyncRedemptionStore::turn)),
and each starts from the counts the last one wrote, so a capture of a hot
code is one round trip. The queue is the process's, not a lock of the
store: other processes do not wait on it, a lost race between processes
is decided again as before, and the caps stay exact without it. Share one
store (or its clones) across a process's tasks, so that they share the
queues. Several processes on one hot code race each other: with the
default [`DEFAULT_ATTEMPTS`](promocodes::DEFAULT_ATTEMPTS), two processes
of 16 connections saw about one capture in eighteen of the process that
lost more end in a [`RedemptionConflict`](promocodes::RedemptionConflict)
(one in six to one in nine before a stale write left its counts as the
hint); raise `attempts` there.

# Tables

All in the connection's `search_path` (a schema per tenant or per test
works by setting `search_path` on the pool's connections; the function
keeps the `search_path` it was created under), prefixed `promocodes_`:

| table | what it holds |
|---|---|
| `promocodes_schema_migrations(version, applied_at)` | the migrations applied |
| `promocodes_usage_total(code, n, discounted)` | captured uses per code, and the sum of their discounts (`numeric`, the budget's measure) |
| `promocodes_usage_customer(code, customer, n)` | captured uses per code and customer |
| `promocodes_usage_code(code, n)` | captured uses of each of a campaign's codes (whose other counts are the campaign's, under `campaign:<id>`) |
| `promocodes_holds(seq, code, customer, expires, discount, through)` | holds not yet captured or released; one counts (and reserves its `discount`) while `expires > now`; `through` is the campaign's code it came through |
| `promocodes_redemptions(seq, code, idempotency_key, state, reservation, campaign)` | every reservation, in order, as JSON ([`Reservation`]) |
| `promocodes_idempotency_keys(code, key, seq)` | the key (primary key, per code) and the reservation a replay answers with |

and the function `promocodes_record(...)`, the compare-and-set of a new
use as the versions before this one sent it (migration 2; replaced by 3
when budgets came: it compares the discount sum too; by 4 for campaigns:
a campaign's code counts under the campaign and its own uses; by 5: the
same decision in fewer statements). This version sends the same decision
as one statement after the locks (the server starts one executor instead
of one per statement of the function) and leaves the function installed,
so that a process of an earlier version still running during an upgrade
keeps working: both take the same locks in the same order and write the
same rows. `expires` is a [`Timestamp`] as fixed-width
text that sorts as the time does, to the nanosecond, over its whole range
([`Timestamp::sortable`]; a `bigint` of nanoseconds would stop in 2262, a
`timestamptz` at microseconds). Money (`discounted`, `discount`) is
`numeric`, read and bound as a [`Decimal`](promocodes::Decimal) (rust_decimal's
tokio-postgres support), never through text or a float.

# Migrations

Each schema version is a SQL file of the crate's `migrations/` folder,
`V<version>__<name>.sql`, compiled in: `V1__tables`, `V2__record_function`,
`V3__budgets`, `V4__campaigns`, `V5__fewer_statements`.
[`migrate`](PgRedemptionStore::migrate) runs each one newer than the newest
version recorded in `promocodes_schema_migrations`, in order, each in a
transaction of its own that first takes an advisory lock (per schema) and
ends with the version's row, so a database an earlier version of this crate
migrated (which ran them all in one transaction, from the same SQL) is
upgraded from where it stands, and one at the newest version is left as it
is. A released migration never changes: a new version is a new file.

# Why tokio-postgres and deadpool

[`tokio_postgres`] is pure Rust, speaks the extended protocol with
pipelining (the statements of a transaction go out together, one round
trip), and needs no database at compile time; [`deadpool_postgres`] adds a
small pool with a per-connection statement cache. sqlx would also do, but
its macros want a database (or a checked-in cache) at build time, and its
pool gives less control over what happens to a connection whose future was
dropped mid-transaction, which this store needs to decide itself.
*/

#![deny(missing_docs)]

use std::future::Future;
use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use promocodes::{
    AsyncRedemptionStore, Code, Conversion, CustomerId, IdempotencyKey, Redemption, Release, Reservation, StoreError,
    Timestamp, Turn, UsageCounts,
};
use tokio_postgres::types::Json;
use tokio_postgres::NoTls;

pub use deadpool_postgres;
pub use tokio_postgres;

mod checkout;
mod migrate;
mod rows;
mod seen;
mod sql;
mod write;

use checkout::Checkout;
use rows::{count, counter_of, db, keyed, read, read_through};
use seen::{Queues, Seen};
pub use sql::ADVISORY_LOCK_KEY;
use sql::HELD;

const STORE: &str = "postgres";

/// A [`promocodes::AsyncRedemptionStore`] on PostgreSQL, over a pool of
/// connections.
///
/// Cheap to clone (the pool is shared). See the [crate docs](crate) for how
/// each write stays exact, and for the tables.
///
/// # Example
///
/// ```no_run
/// use promocodes::{release_async, Code, IdempotencyKey, Timestamp};
/// use promocodes_postgres::PgRedemptionStore;
///
/// # async fn refund() -> Result<(), Box<dyn std::error::Error>> {
/// let store = PgRedemptionStore::connect("postgres://shop@localhost/shop", 16)?;
/// store.migrate().await?;
/// let now = Timestamp::from_unix_nanos(1_796_000_000_000_000_000)?;
/// let order = IdempotencyKey::parse("pi_1")?;
/// release_async(&store, &Code::parse("SAVE10")?, &order, now, Some("refunded")).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct PgRedemptionStore {
    pool: Pool,
    seen: Arc<Seen>,
    queues: Arc<Queues>,
}

impl PgRedemptionStore {
    /// A store over `pool`. The pool's connections may set a `search_path`
    /// (the store's tables are unqualified).
    pub fn new(pool: Pool) -> PgRedemptionStore {
        PgRedemptionStore {
            pool,
            seen: Arc::default(),
            queues: Arc::default(),
        }
    }

    /// A store over a new pool of at most `max_connections` connections to
    /// `url` (`postgres://user:password@host:port/database`, or the
    /// key-value form of libpq), without TLS.
    ///
    /// No connection is made until the first call.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when `url` does not parse.
    pub fn connect(url: &str, max_connections: usize) -> Result<PgRedemptionStore, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(db)?;
        PgRedemptionStore::from_config(config, max_connections)
    }

    /// A store over a new pool of at most `max_connections` connections
    /// made with `config`, without TLS.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the pool cannot be built.
    pub fn from_config(
        config: tokio_postgres::Config,
        max_connections: usize,
    ) -> Result<PgRedemptionStore, StoreError> {
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager).max_size(max_connections).build().map_err(db)?;
        Ok(PgRedemptionStore::new(pool))
    }

    /// The pool the store uses.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The recorded reservations of `code`, oldest first, as stored (a hold
    /// stays `held` after it expires; [`Reservation::state_at`] tells).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot answer.
    pub async fn reservations(&self, code: &Code) -> Result<Vec<Reservation>, StoreError> {
        let client = self.pool.get().await.map_err(db)?;
        let rows = client
            .query(
                "SELECT reservation FROM promocodes_redemptions WHERE code = $1 ORDER BY seq",
                &[&code.as_str()],
            )
            .await
            .map_err(db)?;
        rows.iter()
            .map(|row| row.try_get::<_, Json<Reservation>>(0).map(|Json(r)| r).map_err(db))
            .collect()
    }
}

impl AsyncRedemptionStore for PgRedemptionStore {
    async fn usage_for(
        &self,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        let checkout = Checkout::get(&self.pool).await?;
        let usage = read(checkout.client()?, code, customer, now).await?;
        checkout.done();
        self.seen.note(code, customer, usage);
        Ok(usage)
    }

    async fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        let counter = counter_of(code, Some(campaign.as_str()));
        let checkout = Checkout::get(&self.pool).await?;
        let usage = read_through(checkout.client()?, &counter, code, customer, now).await?;
        checkout.done();
        Ok(usage)
    }

    async fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        let checkout = Checkout::get(&self.pool).await?;
        let client = checkout.client()?;
        let statement = client.prepare_cached(HELD).await.map_err(db)?;
        let row = client
            .query_one(&statement, &[&code.as_str(), &now.sortable()])
            .await
            .map_err(db)?;
        checkout.done();
        count(row.try_get(0).map_err(db)?)
    }

    async fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        let checkout = Checkout::get(&self.pool).await?;
        let keyed = keyed(checkout.client()?, code, key).await?;
        checkout.done();
        Ok(keyed.map(|(_, r)| r.replayed()))
    }

    async fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        self.record_at(redemption).await
    }

    /// The counts this store's own reads and writes last saw of a code
    /// without a campaign (a stale write: the counts it found under the
    /// lock; none for a campaign's codes, whose counts every code of the
    /// campaign moves): a capture then writes without reading first, and
    /// when another process moved the counts, the stale write costs the read
    /// it saved and leaves what it found for the decision's next pass.
    fn usage_hint(
        &self,
        code: &Code,
        campaign: Option<&Code>,
        customer: Option<&CustomerId>,
        _now: Timestamp,
    ) -> Option<UsageCounts> {
        match campaign {
            Some(_) => None,
            None => self.seen.hint(code, customer),
        }
    }

    /// A queue per code (per campaign, for a campaign's codes) in this
    /// store and its clones: one decision per code at a time, so that the
    /// tasks of one process capturing a hot code take it in turn, each
    /// writing on the counts the last one wrote (the store's hint: one
    /// round trip), instead of making each other's reads stale.
    fn turn(&self, code: &Code, campaign: Option<&Code>) -> impl Future<Output = Turn> + Send {
        let queue = self.queues.of(counter_of(code, campaign.map(Code::as_str)));
        async move { Turn::holding(queue.lock_owned().await) }
    }

    async fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        let converted = self.convert_at(conversion).await;
        self.seen.forget(conversion.code);
        converted
    }

    async fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let released = self.release_at(release).await;
        self.seen.forget(release.code);
        released
    }
}

/// The README's example compiles.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lock_of_a_code_is_the_same_advisory_lock() {
        let lock = format!("pg_advisory_xact_lock({ADVISORY_LOCK_KEY}, hashtext(");
        assert!(sql::LOCK.contains(&lock));
        let newest = migrate::MIGRATIONS.last().expect("a migration");
        assert!(newest.sql.contains(&lock));
    }

    #[test]
    fn the_postgres_guide_shows_the_example_this_readme_compiles() {
        let example = |readme: &str, fence: &str| {
            let start = readme.find(fence).expect("the example's fence") + fence.len();
            let end = start + readme[start..].find("```").expect("its end");
            readme[start..end].trim().to_owned()
        };
        let compiled = example(include_str!("../README.md"), "```rust,no_run");
        let shown = example(
            include_str!("../../docs/postgres.md"),
            "```rust,ignore\nuse promocodes::{capture_async",
        );
        assert!(
            compiled.ends_with(&shown),
            "docs/postgres.md's example is postgres/README.md's"
        );
    }
}
