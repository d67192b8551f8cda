#!/usr/bin/env bash
# Builds the edge Worker once (scripts/build-worker.sh) and runs its tests (node --test tests/worker/)
# against it in workerd, twice: as they are, then with every code on 4 shards (the tests where that
# changes anything). Each test file starts the built Worker with `wrangler dev` on 127.0.0.1 (a free
# port, a temp state folder, test tokens), without rebuilding, and stops it afterwards.
# The test build adds the `conformance` feature: test-only routes that run the core's store
# conformance suite against the SQLite store inside a Durable Object (POST /v1/__conformance) and
# tell when a code's object wrote its figures (GET /v1/__figures/{code}).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# First the entry module's runtime half under Node (milliseconds): the panic recovery contract.
node --test tests/scripts/

out=worker/build/test
start=$SECONDS
scripts/build-worker.sh --features conformance "$out"
printf '[test-worker] built in %ss\n' "$(( SECONDS - start ))"

# Test a snapshot: another build into worker/ during the run must not reload the Worker under the tests.
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/promocodes-worker-build.XXXXXX")"
manifest="$snapshot.defines-on-test-shards"
trap 'rm -rf "$snapshot" "$manifest"' EXIT
cp -R "$out/." "$snapshot/"

# The first pass notes which tests define or use a code on the test's shards (harness.mjs `test`):
# the only ones the second pass would run differently.
: >"$manifest"
PROMOCODES_TEST_SHARDS_MANIFEST="$manifest" PROMOCODES_WORKER_BUILD="$snapshot" PROMOCODES_CONFORMANCE=1 \
  node --test --test-concurrency=1 tests/worker/

# The same tests again with every code they define spread over 4 shards (issue 37: "every existing
# test passes with shards 1 and 4"): harness.mjs adds `"shards": 4` to each code a test defines
# without shards of its own. Only the tests the first pass noted run; the others (a campaign's, a
# code whose shards the test names, no code at all) send exactly the requests they sent in the
# first pass, about codes defined the same, and are reported skipped. A file with none is left out.
mapfile -t again < <(cut -f1 "$manifest" | sort -u)
printf '[test-worker] again, every code on 4 shards (PROMOCODES_TEST_SHARDS=4): %d tests noted, in %d of %d files\n' \
  "$(grep -vc $'\t\\*$' "$manifest" || true)" "${#again[@]}" "$(ls tests/worker/*.test.mjs | wc -l)"
PROMOCODES_TEST_SHARDS=4 PROMOCODES_TEST_SHARDS_MANIFEST="$manifest" PROMOCODES_WORKER_BUILD="$snapshot" \
  PROMOCODES_CONFORMANCE=1 node --test --test-concurrency=1 "${again[@]}"
