//! Captures per second on PostgreSQL, next to the PostgreSQL floor: a bare
//! conditional `UPDATE` of a counter on the same server, in the same run.
//!
//! ```text
//! cargo run --release -p promocodes-postgres --example bench -- --database-url URL [--seconds 5] [--only TEXT]
//! ```
//!
//! `--only` runs the shapes whose name contains the text (e.g. `"1 connection"`).
//!
//! Three shapes, each for `--seconds`: one hot code over 1 connection, one
//! hot code over 50 (50 tasks sharing one store, which queues their
//! decisions on the code: `AsyncRedemptionStore::turn`), and 100 codes over
//! 50. A capture is
//! [`promocodes::capture_async`] under its own idempotency key, for one of
//! 1000 customers, of a code with no caps (so that every capture lands); the
//! floor is `UPDATE ... SET n = n + 1 WHERE code = $1 AND n < $2` on a table
//! of its own, one statement per capture, autocommitted. Both commit once
//! per capture with the server's settings (`synchronous_commit` as it is).
//!
//! Beside them, the contract's writes alone (no read, no rule, no
//! comparison), on the store's own tables: in one round trip, `BEGIN`, the
//! code's advisory lock, one statement that inserts a reservation (the JSON
//! of a real capture), its idempotency key, and moves the customer's and the
//! code's counts, `COMMIT`. No store that keeps those rows can capture
//! faster on this server, so its ratio to the floor is the most any such
//! store reaches here.
//!
//! Prints a markdown table on stdout: captures/s, the floor's updates/s, the
//! ratio of the two, the writes alone per second and their ratio to the floor.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use promocodes::{capture_async, Basket, CaptureOptions, Code, Currency, CustomerId, Discount, IdempotencyKey};
use promocodes::{Money, PromoCode, Timestamp};
use promocodes_postgres::tokio_postgres::types::{Json, ToSql};
use promocodes_postgres::tokio_postgres::{Config, NoTls};
use promocodes_postgres::PgRedemptionStore;

struct Shape {
    name: &'static str,
    connections: usize,
    codes: usize,
}

const SHAPES: [Shape; 3] = [
    Shape {
        name: "one hot code, 1 connection",
        connections: 1,
        codes: 1,
    },
    Shape {
        name: "one hot code, 50 connections",
        connections: 50,
        codes: 1,
    },
    Shape {
        name: "100 codes, 50 connections",
        connections: 50,
        codes: 100,
    },
];

fn now() -> Timestamp {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    Timestamp::from_unix_nanos(nanos).expect("a time in range")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut url = None;
    let mut seconds = 5.0_f64;
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--database-url" => url = args.next(),
            "--seconds" => seconds = args.next().ok_or("--seconds needs a value")?.parse()?,
            "--only" => only = args.next().ok_or("--only needs a value")?,
            _ => return Err(format!("unknown option {flag}").into()),
        }
    }
    let url = url.ok_or("usage: bench --database-url URL [--seconds S] [--only TEXT]")?;
    let duration = Duration::from_secs_f64(seconds);
    let run = format!("bench_{}_{}", std::process::id(), now().as_unix_nanos() % 1_000_000_000);

    // A schema of its own, dropped at the end.
    let (admin, connection) = tokio_postgres_connect(&url).await?;
    let admin_task = tokio::spawn(connection);
    admin.batch_execute(&format!("CREATE SCHEMA {run}")).await?;
    let mut config: Config = url.parse()?;
    config.options(format!("-c search_path={run}"));

    println!(
        "| PostgreSQL, captures/s | promocodes-postgres | floor (conditional UPDATE) | ratio | the writes alone | their ratio |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for shape in SHAPES.iter().filter(|shape| shape.name.contains(&only)) {
        let store = PgRedemptionStore::from_config(config.clone(), shape.connections)?;
        store.migrate().await?;
        let captures = captures(&store, shape, duration, &run).await?;
        let floor = floor(&config, shape, duration).await?;
        let writes = writes_alone(&config, shape, duration).await?;
        println!(
            "| {} | {:.0} | {:.0} | {:.2} | {:.0} | {:.2} |",
            shape.name,
            captures,
            floor,
            captures / floor,
            writes,
            writes / floor
        );
    }
    admin.batch_execute(&format!("DROP SCHEMA {run} CASCADE")).await?;
    drop(admin);
    let _ = admin_task.await;
    Ok(())
}

