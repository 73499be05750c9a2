#!/usr/bin/env bash
# travelog photos geotag --dry-run side by side with ExifTool's -geotag (Debian's libimage-exiftool-perl)
# on the same photos and the same track (issue 32): a GPX track (a drive with fixes 5-60 s apart and
# gaps of 200, 299, 301 and 600 s) is imported into a throwaway database; copies of a real JPEG
# (Pillow's flower.jpg, `make photo-samples`) get capture times along it, before it and after it;
# ExifTool geotags the copies (-api GeoMaxIntSecs=300 -api GeoMaxExtSecs=0, so neither extrapolates)
# and travelog places the untouched ones (--dry-run), then writes a third set (--write
# --overwrite-original, read back by ExifTool). Every photo ExifTool places must be placed and written
# within 1 m of ExifTool's position, and every one it refuses refused and left unwritten. Prints the
# figures and the three whole-command times; exit 1 on a difference.
# The 10,000-photo figure (issue 32): --photos 10000 with a release build.
# Usage: scripts/photo-geotag-compare.sh --travelog PATH [--photos N] [--keep]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
travelog=""
photos=200
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --travelog) travelog="$2"; shift 2 ;;
    --photos) photos="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 --travelog PATH [--photos N] [--keep]"; exit 2 ;;
  esac
done
[ -x "$travelog" ] || { echo "FAIL: --travelog PATH (the built travelog) is required"; exit 2; }
command -v exiftool >/dev/null || { echo "FAIL: exiftool is not installed: apt-get install libimage-exiftool-perl (make deps-test)"; exit 1; }
sample="$root/.build-data/photos/pillow/flower.jpg"
[ -s "$sample" ] || { echo "FAIL: $sample is absent: run make photo-samples"; exit 1; }
work="$(mktemp -d)"
[ "$keep" -eq 1 ] && echo "work folder: $work" || trap 'rm -rf "$work"' EXIT
export TZ=UTC
python="${PYTHON:-python3}"

# The track and the photos' times (UTC; every photo gets OffsetTimeOriginal +00:00 so both tools read the same instant).
"$python" - "$work" "$photos" <<'PY'
import math, os, random, sys
work, count = sys.argv[1], int(sys.argv[2])
random.seed(32)
start = 1_700_000_000          # 2023-11-14T22:13:20Z
lat, lon, heading = 60.1699, 24.9384, 35.0
t, fixes = start, []
gaps = {40: 200, 80: 299, 120: 301, 160: 600}
for index in range(220):
    fixes.append((t, lat, lon))
    step = gaps.get(index, random.randint(5, 60))
    speed = random.uniform(8, 25)
    heading += random.uniform(-20, 20)
    distance = speed * min(step, 60)
    lat += distance * math.cos(math.radians(heading)) / 111_320
    lon += distance * math.sin(math.radians(heading)) / (111_320 * math.cos(math.radians(lat)))
    t += step
end = fixes[-1][0]
def iso(seconds):
    import datetime
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(os.path.join(work, "track.gpx"), "w") as gpx:
    gpx.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="photo-geotag-compare" xmlns="http://www.topografix.com/GPX/1/1">\n<trk><trkseg>\n')
    for (when, la, lo) in fixes:
        gpx.write(f'<trkpt lat="{la:.7f}" lon="{lo:.7f}"><time>{iso(when)}</time></trkpt>\n')
    gpx.write("</trkseg></trk>\n</gpx>\n")
with open(os.path.join(work, "times.txt"), "w") as times:
    for index in range(count):
        # Mostly along the track; some before it, after it, and at fixes' exact times.
        kind = index % 10
        if kind == 0: when = start - random.randint(1, 3600)
        elif kind == 1: when = end + random.randint(1, 3600)
        elif kind == 2: when = random.choice(fixes)[0]
        else: when = random.randint(start, end)
        import datetime
        times.write(datetime.datetime.fromtimestamp(when, datetime.timezone.utc).strftime("%Y:%m:%d %H:%M:%S") + "\n")
print(f"track: {len(fixes)} fixes over {end - start} s; {count} photos")
PY

mkdir -p "$work/exiftool" "$work/travelog" "$work/written"
number=0
while read -r when; do
  number=$((number + 1))
  name=$(printf 'photo-%04d.jpg' "$number")
  cp "$sample" "$work/travelog/$name"
