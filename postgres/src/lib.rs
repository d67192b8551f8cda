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
([`instant`]; a `bigint` of nanoseconds would stop in 2262, a
`timestamptz` at microseconds).

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

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use futures_util::future::{try_join, try_join3, try_join5};
use promocodes::{
    AsyncRedemptionStore, Code, Conversion, CustomerId, Decimal, IdempotencyKey, Redemption, Release, Reservation,
    ReservationState, StoreError, Timestamp, Turn, UsageCounts,
};
use tokio_postgres::types::{Json, ToSql};
use tokio_postgres::{NoTls, Row};

pub use deadpool_postgres;
pub use tokio_postgres;

mod sql;

pub use sql::ADVISORY_LOCK_KEY;
use sql::{BEGIN, HELD, KEYED, LOCK, MIGRATIONS, MIGRATION_LOCK, READ, READ_THROUGH, RECORD, UPDATE};

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

/// One queue per code (per campaign, for a campaign's codes) of this
/// store's decisions ([`AsyncRedemptionStore::turn`]). Shared by clones.
#[derive(Debug, Default)]
struct Queues(Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>);

impl Queues {
    /// The queue of the counts `counter` names ([`counter_of`]); past
    /// [`SEEN_MAX`] queues, the ones nobody holds or waits on are dropped.
    fn of(&self, counter: String) -> Arc<tokio::sync::Mutex<()>> {
        // Nothing in it can be left half-changed by a panic: keep using it.
        let mut queues = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if queues.len() >= SEEN_MAX && !queues.contains_key(&counter) {
            queues.retain(|_, queue| Arc::strong_count(queue) > 1);
        }
        Arc::clone(queues.entry(counter).or_default())
    }
}

/// The most codes, and customers per code, [`Seen`] remembers: past it, it
/// starts again (a forgotten hint costs one read).
const SEEN_MAX: usize = 10_000;

/// What this store's own reads and writes last saw of plain codes' counts:
/// the hint its decisions start from
/// ([`AsyncRedemptionStore::usage_hint`]), which saves the read of a
/// capture when no other writer moved the counts since. Shared by clones.
#[derive(Debug, Default)]
struct Seen(Mutex<HashMap<String, SeenCode>>);

/// A code's counts as last seen: overall, and per customer seen.
#[derive(Debug, Default)]
struct SeenCode {
    total: u64,
    discounted: Decimal,
    customers: HashMap<String, u64>,
}

impl Seen {
    fn codes(&self) -> std::sync::MutexGuard<'_, HashMap<String, SeenCode>> {
        // Nothing in it can be left half-changed by a panic: keep using it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The counts of `code` for `customer`, if the code was seen: a
    /// customer not seen is guessed at no uses, as most captures are a
    /// customer's first of a code (a wrong guess costs the read it saves).
    fn hint(&self, code: &Code, customer: Option<&CustomerId>) -> Option<UsageCounts> {
        let codes = self.codes();
        let seen = codes.get(code.as_str())?;
        let mine = customer.map_or(0, |customer| {
            seen.customers.get(customer.as_str()).copied().unwrap_or(0)
        });
        UsageCounts::new(seen.total, mine)
            .ok()?
            .with_discounted(seen.discounted)
            .ok()
    }

    /// `usage`, read or written just now for `code` and `customer`.
    fn note(&self, code: &Code, customer: Option<&CustomerId>, usage: UsageCounts) {
        let mut codes = self.codes();
        if codes.len() >= SEEN_MAX && !codes.contains_key(code.as_str()) {
            codes.clear();
        }
        let seen = codes.entry(code.as_str().to_owned()).or_default();
        seen.total = usage.total();
        seen.discounted = usage.discounted();
        if let Some(customer) = customer {
            if seen.customers.len() >= SEEN_MAX {
                seen.customers.clear();
            }
            seen.customers
                .insert(customer.as_str().to_owned(), usage.per_customer());
        }
    }

    /// Forgets `code`: its counts moved in a way this store did not count.
    fn forget(&self, code: &Code) {
        self.codes().remove(code.as_str());
    }
}

fn backend(err: impl std::fmt::Display) -> StoreError {
    StoreError::Backend {
        store: STORE,
        message: err.to_string(),
    }
}

