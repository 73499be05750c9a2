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
# PostGIS when this Debian has it (bookworm: postgresql-15-postgis-3). grep reads the whole answer
# (`grep -q` stops early, apt-cache then dies of SIGPIPE and pipefail made PostGIS look absent at
# random), and a machine whose package lists do not know it yet reads them anew first.
postgis_known() { apt-cache policy postgresql-15-postgis-3 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null; }
if ! postgis_known && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq || true
fi
if postgis_known; then
  packages+=(postgresql-15-postgis-3)
fi
"$here/ensure-debian-packages.sh" "${packages[@]}"

cluster="$(mktemp -d "${TMPDIR:-/tmp}/travelog-postgres.XXXXXX")"
trap '"$here/postgres-cluster.sh" remove "$cluster"' EXIT
trap 'exit 130' INT TERM
# A throwaway cluster: no fsync (nothing in it outlives the run); enough connections for suites
# that run in parallel, each store with a pool of its own.
url="$("$here/postgres-cluster.sh" create "$cluster" -c fsync=off -c synchronous_commit=off \
  -c full_page_writes=off -c max_connections=300)"
bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
export TRAVELOG_TEST_POSTGRES_URL="$url"
echo "PostgreSQL: throwaway cluster $("$bindir/postgres" --version | awk '{print $3}') at $url (removed afterwards)"
status=0
"$@" || status=$?
exit "$status"
