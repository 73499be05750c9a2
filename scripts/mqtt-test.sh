#!/usr/bin/env bash
# OwnTracks through a real broker: Debian's Mosquitto on free ports with a throwaway configuration
# (a password file, the ACL `pattern write owntracks/%u/#`, TLS on a second port with a CA made by
# openssl here), a debug `travelog serve --mqtt mqtts://…` subscribed through TLS, and phones
# publishing with mosquitto_pub at QoS 1: the OwnTracks apps' real payloads
# (../shared/fixtures/owntracks, else the few written below), a malformed, a 1 MB and a binary one
# among good ones, and payloads encrypted as the apps encrypt them (PyNaCl), one with a wrong secret.
# Checked through the API: every good location stored exactly once, as the HTTP
# route stores the same payloads; the bad ones among the rejected items with their topic; a message
# for an unknown user and one another user's phone publishes under alice's topic stored nowhere.
# Then `kill -9` of the server while a phone publishes thousands of fixes at QoS 1, and a restart:
# every one stored, none twice. A store that fails under a message: not acknowledged, sent again,
# stored once; the same with --mqtt-connections 4 (a shared subscription). Every other message type (card, lwt, status, waypoints, transition) on its topic,
# as over HTTP; `device add --app owntracks-mqtt`'s settings and link; regions drawn published to
# the phone's …/cmd as setWaypoints (mosquitto_sub), and again on connecting. Also the broker stopped and started again under the server: it
# reconnects, says so in its log and /metrics, and loses nothing queued meanwhile; and MQTT 5 resumes
# the session after a restart. Last, the ACL `travelog mqtt acl` makes, on a broker of its own:
# friends hear each other as the app subscribes (owntracks/+/+), others hear nothing; and on that
# broker `serve --mqtt-relay-friends` publishes an HTTP device for its owner's friend only.
#
#   scripts/mqtt-test.sh [--travelog PATH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
for tool in mosquitto mosquitto_pub mosquitto_passwd openssl curl; do
  command -v "$tool" >/dev/null || PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null \
    || "$root/scripts/ensure-debian-packages.sh" mosquitto mosquitto-clients openssl curl
done
export PATH="$PATH:/usr/sbin"
python=/usr/bin/python3

