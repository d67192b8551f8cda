//! A server killed with `kill -9` under load and restarted: every
//! acknowledged receipt is there, and every count equals its records.
//!
//! Alone in its test binary: it kills the server the other tests use, and
//! cargo runs test binaries one after another.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_counts_match_records, database_url, line_of, n, race_command, runtime, unique_schema};
use promocodes::{AsyncRedemptionStore, Code, IdempotencyKey, ReservationState, Timestamp};

/// The private cluster scripts/test-postgres.sh started, to kill and restart.
struct Cluster {
    data: String,
    bin: String,
    options: String,
    run_as: Option<String>,
}

impl Cluster {
    fn ours() -> Option<Cluster> {
        let var = |name| std::env::var(name).ok();
        Some(Cluster {
            data: var("PROMOCODES_TEST_PG_DATA")?,
            bin: var("PROMOCODES_TEST_PG_BIN")?,
            options: var("PROMOCODES_TEST_PG_OPTIONS")?,
            run_as: var("PROMOCODES_TEST_PG_RUNAS"),
        })
    }

    /// `kill -9` of the postmaster and of every process it started, by their ids.
    fn kill(&self) {
        let pid_file = std::fs::read_to_string(format!("{}/postmaster.pid", self.data)).expect("a running server");
        let postmaster: u32 = pid_file
            .lines()
            .next()
            .and_then(|line| line.trim().parse().ok())
            .expect("its pid");
        let mut pids = vec![postmaster];
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // The parent's pid is the second field after the command's closing parenthesis.
            let parent = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            if parent == Some(postmaster) {
                pids.push(pid);
            }
        }
        let status = Command::new("kill")
            .arg("-9")
            .args(pids.iter().map(u32::to_string))
            .status()
            .expect("kill runs");
        assert!(status.success(), "killed {pids:?}");
        // Until they are reaped, a new postmaster takes the old one's pid file for a live server.
        let started = Instant::now();
        while pids.iter().any(|pid| Path::new(&format!("/proc/{pid}")).exists()) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the killed processes are reaped"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn start(&self) {
        let folder = Path::new(&self.data).parent().expect("the cluster's folder");
        let options = self.options.as_str();
        let pg_ctl = format!("{}/pg_ctl", self.bin);
        let log = folder.join("log").to_string_lossy().into_owned();
        let mut command = match &self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--", &pg_ctl]);
                command
            }
            None => Command::new(&pg_ctl),
        };
        let status = command
            .args(["-D", &self.data, "-l", &log, "-w", "-o", options, "start"])
            .stdout(Stdio::null())
            .status()
            .expect("pg_ctl runs");
        assert!(status.success(), "the server restarts");
    }
}

#[test]
fn a_server_killed_under_load_keeps_every_acknowledged_receipt() {
    let Some(url) = database_url() else { return };
    let Some(cluster) = Cluster::ours() else {
        eprintln!("not a cluster scripts/test-postgres.sh started: skipped (it kills the server)");
        return;
    };
    let schema = unique_schema("crash");
    let receipts_file = std::env::temp_dir().join(format!("{schema}.keys"));
    let receipts_path = receipts_file.to_string_lossy().into_owned();
    let spec = "--total 1000000 --customers 500 --requests 3000 --concurrency 16 --attempts 50";
    let mut args: Vec<&str> = spec.split(' ').collect();
    args.extend(["--receipts-out", &receipts_path]);
    let child = race_command(&url, &schema, "CRASH", &args).spawn().expect("starts");

    // Under load: some receipts acknowledged, then kill -9, then the server back.
    let acknowledged = |path: &PathBuf| std::fs::read_to_string(path).map_or(0, |s| s.lines().count());
    let started = Instant::now();
    while acknowledged(&receipts_file) < 300 {
        assert!(started.elapsed() < Duration::from_secs(60), "the load runs");
        std::thread::sleep(Duration::from_millis(10));
    }
    cluster.kill();
    cluster.start();
    let line = line_of(child.wait_with_output().expect("runs"));
    assert!(n(&line, "errors") > 0, "some requests met the dead server: {line}");

    let keys: Vec<String> = std::fs::read_to_string(&receipts_file)
        .expect("the receipts")
        .lines()
        .map(str::to_owned)
        .collect();
    let _ = std::fs::remove_file(&receipts_file);
    assert_eq!(keys.len() as u64, n(&line, "receipts"));
    let runtime = runtime();
    runtime.block_on(async {
        let store = common::store_in(&url, &schema, 1).await;
        let code = Code::parse("CRASH").expect("a code");
        for key in &keys {
            let key = IdempotencyKey::parse(key).expect("a key");
            let reservation = store.reservation(&code, &key).await.expect("reads");
            assert!(
                reservation.is_some_and(|r| r.state == ReservationState::Captured),
                "the acknowledged receipt {key} survived the crash"
            );
        }
        assert_counts_match_records(&store, &code).await;
        let now = Timestamp::from_unix_millis(0).expect("a time");
        let total = store.usage_for(&code, None, now).await.expect("reads").total();
        assert!(total >= keys.len() as u64, "every acknowledged receipt counts");
        eprintln!(
            "acknowledged {} receipts, {} captured after the restart: {line}",
            keys.len(),
            total
        );
    });
}
