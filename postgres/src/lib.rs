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
without a hold, and every hold), is one call of the `promocodes_record`
function the migration installs, between `BEGIN` and `COMMIT` sent with
it: one round trip.

1. Without any lock, it looks the idempotency key up (a known key answers
   with its reservation, `replayed`: the one exception is a capture that
   names the hold under the key, expired at `now`, which it follows; then
   the hold stays in the history, marked `expired`, and the key moves to
   the capture) and the counts at `now` (captured
   uses plus holds with `expires > now`, overall and for the customer). If
   they are not exactly the counts the rules were checked against
   (compared as one value), the write is stale: `Ok(None)`, and nothing
   was locked or written. Both answers are true of that snapshot, taken
   during the call.
2. Otherwise it takes the code's write lock, and looks again.
3. Still the same counts: it writes the reservation (its JSON already
   carries the counts after it, since it can only land on exactly the
   expected ones), its idempotency key (the primary key of
   `promocodes_idempotency_keys`, so its uniqueness is the database's), and
   the hold or the captured counts. Then the statement ends and commits.

[`convert`](AsyncRedemptionStore::convert) and
[`release`](AsyncRedemptionStore::release), the rarer writes (a payment
under a hold, a refund), send `BEGIN`, the lock and the read of the key
together, read the counts of its customer, decide in Rust as the in-memory
store does, then send their one writing statement and `COMMIT` together:
three round trips.

The lock is held only inside a write's transaction, never while the rules
run: the rules run before, in the core, against the counts of
[`usage_for`](AsyncRedemptionStore::usage_for); a write that lost the race
finds other counts, answers stale, and the core re-reads and re-decides.
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

A call whose connection fails or whose future is dropped never gives that
connection back to the pool: it is closed, so the server rolls back what
was begun, and no later call inherits an open transaction. A write is
whole or absent: a connection lost before the commit leaves nothing; a
future dropped after the commit was sent may leave the whole write, which
a retry under the same idempotency key then replays.

# Many buyers on one code at once

A compare-and-set is exact, and a lost race costs little (no lock, no
disk flush when the first look already sees other counts), but with many
writers on one code each capture that lands makes every other writer's
read stale: they all read and decide again. With 50 connections on one
code that is about 49 calls per capture (docs/performance.md in the
repository has the runs). If one code can be taken by many buyers in the
same second, queue its captures in each process, so that one capture per
code and process is in flight; the caps stay exact without the queue, and
other processes do not wait on it:

```no_run
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use promocodes::{capture_async, Basket, CaptureOptions, Code, PromoCode, Receipt, RedemptionError, Timestamp};
use promocodes_postgres::PgRedemptionStore;

/// One queue per code, shared by the process's tasks.
#[derive(Default)]
struct Queues(Mutex<HashMap<Code, Arc<tokio::sync::Mutex<()>>>>);

impl Queues {
    async fn capture(
        &self,
        store: &PgRedemptionStore,
        promo: &PromoCode,
        basket: &Basket,
        now: Timestamp,
        options: CaptureOptions<'_>,
    ) -> Result<Receipt, RedemptionError> {
        let queue = {
            let mut queues = self.0.lock().expect("no task panicked holding it");
            queues.entry(promo.code().clone()).or_default().clone()
        };
        let _turn = queue.lock().await; // until the capture is answered
        capture_async(promo, store, None, basket, now, options).await
    }
}
```

# Tables

All in the connection's `search_path` (a schema per tenant or per test
works by setting `search_path` on the pool's connections; the function
keeps the `search_path` it was created under), prefixed `promocodes_`:

| table | what it holds |
|---|---|
| `promocodes_schema_migrations(version, applied_at)` | the migrations applied |
| `promocodes_usage_total(code, n)` | captured uses per code |
| `promocodes_usage_customer(code, customer, n)` | captured uses per code and customer |
| `promocodes_holds(seq, code, customer, expires)` | holds not yet captured or released; one counts while `expires > now` |
| `promocodes_redemptions(seq, code, idempotency_key, state, reservation)` | every reservation, in order, as JSON ([`Reservation`]) |
| `promocodes_idempotency_keys(code, key, seq)` | the key (primary key, per code) and the reservation a replay answers with |

and the function `promocodes_record(...)` (migration 2), the
compare-and-set of a new use. `expires` is a [`Timestamp`] as fixed-width
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

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use futures_util::future::{try_join, try_join3};
use promocodes::{
    AsyncRedemptionStore, Code, Conversion, CustomerId, IdempotencyKey, Redemption, Release, Reservation,
    ReservationState, StoreError, Timestamp, UsageCounts,
};
use tokio_postgres::types::{Json, ToSql};
use tokio_postgres::{NoTls, Row};

