#!/usr/bin/env python3
"""Builds Travelog's time-zone boundaries from timezone-boundary-builder's polygons (ODbL 1.0, oceans
included as Etc/GMT±N) as shipped by PyPI's timezonefinder 8.2.5.

The wheel (the x86-64 one, pinned by name and SHA-256; its data is the same on every platform) is
fetched once with `pip download` (PyPI only) into .build-data/pypi and read as a zip, with plain
Python and numpy: timezone_names.txt, zone_ids.npy (the zone of each boundary polygon),
hole_registry.json (polygon → hole count, first hole) and the two FlatBuffers collections
boundaries/coordinates.fbs and holes/coordinates.fbs (schema `Polygon { coords:[int] }`, x and y
interleaved, in 1e-7 degrees).

Coordinates are quantised to 1e-5 degrees (about 1 m; shared borders stay shared, since both sides
round the same source numbers), repeated points dropped and every ring closed. A grid of 0.25° cells
(1440 × 720) is computed here so that most lookups need no polygon test:
  - a cell whose boundary edges (or, without edges, whose south-west corner) belong to one zone
    answers that zone;
  - any other cell lists its candidate polygons, each with the edges crossing the cell as runs of
    consecutive edges and whether the cell's south-west corner lies inside the polygon (even-odd
    rule, crossings of the corner's line east of it). A point is then inside a candidate when the
    corner's status, flipped by each edge crossing the path corner → east along the cell's bottom →
    north to the point, says so; only the cell's edges can cross that path.
TimeZoneBoundaries.swift documents the file layout; this script writes it:

    56 bytes  header: magic "TLZONES1", version 1, zones Z, polygons P, rings R, points N,
              cell size (1e-5°), units per degree, grid columns C, rows W, name bytes B,
              point bytes V, cell-data words D (UInt32 each)
    (Z+1) × u32 name offsets, B bytes of names (UTF-8), zero-padded to 4 bytes
    P × u16 polygon zones, padded to 4 bytes; (P+1) × u32 first ring of each polygon (the first ring
              is the outer one, the others its holes); (R+1) × u32 first point of each ring
    C × W × u32 cells (row-major from 90°S, 180°W): bit 31 set = one zone (0x7FFFFFFF: none),
              else the word offset of the cell's record in the cell data
    D × u32 cell data: candidate count K, index T from which all candidates share one zone, then per
              candidate: polygon | corner-inside << 31, run count, runs of (first edge, edge count)
    V bytes   points: zig-zag LEB128 varints, x (longitude) then y (latitude) delta from the previous
              point (the first from 0), in 1e-5 degrees; edge i joins points i and i + 1

Usage: scripts/build-timezones.py [--output .build-data/timezones.tlzones] [--force]
"""
import argparse
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import zipfile

import numpy as np

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DATA = os.path.join(REPOSITORY, ".build-data")
PYPI_DIR = os.path.join(BUILD_DATA, "pypi")
DEFAULT_OUTPUT = os.path.join(BUILD_DATA, "timezones.tlzones")
TIMEZONEFINDER = ("timezonefinder", "8.2.5",
                  "timezonefinder-8.2.5-cp311-abi3-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl",
                  "976230555eb9943f3651fa00fe587854a5c1b6d0aa9c7c714296d0934dccf406")
DATA = "timezonefinder/data/"

MAGIC = b"TLZONES1"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8s12I")
UNITS_PER_DEGREE = 100_000          # 1e-5 degree
SOURCE_UNITS_PER_UNIT = 100         # the source is in 1e-7 degree
CELL = 25_000                       # 0.25 degree
COLUMNS, ROWS = 360 * UNITS_PER_DEGREE // CELL, 180 * UNITS_PER_DEGREE // CELL
X0, Y0 = -180 * UNITS_PER_DEGREE, -90 * UNITS_PER_DEGREE
UNIQUE = 0x8000_0000
NO_ZONE = 0x7FFF_FFFF
CHUNK = 1_000_000


