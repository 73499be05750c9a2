"""Schemathesis hooks for Travelog's OpenAPI document (scripts/schemathesis-test.sh).

The document names two string formats JSON Schema has no word for; these strategies generate
values of them, so that "valid data" means what the server promises to accept:
- `time-zone`: an IANA time zone name (the host's tz database, which the server reads too);
- `bbox`: `minLon,minLat,maxLon,maxLat` in degrees, south not above north.
"""
import zoneinfo

import schemathesis
from hypothesis import strategies as st

ZONES = sorted(name for name in zoneinfo.available_timezones() if "/" in name or name == "UTC")


@st.composite
def _boxes(draw):
    longitude = st.floats(min_value=-180, max_value=180, allow_nan=False).map(lambda value: round(value, 5))
    latitude = st.floats(min_value=-90, max_value=90, allow_nan=False).map(lambda value: round(value, 5))
    south, north = sorted((draw(latitude), draw(latitude)))
    west, east = draw(longitude), draw(longitude)
    return f"{west},{south},{east},{north}"


schemathesis.openapi.format("time-zone", st.sampled_from(ZONES))
schemathesis.openapi.format("bbox", _boxes())
