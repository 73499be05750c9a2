#!/usr/bin/env bash
# The API against its own document: schemathesis (PyPI, pinned 4.32.5, installed with pip when
# missing) runs every check on /api/openapi.yaml of a real `travelog serve` on 127.0.0.1 with a
# temporary database and a user: examples, boundary coverage, random positive and negative data,
# and stateful sequences, each operation a bounded number of cases, in two passes. First the
# person (at most --person-seconds): the operations a device token is refused (person_operations), with a session
# cookie, on journal entries, places, regions, channels and a spare session that
# Tests/Schemathesis/seed_person.py made (about half their {id}s name one; the run never ends its
# own session). Then every operation with a read-scoped device token (at most --max-seconds).
# No 5xx, every answer as documented, nothing the document forbids accepted, nothing it allows
# refused. Prints schemathesis' summaries; exits non-zero on any failure not listed, with its
# reason, in Tests/Schemathesis/known-failures.txt.
#
#   scripts/schemathesis-test.sh [--travelog PATH] [--max-examples N] [--max-seconds S]
#                                [--person-seconds S] [--seed N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
max_examples=8
max_seconds=180
person_seconds=120
seed=11
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --max-examples) max_examples="$2"; shift 2 ;;
    --max-seconds) max_seconds="$2"; shift 2 ;;
    --person-seconds) person_seconds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
  esac
done
python="${PYTHON:-python3}"
version=4.32.5
[ -x "$travelog" ] || { echo "FAIL: $travelog is missing (run swift build first)"; exit 1; }
if [ "$("$python" -c 'import schemathesis; print(schemathesis.__version__)' 2>/dev/null)" != "$version" ]; then
  "$python" -m pip install --quiet --disable-pip-version-check "schemathesis==$version"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/travelog-schemathesis.XXXXXX")"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export TRAVELOG_DB="$work/db.sqlite"
user=ada
password=schemathesis-test-password
echo "$password" | "$travelog" user add "$user" --password-stdin >/dev/null
token="$("$travelog" device add --user "$user" reader --scope read --json \
  | "$python" -c 'import json,sys; print(json.load(sys.stdin)["token"])')"

# Tiles from the discard port, where nothing answers (no network is used); no webhook leaves the host.
# At trace level: the log is searched at the end for every secret the run used.
LOG_LEVEL=trace start_test_server "$work/server.log" --tiles "http://127.0.0.1:9/{z}/{x}/{y}.png" --metrics off
curl -fsS "$url/api/openapi.yaml" -o "$work/openapi.yaml"

# The person's operations (their session or password, never a device token): a pass of their own
# with the session cookie seed_person.py logged in for, on objects it seeded.
person_operations=(
  "POST /api/v1/session" "GET /api/v1/sessions" "DELETE /api/v1/sessions/{id}"
  "POST /api/v1/regions" "PUT /api/v1/regions/{id}" "DELETE /api/v1/regions/{id}"
  "PATCH /api/v1/visits/{id}" "DELETE /api/v1/visits/{id}" "POST /api/v1/visits/merge"
  "PATCH /api/v1/places/{id}" "POST /api/v1/journal/process"
  "GET /api/v1/notifications/channels" "POST /api/v1/notifications/channels"
  "DELETE /api/v1/notifications/channels/{id}" "POST /api/v1/notifications/test" "GET /api/v1/notifications/log"
  "GET /api/v1/account/two-factor" "POST /api/v1/account/two-factor" "POST /api/v1/account/two-factor/confirm"
  "POST /api/v1/account/two-factor/disable"
  "GET /api/v1/zones" "POST /api/v1/zones" "DELETE /api/v1/zones/{id}" "DELETE /api/v1/zones/{id}/fixes"
  # Retention's PUT and POST …/run are left to RetentionRouteTests: a period fuzzed in would have the run (or the
  # server's daily round) delete the seeded history the other operations work on.
  "GET /api/v1/account/retention" "GET /api/v1/account/retention/preview"
  "GET /api/v1/friends" "POST /api/v1/friends" "GET /api/v1/friends/positions" "POST /api/v1/friends/{name}/accept"
  "POST /api/v1/friends/{name}/decline" "DELETE /api/v1/friends/{name}" "PUT /api/v1/friends/{name}/history" "GET /api/v1/friends/{name}/path"
)
mapfile -t person < <("$python" "$root/Tests/Schemathesis/seed_person.py" "$url" "$user" "$password" \
  "$root/Tests/Schemathesis/schemathesis.toml" "$work/person.toml")
[ "${#person[@]}" -eq 2 ] || { echo "FAIL: could not log in and seed the person's objects"; exit 1; }
export TRAVELOG_SCHEMATHESIS_OWN_SESSION="${person[0]}" TRAVELOG_SCHEMATHESIS_SPARE_SESSION="${person[1]}"

reports="${SCHEMATHESIS_REPORT_DIR:-$work/report}"
# schemathesis_pass CONFIG REPORT_DIR SECONDS ARGS…: one run of every check and phase, reports as JUnit.
# Tests/Schemathesis: the generators of the document's own string formats, the guard of the run's
# own session, and per-operation settings.
schemathesis_pass() {
  local config="$1" dir="$2" seconds="$3"
  shift 3
  SCHEMATHESIS_HOOKS=travelog_hooks PYTHONPATH="$root/Tests/Schemathesis${PYTHONPATH:+:$PYTHONPATH}" \
  "$python" -m schemathesis.cli --config-file "$config" \
    run "$work/openapi.yaml" --url "$url" "$@" \
    --checks all --mode all --phases examples,coverage,fuzzing,stateful \
    --max-examples "$max_examples" --max-time "$seconds" --seed "$seed" \
    --workers 1 --request-timeout 20 --max-response-time 20 --suppress-health-check all --no-color \
    --report junit --report-dir "$dir"
}
status=0
# The person first: its login operation is then not yet throttled by the other pass's wrong passwords.
echo "== the person's $((${#person_operations[@]})) operations, with a session cookie"
name_filters=()
for operation in "${person_operations[@]}"; do name_filters+=(--include-name "$operation"); done
schemathesis_pass "$work/person.toml" "$reports/person" "$person_seconds" "${name_filters[@]}" \
  --header "X-Requested-With: XMLHttpRequest" || status=$?
