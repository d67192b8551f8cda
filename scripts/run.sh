#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and serves the edge Worker and the
# checkout page locally on workerd (wrangler dev) at http://127.0.0.1:$PORT/ (PORT defaults to
# 8787), with its SQLite state in .state/ and its local secrets in .dev.vars. Defines the demo codes
# the page lists (SAVE10, MUGS15, SHIPFREE) where missing. Ctrl-C stops everything.
#
# It builds once per start (scripts/build.sh: the browser module and the Worker), then serves the
# built files with a copy of wrangler.toml without [build], so wrangler dev builds nothing itself.
# After changing Rust code, restart it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
PORT="${PORT:-8787}"
BASE="http://127.0.0.1:$PORT"

log() { printf '[run] %s\n' "$*"; }

scripts/setup.sh

if [ ! -f .dev.vars ]; then
  cp .dev.vars.example .dev.vars
  log "created .dev.vars from .dev.vars.example (local tokens; git ignores it)"
fi
secret() { sed -n "s/^$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" .dev.vars | tail -n 1; }
ADMIN_TOKEN=$(secret ADMIN_TOKEN)
CAPTURE_TOKEN=$(secret CAPTURE_TOKEN)

if curl -s -o /dev/null "$BASE/" 2>/dev/null; then
  log "something already answers on $BASE; stop it first (or choose another PORT)" >&2
  exit 1
fi

log "building the browser module (public/pkg/) and the Worker (worker/build/)"
scripts/build.sh

# wrangler dev with the repository's wrangler.toml would build again, twice at start-up, and again
# whenever its watcher fires. Serve the build above instead: the same config without [build], with
# absolute paths, in .wrangler/run/ (git-ignored). wrangler reads .dev.vars next to the config.
conf=.wrangler/run
mkdir -p "$conf"
awk -v main="$PWD/worker/build/worker/shim.mjs" -v assets="$PWD/public" '
  /^\[build\]/ { skip = 1; next }
  /^\[/ { skip = 0 }
  skip { next }
  /^main = / { print "main = \"" main "\""; next }
  /^directory = / { print "directory = \"" assets "\""; next }
  { print }
' wrangler.toml >"$conf/wrangler.toml"
ln -sfn "$PWD/.dev.vars" "$conf/.dev.vars"

log "starting wrangler dev on $BASE (state in .state/)"
setsid wrangler dev --config "$conf/wrangler.toml" --local --ip 127.0.0.1 --port "$PORT" \
  --persist-to "$PWD/.state" --show-interactive-dev-session=false &
DEV=$!
stop() { kill -TERM -- "-$DEV" 2>/dev/null || true; wait "$DEV" 2>/dev/null || true; }
trap stop EXIT
trap 'exit 130' INT TERM

up=
for _ in $(seq 1 240); do
  if curl -s -o /dev/null --max-time 5 "$BASE/v1/codes/SAVE10"; then up=1; break; fi
  if ! kill -0 "$DEV" 2>/dev/null; then log "wrangler dev exited" >&2; exit 1; fi
  sleep 0.5
done
[ -n "$up" ] || { log "wrangler dev did not answer on $BASE within 2 minutes" >&2; exit 1; }

# The demo codes the checkout page lists as hints, each defined only if it does not exist yet (a code
# changed through the admin API keeps its changes across restarts).
define_demo_code() { # code, definition JSON, what it does
  local status
  status=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/v1/codes/$1")
  [ "$status" = 404 ] || return 0
  status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$BASE/v1/codes/$1" \
    -H "authorization: Bearer $ADMIN_TOKEN" -H 'content-type: application/json' -d "$2")
  if [ "$status" != 201 ]; then
    log "defining the demo code $1 answered $status, not 201: is ADMIN_TOKEN in .dev.vars?" >&2
    exit 1
  fi
  log "defined the demo code $1: $3"
}
define_demo_code SAVE10 \
  '{"code":"SAVE10","discount":{"kind":"percent","percent":"10"},"limits":{"total":100,"per_customer":1},"minimum":{"amount":"20.00","currency":"EUR"},"combines_with":["product","shipping"]}' \
  "10% off, minimum EUR 20.00, 100 uses, 1 per customer; combines with MUGS15 and SHIPFREE"
define_demo_code MUGS15 \
  '{"code":"MUGS15","discount":{"kind":"percent","percent":"15"},"applies_to":{"categories":["mugs"]},"combines_with":["order","shipping"]}' \
  "15% off the category mugs; combines with SAVE10 and SHIPFREE"
define_demo_code SHIPFREE \
  '{"code":"SHIPFREE","discount":{"kind":"free_shipping"},"minimum":{"amount":"50.00","currency":"EUR"},"combines_with":["product","order"]}' \
  "free shipping, minimum EUR 50.00; combines with SAVE10 and MUGS15"

cat <<MSG

  promocodes is running. Open $BASE/ for the checkout page,
  and $BASE/admin/ for the operator's console (sign in with ADMIN_TOKEN from .dev.vars).

  Demo codes: SAVE10 (10% off, 1 per customer), MUGS15 (15% off mugs), SHIPFREE (free shipping from EUR 50).

  Try the API (tokens from .dev.vars):
    curl $BASE/v1/codes/SAVE10
    curl -X POST $BASE/v1/quotes -H 'content-type: application/json' \\
      -d '{"code":"SAVE10","total":{"amount":"80.00","currency":"EUR"}}'
    curl -X POST $BASE/v1/captures -H 'authorization: Bearer $CAPTURE_TOKEN' -H 'idempotency-key: evt_1' \\
      -H 'content-type: application/json' \\
      -d '{"code":"SAVE10","total":{"amount":"80.00","currency":"EUR"},"customer":"alice"}'
    curl $BASE/v1/codes/SAVE10/redemptions -H 'authorization: Bearer $ADMIN_TOKEN'

  Ctrl-C stops the server; the state stays in .state/.

MSG
wait "$DEV"
