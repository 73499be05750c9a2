#!/usr/bin/env bash
# The measurement behind docs/ARCHITECTURE.md "Photos": Exiv2 (libexiv2-dev) against libexif
# (libexif-dev) on the real test images of `make photo-samples`: which formats each reads a
# DateTimeOriginal from (ExifTool as the reference) and microseconds per file (each file read N times
# from memory; C and C++ at -O2). Figures are printed, never asserted.
# Usage: scripts/bench-exif-libraries.sh [--loops N]   (needs libexif-dev, libexiv2-dev, exiftool)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
loops=300
[ "${1:-}" = "--loops" ] && loops="$2"
photos="$root/.build-data/photos"
[ -d "$photos" ] || { echo "FAIL: $photos is absent: run make photo-samples"; exit 1; }
for header in /usr/include/libexif/exif-data.h /usr/include/exiv2/exiv2.hpp; do
  [ -f "$header" ] || { echo "FAIL: $header is absent: apt-get install libexif-dev libexiv2-dev"; exit 1; }
done
work="$root/.build-bench-exif"
mkdir -p "$work"
cat >"$work/exiv2.cpp" <<'CPP'
#include <exiv2/exiv2.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>
int main(int argc, char **argv) {
    Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute); Exiv2::enableBMFF(true); Exiv2::XmpParser::initialize();
    int loops = atoi(argv[1]);
    for (int i = 2; i < argc; i++) {
        std::ifstream file(argv[i], std::ios::binary);
        std::vector<unsigned char> data((std::istreambuf_iterator<char>(file)), {});
        std::string time = "-";
        auto start = std::chrono::steady_clock::now();
        for (int l = 0; l < loops; l++) {
            try {
                auto image = Exiv2::ImageFactory::open(data.data(), (long)data.size());
                image->readMetadata();
                auto it = image->exifData().findKey(Exiv2::ExifKey("Exif.Photo.DateTimeOriginal"));
                if (it != image->exifData().end()) time = it->toString();
            } catch (std::exception &) { time = "-"; }
        }
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / loops;
        printf("%s\t%.1f\t%s\n", argv[i], us, time.c_str());
    }
}
CPP
cat >"$work/libexif.c" <<'C'
#include <libexif/exif-data.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
    int loops = atoi(argv[1]);
    for (int i = 2; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb"); fseek(file, 0, SEEK_END); long size = ftell(file); rewind(file);
        unsigned char *data = malloc(size > 0 ? size : 1); size = (long)fread(data, 1, size, file); fclose(file);
        char time[64] = "-"; struct timespec a, z; clock_gettime(CLOCK_MONOTONIC, &a);
        for (int l = 0; l < loops; l++) {
            ExifData *exif = exif_data_new_from_data(data, size);
            if (exif) {
                ExifEntry *entry = exif_data_get_entry(exif, EXIF_TAG_DATE_TIME_ORIGINAL);
                if (entry) exif_entry_get_value(entry, time, sizeof time);
                exif_data_unref(exif);
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &z);
        printf("%s\t%.1f\t%s\n", argv[i], ((z.tv_sec - a.tv_sec) * 1e6 + (z.tv_nsec - a.tv_nsec) / 1e3) / loops, time);
        free(data);
    }
}
C
g++ -std=c++14 -O2 -w "$work/exiv2.cpp" -o "$work/exiv2" -lexiv2
gcc -O2 "$work/libexif.c" -o "$work/libexif" -lexif
mapfile -t files < <(find "$photos" -type f -size +0 | sort)
"$work/exiv2" "$loops" "${files[@]}" >"$work/exiv2.tsv"
"$work/libexif" "$loops" "${files[@]}" >"$work/libexif.tsv"
exiftool -json -n -G1 -q -q -ExifIFD:DateTimeOriginal "${files[@]}" >"$work/exiftool.json" 2>/dev/null || true
echo "load: $(uptime | sed 's/.*load average: //')"
"${PYTHON:-python3}" - "$work" <<'PY'
import json, os, statistics, sys
work = sys.argv[1]
reference = {r["SourceFile"]: r.get("ExifIFD:DateTimeOriginal") for r in json.load(open(os.path.join(work, "exiftool.json")))}
def load(name):
    return {line.split("\t")[0]: (float(line.split("\t")[1]), line.rstrip("\n").split("\t")[2]) for line in open(os.path.join(work, name))}
exiv2, libexif = load("exiv2.tsv"), load("libexif.tsv")
kinds = {"jpg": "JPEG/MPO", "mpo": "JPEG/MPO", "heic": "HEIF", "hif": "HEIF", "tif": "TIFF", "tiff": "TIFF", "png": "PNG", "webp": "WebP", "avif": "AVIF"}
rows = {}
for path in exiv2:
    kind = kinds.get(path.rsplit(".", 1)[-1].lower(), "other")
    row = rows.setdefault(kind, {"files": 0, "reference": 0, "exiv2": 0, "libexif": 0, "exiv2_us": [], "libexif_us": []})
    has = reference.get(path) is not None
    row["files"] += 1; row["reference"] += has
    row["exiv2"] += has and exiv2[path][1] != "-"; row["libexif"] += has and libexif[path][1] != "-"
    row["exiv2_us"].append(exiv2[path][0]); row["libexif_us"].append(libexif[path][0])
print(f"{'format':10} {'files':>5} {'ExifTool':>8} {'Exiv2':>6} {'libexif':>7} {'Exiv2 µs (median)':>18} {'libexif µs (median)':>20}")
for kind, row in sorted(rows.items()):
    print(f"{kind:10} {row['files']:5} {row['reference']:8} {row['exiv2']:6} {row['libexif']:7} "
          f"{statistics.median(row['exiv2_us']):18.1f} {statistics.median(row['libexif_us']):20.1f}")
PY