/// A database or pool error, with every cause in the message (tokio-postgres
/// says only "db error" at the top: the server's words are in its source).
fn db(err: impl std::error::Error) -> StoreError {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    backend(message)
}

/// A time as fixed-width text that sorts as the time does, to the
/// nanosecond, over the whole range of [`Timestamp`]: nanoseconds since
/// 0000-01-01, 21 digits.
pub fn instant(at: Timestamp) -> String {
    /// Nanoseconds from 0000-01-01 to 1970-01-01, so that every instant is positive.
    const EPOCH_OFFSET_NANOS: i128 = 62_167_219_200 * 1_000_000_000;
    format!("{:021}", at.as_unix_nanos() + EPOCH_OFFSET_NANOS)
}

fn count(n: i64) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| backend(format!("a negative count: {n}")))
}

/// The counts a [`READ`] row gives.
fn usage_of(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let total = column(row, "total")? + column(row, "held")?;
    let mine = if customer {
        column(row, "mine")? + column(row, "held_mine")?
    } else {
        0
    };
    with_discounted(row, total, mine)
}

/// The counts a stale [`RECORD`] found (a code's, not a campaign's).
fn found_under_lock(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let mine = if customer { column(row, "mine")? } else { 0 };
    with_discounted(row, column(row, "total")?, mine)
}

/// A count column of `row`.
fn column(row: &Row, name: &str) -> Result<u64, StoreError> {
    count(row.try_get::<_, i64>(name).map_err(db)?)
}

/// `total` and `mine` uses, with the discount sum of `row`'s `discounted` (decimal text).
fn with_discounted(row: &Row, total: u64, mine: u64) -> Result<UsageCounts, StoreError> {
    let discounted: String = row.try_get("discounted").map_err(db)?;
    let discounted: Decimal = discounted.parse().map_err(backend)?;
    UsageCounts::new(total, mine)
        .and_then(|usage| usage.with_discounted(discounted))
        .map_err(backend)
}

/// The counts a [`READ_THROUGH`] row gives: a campaign's, with its code's own uses.
fn usage_through(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let own = column(row, "code_uses")?;
    usage_of(row, customer)?.with_code_uses(own).map_err(backend)
}

/// What a use of `code` counts under: the code, or `campaign:<id>` for a
/// campaign's code (no code has a `:`, so the two never meet).
fn counter_of(code: &Code, campaign: Option<&str>) -> String {
    match campaign {
        Some(campaign) => format!("campaign:{campaign}"),
        None => code.as_str().to_owned(),
    }
}

/// `usage` with `delta` (a use's discount, negative to take it away) added
/// to its discount sum, never below zero.
fn with_discount_moved(usage: UsageCounts, delta: Decimal) -> Result<UsageCounts, StoreError> {
    let sum = usage
        .discounted()
        .checked_add(delta)
        .ok_or_else(|| backend("the discount sum overflows"))?;
    usage.with_discounted(sum.max(Decimal::ZERO)).map_err(backend)
}

/// A connection taken from the pool for one call. Dropped before the call
/// is [`done`](Checkout::done) (a failed statement, a dropped future, a
/// connection the server ended), it leaves the pool and closes: the server
/// rolls back whatever transaction was begun, and no later call inherits it
/// or a connection that is already dead.
struct Checkout {
    client: Option<Object>,
}

impl Checkout {
    async fn get(pool: &Pool) -> Result<Checkout, StoreError> {
        Ok(Checkout {
            client: Some(pool.get().await.map_err(db)?),
        })
    }

    /// Gives the connection back to the pool.
    fn done(mut self) {
        self.client = None;
    }

