#!/usr/bin/env bash
# The API against its own document: schemathesis (PyPI, pinned 4.32.5, installed with pip when
# missing) runs every check on /api/openapi.yaml of a real `travelog serve` on 127.0.0.1 with a
# temporary database, a user and a read-scoped device token: examples, boundary coverage, random
# positive and negative data, and stateful sequences, each operation a bounded number of cases.
# No 5xx, every answer as documented, nothing the document forbids accepted, nothing it allows
# refused. Prints schemathesis' summary; exits non-zero on any failure.
#
#   scripts/schemathesis-test.sh [--travelog PATH] [--max-examples N] [--max-seconds S] [--seed N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/test-server.sh
. "$root/scripts/test-server.sh"
travelog="$root/.build/debug/travelog"
max_examples=8
max_seconds=240
seed=11
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --max-examples) max_examples="$2"; shift 2 ;;
    --max-seconds) max_seconds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) sed -n '2,9p' "$0" >&2; exit 2 ;;
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
echo "schemathesis-test-password" | "$travelog" user add "$user" --password-stdin >/dev/null
token="$("$travelog" device add --user "$user" reader --scope read --json \
  | "$python" -c 'import json,sys; print(json.load(sys.stdin)["token"])')"

# Tiles from the discard port, where nothing answers (no network is used); no webhook leaves the host.
start_test_server "$work/server.log" --tiles "http://127.0.0.1:9/{z}/{x}/{y}.png" --metrics off
curl -fsS "$url/api/openapi.yaml" -o "$work/openapi.yaml"

status=0
# Tests/Schemathesis: the generators of the document's own string formats, and per-operation settings.
SCHEMATHESIS_HOOKS=travelog_hooks PYTHONPATH="$root/Tests/Schemathesis${PYTHONPATH:+:$PYTHONPATH}" \
"$python" -m schemathesis.cli --config-file "$root/Tests/Schemathesis/schemathesis.toml" \
  run "$work/openapi.yaml" --url "$url" \
  --header "Authorization: Bearer $token" \
  --checks all --mode all --phases examples,coverage,fuzzing,stateful \
  --max-examples "$max_examples" --max-time "$max_seconds" --seed "$seed" \
  --workers 1 --request-timeout 20 --suppress-health-check all --no-color \
  --report junit --report-dir "${SCHEMATHESIS_REPORT_DIR:-$work/report}" || status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "FAIL: the server died during the run:"; tail -40 "$work/server.log"; exit 1
fi
if grep -q "Fatal error\|stack dump" "$work/server.log"; then
  echo "FAIL: the server logged a crash:"; grep -A20 "Fatal error\|stack dump" "$work/server.log" | head -40; exit 1
fi
[ "$status" -eq 0 ] && { echo "PASS: schemathesis $version, all checks, $max_examples examples per operation"; exit 0; }

# One outcome is by design: schemathesis' invalid-credentials probe sends a wrong HTTP Basic password
# to every operation, and after 20 from one address the login throttle answers 429 (with
# Retry-After, before any bcrypt work) where the probe expects 401 or 403 (docs/SECURITY.md). Those
# ST401 findings, and only those, are accepted; so are the findings Tests/Schemathesis/known-failures.txt
# lists (routes under construction), printed as KNOWN; anything else fails.
filtered=0
"$python" - "${SCHEMATHESIS_REPORT_DIR:-$work/report}" "$root/Tests/Schemathesis/known-failures.txt" <<'PY' || filtered=$?
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
for path in glob.glob(sys.argv[1] + "/*.xml"):
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
