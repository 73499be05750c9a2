"""Logs the person in and seeds what the person's schemathesis pass works on (scripts/schemathesis-test.sh).

    python3 seed_person.py URL USER PASSWORD BASE_CONFIG OUT_CONFIG

Two logins: the first is the run's session (the run must not end it);
the second is a spare that `DELETE /api/v1/sessions/{id}` may end. Then three mornings in Berlin as
a fix a minute (home, a walk to work, work, a walk back, home: seven or more journal entries, two places),
two regions and two notification channels (webhooks to hooks.invalid, a name that never resolves).

OUT_CONFIG is BASE_CONFIG followed by the session cookie as the document's `session` scheme (so
schemathesis knows the run's credentials: it generates no others, and its probe without them
drops the cookie), and dictionaries of these objects' ids bound to the `{id}` of the person's
operations, so that about half of their cases name a real object (the rest stay generated: a
malformed id's 400, an unknown one's 404). Prints two lines: the session's id and the spare's.
"""
import json
import sys
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

url, user, password, base_config, out_config = sys.argv[1:6]


def call(method, path, body=None, cookie=None):
    """One request; the page's headers with a cookie (the cross-site check wants X-Requested-With)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", f"travelog_session={cookie}")
        request.add_header("X-Requested-With", "XMLHttpRequest")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return response.headers, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        sys.exit(f"FAIL: {method} {path}: {error.code} {error.read().decode(errors='replace')}")


def login():
    headers, _ = call("POST", "/api/v1/session", {"user": user, "password": password})
    for header in headers.get_all("Set-Cookie"):
        name, _, rest = header.partition("=")
        if name == "travelog_session":
            return rest.split(";")[0]
    sys.exit("FAIL: the login set no session cookie")


def morning(start):
    """Home until 08:00 local, a walk, work until 12:00, a walk back, home: a fix a minute."""
    home, work = (52.52, 13.405), (52.50, 13.45)
    fixes = []
    for minute in range(8 * 60):
        if minute < 120 or minute >= 390:
            position = home
        elif 150 <= minute < 360:
            position = work
        else:
            share = (minute - 120) / 30 if minute < 150 else (minute - 360) / 30
            source, target = (home, work) if minute < 150 else (work, home)
            position = tuple(a + (b - a) * share for a, b in zip(source, target))
        time = (start + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ")
        fixes.append({"latitude": position[0], "longitude": position[1], "timestamp": time, "horizontalAccuracy": 8})
    return fixes


cookie, spare = login(), login()
sessions = call("GET", "/api/v1/sessions", cookie=cookie)[1]
own = next(entry["id"] for entry in sessions if entry["current"])
spare_id = next(entry["id"] for entry in sessions if not entry["current"])

for day in range(3):
    call("POST", "/api/v1/locations?device=phone", morning(datetime(2024, 6, 1 + day, 6, tzinfo=timezone.utc)), cookie=cookie)
call("POST", "/api/v1/journal/process", cookie=cookie)
visits = [entry["id"] for entry in call("GET", "/api/v1/visits?from=2024-06-01&to=2024-06-03", cookie=cookie)[1]]
places = [entry["id"] for entry in call("GET", "/api/v1/places", cookie=cookie)[1]]
regions = [call("POST", "/api/v1/regions", {"name": name, "circle": {"latitude": 52.52, "longitude": 13.405, "radiusMeters": radius}},
                cookie=cookie)[1]["id"] for name, radius in (("Home", 150), ("Office", 80))]
channels = [call("POST", "/api/v1/notifications/channels", {"type": "webhook", "url": f"https://hooks.invalid/{name}",
                                                                "secret": "a secret of 16 characters or more"},
                 cookie=cookie)[1]["id"] for name in ("first", "second")]
if len(visits) < 7 or len(places) != 2:
    sys.exit(f"FAIL: the seeded mornings made {len(visits)} journal entries and {len(places)} places, expected 7 or more and 2")

# Each operation that ends an object gets one of its own, so that the others still find theirs; the
# last entries, whose ids generated data meets least (it favours 0, 1 and the bounds): the
# third last is renamed, the fourth last deleted, the last two merged (most merges name them: a
# merge needs two real, different entries).
bindings = {
    "renamed_visits": (visits[-3:-2], ["PATCH /api/v1/visits/{id}"]),
    "deleted_visits": (visits[-4:-3], ["DELETE /api/v1/visits/{id}"]),
    "places": (places, ["PATCH /api/v1/places/{id}"]),
    "replaced_regions": (regions[:1], ["PUT /api/v1/regions/{id}"]),
    "deleted_regions": (regions[1:], ["DELETE /api/v1/regions/{id}"]),
    "channels": (channels, ["DELETE /api/v1/notifications/channels/{id}"]),
    "sessions": ([spare_id], ["DELETE /api/v1/sessions/{id}"]),
    "merged_visits": (visits[-2:], []),
}
with open(base_config) as source, open(out_config, "w") as out:
    out.write(source.read())
    out.write("\n# Written by seed_person.py: the person's session cookie, and the seeded objects' ids for about\n"
              "# half of the {id}s.\n")
    out.write(f'[auth.openapi.session]\napi_key = "{cookie}"\n')
    for name, (ids, _) in bindings.items():
        out.write(f"[dictionaries.{name}]\nvalues = {json.dumps(ids)}\n")
    for name, (_, operations) in bindings.items():
        for operation in operations:
            out.write(f'\n[[operations]]\ninclude-name = "{operation}"\n'
                      f'parameters = {{ "path.id" = {{ dictionary = "{name}", probability = 0.5 }} }}\n')
    out.write('\n[[operations]]\ninclude-name = "POST /api/v1/visits/merge"\n'
              'parameters = { "body.ids[*]" = { dictionary = "merged_visits", probability = 0.9 } }\n')
    # Some logins with the right password (a 200, unless the run's wrong ones have throttled it).
    out.write(f"[dictionaries.user]\nvalues = {json.dumps([user])}\n[dictionaries.password]\nvalues = {json.dumps([password])}\n")
    out.write('\n[[operations]]\ninclude-name = "POST /api/v1/session"\n'
              'parameters = { "body.user" = { dictionary = "user", probability = 0.5 }, '
              '"body.password" = { dictionary = "password", probability = 0.5 } }\n')
print(own)
print(spare_id)
