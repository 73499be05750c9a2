# Sourced by the test scripts (browser-test.sh, oidc-test.sh, schemathesis-test.sh): one way to start
# `travelog serve` and headless Chromium for a test. Not run on its own.
#
# start_test_server LOG ARGS…: starts "$travelog" serve --port 0 ARGS… in the background with its
# log in LOG, waits until it says which port it listens on (at most 120 s: with the test stages side by
# side a debug server subscribing over TLS once took more than 30 s), and sets server_pid,
# port and url. Exits the calling script with a FAIL line when the server stops or never listens.
start_test_server() {
  local log="$1"
  shift
  : >"$log" # made here, not by the background job's redirection, so the first read below never races it
  "$travelog" serve --port 0 "$@" 2>"$log" &
  server_pid=$!
  port=""
  for _ in $(seq 1 1200); do
    port="$(sed -n 's|.*open http://[^:]*:\([0-9]*\)/.*|\1|p' "$log" | head -1)"
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "FAIL: the server stopped:"; cat "$log"; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "FAIL: the server did not start"; cat "$log"; exit 1; }
  url="http://127.0.0.1:$port"
}

# start_test_chromium WORK [ARGS…]: starts headless "$chromium" with its profile in WORK/chromium
# and its log in WORK/chromium.log, on a free DevTools port, and sets browser_pid and devtools_port.
# Exits the calling script with a FAIL line when it stops or its port never opens.
start_test_chromium() {
  local work="$1"
  shift
  local sandbox=()
  [ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
  "$chromium" --headless=new "${sandbox[@]}" --remote-debugging-port=0 --user-data-dir="$work/chromium" \
    --no-first-run --no-default-browser-check --disable-gpu --disable-extensions --disable-background-networking \
    --disable-component-update --disable-sync --metrics-recording-only --mute-audio "$@" \
    about:blank >"$work/chromium.log" 2>&1 &
  browser_pid=$!
  devtools_port=""
  for _ in $(seq 1 300); do
    [ -s "$work/chromium/DevToolsActivePort" ] && devtools_port="$(head -1 "$work/chromium/DevToolsActivePort")" && break
    kill -0 "$browser_pid" 2>/dev/null || { echo "FAIL: chromium stopped:"; tail -20 "$work/chromium.log"; exit 1; }
    sleep 0.1
  done
  [ -n "$devtools_port" ] || { echo "FAIL: chromium's DevTools port did not open"; tail -20 "$work/chromium.log"; exit 1; }
}
