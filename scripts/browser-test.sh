#!/usr/bin/env bash
# The page in a real browser: Debian's chromium, headless, driven over the DevTools protocol by
# Tests/Browser/page_test.py (Debian's python3-websocket). Needs chromium, python3-websocket and
# libjs-leaflet with libjs-leaflet.markercluster (`make test` installs them), and for the search box
# the Helsinki extract .build-data/Helsinki.osm.pbf (`make osm-sample`, which `make test` runs).
# $TRAVELOG_MAP_SCREENSHOTS (a folder) keeps screenshots of the map's pins, popup, legend and fit.
#
#   scripts/browser-test.sh [--travelog PATH]                   the page test (default: the debug build)
#   scripts/browser-test.sh --bench-million [--travelog PATH]   time to the first drawn path over 1M stored points
#                                                               (--points N for another size), on a server
#                                                               started anew on the database
#   … --db postgres://…                                         the same on a new schema of that PostgreSQL server
#                                                               (left for the operator to drop); with --bench-million
#                                                               the measured server builds the index from the database
#                                                               (PostgreSQL servers save none), so the first page waits
#                                                               for reading every point
#
# A temporary database, a user and a device are made with the CLI; the server runs on a free port
# with tiles from an address where nothing answers (no network is used); server and browser are
# stopped on exit. Prints PASS/FAIL lines; exits non-zero on failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
mode=test
points=1000000
postgres=""
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --bench-million) mode=bench; shift ;;
    --points) points="$2"; shift 2 ;;
    --db) postgres="$2"; shift 2 ;;
    *) echo "usage: $0 [--travelog PATH] [--db postgres://…] [--bench-million [--points N]]" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
[ -x "$chromium" ] || { echo "FAIL: $chromium is missing (apt-get install chromium)"; exit 1; }
"$python" -c 'import websocket' 2>/dev/null || { echo "FAIL: python3-websocket is missing (apt-get install python3-websocket)"; exit 1; }

# axe-core (accessibility rules) from PyPI's axe-selenium-python wheel, pinned and checked, kept in
# .build-data/pypi/; only its axe.min.js is used (injected into the page over the DevTools protocol).
axe_version=2.1.6
axe_sha256=21d10014c0bc3c999c1bfab54b9ef6a5d67f200ffca3db3629e0b315b3f1f136
axe_wheel="$root/.build-data/pypi/axe_selenium_python-$axe_version-py2.py3-none-any.whl"
if [ "$mode" = test ] && [ ! -s "$axe_wheel" ]; then
  mkdir -p "$(dirname "$axe_wheel")"
  "$python" -m pip download --quiet --no-deps --disable-pip-version-check -d "$(dirname "$axe_wheel")" \
    "axe-selenium-python==$axe_version" || { echo "FAIL: axe-selenium-python $axe_version could not be downloaded from PyPI"; exit 1; }
fi
if [ "$mode" = test ]; then
  echo "$axe_sha256  $axe_wheel" | sha256sum -c --quiet - || { echo "FAIL: $axe_wheel is not the pinned wheel"; exit 1; }
fi

# The page and this script agree on what "today" is.
export TZ="${TZ:-UTC}"
work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-browser.XXXXXX")"
server_pid="" browser_pid=""
cleanup() {
  [ -n "$browser_pid" ] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export TRAVELOG_DB="$work/db.sqlite"
if [ -n "$postgres" ]; then
  case "$postgres" in *\?*) separator='&' ;; *) separator='?' ;; esac
  TRAVELOG_DB="$postgres${separator}schema=browser_$(date +%s)_$$"
fi
user=ada password="browser-test-password"
echo "$password" | "$travelog" user add "$user" --password-stdin >/dev/null
token="$("$travelog" device add --user "$user" phone --json | "$python" -c 'import json,sys; print(json.load(sys.stdin)["token"])')"

