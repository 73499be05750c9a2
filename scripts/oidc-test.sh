#!/usr/bin/env bash
# Single sign-on against a real OpenID Connect provider: Tests/OIDC/provider.py (Debian's
# python3-authlib signs its ID tokens; discovery, JWKS, the code flow with PKCE S256) on a free
# port, and two debug `travelog serve --oidc-*` on temporary databases: one that matches users by
# preferred_username (alice exists, bob does not), one with --oidc-create-users. Then
# Tests/OIDC/login_test.py walks the logins as a browser's HTTP exchanges (it follows the
# redirects and posts the provider's form itself): a full login and GET /api/v1/session; a
# forged ID token, a wrong audience, an expired token, a wrong nonce, a replayed and a foreign
# state refused; an unknown user refused, and made with --oidc-create-users; code and state
# redacted in the log. Also: a provider that cannot be reached stops `serve` at start, saying so.
# Then the same in headless Chromium (Tests/OIDC/chromium_login.py), and someone the provider made
# deletes their account on the page by signing in again (they have no password of Travelog's).
#
#   scripts/oidc-test.sh [--travelog PATH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
# Debian's interpreter, for Debian's python3-authlib and python3-requests (make deps-test).
python=/usr/bin/python3
"$python" -c 'import authlib.jose, requests' 2>/dev/null || "$root/scripts/ensure-debian-packages.sh" python3-authlib python3-requests

work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-oidc.XXXXXX")"
provider_pid="" browser_pid="" pids=()
cleanup() {
  # `|| true`: the provider (Python) ends by the signal, so its wait is 143, which set -e in this
  # trap made the script's status after every check had passed.
  for pid in $browser_pid "${pids[@]}" $provider_pid; do kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

client_id="travelog-test" client_secret="test-client-secret-$$"
"$python" "$root/Tests/OIDC/provider.py" --port 0 --client-id "$client_id" --client-secret "$client_secret" --issuer-host localhost \
  >"$work/provider.out" 2>"$work/provider.log" &
provider_pid=$!
provider_port=""
for _ in $(seq 1 100); do
  provider_port="$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$work/provider.out")"
  [ -n "$provider_port" ] && break
  kill -0 "$provider_pid" 2>/dev/null || { echo "FAIL: the provider stopped:"; cat "$work/provider.log"; exit 1; }
  sleep 0.1
done
[ -n "$provider_port" ] || { echo "FAIL: the provider did not start"; exit 1; }
# The issuer on localhost, Travelog on 127.0.0.1: two sites, as a real provider is.
issuer="http://localhost:$provider_port"
printf '%s\n' "$client_secret" >"$work/secret"

# A provider that does not answer: serve stops at once and says why.
if TRAVELOG_DB="$work/unreachable.sqlite" "$travelog" serve --port 0 --oidc-issuer http://127.0.0.1:9 \
     --oidc-client-id x --oidc-client-secret y >"$work/unreachable.log" 2>&1; then
  echo "FAIL: serve started with an unreachable provider"; exit 1
fi
grep -q "could not be reached" "$work/unreachable.log" || { echo "FAIL: no clear error:"; cat "$work/unreachable.log"; exit 1; }
echo "ok: an unreachable provider stops serve at start: $(grep -o 'single sign-on.*' "$work/unreachable.log" | head -1)"

export TRAVELOG_DB="$work/match.sqlite"
echo "alice-local-password" | "$travelog" user add alice --password-stdin >/dev/null
LOG_LEVEL=debug start_test_server "$work/match.log" --oidc-issuer "$issuer" --oidc-client-id "$client_id" \
  --oidc-client-secret-file "$work/secret" --oidc-provider-name "Test provider"
pids+=("$server_pid") match_url="$url"

export TRAVELOG_DB="$work/create.sqlite"
TRAVELOG_OIDC_CLIENT_SECRET="$client_secret" start_test_server "$work/create.log" --oidc-issuer "$issuer" \
  --oidc-client-id "$client_id" --oidc-create-users
pids+=("$server_pid") create_url="$url"

if ! "$python" "$root/Tests/OIDC/login_test.py" --url "$match_url" --create-url "$create_url" --provider "$issuer" --log "$work/match.log"; then
  echo "--- server log (tail)"; tail -20 "$work/match.log"; echo "--- provider log (tail)"; tail -20 "$work/provider.log"
  exit 1
fi

# The same login in headless Chromium, through the page's "Log in with …" link and the provider's form.
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || "$root/scripts/ensure-debian-packages.sh" chromium
start_test_chromium "$work"
if ! "$python" "$root/Tests/OIDC/chromium_login.py" --url "$match_url" --provider "$issuer" --devtools-port "$devtools_port" --user alice \
     --delete-url "$create_url" --delete-db "$work/create.sqlite"; then
  echo "--- server log (tail)"; tail -20 "$work/match.log"; echo "--- provider log (tail)"; tail -20 "$work/provider.log"
  exit 1
fi
echo "oidc-test: every check passed"
