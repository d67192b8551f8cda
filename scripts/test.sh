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
scripts/check-sizes.sh
cargo clippy --workspace --all-targets --all-features -- -D warnings

stage "pages: the checkout's and the console's pure modules (money, formats, forms) under node --test"
node --test tests/js/

stage "docs: rustdoc for the workspace, broken links and other warnings denied"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

stage "core: unit, integration, property and doc tests"
cargo test -p promocodes --all-features

stage "postgres: PgRedemptionStore on a private PostgreSQL cluster (conformance, races, kill -9, dropped connection)"
scripts/test-postgres.sh

stage "browser: wasm-pack build, size, TypeScript types, Node smoke, wasm-pack test in headless Chromium"
scripts/test-browser.sh

stage "worker: clippy for wasm32, build, API/concurrency/durability/conformance tests in workerd"
WASM_BINDGEN_USE_JS_SYS=1 cargo clippy -p promocodes-worker --target wasm32-unknown-unknown --all-features -- -D warnings
cargo test -p promocodes-worker
scripts/test-worker.sh

stage "checkout: end to end in Chromium"
scripts/test-e2e.sh

stage "console: /admin/ end to end in Chromium (Playwright, axe-core)"
scripts/test-admin.sh

# Last: the clone's builds share the Cargo target folder with the ones above (only the workspace's
# two crates compile again). Its deploy test runs first, while nothing is built in the clone.
stage "fresh clone: wrangler deploy --dry-run ships the browser module; run.sh (PORT=8790) serves the page, one build per start"
clone_tmp="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-clone.XXXXXX")"
trap 'scripts/fresh-clone.sh remove "$clone_tmp"' EXIT
scripts/fresh-clone.sh new "$clone_tmp/repo"
PROMOCODES_CLONE="$clone_tmp/repo" scripts/test-deploy.sh
PROMOCODES_CLONE="$clone_tmp/repo" PORT=8790 scripts/test-run.sh
