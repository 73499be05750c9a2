#!/usr/bin/env bash
# Valhalla, the routing engine `make bench NAMES=directions-valhalla` compares directions with:
# PyPI's pyvalhalla wheel (pinned, checked by its SHA-256, kept in .build-data/pypi) ships
# valhalla_build_tiles and valhalla_service; they are unpacked into .build-data/valhalla/. Used by
# the benchmark only (never by the build, the tests or the server).
# Usage: scripts/valhalla-sample.sh [--output .build-data/valhalla]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
output="$root/.build-data/valhalla"
[ "${1:-}" = "--output" ] && output="$2"
python="${PYTHON:-python3}"
version=3.9.1
sha256=7b49c5e5f86cefd555b473aaaf34df3305889d30aa889b8abd3b4c2acc622271
wheel="$root/.build-data/pypi/pyvalhalla-$version-cp312-abi3-manylinux_2_28_x86_64.whl"
if [ ! -s "$wheel" ]; then
  mkdir -p "$(dirname "$wheel")"
  "$python" -m pip download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
    --platform manylinux_2_28_x86_64 --python-version 3.12 --implementation cp \
    -d "$(dirname "$wheel")" "pyvalhalla==$version" || { echo "FAIL: pyvalhalla $version could not be downloaded from PyPI"; exit 1; }
fi
echo "$sha256  $wheel" | sha256sum -c --quiet - || { echo "FAIL: $wheel is not the pinned wheel"; exit 1; }
rm -rf "$output.partial"
mkdir -p "$output.partial"
"$python" -m zipfile -e "$wheel" "$output.partial"
chmod +x "$output.partial"/valhalla/bin/*
rm -rf "$output"
mv "$output.partial" "$output"
echo "$output: Valhalla $version (valhalla/bin/valhalla_build_tiles, valhalla/bin/valhalla_service; MIT licence)"
