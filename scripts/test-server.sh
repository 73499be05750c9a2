# Sourced by the test scripts (browser-test.sh, schemathesis-test.sh): one way to start
# `travelog serve` for a test. Not run on its own.
#
# start_test_server LOG ARGS…: starts "$travelog" serve --port 0 ARGS… in the background with its
# log in LOG, waits until it says which port it listens on (at most 30 s), and sets server_pid,
# port and url. Exits the calling script with a FAIL line when the server stops or never listens.
start_test_server() {
  local log="$1"
  shift
  "$travelog" serve --port 0 "$@" 2>"$log" &
  server_pid=$!
  port=""
  for _ in $(seq 1 300); do
    port="$(sed -n 's|.*open http://[^:]*:\([0-9]*\)/.*|\1|p' "$log" | head -1)"
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "FAIL: the server stopped:"; cat "$log"; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "FAIL: the server did not start"; cat "$log"; exit 1; }
  url="http://127.0.0.1:$port"
}
