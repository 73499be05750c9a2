#!/usr/bin/env bash
# A throwaway PostgreSQL cluster in a folder of its own, for scripts/with-postgres.sh and for the
# tests that stop and restart their own server (the PostgreSQL fault tests):
#
#   scripts/postgres-cluster.sh create DIR [SERVER-OPTION…]  initdb in DIR (a new or empty folder), start it on a
#                                                             free port of 127.0.0.1, create the database
#                                                             travelog_test; prints its postgres:// address
#   scripts/postgres-cluster.sh start DIR                     start it again (same port and options)
#   scripts/postgres-cluster.sh stop DIR [fast|immediate]     stop it (default fast); immediate is a crash
#   scripts/postgres-cluster.sh remove DIR                    stop it if running, delete DIR
#
# SERVER-OPTION… are the server's `-c name=value` settings, e.g. `-c fsync=off`. The server programs
# must be installed (with-postgres.sh installs them). PostgreSQL refuses to run as root: as root the
# system user travelog-test is created and used.
set -euo pipefail

usage() {
  echo "usage: scripts/postgres-cluster.sh create|start|stop|remove DIR [ARGUMENT…]" >&2
  exit 64
}
[ "$#" -ge 2 ] || usage
action="$1"
cluster="$2"
shift 2

# The newest server version installed (Debian keeps its programs out of PATH).
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL: no server programs under /usr/lib/postgresql/*/bin" >&2
  exit 1
fi

# As root, run the server as an unprivileged system user; otherwise as whoever we are.
if [ "$(id -u)" -eq 0 ]; then
  account=travelog-test
  if ! id "$account" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$account"
  fi
  # From the cluster folder: the account may not enter the current one.
  as_account() { (cd "$cluster" && runuser -u "$account" -- "$@"); }
else
  account="$(id -un)"
  as_account() { "$@"; }
fi

start() {
  local port
  port="$(cat "$cluster/port")"
  as_account "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $cluster $(cat "$cluster/options")" start >/dev/null || {
    cat "$cluster/server.log" >&2
    exit 1
  }
}

case "$action" in
  create)
    mkdir -p "$cluster"
    chmod 0700 "$cluster"
    [ "$(id -u)" -eq 0 ] && chown "$account" "$cluster"
    # A free port on the loopback (the kernel picks one; taken again at once by the server).
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' \
      >"$cluster/port"
    echo "$*" >"$cluster/options"
    as_account "$bindir/initdb" --pgdata="$cluster/data" --username=travelog --auth=trust \
      --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$cluster/initdb.log" 2>&1 || {
      cat "$cluster/initdb.log" >&2
      exit 1
    }
    start
    port="$(cat "$cluster/port")"
    as_account "$bindir/psql" -h 127.0.0.1 -p "$port" -U travelog -d postgres -q -v ON_ERROR_STOP=1 \
      -c "CREATE DATABASE travelog_test" >/dev/null
    echo "postgres://travelog@127.0.0.1:$port/travelog_test"
    ;;
  start)
    start
    ;;
  stop)
    mode="${1:-fast}"
    as_account "$bindir/pg_ctl" -D "$cluster/data" -m "$mode" -w -t 60 stop >/dev/null
    ;;
  remove)
    if [ -f "$cluster/data/postmaster.pid" ]; then
      as_account "$bindir/pg_ctl" -D "$cluster/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$cluster"
    ;;
  *)
    usage
    ;;
esac
