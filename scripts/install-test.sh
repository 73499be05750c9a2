#!/usr/bin/env bash
# `make install` into a temporary DESTDIR/PREFIX with the debug binaries (issue 27): the installed
# commands, run from another folder with an empty home, find their data files in PREFIX/share/travelog;
# one copied away from them says plainly what is missing and how to make it; the completions are
# there; the systemd unit passes `systemd-analyze verify` and `security` rates it below 2.0; the
# server takes a post under the unit's system-call filter with writable-and-executable memory refused.
# Usage: scripts/install-test.sh --build DIR (the folder of travelog and travelog-track)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: $0 --build DIR" >&2; exit 2 ;;
  esac
done
[ -n "$build" ] || { echo "usage: $0 --build DIR" >&2; exit 2; }
for tool in systemd-analyze python3 curl; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (make deps-test installs it): the install test cannot run" >&2; exit 1; }
done

work="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
prefix=/opt/travelog
dest="$work/dest"
installed="$dest$prefix"

make -s -C "$root" install DESTDIR="$dest" PREFIX="$prefix" BUILD="$build" >"$work/make.log" 2>&1 || { cat "$work/make.log"; fail "make install"; }
for file in bin/travelog bin/travelog-track share/travelog/gazetteer.tlgaz share/travelog/timezones.tlzones \
            share/travelog/world.tlworld share/travelog/WMM2025.COF lib/systemd/system/travelog.service; do
  [ -s "$installed/$file" ] || fail "$prefix/$file was not installed"
done
grep -q "_travelog" "$installed/share/bash-completion/completions/travelog" || fail "no bash completion"
bash -n "$installed/share/bash-completion/completions/travelog" || fail "the bash completion does not parse"
grep -q "restore" "$installed/share/bash-completion/completions/travelog" || fail "the bash completion lacks the restore command"
grep -q "#compdef travelog" "$installed/share/zsh/site-functions/_travelog" || fail "no zsh completion"
grep -q "^complete -c .travelog" "$installed/share/fish/vendor_completions.d/travelog.fish" || fail "no fish completion"
grep -q "^ExecStart=$prefix/bin/travelog serve" "$installed/lib/systemd/system/travelog.service" || fail "ExecStart does not name PREFIX/bin/travelog"

# From another folder, with a home of its own (nothing beside a default database) and no variables.
mkdir -p "$work/elsewhere" "$work/home"
run() { (cd "$work/elsewhere" && env -i HOME="$work/home" PATH=/usr/bin:/bin "$@"); }
run "$installed/bin/travelog" geocode forward Reykjavik >"$work/forward.txt" 2>&1 || { cat "$work/forward.txt"; fail "geocode forward"; }
grep -q "Reykjavik" "$work/forward.txt" || { cat "$work/forward.txt"; fail "the installed gazetteer did not answer Reykjavik"; }
run "$installed/bin/travelog" geocode reverse 52.52 13.405 >"$work/reverse.txt" 2>&1 || fail "geocode reverse"
grep -q "Berlin" "$work/reverse.txt" || { cat "$work/reverse.txt"; fail "reverse geocoding did not answer Berlin"; }
run "$installed/bin/travelog" declination 52.52 13.405 >"$work/declination.txt" 2>&1 || { cat "$work/declination.txt"; fail "declination did not find the installed WMM2025.COF"; }
printf 'time,lat,lon\n2024-05-01T08:00:00Z,64.1466,-21.9426\n2024-05-01T08:30:00Z,64.1466,-21.9426\n2024-05-01T09:00:00Z,64.1467,-21.9427\n' >"$work/elsewhere/day.csv"
run "$installed/bin/travelog" import day.csv --db "$work/db/travelog.sqlite" --user ada --device phone >"$work/import.txt" 2>&1 || { cat "$work/import.txt"; fail "import"; }
if grep -qi "no gazetteer\|no time-zone" "$work/import.txt"; then cat "$work/import.txt"; fail "the installed import did not find its data files"; fi

