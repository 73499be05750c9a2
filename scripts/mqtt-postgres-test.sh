#!/usr/bin/env bash
# Several `travelog serve --mqtt` processes on one PostgreSQL database: only one subscribes at a
# time (it holds the PostgreSQL advisory lock of the role mqtt-subscriber; the others wait for it),
# and when it is killed (-9) while a phone publishes at QoS 1, another takes over the broker's
# session (same client id, clean session off) and every message is stored exactly once.
#
# A real Mosquitto on a free port (password file, ACL), two debug servers, mosquitto_pub. Runs on
# the PostgreSQL of TRAVELOG_TEST_POSTGRES_URL, else through scripts/with-postgres.sh.
#
#   scripts/mqtt-postgres-test.sh [--travelog PATH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${TRAVELOG_TEST_POSTGRES_URL:-}" ]; then exec "$root/scripts/with-postgres.sh" "$0" "$@"; fi
travelog="$root/.build/debug/travelog"
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
for tool in mosquitto mosquitto_pub mosquitto_passwd curl; do
  command -v "$tool" >/dev/null || PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null \
    || "$root/scripts/ensure-debian-packages.sh" mosquitto mosquitto-clients curl
done
export PATH="$PATH:/usr/sbin"
python=/usr/bin/python3
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"

work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-mqtt-pg.XXXXXX")"
chmod 755 "$work"
broker_pid="" first_pid="" second_pid="" publisher_pid=""
cleanup() {
  for pid in $publisher_pid $first_pid $second_pid $broker_pid; do kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  [ -n "${MQTT_TEST_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
broker_port="$(free_port)"
: >"$work/passwd"
for account in travelog bob; do mosquitto_passwd -b "$work/passwd" "$account" "$account-broker-password"; done
cat >"$work/acl" <<'ACL'
user travelog
topic read owntracks/#
topic write owntracks/+/+/cmd

pattern write owntracks/%u/#
ACL
cat >"$work/mosquitto.conf" <<CONF
user $(id -un)
allow_anonymous false
password_file $work/passwd
acl_file $work/acl
max_queued_messages 100000
listener $broker_port 127.0.0.1
CONF
mosquitto -c "$work/mosquitto.conf" >"$work/broker.log" 2>&1 &
broker_pid=$!
for _ in $(seq 1 100); do
  mosquitto_pub -h 127.0.0.1 -p "$broker_port" -u bob -P bob-broker-password -t owntracks/bob/probe -n 2>/dev/null && break
  sleep 0.1
done

# A schema of its own, so the database's other users are not touched.
schema="mqtt_takeover_$$"
case "$TRAVELOG_TEST_POSTGRES_URL" in *\?*) db="$TRAVELOG_TEST_POSTGRES_URL&schema=$schema" ;; *) db="$TRAVELOG_TEST_POSTGRES_URL?schema=$schema" ;; esac
export TRAVELOG_DB="$db"
echo "bob-travelog-password" | "$travelog" user add bob --password-stdin >/dev/null
printf 'travelog-broker-password\n' >"$work/mqtt-password"

start() { # LOG: a server on port 0, its pid in started_pid and port in started_port
  start_test_server "$1" --history-index-dir "$work/index-$(basename "$1" .log)" \
    --mqtt "mqtt://travelog@127.0.0.1:$broker_port" --mqtt-password-file "$work/mqtt-password"
  started_pid=$server_pid started_port=$port
}
start "$work/first.log"; first_pid=$started_pid; first_port=$started_port
for _ in $(seq 1 200); do grep -q 'MQTT: connected' "$work/first.log" && break; sleep 0.1; done
grep -q 'MQTT: connected' "$work/first.log" || { echo "FAIL: the first server did not subscribe:"; tail "$work/first.log"; exit 1; }
start "$work/second.log"; second_pid=$started_pid; second_port=$started_port
port=$first_port
sleep 3
grep -q 'MQTT: waiting to be the one server process' "$work/second.log" \
  || { echo "FAIL: the second server does not wait for the subscription:"; tail "$work/second.log"; exit 1; }
! grep -q 'MQTT: connected' "$work/second.log" || { echo "FAIL: two processes subscribed at once"; exit 1; }
echo "ok: two servers on one PostgreSQL database: the first subscribes, the second waits"

count=3000
"$python" -c "
for i in range($count):
    print('{\"_type\":\"location\",\"tid\":\"BW\",\"tst\":%d,\"lat\":%.6f,\"lon\":13.4,\"acc\":10}' % (1500000000 + i, 52.0 + i * 1e-5))
" >"$work/burst.lines"
stored() {
  curl -sf -u bob:bob-travelog-password "http://127.0.0.1:$port/api/v1/locations?device=burst&limit=100000" 2>/dev/null \
    | grep -o '"timestamp"' | wc -l || echo 0
}
mosquitto_pub -h 127.0.0.1 -p "$broker_port" -u bob -P bob-broker-password -q 1 -i "phone-bob-$$" -t owntracks/bob/burst -l \
  <"$work/burst.lines" &
publisher_pid=$!
for _ in $(seq 1 600); do [ "$(stored)" -ge 300 ] && break; sleep 0.1; done
before="$(stored)"
killed_at=$(date +%s.%N)
kill -9 "$first_pid"; wait "$first_pid" 2>/dev/null || true; first_pid=""
echo "ok: killed the subscribing server (-9) with $before of $count stored"
for _ in $(seq 1 300); do grep -q 'MQTT: connected' "$work/second.log" && break; sleep 0.1; done
grep -q 'MQTT: connected' "$work/second.log" || { echo "FAIL: the second server did not take over:"; tail "$work/second.log"; exit 1; }
echo "ok: the second server took the subscription over in $("$python" -c "import time; print(round(time.time() - $killed_at, 1))") s: $(grep -o 'MQTT: connected.*' "$work/second.log" | head -1)"
port=$second_port
wait "$publisher_pid"; publisher_pid=""
for _ in $(seq 1 1200); do [ "$(stored)" -ge "$count" ] && break; sleep 0.1; done
curl -sf -u bob:bob-travelog-password "http://127.0.0.1:$port/api/v1/locations?device=burst&limit=100000" >"$work/burst.json"
"$python" - "$work/burst.json" "$count" <<'PY'
import json, sys
times = [f["properties"]["timestamp"] for f in json.load(open(sys.argv[1]))["features"]]
count = int(sys.argv[2])
assert len(set(times)) == len(times), f"FAIL: {len(times) - len(set(times))} locations stored twice"
assert len(times) == count, f"FAIL: {count - len(times)} of {count} locations lost in the takeover"
print(f"ok: after the takeover all {count} messages published at QoS 1 are stored, none twice")
PY
echo "mqtt-postgres-test: every check passed"
