"""Issue 26's journal defects as a person met them on the page (imported by features_check.py), at
a desktop size and a phone size, each on a day of its own:

- one walk recorded by two devices (a phone posting, the same fixes imported under a second device
  name) must not double the day's distance, nor list each stay twice;
- the numbers of a day agree: the distance shown, the path's length the server drew, and the
  timeline's moving figures (no more than the day);
- "Merge with next" then "Delete" must not bring the merged entry back, after a reload too (desktop).
"""

import datetime
import json
import math

from layout_check import open_view

#: How many days back the two sizes' days are (apart from the other checks' days).
DAYS_AGO = {"desktop": 520, "phone": 521}


def day_fixes(day, iso):
    """Two stays joined by a 25-minute walk of about 2.2 km, then a third stay: 09:00–11:30."""
    stays = [(47.3700, 8.5400), (47.3700, 8.5700), (47.3800, 8.5700)]
    fixes = []
    for minute in range(0, 151):
        if minute <= 35:
            point = stays[0]
        elif minute < 60:
            share = (minute - 35) / 25
            point = (stays[0][0], stays[0][1] + (stays[1][1] - stays[0][1]) * share)
        elif minute <= 95:
            point = stays[1]
        elif minute < 115:
            share = (minute - 95) / 20
            point = (stays[1][0] + (stays[2][0] - stays[1][0]) * share, stays[1][1])
        else:
            point = stays[2]
        jitter = 0.00002 * math.sin(minute)
        fixes.append({"latitude": point[0] + jitter, "longitude": point[1] - jitter,
                      "timestamp": iso(day + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 10})
    return fixes


def as_gpx(fixes):
    points = "".join(f'<trkpt lat="{fix["latitude"]:.6f}" lon="{fix["longitude"]:.6f}"><time>{fix["timestamp"]}</time></trkpt>'
                     for fix in fixes)
    return ('<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">'
            f'<trk><trkseg>{points}</trkseg></trk></gpx>')


def meters(text):
    """A shown distance ("2.21 km", "1.37 mi", "2,210.00 km") in metres, None when there is none."""
    parts = (text or "").replace(",", "").split()
    if len(parts) < 2:
        return None
    try:
        number = float(parts[0])
    except ValueError:
        return None
    return number * (1609.344 if parts[1].startswith("mi") else 1000)


def shown(devtools):
    """The day's distance, the timeline's trips' distances and the journal's entries, as shown."""
    return devtools.evaluate(
        "(() => ({distance: document.getElementById('distance').textContent,"
        " trips: [...document.querySelectorAll('#timeline .timeline-trip .timeline-detail')].map((e) => e.textContent.split(' · ')[0]),"
        " entries: document.querySelectorAll('#journal li').length}))()")


def path_meters(devtools, day):
    return devtools.evaluate(f"fetch('/api/v1/path?from={day}&to={day}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                             ".then((r) => r.json()).then((j) => j.properties.distanceMeters)")


def check_journal_truths(devtools, report, base_url, token, post_locations, iso, size):
    day = (datetime.datetime.now().astimezone() - datetime.timedelta(days=DAYS_AGO[size])).replace(
        hour=9, minute=0, second=0, microsecond=0)
    date = day.date().isoformat()
    fixes = day_fixes(day, iso)
    post_locations(base_url, token, fixes)
    open_view(devtools, base_url, f"#from={date}")
    devtools.wait_for("document.querySelectorAll('#journal li').length >= 3"
                      " && document.querySelectorAll('#timeline .timeline-trip').length >= 2"
                      " && /[0-9]/.test(document.getElementById('distance').textContent)", 30)
    alone = shown(devtools)
    alone_meters = meters(alone["distance"])

    # The same walk imported under a second device's name (a watch, or the file imported twice).
    status = devtools.evaluate(f"fetch('/api/v1/imports?filename=walk.gpx&device=band-{size}', {{method: 'POST',"
                               " headers: {'X-Requested-With': 'fetch', 'Content-Type': 'application/octet-stream'},"
                               f" body: {json.dumps(as_gpx(fixes))}}}).then((r) => r.status)")
    open_view(devtools, base_url, f"#from={date}")
    devtools.wait_for("document.querySelectorAll('#journal li').length >= 3"
                      " && document.querySelectorAll('#timeline .timeline-trip').length >= 2"
                      " && /[0-9]/.test(document.getElementById('distance').textContent)", 30)
    both = shown(devtools)
    both_meters = meters(both["distance"])
    report(status == 200 and alone_meters and both_meters and abs(both_meters - alone_meters) <= 0.01 * alone_meters
           and both["entries"] == alone["entries"] and len(both["trips"]) == len(alone["trips"]),
           f"{size}: one walk recorded by two devices counts once: {alone['distance']} and {alone['entries']} entries alone,"
           f" {both['distance']} and {both['entries']} entries with the second device (import HTTP {status})")

    # One computation: the distance shown is the path's length, and the trips add up to no more.
    path = path_meters(devtools, date)
    trips = [meters(text) for text in both["trips"]]
    report(both_meters and path is not None and abs(path - both_meters) <= max(10, 0.005 * both_meters)
           and trips and all(trip is not None for trip in trips) and sum(trips) <= both_meters * 1.01 + 10
           and sum(trips) >= both_meters * 0.5,
           f"{size}: the day's distance ({both['distance']}), the path's length ({path} m) and the timeline's trips"
           f" ({both['trips']}) agree")

    # Merge with next, then Delete: the merged entry stays deleted, after a reload too. At the
    # desktop size only: at the phone size a DevTools call of this sequence once waited past its 30 s
    # (a page dialog not answered, it seemed; not found yet), and what it checks is the journal's,
    # not the layout's.
    if size != "desktop":
        return
    before = both["entries"]
    devtools.evaluate("window.confirm = () => true")
    devtools.evaluate("document.querySelector('#journal li:last-child [data-action=merge]').click()")
    merged = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before - 1}", 15)
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') === 'false'", 10)
    devtools.evaluate("document.querySelector('#journal li:last-child [data-action=delete]').click()")
    deleted = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before - 2}", 15)
    open_view(devtools, base_url, f"#from={date}")
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') === 'false'", 15)
    after = devtools.evaluate("document.querySelectorAll('#journal li').length")
    listed = devtools.evaluate(f"fetch('/api/v1/visits?from={date}&to={date}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                               ".then((r) => r.json()).then((v) => v.length)")
    report(bool(merged) and bool(deleted) and after == before - 2 and listed == before - 2,
           f"{size}: Merge with next then Delete removes the merged entry for good ({before} entries, then"
           f" {after} on the page and {listed} from the API after a reload)")
