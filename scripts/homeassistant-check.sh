#!/usr/bin/env bash
# Side by side with the real Home Assistant (not part of `make test`: it installs Home Assistant
# 2024.2.5, the last release for Debian bookworm's Python 3.11, from PyPI into a virtualenv, about
# 35 MB and a hundred packages). A throwaway Mosquitto, `travelog serve --mqtt-home-assistant` with one
# device and one fix, and Home Assistant with its MQTT integration (the config entry written into its
# storage, as the UI would); then Home Assistant's own database must hold the device tracker with the
# fix's position and the device's name.
#
#   scripts/homeassistant-check.sh [--travelog PATH] [--venv DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
travelog="$root/.build/debug/travelog"
venv="${TMPDIR:-/tmp}/travelog-homeassistant-venv"
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --venv) venv="$2"; shift 2 ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
"$root/scripts/ensure-debian-packages.sh" mosquitto python3-venv
[ -x "$venv/bin/hass" ] || { /usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install -q "homeassistant==2024.2.5" "paho-mqtt==1.6.1"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-homeassistant.XXXXXX")"
pids=""
cleanup() { for pid in $pids; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
printf 'user %s\nlistener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$(id -un)" "$port" >"$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" >"$work/broker.log" 2>&1 & pids="$pids $!"
sleep 0.5

export TRAVELOG_DB="$work/travelog.sqlite"
echo "ada-password-123" | "$travelog" user add ada --password-stdin >/dev/null
cat >"$work/laptop.gpx" <<'GPX'
<?xml version="1.0"?><gpx version="1.1" creator="check" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="60.1699" lon="24.9384"><time>2026-11-30T09:00:00Z</time></trkpt></trkseg></trk></gpx>
GPX
"$travelog" import --user ada --device laptop "$work/laptop.gpx" >/dev/null 2>&1
"$travelog" serve --port 0 --mqtt "mqtt://travelog@127.0.0.1:$port" --mqtt-home-assistant >"$work/serve.log" 2>&1 & pids="$pids $!"

mkdir -p "$work/ha/.storage"
cat >"$work/ha/configuration.yaml" <<EOF
homeassistant:
  name: Travelog check
  latitude: 60.0
  longitude: 24.0
  elevation: 0
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: FI
recorder:
  db_url: sqlite:///$work/ha/home-assistant_v2.db
  commit_interval: 1
EOF
cat >"$work/ha/.storage/core.config_entries" <<EOF
{"version": 1, "minor_version": 2, "key": "core.config_entries", "data": {"entries": [
 {"entry_id": "01travelogcheck00000000000", "version": 1, "minor_version": 1, "domain": "mqtt", "title": "127.0.0.1",
  "data": {"broker": "127.0.0.1", "port": $port, "discovery": true, "discovery_prefix": "homeassistant"},
  "options": {"discovery": true, "discovery_prefix": "homeassistant"}, "pref_disable_new_entities": false,
  "pref_disable_polling": false, "source": "user", "unique_id": null, "disabled_by": null}]}}
EOF
"$venv/bin/hass" -c "$work/ha" >"$work/ha.log" 2>&1 & pids="$pids $!"
for _ in $(seq 1 90); do
  sleep 2
  if /usr/bin/python3 - "$work/ha/home-assistant_v2.db" <<'EOF'
import json, sqlite3, sys
try:
    rows = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute(
        "select m.entity_id, s.state, a.shared_attrs from states s join states_meta m on m.metadata_id = s.metadata_id "
        "left join state_attributes a on a.attributes_id = s.attributes_id where m.entity_id like 'device_tracker.%'").fetchall()
except sqlite3.Error:
    sys.exit(1)
for entity, state, attributes in rows:
    attributes = json.loads(attributes or "{}")
    if abs(attributes.get("latitude", 0) - 60.1699) < 1e-9 and abs(attributes.get("longitude", 0) - 24.9384) < 1e-9:
        assert attributes.get("friendly_name") == "ada · laptop", f"FAIL: Home Assistant names it {attributes.get('friendly_name')!r}"
        print(f"ok: Home Assistant 2024.2.5 made {entity} ({attributes['friendly_name']}), state {state}, "
              f"at {attributes['latitude']}, {attributes['longitude']}, source {attributes.get('source_type')}")
        sys.exit(0)
sys.exit(1)
EOF
  then exit 0; fi
done
echo "FAIL: Home Assistant made no device tracker at the fix within 180 s"; tail -20 "$work/ha.log"; exit 1
