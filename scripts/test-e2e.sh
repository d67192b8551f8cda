#!/usr/bin/env bash
# The checkout page end to end: builds the browser module into public/pkg and the Worker's test
# build into worker/build/test (warm cargo cache: seconds), then runs tests/e2e/ with Node's test
# runner. The tests start the real Worker (wrangler dev on 127.0.0.1, a random port, a temporary
# state folder) and drive Debian's Chromium through playwright-core; both are stopped afterwards,
# also on failure. Screenshots of each checkout state go to test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# What the Worker serves (scripts/build.sh), with the Worker's test build (the `conformance`
# feature's test-only routes besides) in place of the shipped one: scripts/test-worker.sh built it
# just before in scripts/test.sh (reused here), so that the shipped build is not compiled a second
# time. The shipped build is built and served by test.sh's fresh-clone stages.
scripts/build-web.sh
scripts/build-admin.sh
scripts/build-worker.sh --features conformance worker/build/test
export PROMOCODES_WORKER_BUILD="$PWD/worker/build/test"
mkdir -p test-output
# Chromium leaves profile folders in $TMPDIR: give it a scratch one and remove it afterwards.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-e2e-tmp.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" node --test --test-concurrency=1 tests/e2e/
