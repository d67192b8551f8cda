#!/usr/bin/env bash
# Installs what a fresh machine lacks to build, run and test promocodes.
# Idempotent: every step checks first and installs only what is missing, at pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1
# cargo install puts tools into $CARGO_INSTALL_ROOT/bin when set (scripts/fresh-machine.sh), else ~/.cargo/bin.
export PATH="${CARGO_INSTALL_ROOT:-$HOME/.cargo}/bin:$PATH"

log() { printf '[setup] %s\n' "$*"; }

# What this script does not install: the toolchains it builds the rest with.
for tool in cargo rustup node npm git curl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    log "$tool is missing: install Rust (rustup), Node 20 with npm, git and curl first (see README, Quick start)" >&2
    exit 1
  fi
done

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
# The PostgreSQL server the promocodes-postgres tests start a private cluster of (scripts/test-postgres.sh).
command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need_apt+=(postgresql)
if [ "${#need_apt[@]}" -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# The format and lint stages: a rustup `minimal` profile has neither.
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    log "rustup component add $component"
    rustup component add "$component"
  fi
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/promocodes-setup.XXXXXX")
npm_pid=
cleanup() {
  [ -z "$npm_pid" ] || kill "$npm_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# npm ci (mostly downloads) runs in the background while cargo compiles the tools below.
if [ ! -x node_modules/.bin/wrangler ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci (in the background)"
  npm ci --no-audit --no-fund --loglevel=error >"$scratch/npm.log" 2>&1 &
  npm_pid=$!
fi

# The cargo installs share one target folder (their common dependencies compile once) and build at
# opt-level 0, unoptimised: these tools run processes and rewrite a .wasm file once per build. On
# this 2-core machine both compiled in 81 s at opt-level 0 against 169 s at 1, and wasm-bindgen
# took 1.0 s against 0.35 s on the Worker's 3.6 MB .wasm: a few seconds over a whole test run.
install() {
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install --target-dir "$scratch/target" "$@"
}
have_version() { # command, version
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qF "$2"
}
if ! have_version wasm-bindgen "$WASM_BINDGEN_VERSION" || ! have_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION"; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lockfile names a webpki-roots version the registry lacks. Without its default
  # feature (rustls-tls): its HTTP client only talks to chromedriver on 127.0.0.1, and rustls and ring
  # are a good part of its compile time.
  install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --no-default-features --force
fi
if ! have_version wasm-pack "$WASM_PACK_VERSION"; then
  log "cargo install wasm-pack $WASM_PACK_VERSION"
  install wasm-pack --version "=$WASM_PACK_VERSION" --locked --force
fi

if [ -n "$npm_pid" ]; then
  status=0
  wait "$npm_pid" || status=$?
  npm_pid=
  cat "$scratch/npm.log"
  [ "$status" -eq 0 ] || { log "npm ci failed (exit $status)" >&2; exit 1; }
  log "npm ci: done"
fi
# The shop servers' client (clients/typescript) has its own packages (openapi-fetch, openapi-typescript).
if [ ! -x clients/typescript/node_modules/.bin/tsc ] || [ clients/typescript/package-lock.json -nt clients/typescript/node_modules/.package-lock.json ]; then
  log "npm ci in clients/typescript"
  (cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error)
fi
log "ready"
