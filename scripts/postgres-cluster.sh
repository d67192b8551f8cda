# A private PostgreSQL cluster for the tests and the bench; sourced, not run.
#
#   start_private_cluster [socket|tcp]
#       initdb in a temporary folder, trust authentication, and the server listening on a Unix socket
#       in that folder only (socket, the default: nothing to collide with, even across a restart), or
#       also on a free port of 127.0.0.1 below the ephemeral range (tcp: what a shop's server is
#       reached by). Exports PROMOCODES_PG_URL and, for the crash test, PROMOCODES_TEST_PG_DATA,
#       PROMOCODES_TEST_PG_BIN, PROMOCODES_TEST_PG_OPTIONS (the server's options, to restart it) and
#       PROMOCODES_TEST_PG_RUNAS when run as root (the server refuses root: the cluster is the
#       postgres user's). Stops and removes it on exit (trap EXIT).

start_private_cluster() {
  local pg_bin dir port
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/postgres" ]; then
    pg_bin=$(dirname "$(command -v pg_ctl)") || { echo "no PostgreSQL server: run scripts/setup.sh" >&2; return 1; }
  fi
  dir=$(mktemp -d /tmp/promocodes-pg.XXXXXX)
  PG_AS=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    PG_AS=(runuser -u postgres --)
    export PROMOCODES_TEST_PG_RUNAS=postgres
  fi
  PG_DIR=$dir PG_BIN=$pg_bin
  trap 'stop_private_cluster' EXIT
  local listen url
  if [ "${1:-socket}" = tcp ]; then
    # Below the ephemeral range, as the Worker tests' ports (tests/free-port.mjs).
    port=$(node --input-type=module -e 'import { freePort } from "./tests/free-port.mjs"; console.log(await freePort());')
    listen=127.0.0.1
    url="postgres://postgres@127.0.0.1:$port/postgres"
  else
    port=5432
    listen=""
    url="host=$dir port=$port user=postgres dbname=postgres"
  fi
  "${PG_AS[@]}" "$pg_bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  # fsync and synchronous_commit stay on: the crash test asserts what a crash keeps, the bench
  # measures commits as a shop's server makes them.
  export PROMOCODES_TEST_PG_OPTIONS="-p $port -k $dir -c listen_addresses='$listen' -c max_connections=300"
  "${PG_AS[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start -o "$PROMOCODES_TEST_PG_OPTIONS" >/dev/null \
    || { cat "$dir/log" >&2; return 1; }
  export PROMOCODES_PG_URL="$url"
  export PROMOCODES_TEST_PG_DATA="$dir/data" PROMOCODES_TEST_PG_BIN="$pg_bin"
}

stop_private_cluster() {
  [ -n "${PG_DIR:-}" ] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" stop -m immediate >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=
}