work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-mqtt.XXXXXX")"
broker_pid="" server_pid="" publisher_pid="" acl_broker_pid=""
cleanup() {
  for pid in $publisher_pid $server_pid $broker_pid $acl_broker_pid; do kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  [ -n "${MQTT_TEST_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
plain_port="$(free_port)" tls_port="$(free_port)"

# --- the broker: the configuration README.md shows, on free ports
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Travelog test CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$work/broker.key" -out "$work/broker.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$work/san.ext"
openssl x509 -req -in "$work/broker.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
  -extfile "$work/san.ext" -out "$work/broker.pem" 2>/dev/null
: >"$work/passwd"
for account in travelog alice bob mallory homeassistant; do mosquitto_passwd -b "$work/passwd" "$account" "$account-broker-password"; done
cat >"$work/acl" <<'EOF'
# Travelog reads every phone's topics.
user travelog
topic read owntracks/#
topic write owntracks/+/+/cmd

# Every phone writes under its own user name only, and reads everyone (friends).
pattern write owntracks/%u/#
pattern read owntracks/#
EOF
mkdir -p "$work/broker-data"
cat >"$work/mosquitto.conf" <<EOF
# Run as root, mosquitto would become the user mosquitto, who cannot read this test's folder.
user $(id -un)
per_listener_settings false
allow_anonymous false
password_file $work/passwd
acl_file $work/acl
persistence true
persistence_location $work/broker-data/
autosave_interval 1
# What waits for Travelog while it is away (the default, 1000, would drop a day of a busy phone).
max_queued_messages 100000
listener $plain_port 127.0.0.1
listener $tls_port 127.0.0.1
cafile $work/ca.pem
certfile $work/broker.pem
keyfile $work/broker.key
EOF
start_broker() {
  mosquitto -c "$work/mosquitto.conf" >>"$work/broker.log" 2>&1 &
  broker_pid=$!
  for _ in $(seq 1 100); do
    mosquitto_pub -h 127.0.0.1 -p "$plain_port" -u alice -P alice-broker-password -t owntracks/alice/probe -n -r 2>/dev/null && return
    kill -0 "$broker_pid" 2>/dev/null || { echo "FAIL: mosquitto stopped:"; cat "$work/broker.log"; exit 1; }
    sleep 0.1
  done
  echo "FAIL: mosquitto did not start"; cat "$work/broker.log"; exit 1
}
start_broker

# --- the server, subscribed through TLS, the password from a file
export TRAVELOG_DB="$work/travelog.sqlite"
for user in alice bob; do echo "$user-travelog-password" | "$travelog" user add "$user" --password-stdin >/dev/null; done
# alice's phone encrypts its payloads (the app's Encryption key), and so does the HTTP twin below.
owntracks_secret="alice's shared secret, typed in the app"
for device in phone http-twin; do
  "$travelog" device add "$device" --user alice --app owntracks >/dev/null
  echo "$owntracks_secret" | "$travelog" device secret "$device" --user alice --secret-stdin >/dev/null
done
printf 'travelog-broker-password\n' >"$work/mqtt-password"
start_server() { # [MORE-OPTIONS…]
  start_test_server "$work/server.log" --mqtt "mqtts://travelog@localhost:$tls_port" --mqtt-password-file "$work/mqtt-password" \
    --mqtt-ca "$work/ca.pem" --metrics loopback "$@"
  for _ in $(seq 1 100); do
    grep -q 'MQTT: connected' "$work/server.log" && return
    sleep 0.1
  done
  echo "FAIL: the server did not connect to the broker:"; tail -20 "$work/server.log"; exit 1
}
start_server
echo "ok: travelog serve subscribed through TLS: $(grep -o 'MQTT: connected.*' "$work/server.log" | head -1)"

publish() { # USER TOPIC mosquitto_pub-ARGS…: at QoS 1, as a phone
  local user="$1" topic="$2"; shift 2
  mosquitto_pub -h 127.0.0.1 -p "$plain_port" -u "$user" -P "$user-broker-password" -q 1 -i "phone-$user-$$" -t "$topic" "$@"
}
api() { # USER PATH
  curl -sf -u "$1:$1-travelog-password" "http://127.0.0.1:$port$2"
}

# --- the apps' real payloads, and bad ones among them
fixtures="${TRAVELOG_SHARED_FIXTURES:-$root/../shared/fixtures}/owntracks"
payloads="$work/payloads"
mkdir -p "$payloads"
if [ -d "$fixtures/android-fixtures" ] && [ -f "$fixtures/recorder/demo-iphone.rec" ]; then
  echo "note: publishing the OwnTracks apps' payloads of $fixtures"
  cut -f3 "$fixtures/recorder/demo-iphone.rec" >"$payloads/recorder.lines"
  for name in valid_location_message location_deserialize_extended location_multiple_messages transition_message \
              waypoint_message card_message_with_tid encrypted_message invalid_location_message_zero_timestamp location_empty; do
    cp "$fixtures/android-fixtures/$name.json" "$payloads/$name.json"
  done
else
  echo "NOTE: $fixtures is absent: publishing the few OwnTracks payloads written in this script instead of the apps' real ones"
  for i in 1 2 3 4 5; do
    printf '{"_type":"location","tid":"NE","tst":%d,"lat":52.37%d,"lon":10.02%d,"acc":12,"batt":90}\n' $((1440395361 + 60 * i)) "$i" "$i"
  done >"$payloads/recorder.lines"
  echo '{"_type":"lwt","tst":1440363922}' >>"$payloads/recorder.lines"
  echo '{"_type":"location","tid":"xx","tst":1778266175,"lat":0,"lon":0,"acc":15,"alt":300}' >"$payloads/valid_location_message.json"
  echo '{"_type":"card","name":"Alice","tid":"AL"}' >"$payloads/card_message_with_tid.json"
  echo '{"_type":"encrypted","data":"TestCipherText"}' >"$payloads/encrypted_message.json"
  echo '{"_type":"location","tst":0,"lat":1,"lon":2}' >"$payloads/invalid_location_message_zero_timestamp.json"
  echo '{"_type":"location"}' >"$payloads/location_empty.json"
fi
printf '{"_type":"location","tst":1440399999,"lat":52.3' >"$payloads/malformed.json"
# Encrypted as the apps encrypt (PyNaCl, Debian's python3-nacl): the secret's bytes in 32 zero bytes
# as the key, base64 of nonce + secretbox; one with the right secret, one with another.
/usr/bin/python3 -c 'import nacl' 2>/dev/null || "$root/scripts/ensure-debian-packages.sh" python3-nacl
/usr/bin/python3 - "$payloads" "$owntracks_secret" <<'EOF'
import base64, json, pathlib, sys, nacl.secret, nacl.utils
folder, secret = pathlib.Path(sys.argv[1]), sys.argv[2].encode()
def sealed(message, secret):
    box = nacl.secret.SecretBox(secret[:32].ljust(32, b"\0"))
    data = base64.b64encode(box.encrypt(json.dumps(message).encode(), nacl.utils.random(24))).decode()
    return json.dumps({"_type": "encrypted", "data": data})
good = {"_type": "location", "tid": "AL", "tst": 1440399990, "lat": 52.41, "lon": 10.11, "acc": 9}
(folder / "encrypted_good.json").write_text(sealed(good, secret))
(folder / "encrypted_wrong.json").write_text(sealed(dict(good, tst=1440399991), b"another secret"))
EOF
head -c 1048576 /dev/zero | tr '\0' 'x' | sed 's/^/{"_type":"location","tst":1440399998,"lat":52.1,"lon":10.1,"junk":"/;s/$/"}/' >"$payloads/large.json"
head -c 300 /dev/urandom >"$payloads/binary.bin"

# The good ones and the bad ones interleaved, over one connection each.
publish alice owntracks/alice/phone -l <"$payloads/recorder.lines"
for file in "$payloads"/*.json "$payloads/binary.bin"; do
  case "$(basename "$file")" in
    transition_message.json) topic=owntracks/alice/phone/event ;;
    waypoint_message.json) topic=owntracks/alice/phone/waypoint ;;
    card_message_with_tid.json) topic=owntracks/alice/phone/info ;;
    *) topic=owntracks/alice/phone ;;
  esac
  publish alice "$topic" -f "$file"
done
# The same payloads through the HTTP route, as a second device: what MQTT stores must match.
while IFS= read -r line; do
  curl -sf -o /dev/null -u alice:alice-travelog-password -H 'Content-Type: application/json' --data-binary "$line" \
    "http://127.0.0.1:$port/api/v1/owntracks?d=http-twin"
done <"$payloads/recorder.lines"
# (not the 1 MB one: a valid location for HTTP, whose bodies may be batches; too large for a message)
for file in "$payloads"/*.json "$payloads/binary.bin"; do
  [ "$file" = "$payloads/large.json" ] && continue
  curl -s -o /dev/null -u alice:alice-travelog-password -H 'Content-Type: application/json' --data-binary "@$file" \
    "http://127.0.0.1:$port/api/v1/owntracks?d=http-twin"
done
# The other message types, on their topics as the apps publish them and through the HTTP route:
# a card with a face (kept as the device's, shown to friends), lwt and status (passed over, never
# set aside).
face="iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
publish alice owntracks/alice/phone/info -r -m "{\"_type\":\"card\",\"name\":\"Alice A.\",\"face\":\"$face\",\"tid\":\"AL\"}"
publish alice owntracks/alice/phone -m '{"_type":"lwt","tst":1440399000}'
publish alice owntracks/alice/phone/status -m '{"_type":"status","android":{"hib":1,"bo":1,"loc":0,"ps":0,"wifi":1}}'
publish alice owntracks/alice/phone/waypoints -m '{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Office","lat":52.4,"lon":10.1,"rad":120,"tst":1440300000}]}'
for body in "{\"_type\":\"card\",\"name\":\"Alice's twin\",\"face\":\"$face\"}" '{"_type":"lwt","tst":1440399000}' \
            '{"_type":"status","iOS":{"altimeter":{"authorizationStatus":"authorized"}}}'; do
  curl -sf -o /dev/null -u alice:alice-travelog-password -H 'Content-Type: application/json' --data-binary "$body" \
    "http://127.0.0.1:$port/api/v1/owntracks?d=http-twin"
done
# Not for a Travelog user, and another phone writing under alice's topic (the ACL refuses it).
publish mallory owntracks/mallory/phone -m '{"_type":"location","tst":1440390001,"lat":1,"lon":1}'
publish mallory owntracks/alice/phone -m '{"_type":"location","tst":1440390002,"lat":2,"lon":2}'
publish bob owntracks/bob/watch -m '{"_type":"location","tst":1440390003,"lat":3,"lon":3}'

# The last message tells when all before it are through (one subscriber, in order).
for _ in $(seq 1 300); do
  api bob "/api/v1/locations?device=watch" 2>/dev/null | grep -q '"coordinates"' && break
  sleep 0.1
done
api alice "/api/v1/locations?device=phone&limit=100000" >"$work/mqtt.json"
api alice "/api/v1/locations?device=http-twin&limit=100000" >"$work/http.json"
api alice "/api/v1/rejected?limit=1000" >"$work/rejected.json"
api alice "/api/v1/regions" >"$work/regions.json"
# The friends an HTTP phone is answered with: alice's other devices, with the cards they sent.
curl -sf -u alice:alice-travelog-password -H 'Content-Type: application/json' --data-binary '' \
  "http://127.0.0.1:$port/api/v1/owntracks?d=http-twin" >"$work/friends.json"
api bob "/api/v1/locations?limit=100000" >"$work/bob.json"
"$python" - "$work" "$payloads" <<'EOF'
import json, sys, pathlib
work, payloads = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def times(name):
    return sorted(f["properties"]["timestamp"] for f in json.loads((work / name).read_text())["features"])
mqtt, http = times("mqtt.json"), times("http.json")
# One location per device and time (two fixtures share one).
times = set()
for line in (payloads / "recorder.lines").read_text().splitlines():
    message = json.loads(line)
    if message.get("_type") == "location":
        times.add(message["tst"])
times.add(1440399990)  # encrypted_good.json
for name in ["valid_location_message.json", "location_deserialize_extended.json", "location_multiple_messages.json"]:
    path = payloads / name
    if path.exists():
        data = json.loads(path.read_text())
        times.update(message["tst"] for message in (data if isinstance(data, list) else [data]))
expected = len(times)
assert len(mqtt) == len(set(mqtt)), f"FAIL: a location stored twice: {len(mqtt)} rows, {len(set(mqtt))} times"
assert mqtt == http, f"FAIL: MQTT stored {len(mqtt)} locations, the HTTP route {len(http)} of the same payloads"
assert len(mqtt) == expected, f"FAIL: {len(mqtt)} locations stored, {expected} expected"
print(f"ok: {len(mqtt)} good locations stored exactly once, as the HTTP route stores the same payloads")
items = json.loads((work / "rejected.json").read_text())["items"]
mqtt_items = [item for item in items if item["route"] == "mqtt"]
assert all(item["raw"].startswith("owntracks/alice/phone\n") for item in mqtt_items), "FAIL: a rejected item without its topic"
def rejected(needle):
    return [item for item in mqtt_items if needle in item["raw"] or needle in item["reason"]]
assert rejected('"tst":1440399999,"lat":52.3'), "FAIL: the malformed message is not among the rejected items"
assert rejected("bytes, more than the"), "FAIL: the 1 MB message is not among the rejected items"
assert rejected("cannot decrypt: wrong secret?"), "FAIL: the message sealed with another secret is not set aside"
assert len(mqtt_items) >= 4, f"FAIL: {len(mqtt_items)} MQTT items set aside: {[i['reason'] for i in mqtt_items]}"
print(f"ok: {len(mqtt_items)} bad messages set aside with their topic:")
for item in mqtt_items:
    print(f"    {item['reason'][:110]}")
bob = json.loads((work / "bob.json").read_text())["features"]
assert len(bob) == 1, f"FAIL: bob has {len(bob)} locations"
for feature in json.loads((work / "mqtt.json").read_text())["features"]:
    assert feature["geometry"]["coordinates"] not in ([1, 1], [2, 2]), "FAIL: mallory's message was stored under alice"
print("ok: nothing stored for an unknown user, nor for a phone writing under another user's topic")
for item in items:
    assert not any(f'"_type":"{kind}"' in item["raw"].replace(" ", "") for kind in ("lwt", "status", "card", "waypoints", "transition")), \
        f"FAIL: a valid {item['raw'][:80]} was set aside: {item['reason']}"
regions = sorted(region["name"] for region in json.loads((work / "regions.json").read_text()))
assert "Office" in regions, f"FAIL: the waypoints published did not become a region: {regions}"
cards = [m for m in json.loads((work / "friends.json").read_text()) if m.get("_type") == "card"]
phone = [card for card in cards if card.get("topic") == "owntracks/alice/phone"]
assert phone and phone[0]["name"] == "Alice A." and phone[0].get("face", "").startswith("iVBOR"), f"FAIL: the phone's card: {cards}"
print(f"ok: waypoint(s) became regions {regions}; the card published on …/info kept and shown to friends; lwt, status, card, transition not set aside")
EOF
grep -q "no enabled Travelog user 'mallory'" "$work/server.log" || { echo "FAIL: the unknown user is not in the log"; exit 1; }

# --- an MQTT phone's setup (travelog device add --app owntracks-mqtt) and its regions on …/cmd
"$travelog" device add mqttphone --user alice --app owntracks-mqtt --owntracks-secret "$owntracks_secret" \
  --broker "mqtts://localhost:$tls_port" --no-qr >"$work/mqtt-setup.txt"
"$python" - "$work/mqtt-setup.txt" "$tls_port" "$owntracks_secret" <<'EOF'
import base64, json, re, sys, urllib.parse
text, port, secret = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3]
flat = " ".join(text.split())
for line in ["Mode MQTT", "Host localhost", f"Port {port}", "TLS on", "Username alice", "Device ID mqttphone",
             "Topic owntracks/alice/mqttphone", f"Encryption key {secret}"]:
    assert line in flat, f"FAIL: device add --app owntracks-mqtt does not print '{line}':\n{text}"
link = re.search(r"owntracks:///config\?inline=(\S+)", text).group(1)
configuration = json.loads(base64.b64decode(urllib.parse.unquote(link)))
expected = {"_type": "configuration", "mode": 0, "host": "localhost", "port": port, "tls": True, "username": "alice",
            "deviceId": "mqttphone", "encryptionKey": secret, "cmd": True}
assert all(configuration.get(k) == v for k, v in expected.items()), f"FAIL: the .otrc link's configuration: {configuration}"
print("ok: device add --app owntracks-mqtt prints the MQTT settings and an inline configuration link (mode 0, broker, key)")
EOF
mosquitto_sub -h 127.0.0.1 -p "$plain_port" -u alice -P alice-broker-password -q 1 -t owntracks/alice/mqttphone/cmd \
  -C 2 -W 60 >"$work/cmd.out" 2>"$work/cmd.err" &
sub_pid=$!
sleep 1
curl -sf -o /dev/null -u alice:alice-travelog-password -H 'Content-Type: application/json' \
  --data-binary '{"name":"Gym","circle":{"latitude":52.45,"longitude":10.05,"radiusMeters":80}}' "http://127.0.0.1:$port/api/v1/regions" \
  || { echo "FAIL: could not draw a region"; exit 1; }
for _ in $(seq 1 100); do [ -s "$work/cmd.out" ] && break; sleep 0.1; done
# Once on connecting too: the server restarted sends the regions again.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
start_server
wait "$sub_pid" || { echo "FAIL: mosquitto_sub did not get two commands on owntracks/alice/mqttphone/cmd:"; cat "$work/cmd.out" "$work/cmd.err"; exit 1; }
"$python" - "$work/cmd.out" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, f"FAIL: {len(lines)} commands"
for line in lines:
    command = json.loads(line)
    assert command["_type"] == "cmd" and command["action"] == "setWaypoints", f"FAIL: {line}"
    names = sorted(w["desc"] for w in command["waypoints"]["waypoints"])
    assert "Gym" in names and "Office" in names, f"FAIL: the waypoints sent: {names}"
print(f"ok: a region drawn on the page was published to owntracks/alice/mqttphone/cmd as setWaypoints ({', '.join(names)}), and again when the server connected")
EOF

# --- kill -9 while a phone publishes at QoS 1, then a restart: nothing lost, nothing twice
count=20000
"$python" -c "
for i in range($count):
    print('{\"_type\":\"location\",\"tid\":\"BW\",\"tst\":%d,\"lat\":%.6f,\"lon\":13.4,\"acc\":10}' % (1500000000 + i, 52.0 + i * 1e-5))
" >"$work/burst.lines"
stored() {
  local count
  count="$(api bob "/api/v1/locations?device=burst&limit=100000" 2>/dev/null | grep -o '"timestamp"' | wc -l)" || count=0
  echo "$count"
}
publish bob owntracks/bob/burst -l <"$work/burst.lines" &
publisher_pid=$!
stored_at_db() { # DEVICE…: rows stored for them, read from the database (the server killed)
  /usr/bin/python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from locations l join devices d on d.id = l.device_id where d.name in (%s)' % ','.join('?' * len(sys.argv[2:])), sys.argv[2:]).fetchone()[0])" "$TRAVELOG_DB" "$@"
}
kill_once_storing() { # DEVICE…: kill -9 the server as soon as its database holds a first batch for them
  /usr/bin/python3 - "$TRAVELOG_DB" "$server_pid" "$@" <<'EOF'
import os, signal, sqlite3, sys, time
database, pid, devices = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
query = "select count(*) from locations l join devices d on d.id = l.device_id where d.name in (%s)" % ",".join("?" * len(devices))
deadline = time.time() + 60
while time.time() < deadline:
    try:
        if sqlite3.connect(database, timeout=1).execute(query, devices).fetchone()[0] > 0: break
    except sqlite3.Error:
        pass
    time.sleep(0.005)
os.kill(pid, signal.SIGKILL)
EOF
  wait "$server_pid" 2>/dev/null || true
}
kill_once_storing burst
before="$(stored_at_db burst)"
[ "$before" -lt "$count" ] || { echo "FAIL: the server was killed only after all $count were stored: this check needs a larger burst"; exit 1; }
echo "ok: killed the server (-9) with $before of $count stored"
sleep 1
start_server
wait "$publisher_pid"; publisher_pid=""
for _ in $(seq 1 1200); do [ "$(stored)" -ge "$count" ] && break; sleep 0.1; done
api bob "/api/v1/locations?device=burst&limit=100000" >"$work/burst.json"
"$python" - "$work/burst.json" "$count" <<'EOF'
import json, sys
features = json.load(open(sys.argv[1]))["features"]
times = [f["properties"]["timestamp"] for f in features]
count = int(sys.argv[2])
assert len(set(times)) == len(times), f"FAIL: {len(times) - len(set(times))} locations stored twice"
assert len(times) == count, f"FAIL: {count - len(times)} of {count} locations lost after kill -9"
print(f"ok: after kill -9 and a restart all {count} published at QoS 1 are stored, none twice")
EOF
# What the broker sent again after the restart (unacknowledged when the server died): stored once.
echo "    messages the broker sent again that were stored already: $(curl -sf "http://127.0.0.1:$port/metrics" \
  | sed -n 's/^travelog_duplicate_locations_total{source="owntracks"} //p')"

# --- the same with several connections sharing the messages (--mqtt-connections 4, a shared
# subscription, a session each): kill -9 while two phones publish, a restart: each connection's
# session gives back what it had been sent, so every message is stored once
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
start_server --mqtt-connections 4
for _ in $(seq 1 100); do grep -q 'MQTT: connected.* as travelog-4' "$work/server.log" && break; sleep 0.1; done
shared_count=30000
for phone in shared1 shared2; do
  "$python" -c "
for i in range($shared_count):
    print('{\"_type\":\"location\",\"tst\":%d,\"lat\":%.6f,\"lon\":13.5,\"acc\":10}' % (1600000000 + i, 52.0 + i * 1e-5))
" >"$work/$phone.lines"
done
shared_stored() {
  local total=0 count phone
  for phone in shared1 shared2; do
    count="$(api bob "/api/v1/locations?device=$phone&limit=100000" 2>/dev/null | grep -o '"timestamp"' | wc -l)" || count=0
    total=$((total + count))
  done
  echo "$total"
}
publish bob owntracks/bob/shared1 -l <"$work/shared1.lines" & shared1_pid=$!
publish bob owntracks/bob/shared2 -l <"$work/shared2.lines" & shared2_pid=$!
publisher_pid="$shared1_pid $shared2_pid"
kill_once_storing shared1 shared2
# What the killed server had stored, read from its database.
before="$(stored_at_db shared1 shared2)"
[ "$before" -lt $((2 * shared_count)) ] || { echo "FAIL: the server was killed only after all were stored: this check needs more messages"; exit 1; }
sleep 1
start_server --mqtt-connections 4
wait "$shared1_pid" "$shared2_pid"; publisher_pid=""
for _ in $(seq 1 1200); do [ "$(shared_stored)" -ge $((2 * shared_count)) ] && break; sleep 0.1; done
for phone in shared1 shared2; do api bob "/api/v1/locations?device=$phone&limit=100000" >"$work/$phone.json"; done
"$python" - "$work" "$shared_count" "$before" <<'EOF'
import json, sys, pathlib
work, count, before = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for phone in ("shared1", "shared2"):
    times = [f["properties"]["timestamp"] for f in json.loads((work / f"{phone}.json").read_text())["features"]]
    assert len(set(times)) == len(times), f"FAIL: {phone}: {len(times) - len(set(times))} locations stored twice"
    assert len(times) == count, f"FAIL: {phone}: {count - len(times)} of {count} lost after kill -9 with 4 connections"
print(f"ok: 4 connections sharing the messages ($share/travelog/…): killed (-9) with {before} of {2 * count} stored; after a restart all stored, none twice")
EOF
grep -q 'subscribing to \$share/travelog/owntracks/+/+' "$work/server.log" || { echo "FAIL: no shared subscription in the log"; exit 1; }
# Back to one connection: its session drops the shared filters again.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
start_server

# --- the store fails while a message is being stored: it is not acknowledged, the broker sends it
# again, and it is stored once the store works again. A second connection holds SQLite's write lock
# for longer than twice the server's busy timeout (10 s), so the server's insert fails even when a write
# of the server's start (recording the regions it sent on connecting) waits out the first 10 s ahead of
# it: with 14 s, that write failed at 10 s and the insert behind it then got the lock at 14 s.
/usr/bin/python3 - "$TRAVELOG_DB" >"$work/lock.out" 2>&1 <<'EOF' &
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(24)
connection.execute("ROLLBACK")
print("released", flush=True)
EOF
lock_pid=$!
for _ in $(seq 1 100); do grep -q locked "$work/lock.out" && break; sleep 0.1; done
grep -q locked "$work/lock.out" || { echo "FAIL: could not lock the database:"; cat "$work/lock.out"; exit 1; }
publish bob owntracks/bob/locked -m '{"_type":"location","tst":1440390555,"lat":5,"lon":5}'
wait "$lock_pid"
for _ in $(seq 1 300); do api bob "/api/v1/locations?device=locked" 2>/dev/null | grep -q '"coordinates"' && break; sleep 0.1; done
[ "$(api bob "/api/v1/locations?device=locked" | grep -o '"timestamp"' | wc -l)" -eq 1 ] \
  || { echo "FAIL: the message the store failed on was not stored once afterwards"; tail -20 "$work/server.log"; exit 1; }
grep -q "not stored, the store failed (the broker will send" "$work/server.log" \
  || { echo "FAIL: the store did not fail as this check meant it to"; tail -20 "$work/server.log"; exit 1; }
grep -q '^travelog_mqtt_messages_total{outcome="store_failed"} [1-9]' <<<"$(curl -sf "http://127.0.0.1:$port/metrics")" \
  || { echo "FAIL: /metrics does not count the failed store"; exit 1; }
echo "ok: the store failed under a message: not acknowledged, sent again by the broker, stored once when the store worked again"

# --- the broker goes away and comes back: the server reconnects and receives what was queued
kill "$broker_pid"; wait "$broker_pid" 2>/dev/null || true
for _ in $(seq 1 100); do grep -q "MQTT: lost" "$work/server.log" && break; sleep 0.1; done
grep -q "MQTT: lost" "$work/server.log" || { echo "FAIL: the server did not notice the broker going away"; tail "$work/server.log"; exit 1; }
grep -q '^travelog_mqtt_connected 0' <<<"$(curl -sf "http://127.0.0.1:$port/metrics")" || { echo "FAIL: /metrics does not say disconnected"; exit 1; }
connections="$(grep -c 'MQTT: connected' "$work/server.log")"
start_broker
publish bob owntracks/bob/late -m '{"_type":"location","tst":1440390777,"lat":4,"lon":4}'
for _ in $(seq 1 600); do [ "$(grep -c 'MQTT: connected' "$work/server.log")" -gt "$connections" ] && break; sleep 0.1; done
for _ in $(seq 1 300); do api bob "/api/v1/locations?device=late" 2>/dev/null | grep -q '"coordinates"' && break; sleep 0.1; done
grep -q '"coordinates"' <<<"$(api bob "/api/v1/locations?device=late")" || { echo "FAIL: nothing stored after the broker came back"; tail "$work/server.log"; exit 1; }
metrics="$(curl -sf "http://127.0.0.1:$port/metrics")"
echo "$metrics" | grep -q '^travelog_mqtt_connected 1' || { echo "FAIL: /metrics does not say connected again"; exit 1; }
echo "ok: the broker restarted: reconnected ($(grep -o 'MQTT: lost.*' "$work/server.log" | tail -1 | cut -c1-90)…), the message queued meanwhile stored"
echo "    $(echo "$metrics" | grep -E '^travelog_mqtt_(disconnects_total|messages_total)' | tr '\n' ' ')"
# --- the broker restarted under load: a phone (paho-mqtt, as an app: persistent session, QoS 1,
# resends what was not acknowledged) publishes 8,000 fixes at about 1,000 a second; the broker is
# restarted (SIGTERM: it saves its sessions) once 1,500 are acknowledged to the phone. Every fix the
# broker acknowledged to the phone must be stored, and none twice.
/usr/bin/python3 -c 'import paho.mqtt' 2>/dev/null || "$root/scripts/ensure-debian-packages.sh" python3-paho-mqtt
restart_count=8000
/usr/bin/python3 - "$plain_port" "$restart_count" "$work/restart" <<'EOF' &
import sys, time, json
import paho.mqtt.client as mqtt
port, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
client = mqtt.Client(client_id="phone-bob-restart", clean_session=False)
client.username_pw_set("bob", "bob-broker-password")
client.max_queued_messages_set(0)
client.reconnect_delay_set(min_delay=1, max_delay=2)
client.connect("127.0.0.1", port, keepalive=30)
client.loop_start()
# paho keeps each message's state: `_published` is set when the broker acknowledged it (PUBACK);
# `is_published()` raises for a message first queued while the broker was away, even once sent.
def acknowledged(info):
    return info._published
messages = []
start = time.time()
for i in range(count):
    payload = json.dumps({"_type": "location", "tid": "RS", "tst": 1460000000 + i, "lat": 52 + i * 1e-5, "lon": 13.6, "acc": 10})
    messages.append((1460000000 + i, client.publish("owntracks/bob/restart", payload, qos=1)))
    if i % 100 == 0:
        open(out + ".progress", "w").write(str(sum(acknowledged(info) for _, info in messages)))
    delay = start + (i + 1) / 1000 - time.time()
    if delay > 0: time.sleep(delay)
deadline = time.time() + 120
while time.time() < deadline and not all(acknowledged(info) for _, info in messages):
    time.sleep(0.2)
json.dump([tst for tst, info in messages if acknowledged(info)], open(out + ".acked", "w"))
client.disconnect(); client.loop_stop()
EOF
restart_publisher=$!
publisher_pid="$restart_publisher"
for _ in $(seq 1 300); do [ "$(cat "$work/restart.progress" 2>/dev/null || echo 0)" -ge 1500 ] && break; sleep 0.05; done
kill "$broker_pid"; wait "$broker_pid" 2>/dev/null || true
restarted_at="$(cat "$work/restart.progress")"
sleep 1
start_broker
wait "$restart_publisher"; publisher_pid=""
[ -s "$work/restart.acked" ] || { echo "FAIL: the phone did not finish publishing"; exit 1; }
acked_count="$("$python" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/restart.acked")"
for _ in $(seq 1 600); do
  [ "$(api bob "/api/v1/locations?device=restart&limit=100000" 2>/dev/null | grep -o '"timestamp"' | wc -l)" -ge "$acked_count" ] && break
  sleep 0.1
done
api bob "/api/v1/locations?device=restart&limit=100000" >"$work/restart.json"
"$python" - "$work" "$restart_count" "$restarted_at" <<'EOF'
import json, sys, pathlib, datetime
work, count, restarted_at = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
acked = set(json.loads((work / "restart.acked").read_text()))
stored = [int(datetime.datetime.fromisoformat(f["properties"]["timestamp"].replace("Z", "+00:00")).timestamp())
          for f in json.loads((work / "restart.json").read_text())["features"]]
assert len(stored) == len(set(stored)), f"FAIL: {len(stored) - len(set(stored))} fixes stored twice after the broker's restart"
lost = acked - set(stored)
assert not lost, f"FAIL: {len(lost)} fixes the broker acknowledged to the phone were not stored (first {sorted(lost)[:5]})"
assert len(acked) == count, f"FAIL: the phone had {len(acked)} of {count} acknowledged"
print(f"ok: the broker restarted under load (after {restarted_at} of {count} acknowledged to the phone): "
      f"all {len(acked)} acknowledged fixes stored, none twice")
EOF

# --- MQTT 5: the server stopped (SIGTERM) while a phone publishes, started again speaking MQTT 5:
# the session resumed, what was queued meanwhile stored
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
publish bob owntracks/bob/five -m '{"_type":"location","tst":1440390666,"lat":6,"lon":6}'
start_server --mqtt-protocol 5
grep -q 'MQTT: connected.*session resumed' "$work/server.log" || { echo "FAIL: MQTT 5 did not resume the session"; tail "$work/server.log"; exit 1; }
for _ in $(seq 1 300); do api bob "/api/v1/locations?device=five" 2>/dev/null | grep -q '"coordinates"' && break; sleep 0.1; done
grep -q '"coordinates"' <<<"$(api bob "/api/v1/locations?device=five")" || { echo "FAIL: the message queued for MQTT 5 was not stored"; exit 1; }
echo "ok: MQTT 5 (--mqtt-protocol 5): the session resumed after a restart, the message queued meanwhile stored"

# --- the ACL `travelog mqtt acl` makes: friends (accepted in Travelog) read each other, nobody else
# reads anybody; a broker of its own on that ACL, subscribers as the app subscribes (owntracks/+/+)
acl_db="$work/acl.sqlite"
for account in alice bob mallory; do
  echo "$account-travelog-password" | TRAVELOG_DB="$acl_db" "$travelog" user add "$account" --password-stdin >/dev/null
done
TRAVELOG_DB="$acl_db" "$travelog" friends invite bob --user alice >/dev/null
TRAVELOG_DB="$acl_db" "$travelog" friends accept alice --user bob >/dev/null
TRAVELOG_DB="$acl_db" "$travelog" mqtt acl --subscriber travelog -o "$work/friends.acl"
grep -qx 'user bob' "$work/friends.acl" && grep -qx 'topic read owntracks/alice/+' "$work/friends.acl" \
  || { echo "FAIL: the ACL does not let bob read alice:"; cat "$work/friends.acl"; exit 1; }
# Home Assistant's account reads the trackers Travelog publishes (serve --mqtt-home-assistant, below).
printf 'user homeassistant\ntopic read homeassistant/#\ntopic read travelog/#\n' >>"$work/friends.acl"
acl_port="$(free_port)"
printf 'user %s\nallow_anonymous false\npassword_file %s\nacl_file %s\nlistener %s 127.0.0.1\n' \
  "$(id -un)" "$work/passwd" "$work/friends.acl" "$acl_port" >"$work/acl-broker.conf"
mosquitto -c "$work/acl-broker.conf" >>"$work/acl-broker.log" 2>&1 &
acl_broker_pid=$!
for _ in $(seq 1 100); do
  mosquitto_pub -h 127.0.0.1 -p "$acl_port" -u alice -P alice-broker-password -t owntracks/alice/probe -n 2>/dev/null && break
  sleep 0.1
done
heard() { # ACCOUNT: what it hears on owntracks/+/+ and owntracks/+/+/info within 4 s
  timeout 8 mosquitto_sub -h 127.0.0.1 -p "$acl_port" -u "$1" -P "$1-broker-password" -t 'owntracks/+/+' -t 'owntracks/+/+/info' \
    -W 4 -v >"$work/heard-$1" 2>/dev/null || true
}
heard bob & bob_pid=$!
heard mallory & mallory_pid=$!
heard alice & alice_pid=$!
sleep 1
mosquitto_pub -h 127.0.0.1 -p "$acl_port" -u alice -P alice-broker-password -q 1 -t owntracks/alice/phone \
  -m '{"_type":"location","tst":1440390888,"lat":60.17,"lon":24.94}'
mosquitto_pub -h 127.0.0.1 -p "$acl_port" -u alice -P alice-broker-password -q 1 -t owntracks/alice/phone/info \
  -m '{"_type":"card","name":"Alice"}'
mosquitto_pub -h 127.0.0.1 -p "$acl_port" -u mallory -P mallory-broker-password -q 1 -t owntracks/mallory/phone \
  -m '{"_type":"location","tst":1440390889,"lat":1,"lon":1}'
wait "$bob_pid" "$mallory_pid" "$alice_pid"
grep -q '^owntracks/alice/phone {' "$work/heard-bob" && grep -q '^owntracks/alice/phone/info {' "$work/heard-bob" \
  || { echo "FAIL: bob, alice's friend, did not hear her position and card:"; cat "$work/heard-bob"; exit 1; }
! grep -q 'owntracks/mallory' "$work/heard-bob" || { echo "FAIL: bob heard mallory, who is nobody's friend"; exit 1; }
! grep -q 'owntracks/alice' "$work/heard-mallory" || { echo "FAIL: mallory heard alice:"; cat "$work/heard-mallory"; exit 1; }
grep -q '^owntracks/alice/phone {' "$work/heard-alice" || { echo "FAIL: alice does not hear her own topics"; exit 1; }
! grep -q 'owntracks/mallory' "$work/heard-alice" || { echo "FAIL: alice heard mallory"; exit 1; }
echo "ok: travelog mqtt acl: bob (alice's friend) hears her position and card; mallory, nobody's friend, hears nobody and nobody hears her"

# --- serve --mqtt-relay-friends on that broker: alice's laptop reports over HTTP (an import here);
# bob, her friend, subscribed as the app subscribes, hears its position and card, retained; mallory
# does not; and the relayed messages, back through Travelog's own subscription, are not stored again.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
cat >"$work/laptop.gpx" <<'GPX'
<?xml version="1.0"?><gpx version="1.1" creator="mqtt-test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="60.1699" lon="24.9384"><time>2024-05-01T09:00:00Z</time></trkpt></trkseg></trk></gpx>
GPX
TRAVELOG_DB="$acl_db" "$travelog" import --user alice --device laptop "$work/laptop.gpx" >/dev/null
printf 'travelog-broker-password\n' >"$work/relay-password"
export TRAVELOG_DB="$acl_db"
start_test_server "$work/relay.log" --mqtt "mqtt://travelog@127.0.0.1:$acl_port" \
  --mqtt-password-file "$work/relay-password" --mqtt-relay-friends --mqtt-home-assistant --mqtt-client-id travelog-relay-test
relayed() { # ACCOUNT: the two messages it is sent for alice's laptop, waiting up to 25 s
  timeout 30 mosquitto_sub -h 127.0.0.1 -p "$acl_port" -u "$1" -P "$1-broker-password" -t 'owntracks/alice/laptop' \
    -t 'owntracks/alice/laptop/info' -W 25 -C 2 -v >"$work/relayed-$1" 2>/dev/null || true
}
relayed bob & bob_pid=$!
# Home Assistant, subscribed as it subscribes to discovery: the laptop's tracker and its position.
timeout 30 mosquitto_sub -h 127.0.0.1 -p "$acl_port" -u homeassistant -P homeassistant-broker-password \
  -t 'homeassistant/#' -t 'travelog/+/attributes' -W 25 -C 2 -v >"$work/relayed-homeassistant" 2>/dev/null &
ha_pid=$!
wait "$bob_pid" "$ha_pid"
# The messages are retained on the broker now: a subscriber the ACL let read them would get them at once.
timeout 10 mosquitto_sub -h 127.0.0.1 -p "$acl_port" -u mallory -P mallory-broker-password -t 'owntracks/alice/laptop' \
  -t 'owntracks/alice/laptop/info' -W 3 -C 1 -v >"$work/relayed-mallory" 2>/dev/null || true
grep -q '^owntracks/alice/laptop {.*"_type":"location".*"lat":60.1699' "$work/relayed-bob" \
  && grep -q '^owntracks/alice/laptop/info {.*"_type":"card"' "$work/relayed-bob" \
  || { echo "FAIL: bob did not hear alice's HTTP laptop relayed:"; cat "$work/relayed-bob"; tail -5 "$work/relay.log"; exit 1; }
[ ! -s "$work/relayed-mallory" ] || { echo "FAIL: mallory heard alice's laptop:"; cat "$work/relayed-mallory"; exit 1; }
python3 - "$work/relayed-homeassistant" <<'PY2' || { cat "$work/relayed-homeassistant"; tail -5 "$work/relay.log"; exit 1; }
import json, sys
lines = dict(line.split(" ", 1) for line in open(sys.argv[1]).read().splitlines())
config = next((json.loads(v) for k, v in lines.items() if k.startswith("homeassistant/device_tracker/") and k.endswith("/config")), None)
assert config, "FAIL: no device tracker config under homeassistant/device_tracker/"
assert config["source_type"] == "gps" and "state_topic" not in config and config["name"] is None and config["device"]["name"] == "alice · laptop", f"FAIL: config {config}"
attributes = json.loads(lines.get(config["json_attributes_topic"], "{}"))
assert abs(attributes.get("latitude", 0) - 60.1699) < 1e-9 and abs(attributes.get("longitude", 0) - 24.9384) < 1e-9, f"FAIL: attributes {attributes}"
print(f"ok: serve --mqtt-home-assistant: Home Assistant's account gets the laptop's tracker ({config['unique_id']}) and its position from {config['json_attributes_topic']}")
PY2
sleep 2 # the relayed messages came back through Travelog's subscription meanwhile
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
stored="$(TRAVELOG_DB="$acl_db" "$travelog" export --user alice --format csv | grep -c '60.1699' || true)"
devices="$(TRAVELOG_DB="$acl_db" "$travelog" device list --user alice | grep -c . || true)"
[ "$stored" = 1 ] || { echo "FAIL: alice's laptop fix is stored $stored times after the relay"; exit 1; }
grep -q 'friends.* relayed to the broker: 1 published' "$work/relay.log" || { echo "FAIL: the relay did not say what it published"; tail "$work/relay.log"; exit 1; }
echo "ok: serve --mqtt-relay-friends: bob hears alice's HTTP laptop, retained (position and card); mallory does not; the fix is stored once ($devices device line(s) for alice)"
# The friendship ends while Travelog is down: the next run finds its relayed messages retained on the
# broker (they come on subscribing) and deletes them, though it never published them itself.
TRAVELOG_DB="$acl_db" "$travelog" friends remove bob --user alice >/dev/null
start_test_server "$work/relay.log" --mqtt "mqtt://travelog@127.0.0.1:$acl_port" \
  --mqtt-password-file "$work/relay-password" --mqtt-relay-friends --mqtt-client-id travelog-relay-test
still_retained=yes
for _ in $(seq 1 15); do
  sleep 2
  timeout 5 mosquitto_sub -h 127.0.0.1 -p "$acl_port" -u bob -P bob-broker-password -t 'owntracks/alice/laptop' \
    -t 'owntracks/alice/laptop/info' -W 1 -C 1 -v >"$work/relayed-after" 2>/dev/null || true
  [ -s "$work/relayed-after" ] || { still_retained=no; break; }
done
[ "$still_retained" = no ] || { echo "FAIL: the ended friend's relayed laptop is still retained on the broker:"; cat "$work/relayed-after"; tail -5 "$work/relay.log"; exit 1; }
grep -q 'friends.* relayed to the broker: 0 published, 1 cleared' "$work/relay.log" \
  || { echo "FAIL: the restarted relay did not say it cleared the laptop"; tail "$work/relay.log"; exit 1; }
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
echo "ok: a friendship ended while Travelog was down: the next run deleted the laptop's relayed messages from the broker"
kill "$acl_broker_pid"; wait "$acl_broker_pid" 2>/dev/null || true
echo "mqtt-test: every check passed"
