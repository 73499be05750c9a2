#!/usr/bin/env python3
"""Builds Travelog's World Magnetic Model 2025 data from PyPI packages (NOAA NCEI, public domain).

Sources, fetched once with `pip download --no-deps` (PyPI only) into .build-data/pypi:
  - pygeomag 1.1.0: pygeomag/wmm/WMM_2025.COF, the WMM2025 Gauss coefficients exactly as NOAA
    publishes them (main field g, h in nT and secular variation in nT/year, epoch 2025.0,
    degree and order 12). Copied byte for byte to .build-data/WMM2025.COF, which
    TravelogTracking's `WorldMagneticModel` reads.
  - wmm_calculator 1.4.4 and geomaglib 1.2.4: NOAA's own Python implementation of the model
    (numpy). It evaluates the twelve test points of the WMM2025 report (dates 2025.0 and 2027.5,
    heights 0 and 100 km above the ellipsoid, latitude/longitude 80/0, 0/120, -80/240) into
    .build-data/WMM2025-test-values.tsv, which the tests and the benchmark compare against.
    No PyPI package ships the report's test-value table itself, so the reference is NOAA's code.

Usage: scripts/build-wmm.py [--output-dir .build-data]
"""
import argparse
import os
import subprocess
import sys
import zipfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DATA = os.path.join(REPOSITORY, ".build-data")
PYPI_DIR = os.path.join(BUILD_DATA, "pypi")

PYGEOMAG = ("pygeomag", "1.1.0", "pygeomag-1.1.0-py3-none-any.whl")
WMM_CALCULATOR = ("wmm_calculator", "1.4.4", "wmm_calculator-1.4.4-py3-none-any.whl")
GEOMAGLIB = ("geomaglib", "1.2.4", "geomaglib-1.2.4-py3-none-any.whl")

TEST_DATES = (2025.0, 2027.5)
TEST_HEIGHTS_KM = (0.0, 100.0)
TEST_POSITIONS = ((80.0, 0.0), (0.0, 120.0), (-80.0, 240.0))


def fetch(package):
    """The path of a package's wheel in .build-data/pypi, downloaded when missing."""
    name, version, filename = package
    path = os.path.join(PYPI_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(PYPI_DIR, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                        "--quiet", "--dest", PYPI_DIR, f"{name}=={version}"], check=True)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {path}")
    return path


def write_coefficients(output_dir):
    with zipfile.ZipFile(fetch(PYGEOMAG)) as archive:
        data = archive.read("pygeomag/wmm/WMM_2025.COF")
    if not data.lstrip().startswith(b"2025.0") or b"WMM-2025" not in data.splitlines()[0]:
        sys.exit("pygeomag's WMM_2025.COF does not have the WMM-2025 header")
    path = os.path.join(output_dir, "WMM2025.COF")
    with open(path, "wb") as out:
        out.write(data)
    print(f"wrote {path} ({len(data)} bytes)")


def write_test_values(output_dir):
    extracted = os.path.join(PYPI_DIR, "wmm-reference")
    for package in (WMM_CALCULATOR, GEOMAGLIB):
        with zipfile.ZipFile(fetch(package)) as archive:
            archive.extractall(extracted)
    sys.path.insert(0, extracted)
    try:
        from wmm import wmm_calc  # NOAA's implementation; needs numpy (Debian python3-numpy)
    except ImportError as error:
        sys.exit(f"cannot load NOAA's wmm_calculator ({error}); install python3-numpy")
    model = wmm_calc()
    path = os.path.join(output_dir, "WMM2025-test-values.tsv")
    with open(path, "w") as out:
        out.write("# decimal_year\theight_km\tlatitude_deg\tlongitude_deg\tX_nT\tY_nT\tZ_nT\tH_nT\tF_nT\tI_deg\tD_deg\n")
        out.write("# the WMM2025 report's test points, evaluated by NOAA's wmm_calculator 1.4.4 (PyPI)\n")
        for year in TEST_DATES:
            for height in TEST_HEIGHTS_KM:
                for latitude, longitude in TEST_POSITIONS:
                    model.setup_env(latitude, longitude, height)
                    model.setup_time(dyear=year)
                    a = model.get_all()
                    values = [float(a[key][0]) for key in ("x", "y", "z", "h", "f", "inc", "dec")]
                    row = [year, height, latitude, longitude] + values
                    out.write("\t".join(repr(v) for v in row) + "\n")
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", default=BUILD_DATA)
    args = parser.parse_args()
    os.makedirs(args.output_dir, exist_ok=True)
    write_coefficients(args.output_dir)
    write_test_values(args.output_dir)


if __name__ == "__main__":
    main()
