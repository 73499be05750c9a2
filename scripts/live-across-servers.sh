#!/usr/bin/env bash
# Issue 12's figure "two `travelog serve` processes on one database: a location posted to one appears
# on a page connected to the other within 1 s", measured:
#
#   scripts/live-across-servers.sh [TRAVELOG] [POSTS]
#
# Creates a throwaway PostgreSQL cluster (scripts/postgres-cluster.sh), a user and an Overland device,
# starts server A and server B on it, opens A's live stream (/api/v1/live, as the page does) and waits
# for its `: connected`, then posts POSTS (default 20) single-point Overland batches to B, a second
# apart, and prints for each how long after the post A's stream carried it. Exits 1 when one did not
# arrive within 5 s. TRAVELOG defaults to the release build (`swift build -c release`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
travelog="${1:-$root/.build/release/travelog}"
posts="${2:-20}"
[ -x "$travelog" ] || { echo "no travelog at $travelog (swift build -c release, or pass its path)" >&2; exit 64; }
work="$(mktemp -d /tmp/travelog-live-across.XXXXXX)"
chmod 755 "$work"  # the cluster runs as an unprivileged account when this runs as root
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  "$root/scripts/postgres-cluster.sh" remove "$work/cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
url="$("$root/scripts/postgres-cluster.sh" create "$work/cluster" | tail -n 1)"
password="live-across-$RANDOM-$RANDOM"
echo "$password" | "$travelog" user add --db "$url" ada --password-stdin >/dev/null
token="$("$travelog" device add --db "$url" --user ada phone --app overland --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port_a="$(free_port)"; port_b="$(free_port)"
"$travelog" serve --db "$url" --port "$port_a" >"$work/a.log" 2>&1 & pids+=($!)
"$travelog" serve --db "$url" --port "$port_b" >"$work/b.log" 2>&1 & pids+=($!)
for port in "$port_a" "$port_b"; do
  for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
done
python3 - "$port_a" "$port_b" "$password" "$token" "$posts" <<'PY'
import base64, http.client, json, sys, threading, time
port_a, port_b, password, token, posts = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
arrived, wanted, connected = {}, set(), threading.Event()
def listen():
    connection = http.client.HTTPConnection("127.0.0.1", port_a)
    basic = base64.b64encode(f"ada:{password}".encode()).decode()
    connection.request("GET", "/api/v1/live", headers={"Authorization": "Basic " + basic, "Accept": "text/event-stream"})
    response = connection.getresponse()
    while line := response.fp.readline():
        now, text = time.time(), line.decode("utf-8", "replace")
        if ": connected" in text: connected.set()
        for key in list(wanted):
            if key in text and key not in arrived: arrived[key] = now
threading.Thread(target=listen, daemon=True).start()
if not connected.wait(60): sys.exit("server A's live stream did not connect within 60 s")
delays = []
for index in range(posts):
    latitude = 47.0 + index / 1000 + 0.0001234
    key = "%.7f" % latitude
    wanted.add(key)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    body = json.dumps({"locations": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.5, latitude]},
                                      "properties": {"timestamp": stamp, "horizontal_accuracy": 5, "speed": 0}}]})
    connection = http.client.HTTPConnection("127.0.0.1", port_b)
    sent = time.time()
    connection.request("POST", "/api/v1/overland", body=body,
                       headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    answer = connection.getresponse(); answer.read()
    if answer.status != 200: sys.exit(f"server B answered {answer.status} to post {index}")
    while key not in arrived and time.time() < sent + 5: time.sleep(0.001)
    delays.append((arrived[key] - sent) * 1000 if key in arrived else None)
    time.sleep(1)
seen = sorted(d for d in delays if d is not None)
print(f"{len(seen)} of {posts} posts to server B reached the page on server A; "
      + (f"median {seen[len(seen) // 2]:.1f} ms, max {seen[-1]:.1f} ms after the post" if seen else "none arrived"))
sys.exit(0 if len(seen) == posts else 1)
PY
