#!/usr/bin/env bash
# promocodes-postgres captures/s next to the PostgreSQL floor (a bare conditional UPDATE on the same
# server, in the same run) and to the contract's writes alone (no read, no rule), as one markdown
# table on stdout: postgres/examples/bench.rs.
#
#   scripts/bench-postgres.sh           5 s per shape
#   scripts/bench-postgres.sh --smoke   1 s per shape (not a measurement)
#
# With PROMOCODES_BENCH_DATABASE_URL set, it measures that server (in a schema of its own, dropped
# after); otherwise a private cluster on 127.0.0.1 (scripts/postgres-cluster.sh), stopped and removed on
# exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/postgres-cluster.sh

seconds=5
case "${1:-}" in
  "") ;;
  --smoke) seconds=1 ;;
  *) echo "usage: scripts/bench-postgres.sh [--smoke]" >&2; exit 2 ;;
esac

cargo build --release -p promocodes-postgres --example bench >&2
url=${PROMOCODES_BENCH_DATABASE_URL:-}
if [ -z "$url" ]; then
  start_private_cluster tcp
  url=$PROMOCODES_PG_URL
fi
"${CARGO_TARGET_DIR:-target}/release/examples/bench" --database-url "$url" --seconds "$seconds"
