#!/usr/bin/env bash
# Real photos for the photo tests (issue 32): test images of two other projects, taken from their
# source distributions on PyPI (pinned, checked by SHA-256, kept in .build-data/pypi): Pillow's
# Tests/images (JPEG, MPO, TIFF, PNG, WebP, AVIF with EXIF and GPS; HPND licence) and pillow-heif's
# tests/images (HEIC/HEIF from phones and cameras; BSD-3-Clause). A chosen set is extracted into
# .build-data/photos/pillow and .build-data/photos/pillow-heif; nothing of them is committed.
# Usage: scripts/photo-samples.sh [--output .build-data/photos]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
output="$root/.build-data/photos"
[ "${1:-}" = "--output" ] && output="$2"
python="${PYTHON:-python3}"
pillow_version=11.3.0
pillow_sha256=3828ee7586cd0b2091b6209e5ad53e20d0649bbe87164a459d0676e035e8f523
heif_version=1.1.0
heif_sha256=6c0c5f81a780185bbddc56e0d5537c53aa6cb5fb6018f5a60534a47c53f5455d
pypi="$root/.build-data/pypi"
pillow_sdist="$pypi/pillow-$pillow_version.tar.gz"
heif_sdist="$pypi/pillow_heif-$heif_version.tar.gz"
if [ ! -s "$pillow_sdist" ] || [ ! -s "$heif_sdist" ]; then
  mkdir -p "$pypi"
  "$python" -m pip download --quiet --no-deps --no-binary=:all: --disable-pip-version-check -d "$pypi" \
    "pillow==$pillow_version" "pillow-heif==$heif_version" \
    || { echo "FAIL: the Pillow $pillow_version and pillow-heif $heif_version sdists could not be downloaded from PyPI"; exit 1; }
fi
echo "$pillow_sha256  $pillow_sdist" | sha256sum -c --quiet - || { echo "FAIL: $pillow_sdist is not the pinned sdist"; exit 1; }
echo "$heif_sha256  $heif_sdist" | sha256sum -c --quiet - || { echo "FAIL: $heif_sdist is not the pinned sdist"; exit 1; }
"$python" - "$pillow_sdist" "$heif_sdist" "$output" <<'PY'
import os, sys, tarfile
pillow_sdist, heif_sdist, output = sys.argv[1:4]
chosen = {
    (pillow_sdist, "pillow"): [
        "ultrahdr.jpg", "flower.jpg", "flower.webp", "empty_gps_ifd.jpg", "broken_exif_dpi.jpg", "iptc.jpg",
        "exif_gps.jpg", "exif_gps_typeerror.jpg", "xmp_test.jpg", "exif_typeerror.jpg",
        "invalid-exif-without-x-resolution.jpg", "invalid-exif.jpg", "app13-multiple.jpg", "ifd_tag_type.tiff",
        "fujifilm.mpo", "exif.png", "exif_imagemagick_orientation.png", "hopper_orientation_6.jpg",
        "hopper_orientation_6.webp", "hopper_bad_exif.jpg", "multiple_exif.jpg", "truncated_exif_dpi.jpg",
        "exif-ifd-offset.jpg", "avif/exif.avif", "g4_orientation_6.tif",
    ],
    (heif_sdist, "pillow-heif"): [
        "heif_special/xiaomi.heic", "heif_special/aux_YCbCr.heic", "heif_special/guitar_cw90.hif",
        "heif_special/200MP.heic", "heif_other/pug.heic", "heif_other/empty_icc.heic", "heif_other/arrow.heic",
        "heif_other/L_exif_xmp_iptc.heic", "heif_other/cat.hif", "heif_other/spatial_photo.heic",
        "heif_corrupted/corrupted.hif", "heif_corrupted/corrupted.heic", "heif_corrupted/empty.heic",
        "heif_truncated/truncated.heic",
    ],
}
count = 0
for (sdist, folder), names in chosen.items():
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        images = "Tests/images" if folder == "pillow" else "tests/images"
        os.makedirs(os.path.join(output, folder), exist_ok=True)
        for name in names:
            data = archive.extractfile(f"{top}/{images}/{name}").read()
            target = os.path.join(output, folder, os.path.basename(name))
            with open(target + ".partial", "wb") as file:
                file.write(data)
            os.replace(target + ".partial", target)
            count += 1
print(f"{output}: {count} photos from Pillow and pillow-heif's test images")
PY
