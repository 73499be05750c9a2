#!/usr/bin/python3
"""Writes a GPX 1.1 file of N track points for the page's bench: one fix a second, 16 hours a day
from 06:00 UTC (the night is a gap, so the path has a segment per day), moving like a person who
walks, drives and stops, with a few metres of noise. Deterministic for a given N and seed.

usage: synthetic_gpx.py OUT.gpx [--points 1000000] [--start 2024-05-01]
Prints the first and last day (UTC) of the track.
"""

import argparse
import datetime
import math
import random

ACTIVE_SECONDS_PER_DAY = 16 * 3600
METERS_PER_DEGREE_LATITUDE = 111_320.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--start", default="2024-05-01", help="the first day (UTC)")
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    first_day = datetime.datetime.strptime(arguments.start, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc)
    latitude, longitude = 48.8566, 2.3522
    heading = rng.uniform(0, 2 * math.pi)
    speed = 1.4
    mode_left = 0
    with open(arguments.output, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<gpx version="1.1" creator="Travelog browser bench" xmlns="http://www.topografix.com/GPX/1/1">\n'
                  ' <trk><name>bench</name><trkseg>\n')
        lines = []
        for index in range(arguments.points):
            day, second = divmod(index, ACTIVE_SECONDS_PER_DAY)
            if mode_left <= 0:  # walk, drive or stop for a while
                mode = rng.random()
                speed = 0.0 if mode < 0.2 else (rng.uniform(0.8, 1.8) if mode < 0.7 else rng.uniform(8, 30))
                mode_left = rng.randint(120, 3600)
            mode_left -= 1
            heading += rng.gauss(0, 0.03 if speed > 5 else 0.08)
            step = speed
            latitude += step * math.cos(heading) / METERS_PER_DEGREE_LATITUDE
            longitude += step * math.sin(heading) / (METERS_PER_DEGREE_LATITUDE * math.cos(math.radians(latitude)))
            if abs(latitude) > 70:  # turn back before the map's edges
                heading += math.pi
            noise_lat = rng.gauss(0, 3) / METERS_PER_DEGREE_LATITUDE
            noise_lon = rng.gauss(0, 3) / METERS_PER_DEGREE_LATITUDE
            moment = first_day + datetime.timedelta(days=day, hours=6, seconds=second)
            lines.append(f'  <trkpt lat="{latitude + noise_lat:.7f}" lon="{longitude + noise_lon:.7f}">'
                         f'<time>{moment:%Y-%m-%dT%H:%M:%S}Z</time></trkpt>\n')
            if len(lines) >= 50_000:
                out.write("".join(lines))
                lines.clear()
        out.write("".join(lines))
        out.write(" </trkseg></trk>\n</gpx>\n")
    last_day = first_day + datetime.timedelta(days=(arguments.points - 1) // ACTIVE_SECONDS_PER_DAY)
    print(f"{first_day:%Y-%m-%d} {last_day:%Y-%m-%d}")


if __name__ == "__main__":
    main()
