#!/usr/bin/env bash
# The first run as a new user meets it, in headless Chromium: a debug `travelog serve` on a new,
# empty database prints a one-time setup link; Tests/Browser/first_run_check.py opens the page
# without it (told where the link is, no login offered), then with it: creates the account, adds a
# phone on the page, reads the phone app's setup link from it, reports a location exactly as that
# app does, goes to the map and finds the location there; the used link then works no more. No
# second terminal command. Also checked here: the token is nowhere in the database.
#
#   scripts/first-run-test.sh [--travelog PATH]      ($TRAVELOG_SCREENSHOTS keeps the screenshots)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    *) sed -n '2,9p' "$0" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
[ -x "$chromium" ] || { echo "FAIL: $chromium is missing (apt-get install chromium)"; exit 1; }

export TZ="${TZ:-UTC}"
work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-first-run.XXXXXX")"
server_pid="" browser_pid=""
cleanup() {
  for pid in $browser_pid $server_pid; do kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export TRAVELOG_DB="$work/db.sqlite"
start_test_server "$work/server.log" --tiles "http://127.0.0.1:9/{z}/{x}/{y}.png"
link="$(sed -n 's|^ *\(http://[^ ]*/#setup=[A-Za-z0-9_-]*\)$|\1|p' "$work/server.log" | head -1)"
[ -n "$link" ] || { echo "FAIL: the server printed no setup link on an empty database:"; cat "$work/server.log"; exit 1; }
echo "PASS: an empty database: the server printed a one-time setup link"
token="${link##*#setup=}"
link="$url/#setup=$token"

start_test_chromium "$work" --window-size=1400,900
TRAVELOG_SCREENSHOTS="${TRAVELOG_SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/travelog-screenshots.XXXXXX")}"
export TRAVELOG_SCREENSHOTS
status=0
"$python" "$root/Tests/Browser/first_run_check.py" --url "$url" --link "$link" --devtools-port "$devtools_port" || status=1

# The token lives in the running server only: not in the database (nor its journal files).
if grep -rlF -- "$token" "$work"/db.sqlite* >/dev/null 2>&1; then
  echo "FAIL: the setup token was written into the database"; status=1
else
  echo "PASS: the setup token is nowhere in the database"
fi
exit $status
