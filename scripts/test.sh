#!/usr/bin/env bash
# Runs every test of promocodes: the README's test command, and what .ci/run calls.
# Installs what a fresh machine lacks first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# Each stage: a short name (the summary's first column) and what it runs. It prints its seconds when
# it ends; at exit, also on failure, a table of every stage's seconds and the total.
stage_names=() stage_secs=() stage_now="" stage_start=0 run_start=$SECONDS
end_stage() { # [status]
  [ -n "$stage_now" ] || return 0
  local secs=$(( SECONDS - stage_start ))
  stage_names+=("$stage_now${1:+ ($1)}") stage_secs+=("$secs")
  printf '<== %s: %d s\n' "$stage_now${1:+ ($1)}" "$secs"
  stage_now=""
}
stage() { # name, description
  end_stage
  stage_now="$1" stage_start=$SECONDS
  printf '\n==> %s: %s\n' "$1" "$2"
}
summary() {
  local status=$? i
  if [ "$status" -eq 0 ]; then end_stage; else end_stage "FAILED, exit $status"; fi
  printf '\n%-40s %8s\n' "stage" "seconds"
  for i in "${!stage_names[@]}"; do printf '%-40s %8d\n' "${stage_names[$i]}" "${stage_secs[$i]}"; done
  printf '%-40s %8d\n' "total" "$(( SECONDS - run_start ))"
  [ -z "${clone_tmp:-}" ] || scripts/fresh-clone.sh remove "$clone_tmp"
  return "$status"
}
trap summary EXIT

stage setup "install what is missing (scripts/setup.sh)"
scripts/setup.sh

stage format "cargo fmt --check"
cargo fmt --all --check

stage lint "file sizes (scripts/check-sizes.sh), clippy for the workspace, every target and feature, warnings denied"
scripts/check-sizes.sh
cargo clippy --workspace --all-targets --all-features -- -D warnings

stage pages "the checkout's and the console's pure modules (money, formats, forms) under node --test"
node --test tests/js/

stage docs "rustdoc for the workspace, broken links and other warnings denied"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

stage "core, postgres" "the core's unit, integration, property and doc tests; PgRedemptionStore on a private PostgreSQL cluster (conformance, races, kill -9, dropped connection)"
# One cargo invocation for both crates: `promocodes` has a cdylib, so a target folder holds one build
# of it whatever its features, and two invocations (each with its own features) would compile it
# twice, the second replacing the first.
scripts/test-postgres.sh -p promocodes --all-features

stage browser "wasm-pack build, size, TypeScript types, Node smoke, wasm-pack test in headless Chromium"
scripts/test-browser.sh

stage "worker lint" "clippy for wasm32, warnings denied"
WASM_BINDGEN_USE_JS_SYS=1 cargo clippy -p promocodes-worker --target wasm32-unknown-unknown --all-features -- -D warnings

stage "worker unit" "the Worker crate's native tests"
cargo test -p promocodes-worker

stage worker "build (scripts/build-worker.sh), API/concurrency/durability/conformance tests in workerd"
scripts/test-worker.sh

stage client "promocodes-client (clients/typescript): its generated types fresh, tsc type tests, every call against the Worker test build in workerd"
scripts/test-client.sh

stage checkout "end to end in Chromium"
scripts/test-e2e.sh

stage console "/admin/ end to end in Chromium (Playwright, axe-core)"
scripts/test-admin.sh

# Last: the clone's builds share the Cargo target folder with the ones above (only the workspace's
# two crates compile again). Its deploy test runs first, while nothing is built in the clone.
stage "fresh clone: deploy" "wrangler deploy --dry-run in a fresh clone builds and ships the browser module"
clone_tmp="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-clone.XXXXXX")"
scripts/fresh-clone.sh new "$clone_tmp/repo"
PROMOCODES_CLONE="$clone_tmp/repo" scripts/test-deploy.sh

stage "fresh clone: run" "run.sh (PORT=8790) in the same clone serves the page, one build per start"
PROMOCODES_CLONE="$clone_tmp/repo" PORT=8790 scripts/test-run.sh
