#!/usr/bin/env bash
# The operator's console (/admin/) end to end: builds the browser module into public/pkg, uPlot into
# public/admin/vendor and the Worker's test build into worker/build/test (warm cargo cache: seconds),
# then runs tests/admin/ with Node's test runner: the real Worker under wrangler dev (started by
# tests/worker/harness.mjs) driven by Debian's Chromium through playwright-core, axe-core on each view.
# Screenshots of each view at 1280 and 768 px go to test-output/.
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
scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-admin-tmp.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" node --test --test-concurrency=1 tests/admin/
