#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser with libFuzzer (Fuzz/: one fuzzer, the parser named by
# TRAVELOG_FUZZ_TARGET). Builds Fuzz/ with -sanitize=fuzzer,address in .build-fuzz (never the
# shared .build), seeds each corpus from Fuzz/Seeds and, when present, ../shared/fixtures (copied
# into .build-fuzz/corpus, never into the repository), runs each target for SECONDS and prints
# executions per second and in total. A crash, a leak or a hang fails the run; its input is kept
# in .build-fuzz/crashes/.
# --quick (for `make test`): start each target from Fuzz/Seeds alone, in a fresh corpus.
# The targets run side by side, one a core (FUZZ_JOBS=N to choose); results print in order at the end.
# Usage: scripts/fuzz.sh [--seconds N] [--quick] [TARGET…]   (default 60 s, every target)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds=60
quick=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --quick) quick=1; shift ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
all=(gpx kml geojson csv nmea google-records google-semantic google-timeline google-timeline-ios owntracks
     geolife gpsd osmand-request traccar-json gpslogger-request location-batch multipart osm-pbf exif)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

scratch=.build-fuzz
# Optimised (-c release; the sanitizers stay on): unoptimised Swift ran the parsers 3-10 times slower.
# --quick (make test's few seconds a target) builds unoptimised: 48 s against 130 s for the release
# build on two cores, and a few seconds of each parser need no speed.
configuration=release
[ "$quick" -eq 1 ] && configuration=debug
"${SWIFT:-swift}" build --package-path Fuzz --scratch-path "$scratch" -c "$configuration" \
    -Xswiftc -sanitize=fuzzer,address --product TravelogFuzz 2>&1 \
    | grep -v "Cannot export local symbol" | tail -5
fuzzer="$scratch/$configuration/TravelogFuzz"

shared="${TRAVELOG_SHARED_FIXTURES:-$root/../shared/fixtures}"
corpora="$scratch/corpus"
if [ "$quick" -eq 1 ]; then
    corpora="$scratch/corpus-quick"
    rm -rf "$corpora"
    shared="/nonexistent"
elif [ ! -d "$shared" ]; then
    echo "NOTE: $shared is absent: the corpora start from Fuzz/Seeds only."
fi

# The shared fixtures each target starts from (paths under $shared, shell patterns).
shared_seeds() {
    case "$1" in
        gpx) echo "gpxpy/*.gpx gpsbabel/*/*.gpx reitti/gpx/*.gpx reitti/gpx/*/*.gpx trackintel-geolife/gpx_data/*.gpx" ;;
        kml) echo "dawarich/kml/*.kml gpsbabel/*/*.kml" ;;
        geojson) echo "dawarich/geojson/*.json dawarich/overland/*.json overland/*.json gpsbabel/*/*.geojson" ;;
        csv) echo "reitti/raw/*.csv trackintel-geolife/examples/*.csv gpsbabel/nmea/*.csv" ;;
        nmea) echo "gpsbabel/nmea/*.nmea gpsbabel/nmea/*.txt gpsd/nmea/*.log" ;;
        google-records) echo "reitti/google/Records.json dawarich/google/records.json" ;;
        google-semantic) echo "dawarich/google/semantic_history.json dawarich/google/location-history/*.json dawarich/google/edge_cases/*.json gpsbabel/google-semantic-history/*/*.json" ;;
        google-timeline) echo "reitti/google/timeline_from_android_randomized.json" ;;
        google-timeline-ios) echo "dawarich/google/location-history.json" ;;
        owntracks) echo "owntracks/recorder/*.rec owntracks/android-fixtures/*.json" ;;
        geolife) echo "trackintel-geolife/*/*/Trajectory/*.plt" ;;
        gpsd) echo "gpsd/json-client/* gpsd/nmea/*.chk gpsd/binary-receiver-chk/*.chk" ;;
    esac
}

