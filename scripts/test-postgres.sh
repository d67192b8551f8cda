#!/usr/bin/env bash
# The promocodes-postgres tests against a real PostgreSQL server, no mocks.
#
# With PROMOCODES_TEST_DATABASE_URL set, they use that server (each test makes its own schema in it;
# the crash test, which kills the server, is skipped). Otherwise this starts a private cluster
# (scripts/postgres-cluster.sh: initdb in a temporary folder, the server on a Unix socket in it), and
# stops and removes it on exit, whatever the outcome.
# Extra arguments go to `cargo test` (e.g. `--test races`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/postgres-cluster.sh

if [ -z "${PROMOCODES_TEST_DATABASE_URL:-}" ]; then
  start_private_cluster
  export PROMOCODES_TEST_DATABASE_URL="$PROMOCODES_PG_URL"
  printf '[test-postgres] private cluster at %s\n' "$PROMOCODES_TEST_DATABASE_URL"
else
  printf '[test-postgres] using PROMOCODES_TEST_DATABASE_URL\n'
fi
cargo test -p promocodes-postgres "$@"