done <"$work/times.txt"
# One exiftool run sets every copy's time (a -tagsFromFile per file would start Perl once per photo).
"$python" - "$work" <<'PY'
import os, sys
work = sys.argv[1]
with open(os.path.join(work, "set-times.args"), "w") as args:
    for number, when in enumerate(open(os.path.join(work, "times.txt")).read().split("\n")[:-1], 1):
        args.write(f"-DateTimeOriginal={when}\n-OffsetTimeOriginal=+00:00\n-overwrite_original\n")
        args.write(os.path.join(work, "travelog", f"photo-{number:04d}.jpg") + "\n-execute\n")
PY
exiftool -q -q -@ "$work/set-times.args" >/dev/null
cp "$work"/travelog/*.jpg "$work/exiftool/"
cp "$work"/travelog/*.jpg "$work/written/"

db="$work/history.sqlite"
"$travelog" import --db "$db" --user alice --device car "$work/track.gpx" >/dev/null 2>"$work/import.log" \
  || { cat "$work/import.log"; echo "FAIL: travelog import"; exit 1; }

start_ns=$(date +%s%N)
exiftool -q -q -m -n -overwrite_original -geotag "$work/track.gpx" '-geotime<${DateTimeOriginal}+00:00' \
  -api GeoMaxIntSecs=300 -api GeoMaxExtSecs=0 "$work/exiftool" >"$work/exiftool-geotag.log" 2>&1 || true
exiftool_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
exiftool -json -n -q -q -GPSLatitude -GPSLongitude "$work/exiftool" >"$work/exiftool.json"

start_ns=$(date +%s%N)
"$travelog" photos geotag --db "$db" --user alice --dry-run --json --max-gap 300 "$work/travelog" >"$work/travelog.json" 2>"$work/travelog.log"
travelog_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))

start_ns=$(date +%s%N)
"$travelog" photos geotag --db "$db" --user alice --write --overwrite-original --json --max-gap 300 "$work/written" \
  >"$work/written-travelog.json" 2>"$work/written.log"
written_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
exiftool -json -n -q -q -GPSLatitude -GPSLongitude "$work/written" >"$work/written.json"

"$python" - "$work" "$exiftool_ms" "$travelog_ms" "$written_ms" <<'PY'
import json, math, os, sys
work, exiftool_ms, travelog_ms, written_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
theirs = {os.path.basename(r["SourceFile"]): r for r in json.load(open(os.path.join(work, "exiftool.json")))}
ours = {os.path.basename(r["file"]): r for r in json.load(open(os.path.join(work, "travelog.json")))}
written = {os.path.basename(r["SourceFile"]): r for r in json.load(open(os.path.join(work, "written.json")))}
def metres(a, b):
    # Haversine on the mean radius: good to far below a millimetre at these distances.
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))
both = refused_both = 0
worst, worst_written, problems = 0.0, 0.0, []
for name in sorted(theirs):
    t, o = theirs[name], ours.get(name, {})
    placed_theirs = "GPSLatitude" in t
    placed_ours = o.get("placed") in ("interpolated", "visit")
    if placed_theirs and placed_ours:
        both += 1
        d = metres((t["GPSLatitude"], t["GPSLongitude"]), (o["latitude"], o["longitude"]))
        worst = max(worst, d)
        if d > 1: problems.append(f"{name}: {d:.3f} m apart ({o.get('placed')})")
    elif not placed_theirs and not placed_ours:
        refused_both += 1
    else:
        problems.append(f"{name}: ExifTool {'placed' if placed_theirs else 'refused'} it, travelog {o.get('placed') or 'refused'} it ({o.get('reason', '')})")
    w = written.get(name, {})
    if placed_theirs != ("GPSLatitude" in w):
        problems.append(f"{name}: ExifTool {'wrote' if placed_theirs else 'did not write'} a position, travelog --write {'did' if 'GPSLatitude' in w else 'did not'}")
    elif placed_theirs:
        d = metres((t["GPSLatitude"], t["GPSLongitude"]), (w["GPSLatitude"], w["GPSLongitude"]))
        worst_written = max(worst_written, d)
        if d > 1: problems.append(f"{name}: written {d:.3f} m from ExifTool's")
print(f"photos: {len(theirs)}; placed by both: {both} (largest distance {worst:.4f} m; written by travelog --write: "
      f"{worst_written:.4f} m); refused by both: {refused_both}; differences: {len(problems)}")
print(f"whole command: exiftool -geotag {exiftool_ms} ms (writing the copies), travelog photos geotag --dry-run {travelog_ms} ms, "
      f"travelog photos geotag --write --overwrite-original {written_ms} ms")
for line in problems[:20]: print("  " + line)
if problems:
    print("FAIL: travelog photos geotag and exiftool -geotag differ"); sys.exit(1)
print("ok: every photo ExifTool places is placed within 1 m, every one it refuses is refused")
PY
