#!/usr/bin/env python3
"""Builds Travelog's offline world base: Natural Earth country outlines (public domain) as
shipped by PyPI's geopandas 0.14.4 (geopandas/datasets/naturalearth_lowres, a 1:110m shapefile).

The wheel is fetched once with `pip download` (PyPI only) into .build-data/pypi; the polygons of
the .shp file are read here (ESRI Shapefile Technical Description, 1998: a 100-byte header, then
records of shape type 5, Polygon: a bounding box, part and point counts, part starts, points) and
written in the format TravelogRender's `WorldOutlines` reads, all little-endian:

    8 bytes  magic "TLWORLD1"
    u32      ring count R
    u32      point count P
    R × u32  points per ring
    P × 2 × f32  longitude, latitude in degrees

Usage: scripts/build-world-outlines.py [--output .build-data/world.tlworld] [--force]
"""
import argparse
import os
import struct
import subprocess
import sys
import zipfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DATA = os.path.join(REPOSITORY, ".build-data")
PYPI_DIR = os.path.join(BUILD_DATA, "pypi")
DEFAULT_OUTPUT = os.path.join(BUILD_DATA, "world.tlworld")
GEOPANDAS = ("geopandas", "0.14.4", "geopandas-0.14.4-py3-none-any.whl")
SHAPEFILE = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"
MAGIC = b"TLWORLD1"


def fetch(package):
    """The path of a package's distribution in .build-data/pypi, downloaded when missing."""
    name, version, filename = package
    path = os.path.join(PYPI_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(PYPI_DIR, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--dest", PYPI_DIR, f"{name}=={version}"], check=True)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {path}")
    return path


def polygon_rings(shp):
    """Every ring of every polygon record, as lists of (lon, lat)."""
    code, = struct.unpack(">i", shp[0:4])
    if code != 9994:
        sys.exit("not an ESRI shapefile")
    offset = 100
    rings = []
    while offset + 8 <= len(shp):
        _, length_words = struct.unpack(">ii", shp[offset:offset + 8])
        content = shp[offset + 8:offset + 8 + 2 * length_words]
        offset += 8 + 2 * length_words
        shape_type, = struct.unpack("<i", content[0:4])
        if shape_type == 0:
            continue
        if shape_type != 5:
            sys.exit(f"unexpected shape type {shape_type}")
        parts, points = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack(f"<{parts}i", content[44:44 + 4 * parts])) + [points]
        base = 44 + 4 * parts
        coords = struct.unpack(f"<{2 * points}d", content[base:base + 16 * points])
        for first, end in zip(starts, starts[1:]):
            rings.append([(coords[2 * i], coords[2 * i + 1]) for i in range(first, end)])
    return rings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    parser.add_argument("--force", action="store_true")
    arguments = parser.parse_args()
    if os.path.exists(arguments.output) and not arguments.force:
        return
    with zipfile.ZipFile(fetch(GEOPANDAS)) as wheel:
        rings = polygon_rings(wheel.read(SHAPEFILE))
    total = sum(len(ring) for ring in rings)
    os.makedirs(os.path.dirname(os.path.abspath(arguments.output)), exist_ok=True)
    temporary = arguments.output + ".partial"
    with open(temporary, "wb") as out:
        out.write(MAGIC + struct.pack("<II", len(rings), total))
        out.write(struct.pack(f"<{len(rings)}I", *[len(ring) for ring in rings]))
        for ring in rings:
            out.write(struct.pack(f"<{2 * len(ring)}f", *[value for point in ring for value in point]))
    os.replace(temporary, arguments.output)
    print(f"{arguments.output}: {len(rings)} rings, {total} points (Natural Earth 1:110m, public domain)")


if __name__ == "__main__":
    main()
