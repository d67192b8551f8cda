#!/usr/bin/env bash
# Tests the shop servers' TypeScript client, promocodes-client (clients/typescript): builds it with
# tsc into dist/, then runs its node --test files: src/schema.ts is what `npm run generate` writes
# from docs/openapi.json, the tsc type tests (test/types/), and every call against the real Worker in
# workerd, started by tests/worker/harness.mjs on the test build scripts/test-worker.sh made
# (worker/build/test, or PROMOCODES_WORKER_BUILD): this stage does not build the Worker again.
# Needs what scripts/setup.sh installs (it runs `npm ci` in clients/typescript).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

build="${PROMOCODES_WORKER_BUILD:-$PWD/worker/build/test}"
if [ ! -f "$build/index_bg.wasm" ]; then
  echo "[test-client] no Worker test build in $build: run scripts/test-worker.sh first" >&2
  exit 1
fi
build="$(cd "$build" && pwd -P)" # wrangler reads it from a config in a temp folder: an absolute path
cd clients/typescript
npm run --silent build
PROMOCODES_WORKER_BUILD="$build" PROMOCODES_CONFORMANCE=1 node --test --test-concurrency=1 test/