if [ "$mode" = bench ]; then
  echo "Generating and importing $points synthetic track points…"
  started=$SECONDS
  read -r first_day last_day < <("$python" "$root/Tests/Browser/synthetic_gpx.py" "$work/track.gpx" --points "$points")
  "$travelog" import --user "$user" --device phone "$work/track.gpx" >/dev/null
  rm -f "$work/track.gpx"
  echo "seeded $points points ($first_day to $last_day) in $((SECONDS - started)) s"
fi

# The page test's server knows central Helsinki from OpenStreetMap (`make osm-sample`), for the
# search box (Tests/Browser/search_check.py): the extract added with `travelog osm add`.
osm_options=()
if [ "$mode" = test ]; then
  osm_sample="$root/.build-data/Helsinki.osm.pbf"
  [ -s "$osm_sample" ] || { echo "FAIL: $osm_sample is missing (make osm-sample)"; exit 1; }
  "$travelog" osm add --osm-dir "$work/osm" "$osm_sample" >"$work/osm-add.log" 2>&1 \
    || { echo "FAIL: travelog osm add $osm_sample:"; cat "$work/osm-add.log"; exit 1; }
  osm_options=(--osm-dir "$work/osm")
fi

# The server on a free port; tiles from the discard port, where nothing answers.
tile_origin="http://127.0.0.1:9/"
export TRAVELOG_WORLD="$root/.build-data/world.tlworld"
start_test_server "$work/server.log" --tiles "${tile_origin}{z}/{x}/{y}.png" "${osm_options[@]}"
if [ "$mode" = bench ] && [ -z "$postgres" ]; then
  # The bench measures a server started on a database it served before: a first server logs in
  # (which builds the person's history index) until the index is saved next to the database,
  # and stops; the one measured is started after it, so the first run is its first page.
  started=$SECONDS
  index="$TRAVELOG_DB-history-index/user-1.index"
  curl -sf -o /dev/null -H 'Content-Type: application/json' \
    -d "{\"user\":\"$user\",\"password\":\"$password\"}" "$url/api/v1/session" || { echo "FAIL: could not log in"; exit 1; }
  for _ in $(seq 1 3000); do [ -s "$index" ] && break; sleep 0.1; done
  [ -s "$index" ] || { echo "FAIL: the history index was not saved within 300 s"; tail -5 "$work/server.log"; exit 1; }
  kill "$server_pid" && wait "$server_pid" || true
  echo "a first server built and saved the history index ($(du -m "$index" | cut -f1) MB) in $((SECONDS - started)) s; measuring a server started after it"
  start_test_server "$work/server.log" --tiles "${tile_origin}{z}/{x}/{y}.png"
fi

# Headless chromium on a free DevTools port (it writes the port to DevToolsActivePort).
start_test_chromium "$work" --window-size=390,844

common=(--url "$url" --devtools-port "$devtools_port" --user "$user" --password "$password" --tile-origin "$tile_origin")
if [ "$mode" = bench ]; then
  "$python" "$root/Tests/Browser/page_test.py" bench "${common[@]}" \
    --from-day "$first_day" --to-day "$last_day" --stored-points "$points"
  # How long the measured server took to have the index (it reads the saved one as it starts).
  grep "history index" "$work/server.log" | sed 's/^/server: /' || true
else
  # Screenshots of every view at desktop and phone size, kept after the run to be looked at.
  TRAVELOG_SCREENSHOTS="${TRAVELOG_SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/travelog-screenshots.XXXXXX")}"
  export TRAVELOG_SCREENSHOTS
  echo "screenshots are kept in $TRAVELOG_SCREENSHOTS"
  "$python" -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("axe_selenium_python/node_modules/axe-core/axe.min.js"))' \
    "$axe_wheel" >"$work/axe.min.js"
  "$python" "$root/Tests/Browser/page_test.py" test "${common[@]}" --token="$token" --axe "$work/axe.min.js"
fi