# The longest input a target is given: line formats read line by line, so 4 KB holds dozens of lines and
# runs four times as many inputs as 16 KB; the nested formats need room for their structure.
max_len() {
    case "$1" in
        csv|nmea|geolife|gpsd|owntracks) echo 4096 ;;
        *) echo 16384 ;;
    esac
}

# Traccar/OsmAnd's recorded requests, one seed each: query NUL content type NUL body.
request_seeds() {
    "${PYTHON:-python3}" - "$shared/traccar-osmand/osmand_requests.jsonl" "$1" "$2" <<'PY'
import json, sys, os
path, form_dir, json_dir = sys.argv[1:4]
for number, line in enumerate(open(path, encoding="utf-8")):
    request = json.loads(line)
    target, content_type = request.get("target", ""), request.get("content_type") or ""
    body = (request.get("body") or "").encode()
    query = target.split("?", 1)[1] if "?" in target else ""
    with open(os.path.join(form_dir, f"shared-{number}"), "wb") as out:
        out.write(query.encode() + b"\0" + content_type.encode() + b"\0" + body)
    if content_type.startswith("application/json"):
        with open(os.path.join(json_dir, f"shared-{number}"), "wb") as out:
            out.write(body)
PY
}

mkdir -p "$corpora" "$scratch/crashes" "$scratch/logs"
if [ -d "$shared" ] && [ -f "$shared/traccar-osmand/osmand_requests.jsonl" ]; then
    mkdir -p "$corpora/osmand-request" "$corpora/traccar-json"
    request_seeds "$corpora/osmand-request" "$corpora/traccar-json"
fi

# One target: its corpus from the seeds, libFuzzer for $seconds, its result line in logs/TARGET.result.
run_target() {
    local target="$1" corpus="$corpora/$1" log="$scratch/logs/$1.log" status=0
    mkdir -p "$corpus"
    cp -n Fuzz/Seeds/"$target"/* "$corpus"/ 2>/dev/null || true
    if [ -d "$shared" ]; then
        for pattern in $(shared_seeds "$target"); do
            for file in "$shared"/$pattern; do
                # Files over 256 KB would only be cut to -max_len (4 or 16 KB); they slow the start for nothing.
                [ -f "$file" ] && [ "$(stat -c %s "$file")" -le 262144 ] \
                    && cp -n "$file" "$corpus/shared-$(echo "$pattern" | cut -d/ -f1)-$(basename "$file")"
            done
        done
    fi
    TRAVELOG_FUZZ_TARGET="$target" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
        "$fuzzer" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$scratch/crashes/$target-" "$corpus" >"$log" 2>&1 || status=$?
    local executions rate size result
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    size=$(ls "$corpus" | wc -l)
    if [ "$status" -eq 0 ]; then result=ok; else result="FAILED (exit $status, log $log)"; fi
    {
        printf '%-20s %10s %12s %8s  %s\n' "$target" "${rate:-?}" "${executions:-?}" "$size" "$result"
        if [ "$status" -ne 0 ]; then
            grep -E "^==[0-9]+==ERROR|SUMMARY|Fatal error|precondition|artifact_prefix|Test unit written" "$log" | head -8 || true
        fi
    } >"$scratch/logs/$target.result"
    return "$status"
}

# The targets run side by side, one a core (FUZZ_JOBS to choose): each runs for its seconds either way.
jobs="${FUZZ_JOBS:-$(nproc)}"
failed=()
printf '%-20s %10s %12s %8s  %s\n' target "execs/s" executions corpus result
for target in "${targets[@]}"; do rm -f "$scratch/logs/$target.result"; done
running=()
for index in "${!targets[@]}"; do
    run_target "${targets[$index]}" &
    running+=($!)
    # At most $jobs at once: the next starts when the oldest running one ends.
    if [ ${#running[@]} -ge "$jobs" ]; then
        wait "${running[0]}" || true
        running=("${running[@]:1}")
    fi
done
wait
for target in "${targets[@]}"; do
    cat "$scratch/logs/$target.result"
    grep -q " ok$" "$scratch/logs/$target.result" || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]} (inputs in $scratch/crashes/)" >&2
    exit 1
fi
