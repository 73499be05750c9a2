#!/usr/bin/env bash
# Replaying a day at 1000× in headless Chromium (issue 33: "stays at 60 frames/s for a day of 86,400
# fixes", measured with the browser's performance timeline): a throwaway database gets one user and
# one day of a fix a second (home, a drive across Helsinki, a walk, an afternoon at work, the way
# back; written as CSV and stored with `travelog import`), a server, and Tests/Browser/review_check.py
# frames, which loads the day into the replay, plays it at 1000× with the map following, and prints
# the requestAnimationFrame intervals and the long animation frames. Prints figures; the release
# build is the one to quote. Chromium draws in software here (no GPU), as on a CI machine.
# Usage: scripts/bench-replay-frames.sh [--travelog PATH] [--seconds S] [--no-follow] [--screenshot FILE.png]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
seconds=8 follow="" screenshot=""
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --no-follow) follow="--no-follow"; shift ;;
    --screenshot) screenshot="$2"; shift 2 ;;
    *) echo "usage: $0 [--travelog PATH] [--seconds S] [--no-follow] [--screenshot FILE.png]" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
[ -x "$chromium" ] || { echo "FAIL: $chromium is missing (apt-get install chromium)"; exit 1; }
export TZ=UTC
work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-replay-frames.XXXXXX")"
server_pid="" browser_pid=""
cleanup() {
  [ -n "$browser_pid" ] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export TRAVELOG_DB="$work/db.sqlite"
user=ada password="replay-frames-password" day=2025-06-14
echo "$password" | "$travelog" user add "$user" --password-stdin >/dev/null
# 86,400 fixes: at home until 08:00, 25 minutes' drive, a walk, at work until 17:00, the way back.
"$python" - "$work/day.csv" "$day" <<'PY'
import math, sys
path, day = sys.argv[1], sys.argv[2]
home, work, park = (60.1699, 24.9384), (60.2055, 24.6559), (60.1841, 24.8301)
def between(a, b, f):
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
def at(second):
    hour = second / 3600
    wobble = 0.00003 * math.sin(second / 7.0)
    if hour < 8 or hour >= 18.5:
        return home[0] + wobble, home[1] + wobble, 0.0
    if hour < 8.42:
        f = (hour - 8) / 0.42
        lat, lon = between(home, park, f)
        return lat + 0.002 * math.sin(f * 9), lon, 14.0
    if hour < 9:
        f = (hour - 8.42) / 0.58
        lat, lon = between(park, work, f)
        return lat + 0.0008 * math.sin(f * 31), lon + 0.0005 * math.cos(f * 17), 1.4
    if hour < 17:
        return work[0] + wobble, work[1] + wobble, 0.0
    f = (hour - 17) / 1.5
    lat, lon = between(work, home, f)
    return lat + 0.003 * math.sin(f * 5), lon, 11.0
with open(path, "w") as out:
    out.write("time,latitude,longitude,altitude,accuracy,speed\n")
    for second in range(86400):
        lat, lon, speed = at(second)
        out.write(f"{day}T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}Z,{lat:.6f},{lon:.6f},"
                  f"{12 + 8 * math.sin(second / 900):.1f},5,{speed}\n")
PY
"$travelog" import "$work/day.csv" --user "$user" --device phone >/dev/null
echo "seeded $(($(wc -l <"$work/day.csv") - 1)) fixes on $day"
start_test_server "$work/server.log" --tiles "http://127.0.0.1:9/{z}/{x}/{y}.png"
start_test_chromium "$work" --window-size=1400,900
cd "$root/Tests/Browser"
"$python" review_check.py frames --url "$url" --devtools-port "$devtools_port" --user "$user" --password "$password" \
  --day "$day" --seconds "$seconds" --start-hour 7.9 $follow ${screenshot:+--screenshot "$screenshot"}
echo "load: $(uptime)"
