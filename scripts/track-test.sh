#!/usr/bin/env bash
# `travelog track` against a real gpsd: gpsd's regression logs replayed by gpsfake (Debian gpsd),
# recorded at the same time by gpxlogger (gpsd-clients) and the tracker; then kill -9 and a server
# outage. Says clearly when ../shared/fixtures is absent. Usage: scripts/track-test.sh --travelog BIN
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec "${PYTHON:-python3}" "$root/Tests/Tracker/track_test.py" "$@"