    /// Begins the transaction, takes the write lock of `code`, then runs
    /// `statement` (a read under a snapshot taken after the lock): three
    /// statements sent together, one round trip.
    async fn begin(
        pool: &Pool,
        code: &Code,
        statement: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<(Checkout, Row), StoreError> {
        let writing = Checkout::get(pool).await?;
        let client = writing.client()?;
        let (lock, read) = try_join(client.prepare_cached(LOCK), client.prepare_cached(statement))
            .await
            .map_err(db)?;
        let (_, _, row) = try_join3(
            client.batch_execute(BEGIN),
            client.execute(&lock, &[&code.as_str()]),
            client.query_one(&read, params),
        )
        .await
        .map_err(db)?;
        Ok((writing, row))
    }

    fn client(&self) -> Result<&Object, StoreError> {
        self.client
            .as_ref()
            .ok_or_else(|| backend("the call's connection is gone"))
    }

    /// Commits (or, having written nothing, ends) the transaction and gives the connection back.
    async fn finish(mut self) -> Result<(), StoreError> {
        self.client()?.batch_execute("COMMIT").await.map_err(db)?;
        self.client = None;
        Ok(())
    }

    /// Runs `statement` and commits, in one round trip.
    async fn write_and_commit(mut self, statement: &str, params: &[&(dyn ToSql + Sync)]) -> Result<(), StoreError> {
        let client = self.client()?;
        let statement = client.prepare_cached(statement).await.map_err(db)?;
        try_join(client.query_one(&statement, params), client.batch_execute("COMMIT"))
            .await
            .map_err(db)?;
        self.client = None;
        Ok(())
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            // Out of the pool and closed: the server rolls back what was begun.
            drop(Object::take(client));
        }
    }
}

impl PgRedemptionStore {
    /// The schema version [`migrate`](PgRedemptionStore::migrate) brings a database to.
    pub const SCHEMA_VERSION: i32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

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