echo "== every operation, with a read-scoped device token"
schemathesis_pass "$root/Tests/Schemathesis/schemathesis.toml" "$reports/token" "$max_seconds" \
  --header "Authorization: Bearer $token" || status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then
  # The crash's own lines (its reason and the crashed thread come first; the registers and images
  # of a Swift backtrace fill its tail), then the last requests logged before it.
  echo "FAIL: the server died during the run:"
  crash_line="$(grep -n -m1 "Fatal error\|Program crashed\|Crashed\|stack dump" "$work/server.log" | cut -d: -f1)"
  if [ -n "$crash_line" ]; then
    sed -n "$((crash_line > 30 ? crash_line - 30 : 1)),$((crash_line + 80))p" "$work/server.log"
  else
    tail -80 "$work/server.log"
  fi
  exit 1
fi
if grep -q "Fatal error\|stack dump" "$work/server.log"; then
  echo "FAIL: the server logged a crash:"; grep -A20 "Fatal error\|stack dump" "$work/server.log" | head -40; exit 1
fi
# Secrets are never written (issue 25): requests with the token in each form a phone app sends it
# (query, OsmAnd's and Traccar's device id, the Basic password), then the whole trace-level log is
# searched for the run's token, password and the person's session cookie (person.toml holds it;
# the two lines seed_person.py prints are sessions' ids, which are not secret).
curl -s -o /dev/null "$url/api/v1/latest?token=$token"
curl -s -o /dev/null "$url/api/v1/osmand?id=$token&lat=52.5&lon=13.4&timestamp=1709283600"
curl -s -o /dev/null "$url/api/v1/osmand?deviceid=$token&lat=999&lon=13.4&timestamp=1709283600"
curl -s -o /dev/null -u "$user:$token" "$url/api/v1/devices"
curl -s -o /dev/null -u "$user:$password" "$url/api/v1/devices"
cookie="$(sed -n 's/^api_key = "\(.*\)"$/\1/p' "$work/person.toml" | head -1)"
[ -n "$cookie" ] || { echo "FAIL: no session cookie in $work/person.toml"; exit 1; }
for secret in "$token" "$password" "$cookie"; do
  if grep -qF -- "$secret" "$work/server.log"; then
    echo "FAIL: the server's trace-level log holds a secret of the run:"; grep -nF -- "$secret" "$work/server.log" | head -5; exit 1
  fi
done
echo "PASS: the server's trace-level log ($(wc -l < "$work/server.log") lines) holds none of the run's 3 secrets"
[ "$status" -eq 0 ] && { echo "PASS: schemathesis $version, all checks, $max_examples examples per operation"; exit 0; }

# One outcome is by design: schemathesis' invalid-credentials probe sends a wrong HTTP Basic password
# to every operation, and after 20 from one address the login throttle answers 429 (with
# Retry-After, before any bcrypt work) where the probe expects 401 or 403 (docs/SECURITY.md). Those
# ST401 findings, and only those, are accepted; so are the findings Tests/Schemathesis/known-failures.txt
# lists (routes under construction), printed as KNOWN; anything else fails.
filtered=0
"$python" - "$reports" "$root/Tests/Schemathesis/known-failures.txt" <<'PY' || filtered=$?
import glob, re, sys, xml.etree.ElementTree as ET
throttled, other, seen = [], [], set()
# "METHOD PATH CODE" or "METHOD PATH CODE | text the finding must contain".
known = {line.strip() for line in open(sys.argv[2]) if line.strip() and not line.startswith("#")}
def known_entry(name, finding):
    code = finding.split()[1]
    for entry in known:
        key, _, text = (part.strip() for part in entry.partition("|"))
        if key == f"{name} {code}" and text in finding:
            return entry
    return None
for path in glob.glob(sys.argv[1] + "/*/*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        for element in case:
            if element.tag not in ("failure", "error"):
                continue
            text = element.text or element.get("message") or ""
            findings = re.split(r"\n(?=- ST\d+ )", text)[1:] if element.tag == "failure" else []
            if not findings:
                other.append(f"{case.get('name')}: {element.tag} {(element.get('message') or text)[:200]}")
            for finding in findings:
                if finding.startswith("- ST401 ") and "got `429 Too Many Requests`" in finding:
                    throttled.append(case.get("name"))
                elif known_entry(case.get("name"), finding):
                    seen.add(known_entry(case.get("name"), finding))
                    print(f"KNOWN: {case.get('name')}: {finding.splitlines()[0]}")
                else:
                    other.append(f"{case.get('name')}: {finding.splitlines()[0]}")
print(f"accepted: {len(throttled)} operations answered the invalid-credentials probe with the login throttle's 429")
for line in sorted(known - seen):
    print(f"NOTE: known-failures.txt lists '{line}', not found this run")
for line in other:
    print("FAIL:", line)
sys.exit(1 if other else 0)
PY
[ "$filtered" -eq 0 ] && echo "PASS: schemathesis $version, all checks, $max_examples examples per operation (the throttle's 429s aside)" \
  || echo "FAIL: schemathesis found the failures above (exit $status)"
exit "$filtered"