pub use deadpool_postgres;
pub use tokio_postgres;

const STORE: &str = "postgres";

/// The schema's versions, in order: each runs once, in one transaction.
const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        r#"
CREATE TABLE promocodes_usage_total(
    code text PRIMARY KEY,
    n bigint NOT NULL CHECK (n >= 0));
CREATE TABLE promocodes_usage_customer(
    code text NOT NULL,
    customer text NOT NULL,
    n bigint NOT NULL CHECK (n >= 0),
    PRIMARY KEY (code, customer));
CREATE TABLE promocodes_redemptions(
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code text NOT NULL,
    idempotency_key text,
    state text NOT NULL,
    reservation jsonb NOT NULL);
CREATE INDEX promocodes_redemptions_by_code ON promocodes_redemptions(code, seq);
CREATE TABLE promocodes_holds(
    seq bigint PRIMARY KEY REFERENCES promocodes_redemptions(seq),
    code text NOT NULL,
    customer text,
    expires text COLLATE "C" NOT NULL);
CREATE INDEX promocodes_holds_by_expiry ON promocodes_holds(code, expires);
CREATE TABLE promocodes_idempotency_keys(
    code text NOT NULL,
    key text NOT NULL,
    seq bigint NOT NULL REFERENCES promocodes_redemptions(seq),
    PRIMARY KEY (code, key));
"#,
    ),
    (2, RECORD_FUNCTION),
];

/// The advisory lock [`PgRedemptionStore::migrate`] takes (with the schema's
/// name), so that processes starting together migrate one after the other.
const MIGRATION_LOCK: i32 = 0x7072_6f6d; // "prom"

/// The first key of the code locks (the second is the code's `hashtext`):
/// "pcod". An application that takes advisory locks of its own should
/// avoid this first key.
pub const ADVISORY_LOCK_KEY: i32 = 0x7063_6f64;

/// Takes the code's write lock for the rest of the transaction: a
/// transaction-scoped advisory lock, which lives in memory only (a write
/// that takes it and then finds it has lost its race writes nothing at all,
/// not even a row lock to the log, so its commit waits for no disk).
const LOCK: &str = "SELECT pg_advisory_xact_lock(1885564772, hashtext($1))";

/// Every write's transaction, whatever the database's or the role's default
/// isolation: a read that follows the code's lock must see every write
/// committed before it, which takes a snapshot per statement.
const BEGIN: &str = "BEGIN ISOLATION LEVEL READ COMMITTED";

/// The counts at `$3` for `$1` and customer `$2` (NULL for none), from one snapshot.
const READ: &str = "
SELECT
    COALESCE((SELECT n FROM promocodes_usage_total WHERE code = $1), 0) AS total,
    COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = $1 AND customer = $2), 0) AS mine,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3) AS held,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3 AND customer = $2) AS held_mine";

/// The reservation under key `$2` of code `$1`.
const KEYED: &str = "
SELECT k.seq, r.reservation FROM (SELECT 1) AS one
LEFT JOIN promocodes_idempotency_keys k ON k.code = $1 AND k.key = $2
LEFT JOIN promocodes_redemptions r ON r.seq = k.seq";

/// How many holds of `$1` count at `$2`.
const HELD: &str = "SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $2";

/// The compare-and-set of a new use, as one function, so that it is one
/// statement from the client (one round trip, its own transaction) and yet
/// reads twice: PL/pgSQL takes a fresh snapshot for each statement it runs
/// at `READ COMMITTED`.
///
/// 1. Without any lock: a known key answers `replay` with its reservation
///    (but a capture that names, in `p_after_expired`, the hold under the
///    key, expired at `p_now`: [`Redemption::follows_expired_hold`], in
///    SQL), and counts
///    at `p_now` other than `p_total`, `p_mine` answer `stale`. Both are
///    true at that snapshot, within the call: a write that has lost its race
///    costs no lock and no disk flush.
/// 2. Otherwise it takes the code's write lock ([`LOCK`]) and looks again,
///    under a snapshot that sees every write of the code before it: the
///    same two answers, or the write.
/// 3. The write: the reservation (its JSON, with the counts after it, made
///    by the caller, since it can only land on exactly `p_total`, `p_mine`),
///    its key, and the hold (`p_expires`) or the captured counts. A capture
///    that follows an expired hold takes its key; the hold stays in the
///    history, marked `expired`.
const RECORD_FUNCTION: &str = r#"
CREATE OR REPLACE FUNCTION promocodes_record(
    p_code text, p_customer text, p_now text, p_key text, p_state text, p_expires text,
    p_total bigint, p_mine bigint, p_reservation jsonb, p_after_expired text)
