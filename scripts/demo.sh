#!/usr/bin/env bash
# `make run` until the server exists: the tool's help and a short tour of the geodesy commands.
set -euo pipefail
travelog="$1"
"$travelog" --help
echo
echo "Demo: the geodesic from JFK to Singapore Changi (GeographicLib's GeodSolve format)."
echo '$ echo "40.6413 -73.7781 1.3644 103.9915" | travelog geodesic inverse'
echo "40.6413 -73.7781 1.3644 103.9915" | "$travelog" geodesic inverse
echo '$ echo "40.6413 -73.7781 0 1000000" | travelog geodesic direct'
echo "40.6413 -73.7781 0 1000000" | "$travelog" geodesic direct
