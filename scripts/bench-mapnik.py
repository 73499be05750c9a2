#!/usr/bin/python3
"""Mapnik's side of `make bench`'s render-tiles-z14: the same track and tiles as Travelog's
benchmark, drawn by Mapnik (Debian's python3-mapnik, AGG renderer) with a 3-pixel line, each
tile rendered and PNG-encoded as a tile server would. Prints tiles per second.

The track is cut into LineStrings of 100 fixes in Web Mercator metres (EPSG:3857) in a CSV
datasource, which Mapnik indexes in memory, as a tile server would hold a pre-projected track
(one 500k-point LineString would make Mapnik clip the whole track for every tile).

Usage: /usr/bin/python3 scripts/bench-mapnik.py --track TRACK.csv --tiles TILES.txt
  TRACK.csv: a header, then lon,lat per fix in order; TILES.txt: z/x/y per line.
"""
import argparse
import math
import os
import tempfile
import time

try:
    import mapnik  # Debian: python3-mapnik
except ImportError:
    mapnik = None

EARTH_RADIUS_METERS = 6378137.0  # the sphere of EPSG:3857 (WGS84's semi-major axis)
HALF_WORLD = math.pi * EARTH_RADIUS_METERS
MERCATOR = ("+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs")


def mercator(lon, lat):
    x = math.radians(lon) * EARTH_RADIUS_METERS
    y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * EARTH_RADIUS_METERS
    return x, y


def tile_box(z, x, y):
    size = 2 * HALF_WORLD / (1 << z)
    west = -HALF_WORLD + x * size
    north = HALF_WORLD - y * size
    return mapnik.Box2d(west, north - size, west + size, north)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", required=True)
    parser.add_argument("--tiles", required=True)
    arguments = parser.parse_args()
    if mapnik is None:
        print("mapnik: python3-mapnik is not installed (make deps-bench installs it)")
        return
    with open(arguments.track) as track:
        next(track)
        points = [mercator(*map(float, line.split(","))) for line in track if line.strip()]
    tiles = [tuple(map(int, line.split("/"))) for line in open(arguments.tiles) if line.strip()]
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as csv:
        csv.write("wkt\n")
        for first in range(0, len(points) - 1, 99):
            piece = points[first:first + 100]
            csv.write('"LINESTRING(' + ",".join(f"{x:.2f} {y:.2f}" for x, y in piece) + ')"\n')
        path = csv.name
    try:
        m = mapnik.Map(256, 256, MERCATOR)
        style = mapnik.Style()
        rule = mapnik.Rule()
        line = mapnik.LineSymbolizer()
        line.stroke = mapnik.Color("#1f6feb")
        line.stroke_width = 3.0
        line.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN
        line.stroke_linecap = mapnik.stroke_linecap.ROUND_CAP
        rule.symbols.append(line)
        style.rules.append(rule)
        m.append_style("track", style)
        layer = mapnik.Layer("track", MERCATOR)
        layer.datasource = mapnik.Datasource(type="csv", file=path)
        layer.styles.append("track")
        m.layers.append(layer)
        image = mapnik.Image(256, 256)
        # Warm up: the CSV datasource reads and indexes the file on first use.
        m.zoom_to_box(tile_box(*tiles[0]))
        mapnik.render(m, image)
        total = 0
        start = time.perf_counter()
        for z, x, y in tiles:
            m.zoom_to_box(tile_box(z, x, y))
            image = mapnik.Image(256, 256)
            mapnik.render(m, image)
            total += len(image.tostring("png"))
        seconds = time.perf_counter() - start
        print(f"mapnik {mapnik.mapnik_version()} path tiles z{tiles[0][0]}: {len(tiles) / seconds:.0f} tiles/s"
              f" ({len(tiles)} tiles in {seconds:.2f} s, {total / len(tiles) / 1024:.1f} KB per PNG, AGG, 3 px line, one core)",
              flush=True)
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