RETURNS TABLE(what text, earlier jsonb)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    k_seq bigint;
    k_reservation jsonb;
    k_follows boolean;
    c_total bigint;
    c_mine bigint;
    new_seq bigint;
BEGIN
    -- The look after the lock must see what was committed before it: one snapshot per statement.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'promocodes_record runs at READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            PERFORM pg_advisory_xact_lock(1885564772, hashtext(p_code));
        END IF;
        k_seq := NULL;
        IF p_key IS NOT NULL THEN
            -- k_follows: this capture names the hold under the key, and it has expired at p_now.
            SELECT k.seq, r.reservation,
                (p_expires IS NULL AND r.state = 'held' AND h.expires <= p_now AND h.expires = p_after_expired)
            INTO k_seq, k_reservation, k_follows
            FROM promocodes_idempotency_keys k
            JOIN promocodes_redemptions r ON r.seq = k.seq
            LEFT JOIN promocodes_holds h ON h.seq = k.seq
            WHERE k.code = p_code AND k.key = p_key;
        END IF;
        IF k_seq IS NOT NULL AND k_follows IS NOT TRUE THEN
            RETURN QUERY SELECT 'replay'::text, k_reservation;
            RETURN;
        END IF;
        SELECT COALESCE((SELECT n FROM promocodes_usage_total WHERE code = p_code), 0)
                + (SELECT count(*) FROM promocodes_holds WHERE code = p_code AND expires > p_now),
            CASE WHEN p_customer IS NULL THEN 0 ELSE
                COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = p_code AND customer = p_customer), 0)
                + (SELECT count(*) FROM promocodes_holds
                   WHERE code = p_code AND expires > p_now AND customer = p_customer)
            END
        INTO c_total, c_mine;
        IF c_total <> p_total OR c_mine <> p_mine THEN
            RETURN QUERY SELECT 'stale'::text, NULL::jsonb;
            RETURN;
        END IF;
    END LOOP;

    IF k_seq IS NOT NULL THEN
        -- The expired hold stays in the history, marked expired; the key moves to the capture.
        UPDATE promocodes_redemptions
        SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
        WHERE seq = k_seq;
        DELETE FROM promocodes_holds WHERE seq = k_seq;
        DELETE FROM promocodes_idempotency_keys WHERE code = p_code AND key = p_key;
    END IF;
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation)
    VALUES (p_code, p_key, p_state, p_reservation)
    RETURNING seq INTO new_seq;
    IF p_key IS NOT NULL THEN
        INSERT INTO promocodes_idempotency_keys(code, key, seq) VALUES (p_code, p_key, new_seq);
    END IF;
    IF p_expires IS NOT NULL THEN
        INSERT INTO promocodes_holds(seq, code, customer, expires) VALUES (new_seq, p_code, p_customer, p_expires);
    END IF;
    IF p_expires IS NULL THEN
        INSERT INTO promocodes_usage_total(code, n) VALUES (p_code, 1)
        ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_total.n + 1;
        IF p_customer IS NOT NULL THEN
            INSERT INTO promocodes_usage_customer(code, customer, n) VALUES (p_code, p_customer, 1)
            ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1;
        END IF;
    END IF;
    RETURN QUERY SELECT 'written'::text, NULL::jsonb;
END
$fn$;
"#;

