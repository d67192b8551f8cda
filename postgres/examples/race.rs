//! Races for one promo code on a PostgreSQL database, and prints what happened.
//!
//! ```text
//! cargo run --release -p promocodes-postgres --example race -- \
//!     --database-url postgres://shop@localhost/shop --code RACE --total 100 --per-customer 2 \
//!     --customers 80 --requests 2000 --concurrency 16
//! ```
//!
//! The code takes 10% off a basket of EUR 80.00, capped at `--total` uses
//! and `--per-customer` per customer. `--requests` captures go out over
//! `--concurrency` connections at once, the customers drawn in turn from
//! `--customers`, each capture under its own idempotency key (with a random
//! prefix, so that two runs never share a key). It prints one JSON line:
//!
//! ```text
//! {"receipts":100,"rejected":1900,"conflicts":0,"errors":0,"usage_total":100}
//! ```
//!
//! `receipts` counts new captures (not replays), `conflicts` the
//! `RedemptionConflict`s (every attempt lost its write), `errors` the store
//! failures, and `usage_total` is the code's total read from the store after
//! the run. Run it twice at once on the same code: the receipts of both runs
//! together never pass `--total`.
//!
//! Options for tests: `--schema S` (the tables' schema, created if missing),
//! `--attempts N` (passes per capture, 3 by default), `--mix` (a third of the
//! requests capture, a third hold then capture under the hold's key, a third
//! hold then release; the line then also has `holds` and `released`),
//! `--receipts-out FILE` (appends the key of every acknowledged new capture,
//! one a line, as soon as it is acknowledged), `--budget AMOUNT` (a budget in
//! EUR on the code's discounts, refusing a discount that does not fit; with
//! `--partial`, clipping it to what is left; the line then also has
//! `discounted`, the sum counted after the run).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use promocodes::{
    capture_async, hold_async, release_async, AsyncRedemptionStore, Basket, BudgetShort, CaptureOptions, Code,
    Currency, CustomerId, Discount, HoldOptions, IdempotencyKey, Money, PromoCode, RedemptionError, Timestamp,
    UsageLimits,
};
use promocodes_postgres::PgRedemptionStore;

struct Args {
    database_url: String,
    code: String,
    total: Option<u64>,
    per_customer: Option<u64>,
    customers: u64,
    requests: u64,
    concurrency: usize,
    schema: Option<String>,
    attempts: u32,
    mix: bool,
    receipts_out: Option<String>,
    budget: Option<String>,
    partial: bool,
}