    /// Creates or upgrades the store's tables in the connection's
    /// `search_path`, to the newest version this crate knows.
    ///
    /// Versioned and idempotent: each migration runs once, in one
    /// transaction with its entry in `promocodes_schema_migrations`.
    /// Several processes may call it at once: a transaction-scoped advisory
    /// lock (per schema) makes them take turns, and each finds the work of
    /// the one before done.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database refuses (no permission to
    /// create tables, no connection).
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(db)?;
        let tx = client.transaction().await.map_err(db)?;
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext(current_schema())::int)",
            &[&MIGRATION_LOCK],
        )
        .await
        .map_err(db)?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS promocodes_schema_migrations(
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now())",
        )
        .await
        .map_err(db)?;
        let applied: i32 = tx
            .query_one(
                "SELECT COALESCE(max(version), 0) FROM promocodes_schema_migrations",
                &[],
            )
            .await
            .map_err(db)?
            .get(0);
        for (version, sql) in MIGRATIONS.iter().filter(|(version, _)| *version > applied) {
            tx.batch_execute(sql).await.map_err(db)?;
            tx.execute(
                "INSERT INTO promocodes_schema_migrations(version) VALUES ($1)",
                &[version],
            )
            .await
            .map_err(db)?;
        }
        tx.commit().await.map_err(db)
    }

    /// The version of the newest migration applied (0 before any).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot answer.
    pub async fn schema_version(&self) -> Result<i32, StoreError> {
        let client = self.pool.get().await.map_err(db)?;
        let exists: bool = client
            .query_one("SELECT to_regclass('promocodes_schema_migrations') IS NOT NULL", &[])
            .await
            .map_err(db)?
            .try_get(0)
            .map_err(db)?;
        if !exists {
            return Ok(0);
        }
        let row = client
            .query_one(
                "SELECT COALESCE(max(version), 0) FROM promocodes_schema_migrations",
                &[],
            )
            .await
            .map_err(db)?;
        row.try_get(0).map_err(db)
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

    async fn record_at(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, customer, expected) = (redemption.code, redemption.customer, redemption.expected);
        // Were it to land, it lands on exactly `expected`: its reservation is known before it is sent.
        let discount = redemption.quote.discount().amount();
        let Some(usage) = expected.after_use(customer.is_some(), discount) else {
            return Ok(None);
        };
        let reservation = redemption.reservation(usage);
        let total = i64::try_from(expected.total()).map_err(backend)?;
        let mine = i64::try_from(expected.per_customer()).map_err(backend)?;
        let campaign = redemption.campaign.map(Code::as_str);
        let per_code = match campaign {
            Some(_) => Some(i64::try_from(expected.code_uses()).map_err(backend)?),
            None => None,
        };
        let checkout = Checkout::get(&self.pool).await?;
        let client = checkout.client()?;
        let (lock, record) = try_join(client.prepare_cached(LOCK), client.prepare_cached(RECORD))
            .await
            .map_err(db)?;
        // A campaign's counts are shared by all of its codes: its own lock, after the code's.
        let campaign_lock = async {
            match campaign {
                Some(campaign) => client
                    .execute(&lock, &[&counter_of(code, Some(campaign))])
                    .await
                    .map(drop),
                None => Ok(()),
            }
        };
        // One round trip: the five go out together, in order, and the transaction is theirs.
        let (_, _, _, row, _) = try_join5(
            client.batch_execute(BEGIN),
            client.execute(&lock, &[&code.as_str()]),
            campaign_lock,
            client.query_one(
                &record,
                &[
                    &code.as_str(),
                    &customer.map(CustomerId::as_str),
                    &instant(redemption.now),
                    &redemption.idempotency_key.map(IdempotencyKey::as_str),
                    &reservation.state.as_str(),
                    &redemption.hold_until.map(instant),
                    &total,
                    &mine,
                    &Json(&reservation),
                    &redemption.after_expired_hold.map(instant),
                    &expected.discounted().to_string(),
                    &discount.to_string(),
                    &campaign,
                    &per_code,
                ],
            ),
            client.batch_execute("COMMIT"),
        )
        .await
        .map_err(db)?;
        checkout.done();
        let what: &str = row.try_get(0).map_err(db)?;
        let plain = campaign.is_none();
        match what {
            "written" => {
                if plain {
                    self.seen.note(code, customer, usage);
                }
                Ok(Some(reservation))
            }
            "stale" => {
                // The counts the write found under the lock: the next try's hint.
                match (plain, found_under_lock(&row, customer.is_some())) {
                    (true, Ok(found)) => self.seen.note(code, customer, found),
                    _ => self.seen.forget(code),
                }
                Ok(None)
            }
            "replay" => {
                let Json(earlier) = row.try_get::<_, Json<Reservation>>(1).map_err(db)?;
                Ok(Some(earlier.replayed()))
            }
            other => Err(backend(format!("the compare-and-set answered {other:?}"))),
        }
    }

    async fn convert_at(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (conversion.code, conversion.now);
        let (writing, row) =
            Checkout::begin(&self.pool, code, KEYED, &[&code.as_str(), &conversion.key.as_str()]).await?;
        let Some((seq, held, campaign)) = keyed_row(&row)? else {
            writing.finish().await?;
            return Ok(None);
        };
        match held.state_at(now) {
            ReservationState::Held => {}
            ReservationState::Expired => {
                writing.finish().await?;
                return Ok(None);
            }
            _ => {
                writing.finish().await?;
                return Ok(Some(held.replayed()));
            }
        }
        let counter = counter_of(code, campaign.as_deref());
        let before = read_locked(
            writing.client()?,
            &counter,
            code,
            campaign.is_some(),
            held.customer.as_ref(),
            now,
        )
        .await?;
        if conversion.expected.is_some_and(|expected| expected != before) {
            writing.finish().await?;
            return Ok(None);
        }
        // The hold already counts: the counts at `now` are those after the capture, but for a
        // discount that differs from the hold's (a capture with another basket).
        let (reserved, discount) = (held.quote.discount().amount(), conversion.quote.discount().amount());
        let usage = with_discount_moved(before, discount - reserved)?;
        let customer = held.customer.as_ref().map(CustomerId::as_str);
        let captured = held.clone().captured(conversion.quote, usage, now);
        writing
            .write_and_commit(
                UPDATE,
                &[
                    &seq,
                    &counter,
                    &customer,
                    &1_i64,
                    &true,
                    &captured.state.as_str(),
                    &Json(&captured),
                    &discount.to_string(),
                    &campaign.is_some().then_some(code.as_str()),
                ],
            )
            .await?;
        Ok(Some(captured))
    }

    async fn release_at(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (release.code, release.now);
        let (writing, row) = Checkout::begin(&self.pool, code, KEYED, &[&code.as_str(), &release.key.as_str()]).await?;
        let Some((seq, earlier, campaign)) = keyed_row(&row)? else {
            writing.finish().await?;
            return Ok(None);
        };
        let state = earlier.state_at(now);
        if state == ReservationState::Released {
            writing.finish().await?;
            return Ok(Some(earlier.replayed()));
        }
        let counter = counter_of(code, campaign.as_deref());
        let before = read_locked(
            writing.client()?,
            &counter,
            code,
            campaign.is_some(),
            earlier.customer.as_ref(),
            now,
        )
        .await?;
        let counted = matches!(state, ReservationState::Held | ReservationState::Captured);
        let given_back = earlier.quote.discount().amount();
        let usage = if counted {
            let fewer = UsageCounts::new(
                before.total().saturating_sub(1),
                before
                    .per_customer()
                    .saturating_sub(u64::from(earlier.customer.is_some())),
            )
            .and_then(|usage| usage.with_discounted(before.discounted()))
            .and_then(|usage| match campaign {
                Some(_) => usage.with_code_uses(before.code_uses().saturating_sub(1)),
                None => Ok(usage),
            })
            .map_err(db)?;
            with_discount_moved(fewer, -given_back)?
        } else {
            before
        };
        let (was, captured_delta, drop_hold) = if state == ReservationState::Captured {
            (ReservationState::Captured, -1_i64, false)
        } else {
            (ReservationState::Held, 0_i64, true)
        };
        let customer = earlier.customer.as_ref().map(CustomerId::as_str);
        let released = earlier.clone().released(release, was, usage);
        writing
            .write_and_commit(
                UPDATE,
                &[
                    &seq,
                    &counter,
                    &customer,
                    &captured_delta,
                    &drop_hold,
                    &released.state.as_str(),
                    &Json(&released),
                    &if state == ReservationState::Captured {
                        (-given_back).to_string()
                    } else {
                        "0".to_owned()
                    },
                    &campaign.is_some().then_some(code.as_str()),
                ],
            )
            .await?;
        Ok(Some(released))
    }
}