async fn tokio_postgres_connect(
    url: &str,
) -> Result<
    (
        promocodes_postgres::tokio_postgres::Client,
        promocodes_postgres::tokio_postgres::Connection<
            promocodes_postgres::tokio_postgres::Socket,
            promocodes_postgres::tokio_postgres::tls::NoTlsStream,
        >,
    ),
    promocodes_postgres::tokio_postgres::Error,
> {
    promocodes_postgres::tokio_postgres::connect(url, NoTls).await
}

/// Captures per second of `shape` for `duration` (after a warm-up of every connection).
async fn captures(store: &PgRedemptionStore, shape: &Shape, duration: Duration, run: &str) -> Result<f64, String> {
    let promos: Vec<PromoCode> = (0..shape.codes)
        .map(|i| {
            let code = Code::parse(&format!("B{}C{i}", shape.connections)).expect("a code");
            PromoCode::builder(code, Discount::percent(10.into()).expect("10%"))
                .build()
                .expect("a promo")
        })
        .collect();
    let customers: Vec<CustomerId> = (0..1000)
        .map(|i| CustomerId::parse(&format!("c{i}")).expect("an id"))
        .collect();
    let basket = Basket::from(Money::parse("80.00", Currency::EUR).expect("money"));
    let prefix = format!("{run}-{}", shape.connections);
    let shared = Arc::new((store.clone(), promos, customers, basket, prefix));
    let (stop, done, failed) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let next = Arc::new(AtomicU64::new(0));
    let warm = Arc::new(tokio::sync::Barrier::new(shape.connections + 1));
    let mut tasks = Vec::new();
    for _ in 0..shape.connections {
        let (shared, stop, done, failed, next, warm) = (
            shared.clone(),
            stop.clone(),
            done.clone(),
            failed.clone(),
            next.clone(),
            warm.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let (store, promos, customers, basket, prefix) = &*shared;
            let mut warmed = false;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let which = (i % promos.len() as u64) as usize;
                let promo = &promos[which];
                let customer = &customers[(i % customers.len() as u64) as usize];
                let key = IdempotencyKey::parse(&format!("{prefix}-{i}")).expect("a key");
                let options = CaptureOptions::new().idempotency_key(&key).attempts(1000);
                let answer = capture_async(promo, store, Some(customer), basket, now(), options).await;
                if !warmed {
                    warmed = true;
                    warm.wait().await;
                    continue;
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                match answer {
                    Ok(_) => done.fetch_add(1, Ordering::Relaxed),
                    Err(_) => failed.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let rate = rate(tasks, &warm, &stop, &done, duration)
        .await
        .map_err(|e| e.to_string())?;
    if failed.load(Ordering::Relaxed) > 0 {
        eprintln!(
            "[bench] {}: {} captures failed",
            shape.name,
            failed.load(Ordering::Relaxed)
        );
    }
    Ok(rate)
}

/// Once every task has warmed up (met `warm`), lets them run for `duration`,
/// stops them, and answers what `done` gained meanwhile, per second.
async fn rate(
    tasks: Vec<tokio::task::JoinHandle<()>>,
    warm: &tokio::sync::Barrier,
    stop: &AtomicBool,
    done: &AtomicU64,
    duration: Duration,
) -> Result<f64, tokio::task::JoinError> {
    warm.wait().await;
    let started = Instant::now();
    tokio::time::sleep(duration).await;
    let count = done.load(Ordering::Relaxed);
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await?;
    }
    Ok(count as f64 / elapsed.as_secs_f64())
}

/// The writes of a capture of code `$1` under key `$2` by customer `$3`,
/// reservation `$4`: the reservation, its key, the customer's and the code's
/// counts (as the store's compare-and-set writes them, without its reads).
const WRITES: &str = "
WITH r AS (
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation)
    VALUES ($1, $2, 'captured', $4) RETURNING seq
), k AS (
    INSERT INTO promocodes_idempotency_keys(code, key, seq) SELECT $1, $2, r.seq FROM r
), c AS (
    INSERT INTO promocodes_usage_customer(code, customer, n) VALUES ($1, $3, 1)
    ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1
)
INSERT INTO promocodes_usage_total(code, n, discounted) VALUES ($1, 1, 8)
ON CONFLICT (code) DO UPDATE
SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + 8";

/// Conditional updates per second of `shape` for `duration`, on the same server.
async fn floor(config: &Config, shape: &Shape, duration: Duration) -> Result<f64, Box<dyn std::error::Error>> {
    let (setup, connection) = config.connect(NoTls).await?;
    let task = tokio::spawn(connection);
    setup
        .batch_execute("CREATE TABLE IF NOT EXISTS floor(code text PRIMARY KEY, n bigint NOT NULL); TRUNCATE floor;")
        .await?;
    for i in 0..shape.codes {
        setup
            .execute("INSERT INTO floor(code, n) VALUES ($1, 0)", &[&format!("F{i}")])
            .await?;
    }
    drop(setup);
    let _ = task.await;

    let (stop, done) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
    let warm = Arc::new(tokio::sync::Barrier::new(shape.connections + 1));
    let mut tasks = Vec::new();
    for t in 0..shape.connections {
        let (client, connection) = config.connect(NoTls).await?;
        tokio::spawn(connection);
        let (stop, done, warm, codes) = (stop.clone(), done.clone(), warm.clone(), shape.codes);
        tasks.push(tokio::spawn(async move {
            let update = client
                .prepare("UPDATE floor SET n = n + 1 WHERE code = $1 AND n < $2")
                .await
                .expect("prepares");
            let mut i = t;
            let mut warmed = false;
            loop {
                let code = format!("F{}", i % codes);
                i += 1;
                let updated = client.execute(&update, &[&code, &i64::MAX]).await.expect("updates");
                if !warmed {
                    warmed = true;
                    warm.wait().await;
                    continue;
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                done.fetch_add(updated, Ordering::Relaxed);
            }
        }));
    }
    Ok(rate(tasks, &warm, &stop, &done, duration).await?)
}

/// Every capture's writes and nothing else, per second, on the store's tables
/// (codes of their own): see the module's docs.
async fn writes_alone(config: &Config, shape: &Shape, duration: Duration) -> Result<f64, Box<dyn std::error::Error>> {
    let (setup, connection) = config.connect(NoTls).await?;
    let task = tokio::spawn(connection);
    // A real capture's reservation, written by the run before.
    let reservation: serde_json::Value = setup
        .query_one(
            "SELECT reservation FROM promocodes_redemptions ORDER BY seq DESC LIMIT 1",
            &[],
        )
        .await?
        .try_get(0)?;
    drop(setup);
    let _ = task.await;

    let (stop, done) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
    let warm = Arc::new(tokio::sync::Barrier::new(shape.connections + 1));
    let reservation = Arc::new(reservation);
    let mut tasks = Vec::new();
    for t in 0..shape.connections {
        let (client, connection) = config.connect(NoTls).await?;
        tokio::spawn(connection);
        let (stop, done, warm, reservation) = (stop.clone(), done.clone(), warm.clone(), reservation.clone());
        let (codes, connections) = (shape.codes, shape.connections);
        tasks.push(tokio::spawn(async move {
            let (begin, lock, write, commit) = tokio::try_join!(
                client.prepare("BEGIN ISOLATION LEVEL READ COMMITTED"),
                client.prepare("SELECT pg_advisory_xact_lock(1885564772, hashtext($1))"),
                client.prepare(WRITES),
                client.prepare("COMMIT"),
            )
            .expect("prepares");
            let mut i = t;
            let mut warmed = false;
            loop {
                let code = format!("W{connections}-{codes}x{}", i % codes);
                let key = format!("w{t}-{i}");
                let customer = format!("c{}", i % 1000);
                i += connections;
                let json = Json(&*reservation);
                let (lock_params, write_params): (&[&(dyn ToSql + Sync)], &[&(dyn ToSql + Sync)]) =
                    (&[&code], &[&code, &key, &customer, &json]);
                tokio::try_join!(
                    client.execute(&begin, &[]),
                    client.execute(&lock, lock_params),
                    client.execute(&write, write_params),
                    client.execute(&commit, &[]),
                )
                .expect("writes");
                if !warmed {
                    warmed = true;
                    warm.wait().await;
                    continue;
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    Ok(rate(tasks, &warm, &stop, &done, duration).await?)
}