const USAGE: &str = "usage: race --database-url URL --code CODE [--total N] [--per-customer K] --customers M \
--requests R --concurrency C [--schema S] [--attempts N] [--mix] [--receipts-out FILE] [--budget AMOUNT [--partial]]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        database_url: String::new(),
        code: String::new(),
        total: None,
        per_customer: None,
        customers: 1,
        requests: 0,
        concurrency: 1,
        schema: None,
        attempts: promocodes::DEFAULT_ATTEMPTS,
        mix: false,
        receipts_out: None,
        budget: None,
        partial: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--partial" {
            args.partial = true;
            continue;
        }
        if flag == "--mix" {
            args.mix = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: not a number: {v}"));
        match flag.as_str() {
            "--database-url" => args.database_url = value,
            "--code" => args.code = value,
            "--total" => args.total = Some(number(&value)?),
            "--per-customer" => args.per_customer = Some(number(&value)?),
            "--customers" => args.customers = number(&value)?.max(1),
            "--requests" => args.requests = number(&value)?,
            "--concurrency" => args.concurrency = usize::try_from(number(&value)?.max(1)).unwrap_or(1),
            "--schema" => args.schema = Some(value),
            "--attempts" => args.attempts = u32::try_from(number(&value)?).unwrap_or(u32::MAX),
            "--receipts-out" => args.receipts_out = Some(value),
            "--budget" => args.budget = Some(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if args.database_url.is_empty() || args.code.is_empty() {
        return Err("--database-url and --code are required".to_owned());
    }
    Ok(args)
}

/// The moment of the call: the store never reads a clock, the caller does.
fn now() -> Timestamp {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    Timestamp::from_unix_nanos(nanos).unwrap_or_else(|_| Timestamp::from_unix_millis(0).expect("the epoch"))
}

/// A prefix no other run shares: the process's randomly seeded hasher, its id and the time.
fn random_prefix() -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_i128(now().as_unix_nanos());
    format!("race-{:016x}", hasher.finish())
}

#[derive(Default)]
struct Tally {
    receipts: AtomicU64,
    rejected: AtomicU64,
    conflicts: AtomicU64,
    errors: AtomicU64,
    holds: AtomicU64,
    released: AtomicU64,
}

impl Tally {
    fn capture(
        &self,
        answer: Result<promocodes::Receipt, RedemptionError>,
        key: &str,
        out: &Option<Mutex<std::fs::File>>,
    ) {
        match answer {
            Ok(receipt) if !receipt.replayed => {
                if let Some(out) = out {
                    if let Ok(mut file) = out.lock() {
                        // Acknowledged: written before it is counted, so a crash after this line keeps it.
                        let _ = writeln!(file, "{key}");
                    }
                }
                self.receipts.fetch_add(1, Ordering::SeqCst);
            }
            Ok(_) => {}
            Err(RedemptionError::Rejected(_)) => {
                self.rejected.fetch_add(1, Ordering::SeqCst);
            }
            Err(RedemptionError::Conflict(_)) => {
                self.conflicts.fetch_add(1, Ordering::SeqCst);
            }
            Err(_) => {
                self.errors.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    fn errors(&self) -> u64 {
        self.errors.load(Ordering::SeqCst)
    }

    /// Whether the hold landed.
    fn hold(&self, answer: Result<promocodes::Hold, RedemptionError>) -> bool {
        match answer {
            Ok(hold) => {
                self.holds.fetch_add(u64::from(!hold.replayed), Ordering::SeqCst);
                true
            }
            Err(RedemptionError::Rejected(_)) => {
                self.rejected.fetch_add(1, Ordering::SeqCst);
                false
            }
            Err(RedemptionError::Conflict(_)) => {
                self.conflicts.fetch_add(1, Ordering::SeqCst);
                false
            }
            Err(_) => {
                self.errors.fetch_add(1, Ordering::SeqCst);
                false
            }
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(err) => {
            eprintln!("{err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args).await {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("race: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<String, Box<dyn std::error::Error>> {
    let mut config: promocodes_postgres::tokio_postgres::Config = args.database_url.parse()?;
    if let Some(schema) = &args.schema {
        let (client, connection) = config.connect(promocodes_postgres::tokio_postgres::NoTls).await?;
        let task = tokio::spawn(connection);
        // Two runs may start together: a duplicate schema is fine.
        let _ = client
            .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
            .await;
        drop(client);
        let _ = task.await;
        config.options(format!("-c search_path={schema}"));
    }
    let store = PgRedemptionStore::from_config(config, args.concurrency)?;
    store.migrate().await?;

    let code = Code::parse(&args.code)?;
    let mut limits = UsageLimits::new(args.total, args.per_customer)?;
    if let Some(budget) = &args.budget {
        let short = if args.partial {
            BudgetShort::Partial
        } else {
            BudgetShort::Refuse
        };
        limits = limits.with_budget(Money::parse(budget, Currency::EUR)?, short)?;
    }
    let promo = PromoCode::builder(code.clone(), Discount::percent("10".parse()?)?)
        .limits(limits)
        .build()?;
    let basket = Basket::from(Money::parse("80.00", Currency::EUR)?);
    let customers: Vec<CustomerId> = (0..args.customers)
        .map(|i| CustomerId::parse(&format!("customer-{i}")))
        .collect::<Result<_, _>>()?;
    let out = match &args.receipts_out {
        Some(path) => Some(Mutex::new(
            std::fs::OpenOptions::new().create(true).append(true).open(path)?,
        )),
        None => None,
    };

    let shared = Arc::new((store, promo, basket, customers, random_prefix(), Tally::default(), out));
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..args.concurrency {
        let (shared, next) = (shared.clone(), next.clone());
        let (requests, attempts, mix) = (args.requests, args.attempts, args.mix);
        tasks.push(tokio::spawn(async move {
            let (store, promo, basket, customers, prefix, tally, out) = &*shared;
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= requests {
                    break;
                }
                let errors_before = tally.errors();
                let customer = &customers[(i % customers.len() as u64) as usize];
                let key_text = format!("{prefix}-{i}");
                let Ok(key) = IdempotencyKey::parse(&key_text) else {
                    tally.errors.fetch_add(1, Ordering::SeqCst);
                    continue;
                };
                let options = CaptureOptions::new().idempotency_key(&key).attempts(attempts);
                match if mix { i % 3 } else { 0 } {
                    0 => {
                        let answer = capture_async(promo, store, Some(customer), basket, now(), options).await;
                        tally.capture(answer, &key_text, out);
                    }
                    kind => {
                        let held = hold_async(
                            promo,
                            store,
                            Some(customer),
                            basket,
                            now(),
                            &key,
                            HoldOptions::new().attempts(attempts),
                        )
                        .await;
                        if !tally.hold(held) {
                            continue;
                        }
                        if kind == 1 {
                            let answer = capture_async(promo, store, Some(customer), basket, now(), options).await;
                            tally.capture(answer, &key_text, out);
                        } else {
                            match release_async(store, promo.code(), &key, now(), Some("abandoned")).await {
                                Ok(_) => tally.released.fetch_add(1, Ordering::SeqCst),
                                Err(_) => tally.errors.fetch_add(1, Ordering::SeqCst),
                            };
                        }
                    }
                }
                if tally.errors() != errors_before {
                    // The database is away (restarting, say): give it a moment rather than spin.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
            }
        }));
    }
    for task in tasks {
        task.await?;
    }
    let (store, _, _, _, _, tally, _) = &*shared;
    let usage = store.usage_for(&code, None, now()).await?;
    let usage_total = usage.total();
    let load = |n: &AtomicU64| n.load(Ordering::SeqCst);
    let mut line = format!(
        r#"{{"receipts":{},"rejected":{},"conflicts":{},"errors":{},"usage_total":{}"#,
        load(&tally.receipts),
        load(&tally.rejected),
        load(&tally.conflicts),
        load(&tally.errors),
        usage_total,
    );
    if args.budget.is_some() {
        line.push_str(&format!(r#","discounted":"{}""#, usage.discounted()));
    }
    if args.mix {
        line.push_str(&format!(
            r#","holds":{},"released":{}"#,
            load(&tally.holds),
            load(&tally.released)
        ));
    }
    line.push('}');
    Ok(line)
}
