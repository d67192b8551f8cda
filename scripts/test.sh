#!/usr/bin/env bash
# Runs every test of promocodes: the README's test command, and what .ci/run calls.
# Installs what a fresh machine lacks first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

stage() { printf '\n==> %s\n' "$*"; }

stage "setup"
scripts/setup.sh

stage "format"
cargo fmt --all --check

stage "lint"
cargo clippy --workspace --all-targets --all-features -- -D warnings

stage "core: unit, integration, property and doc tests"
cargo test -p promocodes --all-features

stage "browser: wasm-pack build, size, TypeScript types, Node smoke, wasm-pack test in headless Chromium"
scripts/test-browser.sh


stage "worker: clippy for wasm32, build, API/concurrency/durability/conformance tests in workerd"
WASM_BINDGEN_USE_JS_SYS=1 cargo clippy -p promocodes-worker --target wasm32-unknown-unknown --all-features -- -D warnings
cargo test -p promocodes-worker
scripts/test-worker.sh

stage "checkout: end to end in Chromium"
scripts/test-e2e.sh
