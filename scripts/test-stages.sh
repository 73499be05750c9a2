#!/usr/bin/env bash
# The stages of `make test` after the Swift tests: each script a real program meets (Chromium, gpsd,
# Mosquitto, an OpenID provider, libFuzzer, schemathesis), in three lanes that run side by side.
# Most of these stages wait — on a page to draw, a broker to come back, a log replayed in real time,
# a time budget — rather than compute: measured one after another on two cores, the browser test
# used 27 % of the machine and the MQTT test 45 %, and the stages took about 1,100 s in a row.
# Side by side they take about as long as the longest lane.
#
#   scripts/test-stages.sh [--travelog PATH] [STAGE…]   every stage, or those named (one lane each)
#
# Each stage writes to its own log (.build/test-stages/STAGE.log); a line says when each one ends.
# At the end the logs are printed whole, the passing stages' first and the failing ones' last, then
# a summary; the exit status is non-zero when any stage failed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
travelog="$root/.build/debug/travelog"
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    -*) sed -n '2,13p' "$0" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
bin="$(dirname "$travelog")"

# The stages, by name.
stage_browser() { scripts/browser-test.sh --travelog "$travelog"; }
# The first run in Chromium: the one-time link, the first account, a phone added and reporting, the map.
stage_first_run() { scripts/first-run-test.sh --travelog "$travelog"; }
# Single sign-on against a real OpenID Connect provider (Authlib): logins, forged and expired tokens,
# wrong audience, nonce, state.
stage_oidc() { scripts/oidc-test.sh --travelog "$travelog"; }
# travelog track against gpsd's logs replayed in real time (mostly waiting, 110 s).
stage_track() { scripts/track-test.sh --travelog "$travelog"; }
# OwnTracks through a real Mosquitto (password file, ACL, TLS): real payloads, bad ones, kill -9
# while phones publish, the broker restarted.
stage_mqtt() { scripts/mqtt-test.sh --travelog "$travelog"; }
# Two servers with --mqtt on one PostgreSQL: one subscribes; killed -9 amid QoS 1 publishes, the
# other takes over, nothing lost.
stage_mqtt_postgres() { scripts/mqtt-postgres-test.sh --travelog "$travelog"; }
# travelog photos geotag --dry-run beside exiftool -geotag on the same photos and track: same places
# within 1 m, same refusals.
stage_photo_geotag() { scripts/photo-geotag-compare.sh --travelog "$travelog"; }
# make install into a temporary prefix (the debug binaries), the systemd unit checked.
stage_install() { scripts/install-test.sh --build "$bin"; }
# A backup while a server is killed -9.
stage_backup_kill() { scripts/backup-kill-test.sh --travelog "$travelog"; }
# Every parser under libFuzzer for a few seconds from its seeds.
stage_fuzz() { scripts/fuzz.sh --quick --seconds 3; }
# The API against its OpenAPI document; shorter than the script's own limits (180 s and 120 s).
stage_schemathesis() { scripts/schemathesis-test.sh --max-seconds 120 --person-seconds 75 --travelog "$travelog"; }

# The lanes, balanced by the stages' times on two cores (seconds, one after another): the browser
# test (350) with the two short Chromium stages; the real-time and broker stages (110 + 165 + 35);
# the checks against other tools, then the two stages bounded by a time budget (fuzz 110, schemathesis 210).
lanes=(
  "browser first_run oidc"
  "track mqtt mqtt_postgres"
  "photo_geotag install backup_kill fuzz schemathesis"
)
if [ "${#only[@]}" -gt 0 ]; then
  lanes=()
  for name in "${only[@]}"; do
    declare -F "stage_$name" >/dev/null || { echo "FAIL: no stage '$name'"; exit 2; }
    lanes+=("$name")
  done
fi

logs="$root/.build/test-stages"
rm -rf "$logs"
mkdir -p "$logs"
started=$SECONDS

# run_lane STAGE…: the stages one after another; each one's output to STAGE.log, its exit status and
# seconds to STAGE.result.
run_lane() {
  local name begin status
  for name in "$@"; do
    begin=$SECONDS
    "stage_$name" >"$logs/$name.log" 2>&1 </dev/null
    status=$?
    echo "$status $((SECONDS - begin))" >"$logs/$name.result"
    printf '[%5d s] %s: %s (%d s)\n' "$((SECONDS - started))" "$name" "$([ "$status" -eq 0 ] && echo PASS || echo "FAIL, exit $status")" \
      "$((SECONDS - begin))"
  done
}

pids=()
for lane in "${lanes[@]}"; do
  # shellcheck disable=SC2086 # a lane is a list of stage names
  run_lane $lane &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
for pid in "${pids[@]}"; do wait "$pid"; done

# The logs: passing stages first, failing ones last (nearest the summary).
passed=() failed=()
for lane in "${lanes[@]}"; do
  for name in $lane; do
    read -r status _ <"$logs/$name.result" 2>/dev/null || status=1
    if [ "$status" -eq 0 ]; then passed+=("$name"); else failed+=("$name"); fi
  done
done
for name in "${passed[@]}" "${failed[@]}"; do
  echo "=== $name (scripts run by stage_$name in scripts/test-stages.sh) ==="
  cat "$logs/$name.log"
done
echo "=== summary: ${#passed[@]} of $((${#passed[@]} + ${#failed[@]})) stages passed in $((SECONDS - started)) s"
for name in "${passed[@]}" "${failed[@]}"; do
  read -r status seconds <"$logs/$name.result" 2>/dev/null || { status="?" seconds="?"; }
  printf '  %-14s %-12s %s s\n' "$name" "$([ "$status" = 0 ] && echo PASS || echo "FAIL ($status)")" "$seconds"
done
[ "${#failed[@]}" -eq 0 ]
