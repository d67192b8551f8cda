#!/usr/bin/env bash
# The checkout page end to end: builds the browser module into public/pkg and the Worker into
# worker/build (scripts/build.sh; warm cargo cache: seconds), then runs tests/e2e/ with Node's test
# runner. The tests start the real Worker (wrangler dev on 127.0.0.1, a random port, a temporary
# state folder) and drive Debian's Chromium through playwright-core; both are stopped afterwards,
# also on failure. Screenshots of each checkout state go to test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scripts/build.sh
mkdir -p test-output
# Chromium leaves profile folders in $TMPDIR: give it a scratch one and remove it afterwards.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-e2e-tmp.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" node --test --test-concurrency=1 tests/e2e/
