#!/usr/bin/env bash
# Every benchmark of promocodes, in one command, printing ONE markdown table on stdout, then the
# PostgreSQL store's table (scripts/bench-postgres.sh: captures/s next to a bare conditional UPDATE).
#
#   scripts/bench.sh           full counts (about 5 minutes on 2 cores, builds included when warm)
#   scripts/bench.sh --smoke   tiny counts, to check that everything runs (not a measurement)
#
# Builds what it needs (the criterion bench, the browser module via scripts/build-web.sh, the Worker
# via scripts/build-worker.sh, and the Rust floor bench/floor-rs the same way), runs the core benches
# (criterion), then bench/run.mjs: the built Worker and the two floor fixtures (bench/floor/ in
# JavaScript, bench/floor-rs/ in Rust) under Miniflare started from Node on 127.0.0.1, and headless
# Chromium.
# Progress and build logs go to stderr and target/bench/; the table also lands in target/bench/table.md.
# Not part of scripts/test.sh: there are no timing assertions anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

mode=full
flag=()
case "${1:-}" in
  "") ;;
  --smoke) mode=smoke; flag=(--smoke) ;;
  *) echo "usage: scripts/bench.sh [--smoke]" >&2; exit 2 ;;
esac

out=target/bench
mkdir -p "$out"
log() { printf '[bench] %s\n' "$*" >&2; }
quiet() { # label, command...: output to $out/<label>.log, shown only on failure
  local label="$1"; shift
  if ! "$@" >"$out/$label.log" 2>&1; then
    log "$label failed; last lines of $out/$label.log:"
    tail -n 40 "$out/$label.log" >&2
    exit 1
  fi
}

# The machine is shared: give other builds and test suites a moment (at most 2 minutes) to finish.
for _ in $(seq 1 24); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  awk -v l="$load" 'BEGIN { exit !(l > 3) }' || break
  log "load average $load > 3, waiting 5 s"
  sleep 5
done

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "build: criterion bench, browser module, Worker"
quiet build-bench cargo bench --bench core --no-run
if [ -x scripts/build-web.sh ]; then
  quiet build-web scripts/build-web.sh
fi
quiet build-worker scripts/build-worker.sh
quiet build-floor-rs scripts/build-worker.sh -p promocodes-floor-rs bench/floor-rs/build
quiet build-floor-raw scripts/build-floor-raw.sh bench/floor-raw/build

# Others may rebuild pkg/ or worker/build/ while this runs (wrangler dev rebuilds on start): benchmark
# a snapshot of each, taken right after the build and checked to be a whole wasm module.
snapshot() { # from-dir, to-dir
  rm -rf "$2" && mkdir -p "$(dirname "$2")" && cp -r "$1" "$2"
  for w in "$2"/*.wasm; do
    [ "$(head -c 4 "$w" | od -An -tx1 | tr -d ' ')" = 0061736d ] || { log "$w is not a wasm module"; exit 1; }
  done
}
web_pkg=public/pkg; [ -f "$web_pkg/promocodes_bg.wasm" ] || web_pkg=pkg
snapshot "$web_pkg" "$out/pkg"
snapshot worker/build "$out/worker-build"
snapshot bench/floor-rs/build "$out/floor-rs-build"
snapshot bench/floor-raw/build "$out/floor-raw-build"
export BENCH_PKG="$PWD/$out/pkg" BENCH_WORKER_BUILD="$PWD/$out/worker-build" BENCH_FLOOR_RS_BUILD="$PWD/$out/floor-rs-build"
export BENCH_FLOOR_RAW_BUILD="$PWD/$out/floor-raw-build"

# The Worker's upload as Cloudflare counts it: `wrangler deploy --dry-run` (no network, no login) of the
# snapshot, with a config of its own (no [build], no assets: those are not the Worker's upload).
log "Worker upload: wrangler deploy --dry-run"
mkdir -p "$out/upload"
sed -e '/^\[build\]/,/^$/d' -e '/^\[assets\]/,/^$/d' \
  -e "s|^main = .*|main = \"$PWD/$out/worker-build/worker/shim.mjs\"|" wrangler.toml >"$out/upload/wrangler.toml"
quiet upload wrangler deploy --dry-run --config "$out/upload/wrangler.toml" --outdir "$out/upload/out"
grep -m1 '^Total Upload' "$out/upload.log" >&2
export BENCH_UPLOAD="$PWD/$out/upload.log"

log "core: criterion ($mode)"
if [ "$mode" = smoke ]; then
  crit=(--warm-up-time 1 --measurement-time 1 --sample-size 10)
else
  crit=(--warm-up-time 2 --measurement-time 5)
fi
quiet criterion cargo bench --bench core -- "${crit[@]}"

log "edge and browser: Miniflare from Node + headless Chromium ($mode)"
run_json="$out/run.json"
rm -f "$run_json"
# Its own process group, so the servers and the browser go with it whatever happens to this script.
# bench/run.mjs bounds each phase itself; the timeout is a backstop (node stops its servers on TERM).
setsid timeout --signal=TERM 900 node bench/run.mjs "$run_json" "${flag[@]}" &
pid=$!
trap 'kill -TERM -- -"$pid" 2>/dev/null || true' EXIT INT TERM
wait "$pid"
trap - EXIT INT TERM

log "a hot code on 1, 4 and 16 shards, each object held to 50 requests a second (test build, $mode)"
quiet build-worker-test scripts/build-worker.sh --features conformance worker/build/test
snapshot worker/build/test "$out/worker-build-test"
PROMOCODES_WORKER_BUILD="$PWD/$out/worker-build-test" node bench/shards.mjs "${flag[@]}" 2>"$out/shards.log" >"$out/shards.md"
log "the same through wrangler dev (its proxy in front: this machine's ceiling near 300 captures/s)"
PROMOCODES_WORKER_BUILD="$PWD/$out/worker-build-test" BENCH_SERVER=wrangler node bench/shards.mjs "${flag[@]}" 2>"$out/shards-wrangler.log" >"$out/shards-wrangler.md"
log "a hot campaign on 1 and 4 shards: single-use codes, one code of many uses (test build, $mode)"
PROMOCODES_WORKER_BUILD="$PWD/$out/worker-build-test" node bench/campaign-shards.mjs "${flag[@]}" 2>"$out/campaign-shards.log" >"$out/campaign-shards.md"

log "PostgreSQL: promocodes-postgres next to a bare conditional UPDATE, private cluster ($mode)"
scripts/bench-postgres.sh "${flag[@]}" 2>"$out/bench-postgres.log" >"$out/postgres.md"
export BENCH_POSTGRES="$PWD/$out/postgres.md"

echo "Load average (1, 5, 15 min) at the start: $load_start; at the end: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores, shared)" >"$out/load.txt"
{ node bench/report.mjs "$run_json"; echo; cat "$out/shards.md"; echo; cat "$out/shards-wrangler.md"; echo; cat "$out/campaign-shards.md"; echo; cat "$out/postgres.md"; echo; cat "$out/load.txt"; } | tee "$out/table.md"