/// One compare-and-set of a new use: [`RECORD_FUNCTION`].
const RECORD: &str = "SELECT what, earlier FROM promocodes_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// Rewrites the reservation at `$1`; drops its hold row (`$5`); moves the
/// captured counts of code `$2` and customer `$3` by `$4` (-1, 0 or 1).
const UPDATE: &str = "
WITH r AS (
    UPDATE promocodes_redemptions SET state = $6::text, reservation = $7::jsonb WHERE seq = $1::bigint
), h AS (
    DELETE FROM promocodes_holds WHERE seq = $1::bigint AND $5::boolean
), t AS (
    INSERT INTO promocodes_usage_total(code, n)
    SELECT $2::text, GREATEST($4::bigint, 0) WHERE $4::bigint <> 0
    ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_total.n + $4::bigint
), c AS (
    INSERT INTO promocodes_usage_customer(code, customer, n)
    SELECT $2::text, $3::text, GREATEST($4::bigint, 0) WHERE $3::text IS NOT NULL AND $4::bigint <> 0
    ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + $4::bigint
)
SELECT 1";

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
    let total =
        count(row.try_get::<_, i64>("total").map_err(db)?)? + count(row.try_get::<_, i64>("held").map_err(db)?)?;
    let mine = if customer {
        count(row.try_get::<_, i64>("mine").map_err(db)?)? + count(row.try_get::<_, i64>("held_mine").map_err(db)?)?
    } else {
        0
    };
    UsageCounts::new(total, mine).map_err(backend)
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
        PgRedemptionStore { pool }
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
        let Some(usage) = expected.incremented(customer.is_some()) else {
            return Ok(None);
        };
        let reservation = redemption.reservation(usage);
        let total = i64::try_from(expected.total()).map_err(backend)?;
        let mine = i64::try_from(expected.per_customer()).map_err(backend)?;
        let checkout = Checkout::get(&self.pool).await?;
        let client = checkout.client()?;
        let record = client.prepare_cached(RECORD).await.map_err(db)?;
        // One round trip: the three go out together, and the transaction is the statement's.
        let (_, row, _) = try_join3(
            client.batch_execute(BEGIN),
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
                ],
            ),
            client.batch_execute("COMMIT"),
        )
        .await
        .map_err(db)?;
        checkout.done();
        let what: &str = row.try_get(0).map_err(db)?;
        match what {
            "written" => Ok(Some(reservation)),
            "stale" => Ok(None),
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
        let Some((seq, held)) = keyed_row(&row)? else {
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
        // The hold already counts: the counts at `now` are those after the capture.
        let usage = read(writing.client()?, code, held.customer.as_ref(), now).await?;
        let customer = held.customer.as_ref().map(CustomerId::as_str);
        let captured = held.clone().captured(conversion.quote, usage, now);
        writing
            .write_and_commit(
                UPDATE,
                &[
                    &seq,
                    &code.as_str(),
                    &customer,
                    &1_i64,
                    &true,
                    &captured.state.as_str(),
                    &Json(&captured),
                ],
            )
            .await?;
        Ok(Some(captured))
    }

    async fn release_at(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let (code, now) = (release.code, release.now);
        let (writing, row) = Checkout::begin(&self.pool, code, KEYED, &[&code.as_str(), &release.key.as_str()]).await?;
        let Some((seq, earlier)) = keyed_row(&row)? else {
            writing.finish().await?;
            return Ok(None);
        };
        let state = earlier.state_at(now);
        if state == ReservationState::Released {
            writing.finish().await?;
            return Ok(Some(earlier.replayed()));
        }
        let before = read(writing.client()?, code, earlier.customer.as_ref(), now).await?;
        let counted = matches!(state, ReservationState::Held | ReservationState::Captured);
        let usage = if counted {
            UsageCounts::new(
                before.total().saturating_sub(1),
                before
                    .per_customer()
                    .saturating_sub(u64::from(earlier.customer.is_some())),
            )
            .map_err(db)?
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
                    &code.as_str(),
                    &customer,
                    &captured_delta,
                    &drop_hold,
                    &released.state.as_str(),
                    &Json(&released),
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

async fn keyed(client: &Object, code: &Code, key: &IdempotencyKey) -> Result<Option<(i64, Reservation)>, StoreError> {
    let statement = client.prepare_cached(KEYED).await.map_err(db)?;
    let row = client
        .query_one(&statement, &[&code.as_str(), &key.as_str()])
        .await
        .map_err(db)?;
    keyed_row(&row)
}

/// The `seq` and reservation a [`KEYED`] row gives, if the key is known.
fn keyed_row(row: &Row) -> Result<Option<(i64, Reservation)>, StoreError> {
    let seq: Option<i64> = row.try_get(0).map_err(db)?;
    let reservation: Option<Json<Reservation>> = row.try_get(1).map_err(db)?;
    Ok(seq.zip(reservation.map(|Json(r)| r)))
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

    async fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.convert_at(conversion).await
    }

    async fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.release_at(release).await
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
        assert!(RECORD_FUNCTION.contains(&lock));
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
    fn the_root_readme_shows_the_example_this_readme_compiles() {
        let example = |readme: &str, fence: &str| {
            let start = readme.find(fence).expect("the example's fence") + fence.len();
            let end = start + readme[start..].find("```").expect("its end");
            readme[start..end].trim().to_owned()
        };
        let compiled = example(include_str!("../README.md"), "```rust,no_run");
        let shown = example(
            include_str!("../../README.md"),
            "```rust,ignore\nuse promocodes::{capture_async",
        );
        assert!(
            compiled.ends_with(&shown),
            "README.md's PostgreSQL example is postgres/README.md's"
        );
    }
}