# A binary with no data beside it says what is missing and how to make it.
mkdir -p "$work/lonely/bin"
cp "$installed/bin/travelog" "$work/lonely/bin/"
if run "$work/lonely/bin/travelog" geocode forward Reykjavik >"$work/lonely.txt" 2>&1; then fail "a travelog without data files answered"; fi
grep -q "make gazetteer" "$work/lonely.txt" && grep -q "make install" "$work/lonely.txt" || { cat "$work/lonely.txt"; fail "the missing gazetteer was not said plainly"; }
[ "$(grep -c "no gazetteer" "$work/lonely.txt")" = 1 ] || { cat "$work/lonely.txt"; fail "the missing gazetteer was said more than once"; }

# The unit, offline (no booted systemd needed); verify checks ExecStart, so a copy points into DESTDIR.
mkdir -p "$work/unit"
sed "s|^ExecStart=$prefix/bin/|ExecStart=$installed/bin/|" "$installed/lib/systemd/system/travelog.service" >"$work/unit/travelog.service"
systemd-analyze verify "$work/unit/travelog.service" >"$work/verify.txt" 2>&1 || { cat "$work/verify.txt"; fail "systemd-analyze verify"; }
[ ! -s "$work/verify.txt" ] || { cat "$work/verify.txt"; fail "systemd-analyze verify had remarks"; }
systemd-analyze security --offline=yes "$work/unit/travelog.service" >"$work/security.txt" 2>&1 || true
score="$(sed -n 's/.*Overall exposure level for travelog.service: \([0-9.]*\).*/\1/p' "$work/security.txt")"
[ -n "$score" ] || { cat "$work/security.txt"; fail "systemd-analyze security gave no score"; }
python3 -c "import sys; sys.exit(0 if float('$score') < 2.0 else 1)" || { tail -5 "$work/security.txt"; fail "exposure $score is not below 2.0"; }

# The server as the unit confines it, without a booted systemd (Tests/Install/sandbox_exec.py): only
# the unit's system calls (SystemCallFilter=, the rest EPERM) and no writable-and-executable memory
# (PR_SET_MDWE, the kernel's MemoryDenyWriteExecute=). A phone's post is stored and read back.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
db="$work/db/travelog.sqlite"
token="$(run "$installed/bin/travelog" device add phone2 --db "$db" --user ada --app overland --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
(cd "$work/elsewhere" && exec env -i HOME="$work/home" PATH=/usr/bin:/bin /usr/bin/python3 "$root/Tests/Install/sandbox_exec.py" \
  "$installed/lib/systemd/system/travelog.service" "$installed/bin/travelog" serve --db "$db" --port "$port" >"$work/serve.log" 2>&1) &
server=$!
answered=""
for _ in $(seq 1 300); do
  if curl -sf "http://127.0.0.1:$port/metrics" >/dev/null 2>&1; then answered=yes; break; fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.2
done
[ -n "$answered" ] || { cat "$work/serve.log"; fail "the server did not answer under the unit's system-call filter and MDWE"; }
post='{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-21.9426,64.1466]},"properties":{"timestamp":"2024-05-02T08:00:00Z","horizontal_accuracy":5}}]}'
answer="$(curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$post" "http://127.0.0.1:$port/api/v1/overland")" \
  || { cat "$work/serve.log"; fail "the confined server did not take a post"; }
[ "$answer" = '{"result":"ok"}' ] || fail "the confined server answered $answer"
kill -TERM "$server"; wait "$server" || true; server=""
grep -q "Operation not permitted" "$work/serve.log" && { cat "$work/serve.log"; fail "a system call was refused in the confined server"; }
stored="$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM locations WHERE timestamp_ms = 1714636800000").fetchone()[0])' "$db")"
[ "$stored" = 1 ] || fail "the confined server's post is not in the database"
echo "install test: ok (installed into DESTDIR=$dest PREFIX=$prefix; systemd-analyze security exposure $score; the server took a post under the unit's system-call filter and MDWE)"
