#!/usr/bin/env bash
# The page with N photo pins in the chosen range (issue 32: 100,000, clustered, "< 1 s to draw"),
# in headless Chromium: a throwaway database gets one user and N photo rows on one day around
# Helsinki (written with sqlite3, no image files: the thumbnails answer 404, the pins are drawn all
# the same), a server, and Tests/Browser/photo_pins_bench.py, which reads the times from the page's
# performance timeline. Prints figures; the release build is the one to quote.
# Usage: scripts/bench-photo-pins.sh [--travelog PATH] [--photos N] [--runs K] [--screenshot FILE.png]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
photos=100000 runs=3 screenshot=""
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --photos) photos="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --screenshot) screenshot="$2"; shift 2 ;;
    *) echo "usage: $0 [--travelog PATH] [--photos N] [--runs K] [--screenshot FILE.png]" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
[ -x "$chromium" ] || { echo "FAIL: $chromium is missing (apt-get install chromium)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 is missing (apt-get install sqlite3; make deps-bench)"; exit 1; }
export TZ=UTC
work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-photo-pins.XXXXXX")"
server_pid="" browser_pid=""
cleanup() {
  [ -n "$browser_pid" ] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export TRAVELOG_DB="$work/db.sqlite"
user=ada password="photo-pins-password"
echo "$password" | "$travelog" user add "$user" --password-stdin >/dev/null
# N photos on 2024-06-01 (UTC), one every 0.8 s, spread over about 55 × 28 km around Helsinki.
sqlite3 "$TRAVELOG_DB" <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $photos)
INSERT INTO photos (user_id, digest, path, mime_type, byte_count, width, height, taken_at_ms, offset_source,
                    latitude_e7, longitude_e7, placement, added_at_ms)
SELECT (SELECT id FROM users WHERE name = '$user'), printf('%064x', i), printf('/photos/P%06d.jpg', i), 'image/jpeg', 4000000,
       4000, 3000, 1717200000000 + i * (86400000 / $photos), 'camera', 600500000 + abs(random() % 2500000),
       245000000 + abs(random() % 10000000), 'own-gps', 1717200000000
FROM n;
SQL
echo "seeded $(sqlite3 "$TRAVELOG_DB" 'SELECT count(*) FROM photos') photos on 2024-06-01"
start_test_server "$work/server.log" --tiles "http://127.0.0.1:9/{z}/{x}/{y}.png"
start_test_chromium "$work" --window-size=1400,900
cd "$root/Tests/Browser"
"$python" photo_pins_bench.py --url "$url" --devtools-port "$devtools_port" --user "$user" --password "$password" \
  --day 2024-06-01 --photos "$photos" --runs "$runs" ${screenshot:+--screenshot "$screenshot"}
echo "load: $(uptime)"
