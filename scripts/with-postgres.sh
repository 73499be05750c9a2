#!/usr/bin/env bash
# Runs a command with TRAVELOG_TEST_POSTGRES_URL pointing at a PostgreSQL server, so that the store
# conformance suites also run on the PostgreSQL store:
#
#   scripts/with-postgres.sh swift test --skip-build
#
# When TRAVELOG_TEST_POSTGRES_URL is set already (a developer's own server), the command just runs.
# Otherwise PostgreSQL (and PostGIS, when Debian has it) is installed from Debian when missing, a
# throwaway cluster is created in a temporary folder as an unprivileged user (PostgreSQL refuses to
# run as root: as root the system user travelog-test is created and used), started on a free port
# of 127.0.0.1 only, and always stopped and removed when the command ends. The command's exit
# status is the script's.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: scripts/with-postgres.sh COMMAND [ARGUMENT…]" >&2
  exit 64
fi

if [ -n "${TRAVELOG_TEST_POSTGRES_URL:-}" ]; then
  echo "PostgreSQL: using TRAVELOG_TEST_POSTGRES_URL as set"
  exec "$@"
fi

here="$(cd "$(dirname "$0")" && pwd)"
packages=(postgresql)
# PostGIS when this Debian has it (bookworm: postgresql-15-postgis-3).
if apt-cache policy postgresql-15-postgis-3 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  packages+=(postgresql-15-postgis-3)
fi
"$here/ensure-debian-packages.sh" "${packages[@]}"

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

cluster="$(mktemp -d "${TMPDIR:-/tmp}/travelog-postgres.XXXXXX")"
chmod 0700 "$cluster"
[ "$(id -u)" -eq 0 ] && chown "$account" "$cluster"

cleanup() {
  if [ -f "$cluster/data/postmaster.pid" ]; then
    as_account "$bindir/pg_ctl" -D "$cluster/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$cluster"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free port on the loopback (the kernel picks one; taken again at once by the server).
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"

as_account "$bindir/initdb" --pgdata="$cluster/data" --username=travelog --auth=trust \
  --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$cluster/initdb.log" 2>&1 || {
  cat "$cluster/initdb.log" >&2
  exit 1
}
# A throwaway cluster: no fsync (nothing in it outlives the run); enough connections for suites
# that run in parallel, each store with a pool of its own.
as_account "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $cluster -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null || {
  cat "$cluster/server.log" >&2
  exit 1
}
as_account "$bindir/psql" -h 127.0.0.1 -p "$port" -U travelog -d postgres -q -v ON_ERROR_STOP=1 \
  -c "CREATE DATABASE travelog_test" >/dev/null

export TRAVELOG_TEST_POSTGRES_URL="postgres://travelog@127.0.0.1:$port/travelog_test"
echo "PostgreSQL: throwaway cluster $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (removed afterwards)"
status=0
"$@" || status=$?
exit "$status"