def fetch(package):
    """The path of the wheel in .build-data/pypi, downloaded when missing and checked by its hash."""
    name, version, filename, sha256 = package
    path = os.path.join(PYPI_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(PYPI_DIR, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--only-binary=:all:",
                        "--platform", "manylinux_2_28_x86_64", "--python-version", "3.11", "--implementation", "cp",
                        "--dest", PYPI_DIR, f"{name}=={version}"], check=True)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {path}")
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    if digest != sha256:
        sys.exit(f"{path} has SHA-256 {digest}, expected {sha256}")
    return path


def flatbuffer_polygons(data):
    """The coordinate vectors of a FlatBuffers `PolygonCollection { polygons:[Polygon { coords:[int] }] }`."""
    def u32(position):
        return struct.unpack_from("<I", data, position)[0]

    def field(table, index):
        vtable = table - struct.unpack_from("<i", data, table)[0]
        if 4 + 2 * index >= struct.unpack_from("<H", data, vtable)[0]:
            return None
        offset = struct.unpack_from("<H", data, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    polygons = field(u32(0), 0)
    vector = polygons + u32(polygons)
    result = []
    for i in range(u32(vector)):
        element = vector + 4 + 4 * i
        coords = field(element + u32(element), 0)
        start = coords + u32(coords)
        values = np.frombuffer(data, dtype="<i4", count=u32(start), offset=start + 4).astype(np.int64)
        result.append(values.reshape(-1, 2))
    return result


def clean_ring(ring):
    """Quantised, without repeated points, closed; None when fewer than three distinct points remain."""
    quantised = np.floor_divide(ring + SOURCE_UNITS_PER_UNIT // 2, SOURCE_UNITS_PER_UNIT)
    keep = np.ones(len(quantised), dtype=bool)
    keep[1:] = np.any(quantised[1:] != quantised[:-1], axis=1)
    quantised = quantised[keep]
    if len(quantised) > 1 and np.all(quantised[0] == quantised[-1]):
        quantised = quantised[:-1]
    if len(quantised) < 3:
        return None
    return np.vstack([quantised, quantised[:1]])


def read_source(path):
    with zipfile.ZipFile(path) as archive:
        names = archive.read(DATA + "timezone_names.txt").decode("utf-8").split()
        zone_ids = np.load(io.BytesIO(archive.read(DATA + "zone_ids.npy")))
        holes_of = {int(k): v for k, v in json.loads(archive.read(DATA + "hole_registry.json")).items()}
        boundaries = flatbuffer_polygons(archive.read(DATA + "boundaries/coordinates.fbs"))
        holes = flatbuffer_polygons(archive.read(DATA + "holes/coordinates.fbs"))
    return names, zone_ids, holes_of, boundaries, holes


def expand(counts):
    """For groups of the given sizes: each member's group and its index within the group."""
    group = np.repeat(np.arange(len(counts)), counts)
    starts = np.cumsum(counts) - counts
    return group, np.arange(len(group)) - starts[group]


def varints(values):
    """Zig-zag LEB128 bytes of int64 values."""
    z = ((values << 1) ^ (values >> 63)).astype(np.uint64)
    lengths = np.ones(len(z), dtype=np.int64)
    for shift in (7, 14, 21, 28, 35):
        lengths += z >= (np.uint64(1) << np.uint64(shift))
    positions = np.cumsum(lengths) - lengths
    out = np.zeros(int(lengths.sum()), dtype=np.uint8)
    for b in range(6):
        selected = lengths > b
        byte = (z[selected] >> np.uint64(7 * b)) & np.uint64(0x7F)
        more = np.where(lengths[selected] > b + 1, 0x80, 0).astype(np.uint64)
        out[positions[selected] + b] = (byte | more).astype(np.uint8)
    return out.tobytes()


def edge_cells(xa, ya, xb, yb):
    """(cell, edge) pairs: every cell whose closed-open square [x0, x0+CELL) × [y0, y0+CELL) an edge may
    touch (exact per column, one unit of margin in y; a few extra cells only cost a test)."""
    lo_x, hi_x = np.minimum(xa, xb), np.maximum(xa, xb)
    first_column = np.clip((lo_x - X0) // CELL, 0, COLUMNS - 1)
    last_column = np.clip((hi_x - X0) // CELL, 0, COLUMNS - 1)
    edge, step = expand(last_column - first_column + 1)
    column = first_column[edge] + step
    left = np.maximum(lo_x[edge], X0 + column * CELL).astype(np.float64)
    right = np.minimum(hi_x[edge], X0 + (column + 1) * CELL).astype(np.float64)
    dx = (xb - xa)[edge].astype(np.float64)
    slope = np.divide((yb - ya)[edge], dx, out=np.zeros(len(edge)), where=dx != 0)
    y_left = np.where(dx != 0, ya[edge] + (left - xa[edge]) * slope, np.minimum(ya, yb)[edge])
    y_right = np.where(dx != 0, ya[edge] + (right - xa[edge]) * slope, np.maximum(ya, yb)[edge])
    low = np.floor((np.minimum(y_left, y_right) - 1 - Y0) / CELL).astype(np.int64)
    high = np.floor((np.maximum(y_left, y_right) + 1 - Y0) / CELL).astype(np.int64)
    low, high = np.clip(low, 0, ROWS - 1), np.clip(high, 0, ROWS - 1)
    pair, row_step = expand(high - low + 1)
    return (low[pair] + row_step) * COLUMNS + column[pair], edge[pair]


def line_crossings(xa, ya, xb, yb):
    """(line, edge, x) for each edge crossing the horizontal line y = Y0 + line × CELL (lines 0..ROWS-1)
    under the half-open rule min(ya, yb) <= y < max(ya, yb); x as TimeZoneBoundaries computes it."""
    lo_y, hi_y = np.minimum(ya, yb), np.maximum(ya, yb)
    first = np.clip(-((-(lo_y - Y0)) // CELL), 0, ROWS)
    last = np.clip(-((-(hi_y - Y0)) // CELL) - 1, -1, ROWS - 1)
    edge, step = expand(np.maximum(last - first + 1, 0))
    line = first[edge] + step
    y = Y0 + line * CELL
    x = xa[edge] + ((y - ya[edge]) * (xb - xa)[edge]) / (yb - ya)[edge]
    return line, edge, x


def build(output):
    names, zone_ids, holes_of, boundaries, holes = read_source(fetch(TIMEZONEFINDER))
    rings, ring_polygon, polygon_zone, polygon_first_ring = [], [], [], []
    for index, outer in enumerate(boundaries):
        cleaned = clean_ring(outer)
        if cleaned is None:
            continue
        polygon = len(polygon_zone)
        polygon_zone.append(int(zone_ids[index]))
        polygon_first_ring.append(len(rings))
        rings.append(cleaned)
        ring_polygon.append(polygon)
        count, first_hole = holes_of.get(index, (0, 0))
        for hole in holes[first_hole:first_hole + count]:
            cleaned = clean_ring(hole)
            if cleaned is not None:
                rings.append(cleaned)
                ring_polygon.append(polygon)
    polygon_first_ring.append(len(rings))
    del boundaries, holes
    polygon_zone = np.array(polygon_zone, dtype=np.int64)
    area = np.array([abs(np.dot(rings[r][:-1, 0].astype(np.float64), rings[r][1:, 1])
                         - np.dot(rings[r][1:, 0].astype(np.float64), rings[r][:-1, 1])) / 2
                     for r in polygon_first_ring[:-1]])
    ring_count = len(rings)
    ring_lengths = np.array([len(r) for r in rings], dtype=np.int64)
    ring_first_point = np.concatenate([[0], np.cumsum(ring_lengths)])
    points = np.vstack(rings)
    del rings
    X, Y = points[:, 0], points[:, 1]
    is_edge = np.ones(len(points), dtype=bool)
    is_edge[ring_first_point[1:] - 1] = False
    edges = np.nonzero(is_edge)[0]
    edge_polygon = np.repeat(np.array(ring_polygon), ring_lengths)[edges]
    xa, ya, xb, yb = X[edges], Y[edges], X[edges + 1], Y[edges + 1]
    polygon_count = len(polygon_zone)
    print(f"{len(names)} zones, {polygon_count} polygons, {ring_count} rings, {len(points)} points", flush=True)

    # Which polygons' edges touch each cell, as runs of consecutive edges (a million edges at a
    # time, so the temporaries stay small).
    chunks = [edge_cells(xa[i:i + CHUNK], ya[i:i + CHUNK], xb[i:i + CHUNK], yb[i:i + CHUNK])
              for i in range(0, len(edges), CHUNK)]
    cell = np.concatenate([c.astype(np.int32) for c, _ in chunks])
    edge_index = np.concatenate([e.astype(np.int32) + i * CHUNK for i, (_, e) in enumerate(chunks)])
    del chunks
    poly = edge_polygon[edge_index]
    order = np.lexsort((edge_index, poly, cell))
    cell, edge_index, poly = cell[order].astype(np.int64), edge_index[order].astype(np.int64), poly[order]
    group_key = cell * polygon_count + poly
    group_start = np.nonzero(np.concatenate([[True], group_key[1:] != group_key[:-1]]))[0]
    run_start = np.nonzero(np.concatenate([[True], (group_key[1:] != group_key[:-1])
                                           | (edges[edge_index[1:]] != edges[edge_index[:-1]] + 1)]))[0]
    run_length = np.diff(np.concatenate([run_start, [len(cell)]]))
    run_group = np.searchsorted(group_start, run_start, side="right") - 1
    group_cell, group_poly = cell[group_start], poly[group_start]
    group_runs = np.bincount(run_group, minlength=len(group_start))
    run_first_edge = edges[edge_index[run_start]]

    # Each polygon's crossings of the cell-bottom lines, sorted by (line, polygon, x), pair up into
    # intervals [s1, s2), [s3, s4), ...: a corner lies inside the polygon (an odd number of its
    # crossings east of it) exactly when one of them holds it.
    line, crossing_edge, crossing_x = line_crossings(xa, ya, xb, yb)
    crossing_poly = edge_polygon[crossing_edge]
    order = np.lexsort((crossing_x, crossing_poly, line))
    line, crossing_poly, crossing_x = line[order], crossing_poly[order], crossing_x[order]
    crossing_key = line * polygon_count + crossing_poly
    key_start = np.concatenate([[True], crossing_key[1:] != crossing_key[:-1]])
    positions = np.arange(len(crossing_key))
    index_in_key = positions - np.maximum.accumulate(np.where(key_start, positions, 0))
    odd = np.count_nonzero(np.bincount(np.cumsum(key_start) - 1) % 2)
    if odd:
        print(f"warning: {odd} (line, polygon) pairs have an odd number of crossings")
    starts = np.nonzero((index_in_key % 2 == 0) & (positions + 1 < len(crossing_key)))[0]
    starts = starts[crossing_key[starts] == crossing_key[starts + 1]]
    interval_start, interval_end = crossing_x[starts], crossing_x[starts + 1]

    def corner_x(column):
        return (X0 + column * CELL).astype(np.float64)
    first = np.ceil((interval_start - X0) / CELL).astype(np.int64)   # the first corner at or east of the start
    first += corner_x(first) < interval_start
    first -= corner_x(first - 1) >= interval_start
    last = np.ceil((interval_end - X0) / CELL).astype(np.int64) - 1  # the last corner west of the end
    last -= corner_x(last) >= interval_end
    last += corner_x(last + 1) < interval_end
    first, last = np.maximum(first, 0), np.minimum(last, COLUMNS - 1)
    interval, step = expand(np.maximum(last - first + 1, 0))
    corner_key = np.unique((line[starts][interval] * COLUMNS + first[interval] + step) * polygon_count
                           + crossing_poly[starts][interval])

    # A cell's candidates: the polygons with edges in it and those holding its corner (a polygon
    # with area in the cell has one or the other). One zone among them answers for the whole cell.
    edge_key = group_cell * polygon_count + group_poly
    candidate_key = np.union1d(edge_key, corner_key)
    candidate_cell, candidate_poly = candidate_key // polygon_count, candidate_key % polygon_count
    candidate_corner = np.isin(candidate_key, corner_key, assume_unique=True)
    candidate_group = np.searchsorted(edge_key, candidate_key)
    candidate_group = np.where(np.isin(candidate_key, edge_key, assume_unique=True), candidate_group, -1)
    candidate_zone = polygon_zone[candidate_poly]
    cells = np.full(COLUMNS * ROWS, UNIQUE | NO_ZONE, dtype=np.uint64)
    zone_min = np.full(COLUMNS * ROWS, 1 << 30, dtype=np.int64)
    zone_max = np.full(COLUMNS * ROWS, -1, dtype=np.int64)
    np.minimum.at(zone_min, candidate_cell, candidate_zone)
    np.maximum.at(zone_max, candidate_cell, candidate_zone)
    single = (zone_max >= 0) & (zone_min == zone_max)
    cells[single] = UNIQUE | zone_min[single].astype(np.uint64)
    mixed_cells = np.nonzero((zone_max >= 0) & (zone_min != zone_max))[0]
    unresolved = int(np.count_nonzero(zone_max < 0))

    # The records of the mixed cells: the smaller polygon first, so where zones overlap (Xinjiang is
    # both Asia/Urumqi and Asia/Shanghai) the more specific one answers; from the first candidate
    # after which one zone remains, that zone answers without a test.
    first_candidate = np.searchsorted(candidate_cell, mixed_cells, side="left")
    end_candidate = np.searchsorted(candidate_cell, mixed_cells, side="right")
    data = []
    for c, begin, end in zip(mixed_cells, first_candidate, end_candidate):
        members = np.arange(begin, end)
        members = members[np.lexsort((candidate_poly[members], area[candidate_poly[members]]))]
        zones = candidate_zone[members]
        differs = np.nonzero(zones != zones[-1])[0]
        record = [len(members), int(differs[-1]) + 1]
        for m in members:
            group = int(candidate_group[m])
            runs = int(group_runs[group]) if group >= 0 else 0
            record += [int(candidate_poly[m]) | (int(candidate_corner[m]) << 31), runs]
            first_run = int(np.searchsorted(run_group, group)) if group >= 0 else 0
            for r in range(first_run, first_run + runs):
                record += [int(run_first_edge[r]), int(run_length[r])]
        cells[c] = len(data)
        data += record

    del cell, edge_index, poly, group_key, order, edges, edge_polygon, xa, ya, xb, yb
    del line, crossing_poly, crossing_x, crossing_key, key_start, positions, index_in_key
    name_blobs = [n.encode("utf-8") for n in names]
    name_offsets = np.concatenate([[0], np.cumsum([len(b) for b in name_blobs])]).astype("<u4")
    name_bytes = b"".join(name_blobs)
    deltas = np.diff(np.concatenate([[[0, 0]], points]), axis=0).reshape(-1)
    point_bytes = varints(deltas)

    def padded(blob):
        return blob + b"\0" * (-len(blob) % 4)

    parts = [HEADER.pack(MAGIC, FORMAT_VERSION, len(names), polygon_count, ring_count, len(points), CELL,
                         UNITS_PER_DEGREE, COLUMNS, ROWS, len(name_bytes), len(point_bytes), len(data)),
             name_offsets.tobytes(), padded(name_bytes),
             padded(polygon_zone.astype("<u2").tobytes()), np.array(polygon_first_ring, dtype="<u4").tobytes(),
             ring_first_point.astype("<u4").tobytes(), cells.astype("<u4").tobytes(),
             np.array(data, dtype="<u4").tobytes(), point_bytes]
    os.makedirs(os.path.dirname(output), exist_ok=True)
    temporary = output + ".partial"
    with open(temporary, "wb") as file:
        for part in parts:
            file.write(part)
    os.replace(temporary, output)
    mixed = len(mixed_cells)
    print(f"{output}: {os.path.getsize(output)} bytes; cells: {COLUMNS * ROWS - mixed} of one zone, {mixed} mixed "
          f"({len(data)} words), {unresolved} empty cells without a zone; points {len(point_bytes)} bytes")


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
