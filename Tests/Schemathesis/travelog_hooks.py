"""Schemathesis hooks for Travelog's OpenAPI document (scripts/schemathesis-test.sh).

The document names two string formats JSON Schema has no word for; these strategies generate
values of them, so that "valid data" means what the server promises to accept:
- `time-zone`: an IANA time zone name (the host's tz database, which the server reads too);
- `bbox`: `minLon,minLat,maxLon,maxLat` in degrees, south not above north.

And a guard for the person's pass: it never ends the session it runs with (`before_call`).
"""
import os
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


# The person's pass logs in with a session cookie (TRAVELOG_SCHEMATHESIS_OWN_SESSION: its id in
# GET /api/v1/sessions). Schemathesis reuses ids it saw in answers, so DELETE /api/v1/sessions/{id}
# could end the very session the run is made with, and every later request would be a 401: that
# case targets the spare session instead (TRAVELOG_SCHEMATHESIS_SPARE_SESSION, logged in for it).
@schemathesis.hook
def before_call(context, case, **kwargs):
    own = os.environ.get("TRAVELOG_SCHEMATHESIS_OWN_SESSION")
    if own and case.method.upper() == "DELETE" and case.path == "/api/v1/sessions/{id}" \
            and str(case.path_parameters.get("id")) == own:
        case.path_parameters["id"] = os.environ["TRAVELOG_SCHEMATHESIS_SPARE_SESSION"]