async fn read(
    client: &Object,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    let statement = client.prepare_cached(READ).await.map_err(db)?;
    let row = client
        .query_one(
            &statement,
            &[&code.as_str(), &customer.map(CustomerId::as_str), &instant(now)],
        )
        .await
        .map_err(db)?;
    usage_of(&row, customer.is_some())
}

/// The counts under `counter` inside a write's transaction that holds the
/// code's lock: for a campaign's code (`through`), after taking the
/// campaign's lock too (the code's first, then the campaign's, as a new
/// use's write takes them), with the code's own uses.
async fn read_locked(
    client: &Object,
    counter: &str,
    code: &Code,
    through: bool,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    if !through {
        return read(client, code, customer, now).await;
    }
    let lock = client.prepare_cached(LOCK).await.map_err(db)?;
    client.execute(&lock, &[&counter]).await.map_err(db)?;
    read_through(client, counter, code, customer, now).await
}

async fn read_through(
    client: &Object,
    counter: &str,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    let statement = client.prepare_cached(READ_THROUGH).await.map_err(db)?;
    let row = client
        .query_one(
            &statement,
            &[
                &counter,
                &customer.map(CustomerId::as_str),
                &instant(now),
                &code.as_str(),
            ],
        )
        .await
        .map_err(db)?;
    usage_through(&row, customer.is_some())
}

async fn keyed(client: &Object, code: &Code, key: &IdempotencyKey) -> Result<Option<(i64, Reservation)>, StoreError> {
    let statement = client.prepare_cached(KEYED).await.map_err(db)?;
    let row = client
        .query_one(&statement, &[&code.as_str(), &key.as_str()])
        .await
        .map_err(db)?;
    Ok(keyed_row(&row)?.map(|(seq, reservation, _)| (seq, reservation)))
}

/// The `seq`, reservation and campaign (if any) a [`KEYED`] row gives, if the key is known.
fn keyed_row(row: &Row) -> Result<Option<(i64, Reservation, Option<String>)>, StoreError> {
    let seq: Option<i64> = row.try_get(0).map_err(db)?;
    let reservation: Option<Json<Reservation>> = row.try_get(1).map_err(db)?;
    let campaign: Option<String> = row.try_get(2).map_err(db)?;
    Ok(seq.zip(reservation.map(|Json(r)| r)).map(|(seq, r)| (seq, r, campaign)))
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
            .query_one(&statement, &[&code.as_str(), &instant(now)])
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
        assert!(LOCK.contains(&lock));
        assert!(sql::RECORD_FUNCTION.contains(&lock));
    }

    #[test]
    fn instants_sort_as_times_do() {
        let times = [
            "0001-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00Z",
            "2262-04-12T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
        ];
        let instants: Vec<String> = times.iter().map(|t| instant(t.parse().expect("a time"))).collect();
        assert!(
            instants.windows(2).all(|w| w[0] < w[1] && w[0].len() == w[1].len()),
            "{instants:?}"
        );
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
