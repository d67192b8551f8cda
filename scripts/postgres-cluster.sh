# A private PostgreSQL cluster for the tests and the bench; sourced, not run.
#
#   start_private_cluster   initdb in a temporary folder, a free port on 127.0.0.1, trust authentication;
#                           exports PROMOCODES_PG_URL and, for the crash test, PROMOCODES_TEST_PG_DATA,
#                           PROMOCODES_TEST_PG_BIN, PROMOCODES_TEST_PG_PORT (and PROMOCODES_TEST_PG_RUNAS
#                           when run as root: the server refuses root, the cluster is the postgres user's).
#                           Stops and removes it on exit (trap EXIT).

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
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${PG_AS[@]}" "$pg_bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  # fsync and synchronous_commit stay on: the crash test asserts what a crash keeps, the bench
  # measures commits as a shop's server makes them.
  "${PG_AS[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" >/dev/null \
    || { cat "$dir/log" >&2; return 1; }
  export PROMOCODES_PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  export PROMOCODES_TEST_PG_DATA="$dir/data" PROMOCODES_TEST_PG_BIN="$pg_bin" PROMOCODES_TEST_PG_PORT="$port"
}

stop_private_cluster() {
  [ -n "${PG_DIR:-}" ] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" stop -m immediate >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=
}
