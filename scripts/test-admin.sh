#!/usr/bin/env bash
# The operator's console (/admin/) end to end: builds the browser module into public/pkg, uPlot into
# public/admin/vendor and the Worker into worker/build (scripts/build.sh; warm cargo cache: seconds),
# then runs tests/admin/ with Node's test runner: the real Worker under wrangler dev (started by
# tests/worker/harness.mjs) driven by Debian's Chromium through playwright-core, axe-core on each view.
# Screenshots of each view at 1280 and 768 px go to test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scripts/build.sh
mkdir -p test-output
# Chromium leaves profile folders in $TMPDIR: give it a scratch one and remove it afterwards.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-admin-tmp.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" node --test --test-concurrency=1 tests/admin/
