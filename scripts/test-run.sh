#!/usr/bin/env bash
# The README's run command, from a fresh clone: starts `PORT=8790 scripts/run.sh` in a clone of HEAD
# (nothing built, no .dev.vars, no .state/) and checks that it serves the checkout page (GET / is
# public/index.html), the browser module (GET /pkg/promocodes.js and its wasm), and the Worker with
# the secrets from the .dev.vars it created (the demo code SAVE10 it defined with ADMIN_TOKEN exists),
# keeps its state in .state/, and that its log shows exactly one build of the Worker and of the browser
# module, none of them by wrangler. Stops run.sh and everything it started, also on failure.
#
#   scripts/test-run.sh                          in its own clone (scripts/fresh-clone.sh)
#   PROMOCODES_CLONE=DIR scripts/test-run.sh     in DIR, a clone (scripts/test.sh)
#   PORT=N                                       another port (default 8790); it must be free
#
# The clone's builds share this checkout's Cargo target folder: only the workspace's crates compile.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
PORT="${PORT:-8790}"
BASE="http://127.0.0.1:$PORT"

log() { printf '[test-run] %s\n' "$*"; }
fail() {
  printf '[test-run] FAIL: %s\n' "$*" >&2
  [ ! -s "${run_log:-}" ] || { echo "--- last lines of run.sh's log:" >&2; tail -n 40 "$run_log" >&2; }
  exit 1
}

scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-run.XXXXXX")"
run_log="$scratch/run.log"
clone="${PROMOCODES_CLONE:-}"
run_pid=

# Processes whose working folder is inside the clone: what run.sh started, if it left anything.
leftovers() {
  local p cwd
  for p in /proc/[0-9]*; do
    cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
    case "$cwd/" in "$clone"/*) echo "${p#/proc/}" ;; esac
  done
}
# TERM to run.sh's process group (run.sh then stops wrangler dev's own group); KILL after 30 s, and
# KILL whatever is still running in the clone.
stop_run() {
  [ -n "$run_pid" ] || return 0
  kill -TERM -- "-$run_pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$run_pid" 2>/dev/null || true
  wait "$run_pid" 2>/dev/null || true
  run_pid=
  local pids
  mapfile -t pids < <(leftovers)
  if [ "${#pids[@]}" -gt 0 ]; then
    log "killing what run.sh left running: ${pids[*]}" >&2
    kill -KILL "${pids[@]}" 2>/dev/null || true
    return 1
  fi
}
cleanup() {
  stop_run || true
  if [ -z "${PROMOCODES_CLONE:-}" ] && [ -n "$clone" ]; then scripts/fresh-clone.sh remove "$clone"; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$clone" ]; then
  clone="$scratch/clone"
  scripts/fresh-clone.sh new "$clone"
fi
clone=$(cd "$clone" && pwd -P)
if curl -s -o /dev/null --max-time 5 "$BASE/"; then fail "something already answers on $BASE"; fi

log "PORT=$PORT scripts/run.sh in a fresh clone of $(git -C "$clone" rev-parse --short HEAD)"
# Its own session and process group, so that it and everything it starts can be stopped together.
setsid env PORT="$PORT" "$clone/scripts/run.sh" </dev/null >"$run_log" 2>&1 &
run_pid=$!

# Up once run.sh says so (after its build, wrangler dev's start and the demo code); builds included,
# a cold Cargo target folder takes many minutes on 2 cores.
for _ in $(seq 1 1800); do
  grep -q 'promocodes is running' "$run_log" && break
  kill -0 "$run_pid" 2>/dev/null || fail "run.sh exited before serving"
  sleep 1
done
grep -q 'promocodes is running' "$run_log" || fail "run.sh did not start within 30 minutes"
log "run.sh is up on $BASE"

get() { # path, body file: prints the HTTP status
  curl -s --max-time 30 -o "$2" -w '%{http_code}' "$BASE$1" || echo "no answer"
}
same() { # path, file it must serve
  local body="$scratch/body" status
  status=$(get "$1" "$body")
  [ "$status" = 200 ] || fail "GET $1 answered $status, not 200"
  cmp -s "$body" "$2" || fail "GET $1 is not ${2#"$clone/"}"
  log "GET $1: 200, ${2#"$clone/"} ($(wc -c <"$body") bytes)"
}
same / "$clone/public/index.html"
same /pkg/promocodes.js "$clone/public/pkg/promocodes.js"
same /pkg/promocodes_bg.wasm "$clone/public/pkg/promocodes_bg.wasm"
# run.sh defined SAVE10 with the ADMIN_TOKEN of the .dev.vars it created: wrangler read .dev.vars.
[ -f "$clone/.dev.vars" ] || fail "run.sh did not create .dev.vars"
status=$(get /v1/codes/SAVE10 "$scratch/body")
[ "$status" = 200 ] || fail "GET /v1/codes/SAVE10 answered $status, not 200"
grep -q '"code":"SAVE10"' "$scratch/body" || fail "GET /v1/codes/SAVE10 is not the demo code: $(cat "$scratch/body")"
log "GET /v1/codes/SAVE10: 200, the demo code (defined with .dev.vars' ADMIN_TOKEN)"
compgen -G "$clone/.state/v3/do/*/*.sqlite" >/dev/null || fail "no Durable Object state in .state/"
log "state: $(cd "$clone" && echo .state/v3/do/*/*.sqlite)"

stop_run || fail "run.sh left processes running after it stopped"
if curl -s -o /dev/null --max-time 5 "$BASE/"; then fail "$BASE still answers after run.sh stopped"; fi
log "stopped; nothing answers on $BASE"

# One start, one build of each: scripts/build-worker.sh and build-web.sh each end a build with this
# line, wherever they run (wrangler prefixes its [build] command's output with "[custom build]").
worker_builds=$(grep -c '\[build-worker\] worker/build:' "$run_log" || true)
web_builds=$(grep -c '\[build-web\] public/pkg/promocodes_bg.wasm' "$run_log" || true)
wrangler_builds=$(grep -c '\[custom build\]' "$run_log" || true)
log "builds in run.sh's log: Worker $worker_builds, browser module $web_builds, by wrangler $wrangler_builds"
[ "$worker_builds" = 1 ] || fail "run.sh built the Worker $worker_builds times, not once"
[ "$web_builds" = 1 ] || fail "run.sh built the browser module $web_builds times, not once"
[ "$wrangler_builds" = 0 ] || fail "wrangler dev ran a build of its own"
log "passed"
