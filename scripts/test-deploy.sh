#!/usr/bin/env bash
# What `wrangler deploy` ships from a fresh clone: runs `wrangler deploy --dry-run --outdir DIR` (no
# network, no login) in a clone of HEAD, where nothing is built yet, and checks that its [build] built
# everything the page needs: the asset list wrangler reads must hold the checkout page and the browser
# module it imports (public/pkg/, which git ignores), and the bundle must hold the Worker.
#
#   scripts/test-deploy.sh                           in its own clone (scripts/fresh-clone.sh)
#   PROMOCODES_CLONE=DIR scripts/test-deploy.sh      in DIR, an untouched clone (scripts/test.sh)
#
# The clone's builds share this checkout's Cargo target folder: only the workspace's crates compile.
# Needs what scripts/setup.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"

log() { printf '[test-deploy] %s\n' "$*"; }
fail() { printf '[test-deploy] FAIL: %s\n' "$*" >&2; exit 1; }

scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-deploy.XXXXXX")"
clone="${PROMOCODES_CLONE:-}"
cleanup() {
  if [ -z "${PROMOCODES_CLONE:-}" ] && [ -n "$clone" ]; then scripts/fresh-clone.sh remove "$clone"; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
if [ -z "$clone" ]; then
  clone="$scratch/clone"
  scripts/fresh-clone.sh new "$clone"
fi
[ ! -e "$clone/public/pkg" ] || fail "$clone/public/pkg exists already: this test needs a clone where nothing is built"

out="$scratch/out" deploy_log="$scratch/deploy.log"
log "wrangler deploy --dry-run in a fresh clone of $(git -C "$clone" rev-parse --short HEAD)"
# WRANGLER_LOG=debug makes wrangler list every asset file it read, one path a line.
if ! (cd "$clone" && WRANGLER_LOG=debug node_modules/.bin/wrangler deploy --dry-run --outdir "$out") \
  >"$deploy_log" 2>&1; then
  tail -n 60 "$deploy_log" >&2
  fail "wrangler deploy --dry-run"
fi

# The paths listed after "Read N files from the assets directory".
assets=$(awk '/ from the assets directory /{ on = 1; next } on && /^\//{ print; next } on { exit }' "$deploy_log")
[ -n "$assets" ] || { tail -n 40 "$deploy_log" >&2; fail "wrangler listed no asset files"; }
log "assets: $(tr '\n' ' ' <<<"$assets")"
# The page, its script, the modules it imports (public/checkout/, public/lib/), and the browser module
# (./pkg/promocodes.js, which loads promocodes_bg.wasm next to itself).
grep -qF "from './pkg/promocodes.js'" "$clone/public/app.js" || fail "public/app.js no longer imports ./pkg/promocodes.js: update this test"
# And the OpenAPI description the Worker serves at /v1/openapi.json from the assets (build-worker.sh's copy).
for want in /index.html /app.js /checkout/page.js /lib/money.js /pkg/promocodes.js /pkg/promocodes_bg.wasm /v1/openapi.json; do
  grep -qxF "$want" <<<"$assets" || fail "the deploy would not ship $want"
done

# The Worker: the bundle wrangler would upload, with its wasm module.
[ -s "$out/shim.js" ] || fail "no Worker bundle (shim.js) in $out"
compgen -G "$out/*index_bg.wasm" >/dev/null || fail "no Worker wasm module in $out"
log "$(grep -m1 '^Total Upload' "$deploy_log")"
log "passed"
