#!/usr/bin/env bash
# The promocodes-postgres tests against a real PostgreSQL server, no mocks.
#
# With PROMOCODES_TEST_DATABASE_URL set, they use that server (each test makes its own schema in it).
# Otherwise this starts a private cluster: initdb in a temporary folder, a free port on 127.0.0.1,
# trust authentication; it is stopped and removed on exit, whatever the outcome.
# Extra arguments go to `cargo test` (e.g. a test name).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

log() { printf '[test-postgres] %s\n' "$*"; }

if [ -z "${PROMOCODES_TEST_DATABASE_URL:-}" ]; then
  bin=$(dirname "$(command -v pg_ctl 2>/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$pg_bin/postgres" ] || pg_bin=$bin
  dir=$(mktemp -d /tmp/promocodes-pg.XXXXXX)
  as_postgres=()
  # The server refuses to run as root: the cluster belongs to the postgres user then.
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    as_postgres=(runuser -u postgres --)
  fi
  stop() {
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/data" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$dir"
  }
  trap stop EXIT
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  # fsync stays on: the kill -9 test asserts what a crash keeps.
  "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" >/dev/null \
    || { cat "$dir/log" >&2; exit 1; }
  export PROMOCODES_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  # What the crash test needs to kill and restart this cluster (it does nothing to a server it did not start).
  export PROMOCODES_TEST_PG_DATA="$dir/data" PROMOCODES_TEST_PG_BIN="$pg_bin" PROMOCODES_TEST_PG_PORT="$port"
  [ "$(id -u)" = 0 ] && export PROMOCODES_TEST_PG_RUNAS=postgres
  log "private cluster on 127.0.0.1:$port ($dir)"
else
  log "using PROMOCODES_TEST_DATABASE_URL"
fi

cargo test -p promocodes-postgres "$@"
