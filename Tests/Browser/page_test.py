#!/usr/bin/python3
"""Drives Travelog's page in a real Chromium over the DevTools protocol.

scripts/browser-test.sh starts the server and the browser and runs this with their addresses.
Modes:
  test   seeds today's locations, logs in through the form, waits for the path, posts a new
         location with the device token and checks it is drawn (appended, not reloaded) and listed
         first within two seconds, with no console errors but failed tile loads.
  bench  logs in, then opens the page on a range of stored days and reports the time from the
         navigation's start to the first drawn path (`#map[data-point-count] > 0`, or for a range
         of more than a day, drawn as tiles: every history tile of the view the map was placed in
         loaded, `#map[data-history-drawn]`), with the first tile's arrival and the bounds request;
         then the same range as a share link's page (share_bench.py), to the drawn path.

Standard library plus Debian's python3-websocket; run with /usr/bin/python3.
"""

import argparse
import base64
import datetime
import json
import shutil
import tempfile
import math
import os
import re
import sys
import time
import urllib.parse
import urllib.request

import websocket  # Debian: python3-websocket

from journal_map_check import check_journal_map
from labels_check import check_labels
from regions_check import check_regions
from layout_check import check_layout
from features_check import check_features
from devices_check import check_devices
from settings_check import check_settings
from search_check import check_search
from directions_check import check_directions
from shares_check import check_shares
from friends_check import check_friends
from two_factor_check import check_two_factor
from retention_check import check_retention
from explore_check import check_explore
from review_check import check_review_replay
from photos_check import check_photos
from features_check import MENU_DAYS_AGO
from share_bench import bench_shared_page

#: The longest a live location may take from the POST to the drawn path.
LIVE_DEADLINE_SECONDS = 2.0
#: Target for the bench's time to the first drawn path.
BENCH_TARGET_SECONDS = 2.0

failures = []


def report(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


class DevTools:
    """A minimal DevTools protocol client for one page target: calls, and the events seen so far."""

    def __init__(self, devtools_port):
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list", timeout=10) as answer:
            targets = json.load(answer)
        pages = [target for target in targets if target.get("type") == "page"]
        if not pages:
            request = urllib.request.Request(f"http://127.0.0.1:{devtools_port}/json/new?about:blank", method="PUT")
            with urllib.request.urlopen(request, timeout=10) as answer:
                pages = [json.load(answer)]
        self.socket = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30,
                                                  suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, params=None, timeout=30):
        self.next_id += 1
        identifier = self.next_id
        self.socket.send(json.dumps({"id": identifier, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        while True:
            self.socket.settimeout(max(0.05, deadline - time.monotonic()))
            message = json.loads(self.socket.recv())
            if message.get("id") == identifier:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression):
        """The value of a JavaScript expression (awaited when it is a promise)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout, interval=0.02):
        """Polls until the expression is truthy; its value, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # the page is not there yet (about:blank, or loading)
                value = None
            if value:
                return value
            time.sleep(interval)
        return None


POINT_COUNT = "Number(document.getElementById('map').dataset.pointCount || 0)"
TILES_DRAWN = "Number(document.getElementById('map').dataset.historyTiles || 0)"
#: The zoom at which every history tile of the placed view loaded (0 until then).
VIEW_DRAWN = "Number(document.getElementById('map').dataset.historyDrawn || 0)"
PATH_READY = ("(() => { const map = document.getElementById('map');"
              " return map && map.getAttribute('aria-busy') === 'false' && Number(map.dataset.pointCount) > 0; })()")
PATH_REQUESTS = "performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/api/v1/path')).length"


def settle(devtools, quiet_seconds=0.6, timeout=120):
    """Waits until no path request is under way and nothing changed for `quiet_seconds` (the map
    moves to the path, which may ask for the path again at the new zoom). Returns
    [drawn points, path requests made, aria-busy]."""
    deadline = time.monotonic() + timeout
    stable_since, previous = time.monotonic(), None
    while time.monotonic() < deadline:
        current = devtools.evaluate(f"[{POINT_COUNT}, {PATH_REQUESTS}, document.getElementById('map').getAttribute('aria-busy')]")
        if current != previous or current[2] == "true":
            stable_since, previous = time.monotonic(), current
        elif time.monotonic() - stable_since >= quiet_seconds:
            break
        time.sleep(0.05)
    return previous


def open_page(devtools, url):
    for domain in ("Page", "Runtime", "Log", "Network"):
        devtools.call(f"{domain}.enable")
    devtools.call("Emulation.setDeviceMetricsOverride",
                  {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    devtools.call("Page.navigate", {"url": url})


def log_in(devtools, user, password):
    """Types into the login form and submits it, as a person would."""
    if not devtools.wait_for("!document.getElementById('login').hidden", 15):
        return report(False, "the login form is shown to a visitor without a session")
    report(True, "the login form is shown to a visitor without a session")
    for field, text in (("login-user", user), ("login-password", password)):
        devtools.evaluate(f"document.getElementById('{field}').focus()")
        devtools.call("Input.insertText", {"text": text})
    devtools.evaluate("document.getElementById('login-submit').click()")
    shown = devtools.wait_for("!document.getElementById('app').hidden && document.getElementById('login').hidden", 15)
    return report(bool(shown), "logging in through the form shows the map")


def console_errors(devtools, tile_origin):
    """Errors logged by the page, except failed tile loads (no tile server answers in the test). A
    401 is an error too: the page asks who is logged in only after a login in this browser."""
    errors, tile_failures = [], 0
    for event in devtools.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            errors.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append(" ".join(str(argument.get("value", argument.get("description"))) for argument in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            url = entry.get("url", "")
            if url.startswith(tile_origin):
                tile_failures += 1
                continue
            errors.append(f"{entry.get('text')} {url}".strip())
    return errors, tile_failures


def post_locations(base_url, token, locations):
    request = urllib.request.Request(f"{base_url}/api/v1/locations", data=json.dumps(locations).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def seed_today(base_url, token):
    """A walk of 60 fixes over the last part of today (local time); returns the last fix."""
    now = datetime.datetime.now().astimezone()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if (now - midnight).total_seconds() < 180:  # just after midnight: let today have room for the walk
        time.sleep(180 - (now - midnight).total_seconds())
        now = datetime.datetime.now().astimezone()
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    span = min((now - midnight).total_seconds() - 90, 3000.0)
    start = now - datetime.timedelta(seconds=span)
    locations = []
    for index in range(60):
        moment = start + datetime.timedelta(seconds=span * index / 60)
        angle = index / 60 * math.pi
        locations.append({"latitude": 52.5200 + 0.01 * math.sin(angle), "longitude": 13.4050 + 0.02 * index / 60,
                          "timestamp": iso(moment), "horizontalAccuracy": 8})
    stored = post_locations(base_url, token, locations)
    report(stored.get("stored") == 60, f"seeded 60 locations for today through the API ({stored})")
    return locations[-1]


def seed_yesterday_stays(base_url, token):
    """Yesterday 10:00-10:30 at one place, a 20-minute walk of about 2 km, 10:50-11:20 at another
    (local time, a fix a minute): the server detects two visits from them."""
    day = (datetime.datetime.now().astimezone() - datetime.timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    first, second = (52.5300, 13.3800), (52.5300, 13.4100)
    locations = []
    for minute in range(81):
        if minute <= 30:
            position = first
        elif minute < 50:
            share = (minute - 30) / 20
            position = (first[0], first[1] + (second[1] - first[1]) * share)
        else:
            position = second
        jitter = 0.00002 * math.sin(minute)
        locations.append({"latitude": position[0] + jitter, "longitude": position[1] - jitter,
                          "timestamp": iso(day + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 10})
    stored = post_locations(base_url, token, locations)
    report(stored.get("stored") == 81, f"seeded two stays yesterday ({stored})")


def check_journal(devtools):
    """Yesterday's two stays appear as pins and entries; a rename and a delete made through the page
    hold after reloading."""
    devtools.evaluate("document.getElementById('previous').click()")
    pins = devtools.wait_for("Number(document.getElementById('map').dataset.visitCount) >= 2", 15)
    visit_count = devtools.evaluate("document.getElementById('map').dataset.visitCount")
    report(bool(pins), f"yesterday's stays are pins on the map (data-visit-count {visit_count})")
    entries = devtools.evaluate("document.querySelectorAll('#journal li').length")
    report(entries >= 2, f"the journal lists them ({entries} entries)")
    widths = devtools.evaluate("(() => { const b = document.querySelector('#journal li button[data-action=rename]');"
                               " return b ? [b.getBoundingClientRect().width, b.closest('li').getBoundingClientRect().width] : null; })()")
    report(bool(widths) and widths[0] < widths[1] / 2,
           f"an entry's edit buttons are buttons, not rows as wide as the list ({widths})")
    check_timeline(devtools)
    devtools.evaluate("window.prompt = () => 'Coffee with Ada'; window.confirm = () => true")
    # Let the refresh the live location scheduled run first, so the list clicked is the one shown.
    time.sleep(3.5)
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') !== 'true'", 10)
    devtools.evaluate("document.querySelector('#journal li:last-child button[data-action=rename]').click()")
    renamed = devtools.wait_for("[...document.querySelectorAll('#journal .place')].some((e) => e.textContent === 'Coffee with Ada')", 10)
    report(bool(renamed), "renaming an entry through the page shows its new title"
           + ("" if renamed else f" (status: {devtools.evaluate('document.getElementById(' + repr('status') + ').textContent')!r})"))
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') !== 'true'", 10)
    devtools.evaluate("document.querySelector('#journal li:first-child button[data-action=delete]').click()")
    deleted = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {entries - 1}", 10)
    report(bool(deleted), "deleting an entry through the page removes it")
    devtools.evaluate("window.__travelogBeforeReload = 1")
    devtools.call("Page.reload")
    devtools.wait_for("window.__travelogBeforeReload === undefined && document.getElementById('app')"
                      " && !document.getElementById('app').hidden", 20)
    if devtools.evaluate("location.hash.includes('from=')") is not True:
        devtools.evaluate("document.getElementById('previous').click()")
    devtools.wait_for("document.querySelectorAll('#journal li').length >= 1", 20)
    titles = devtools.wait_for("[...document.querySelectorAll('#journal .place')].map((e) => e.textContent).join('|')", 20)
    count = devtools.evaluate("document.querySelectorAll('#journal li').length")
    report(bool(titles) and "Coffee with Ada" in titles and count == entries - 1,
           f"after a reload the new title and the deletion hold ({titles!r}, {count} entries)")
    credit = devtools.evaluate("document.body.textContent.includes('GeoNames')")
    report(bool(credit), "GeoNames is credited on the page")


def check_timeline(devtools):
    """Yesterday's day timeline (visits and the trip in order, local times), the calendar marking
    the days with data, and the distance chart."""
    visits = devtools.wait_for("document.querySelectorAll('#timeline .timeline-visit').length >= 2", 10)
    # The timeline is drawn by a request of its own: wait until it shows the same day as the journal
    # (right after switching days it may still show the day before).
    devtools.wait_for("(() => { const t = document.querySelector('#timeline .timeline-visit .timeline-time');"
                      " const o = document.querySelector('#journal li:last-child .muted');"
                      " return Boolean(t && o && o.textContent.includes(t.textContent)); })()", 10)
    trips = devtools.evaluate("document.querySelectorAll('#timeline .timeline-trip').length")
    order = devtools.evaluate("[...document.querySelectorAll('#timeline li')].map((e) => e.className.replace('timeline-', '')).join(',')")
    report(bool(visits) and trips >= 1 and order.startswith("visit,trip,visit"),
           f"the timeline lists the visits and the trip between them in order ({order!r})")
    times = devtools.evaluate("document.querySelector('#timeline .timeline-visit .timeline-time').textContent")
    clock = r"\d{1,2}[:.]\d\d(\s?[AaPp]\.?\s?[Mm]\.?)?"  # the browser's locale: 10:00, 10:00 AM
    report(bool(times) and re.fullmatch(f"{clock}–{clock}", times) is not None,
           f"the timeline shows the place's local times ({times!r})")
    oldest = devtools.evaluate("document.querySelector('#journal li:last-child .muted').textContent")
    report(bool(times) and bool(oldest) and times in oldest,
           f"the journal list writes times as the timeline does, one clock format ({oldest!r})")
    marked = devtools.wait_for("document.querySelectorAll('#calendar button.has-data').length >= 1", 10)
    days = devtools.evaluate("[...document.querySelectorAll('#calendar button.has-data')].map((e) => e.dataset.day).join(',')")
    report(bool(marked), f"the calendar marks the days with data ({days})")
    bars = devtools.evaluate("document.querySelectorAll('#chart rect').length")
    report(bars >= 1, f"the statistics are drawn as a chart ({bars} bars)")
    path = os.environ.get("TRAVELOG_SCREENSHOT")
    if path:
        shot = devtools.call("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as output:
            output.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {path}")


def check_import(devtools):
    """Imports a GPX file through the page's Import panel (the file input, as a person picks a file):
    the summary names the file, the locations stored and the rejected point with its position, and
    the map moves to the imported day."""
    folder = tempfile.mkdtemp(prefix="travelog-page-import-")
    path = os.path.join(folder, "ride.gpx")
    with open(path, "w") as output:
        output.write('<?xml version="1.0"?><gpx version="1.1" creator="page test" '
                     'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        for index in range(30):
            output.write(f'<trkpt lat="{46.5 + index * 0.0005:.5f}" lon="{8.0 + index * 0.0005:.5f}">'
                         f'<time>2019-07-14T09:{index:02d}:00Z</time></trkpt>\n')
        output.write('<trkpt lat="123.0" lon="8.1"><time>2019-07-14T09:40:00Z</time></trkpt>\n')
        output.write("</trkseg></trk></gpx>\n")
    devtools.evaluate("document.getElementById('section-import').open = true")  # closed by default
    document = devtools.call("DOM.getDocument")
    node = devtools.call("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": "#import-files"})
    devtools.call("DOM.setFileInputFiles", {"files": [path], "nodeId": node["nodeId"]})
    devtools.evaluate("document.getElementById('import-submit').click()")
    done = devtools.wait_for("document.getElementById('import-panel').dataset.done === '1'", 30)
    summary = devtools.evaluate("document.getElementById('import-summary').textContent")
    report(bool(done) and "ride.gpx: 30 new locations" in summary and "1 rejected" in summary,
           f"a file imported through the page shows its summary ({summary!r})")
    report("line 32" in summary and "123" in summary, "the summary lists the rejected point with its position")
    moved = devtools.wait_for("document.getElementById('from').value === '2019-07-14'", 10)
    report(bool(moved), "the map moves to the imported day")
    shutil.rmtree(folder, ignore_errors=True)
    path = os.environ.get("TRAVELOG_IMPORT_SCREENSHOT")
    if path:
        devtools.evaluate("document.getElementById('import-panel').scrollIntoView()")
        shot = devtools.call("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as output:
            output.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {path}")


def check_heatmap(devtools, screenshot_path):
    """Switches the map to the heatmap, waits for its tiles, saves a screenshot, checks the
    offline base and the "image of this view" link, and switches back to the path."""
    devtools.evaluate("document.querySelector('input[name=layer][value=heat]').click()")
    loaded = devtools.wait_for("(() => { const map = document.getElementById('map');"
                               " return map.dataset.historyLayer === 'heat' && Number(map.dataset.historyTiles) > 0"
                               " && Number(map.dataset.historyTiles); })()", 20)
    report(bool(loaded), f"switching to the heatmap draws heat tiles ({loaded} loaded)")
    remembered = devtools.evaluate("localStorage.getItem('travelog.layer')")
    report(remembered == "heat", f"the layer choice is remembered ({remembered!r})")
    time.sleep(0.5)
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    data = base64.b64decode(shot.get("data", ""))
    with open(screenshot_path, "wb") as out:
        out.write(data)
    report(data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000,
           f"a screenshot of the heatmap is saved ({screenshot_path}, {len(data)} bytes)")
    base = devtools.evaluate("[...document.querySelectorAll('#map img.leaflet-tile')]"
                             ".filter((i) => i.src.includes('/api/v1/basemap/') && i.complete && i.naturalWidth > 0).length")
    report(base > 0, f"without the tile server the offline world base is shown ({base} tiles)")
    answer = devtools.evaluate("(() => { const link = document.getElementById('view-image'); link.addEventListener('click', (e) => e.preventDefault(), { once: true });"
                               " link.dispatchEvent(new MouseEvent('click', { cancelable: true }));"
                               " return fetch(link.href).then((r) => r.ok && r.headers.get('content-type') + ' '"
                               " + r.headers.get('X-Travelog-Zoom-Level')); })()")
    report(bool(answer) and answer.startswith("image/png"), f"the image of this view is a PNG ({answer!r})")
    thumbnails = devtools.wait_for("[...document.querySelectorAll('#journal-days img')]"
                                   ".filter((i) => i.complete && i.naturalWidth > 0).length", 20)
    report(bool(thumbnails), f"the journal shows a map of the day ({thumbnails} thumbnails)")
    devtools.evaluate("document.querySelector('input[name=layer][value=path]').click()")
    vector = devtools.wait_for("document.getElementById('map').dataset.historyLayer === 'vector'", 10)
    report(bool(vector), "switching back to the path draws today's vector path again")


def screenshots_folder():
    """$TRAVELOG_SCREENSHOTS (made if missing), else a new temporary folder; printed either way."""
    folder = os.environ.get("TRAVELOG_SCREENSHOTS") or tempfile.mkdtemp(prefix="travelog-screenshots-")
    os.makedirs(folder, exist_ok=True)
    print(f"screenshots: {folder}", flush=True)
    return folder


def run_test(arguments):
    base_url = arguments.url.rstrip("/")
    last = seed_today(base_url, arguments.token)
    seed_yesterday_stays(base_url, arguments.token)
    devtools = DevTools(arguments.devtools_port)
    open_page(devtools, base_url + "/")
    if not log_in(devtools, arguments.user, arguments.password):
        return
    started = time.monotonic()
    ready = devtools.wait_for(PATH_READY, 20)
    report(bool(ready), f"the path is drawn after logging in ({devtools.evaluate(POINT_COUNT)} points,"
                        f" {time.monotonic() - started:.2f} s)")
    if not ready:
        errors, _ = console_errors(devtools, arguments.tile_origin)
        state = devtools.evaluate("JSON.stringify([document.getElementById('map').dataset, location.href,"
                                  " document.getElementById('login-error').textContent, document.getElementById('status').textContent])")
        print(f"console errors: {errors}; page: {state}")
        return
    before, path_requests, _ = settle(devtools)
    report(devtools.evaluate("document.querySelectorAll('#locations li').length") == 60,
           "the list shows the 60 seeded locations")
    distance = devtools.evaluate("document.getElementById('distance').textContent")
    report(distance.endswith(" km"), f"the distance is shown in kilometres by default ({distance!r})")
    devtools.evaluate("document.querySelector('input[name=units][value=imperial]').click()")
    distance = devtools.evaluate("document.getElementById('distance').textContent")
    remembered = devtools.evaluate("localStorage.getItem('travelog.units')")
    report(distance.endswith(" mi") and remembered == "imperial",
           f"the unit toggle shows miles and is remembered ({distance!r}, localStorage {remembered!r})")
    devtools.evaluate("window.__travelogTestSentinel = 1")

    # A new fix near the path's end, a moment after it.
    moment = datetime.datetime.now().astimezone() - datetime.timedelta(seconds=5)
    fresh = {"latitude": round(last["latitude"] + 0.0007, 6), "longitude": round(last["longitude"] + 0.0011, 6),
             "timestamp": iso(moment), "horizontalAccuracy": 6}
    posted = time.monotonic()
    post_locations(base_url, arguments.token, [fresh])
    grown = devtools.wait_for(f"{POINT_COUNT} > {before}", LIVE_DEADLINE_SECONDS, interval=0.01)
    elapsed = time.monotonic() - posted
    after = devtools.evaluate(POINT_COUNT)
    if not report(bool(grown), f"a posted location is drawn live within {LIVE_DEADLINE_SECONDS:.0f} s"
                               f" (data-point-count {before} -> {after} in {elapsed:.3f} s)"):
        print(f"console errors: {console_errors(devtools, arguments.tile_origin)[0]}", flush=True)
    report(devtools.evaluate("window.__travelogTestSentinel === 1") and devtools.evaluate(PATH_REQUESTS) == path_requests,
           "the new location is appended without reloading the page or the path")
    listed = devtools.wait_for("(document.querySelector('#locations li') || {}).textContent", 2)
    wanted = f"{fresh['latitude']:.5f}, {fresh['longitude']:.5f}"
    report(bool(listed) and wanted in listed, f"the list shows the new location first ({listed!r})")
    report(devtools.evaluate("document.querySelectorAll('#locations li').length") == 61, "the list has 61 entries")
    tiles = devtools.evaluate("document.querySelectorAll('#map img.leaflet-tile').length")
    report(tiles > 0, f"the basemap asked for tiles ({tiles}) from the unreachable tile server")

    errors, tile_failures = console_errors(devtools, arguments.tile_origin)
    report(not errors, f"no console errors other than failed tile loads ({tile_failures} of those)"
                       + ("" if not errors else f": {errors}"))

    check_journal(devtools)
    check_journal_map(devtools, report, base_url, arguments.token, post_locations, iso)
    errors, _ = console_errors(devtools, arguments.tile_origin)
    report(not errors, "no console errors (no 401) over the whole visit, a reload included" + ("" if not errors else f": {errors}"))
    check_regions(devtools, base_url, arguments.token, post_locations, report, iso)
    check_import(devtools)
    check_heatmap(devtools, arguments.screenshot)
    folder = screenshots_folder()
    check_layout(devtools, report, base_url, arguments.token, post_locations, iso, folder)
    axe_source = open(arguments.axe).read() if arguments.axe else None
    check_features(devtools, report, base_url, arguments.token, post_locations, iso, folder, axe_source)
    check_devices(devtools, report, base_url, folder)
    check_labels(devtools, report, base_url, arguments.user, arguments.password, folder)
    check_settings(devtools, report, base_url, arguments.user, arguments.password, folder, axe_source)
    check_search(devtools, report, base_url, arguments.token, post_locations, iso, folder, axe_source)
    check_directions(devtools, report, base_url, arguments.token, post_locations, iso, folder, axe_source)
    check_shares(devtools, report, base_url, arguments.devtools_port, folder)
    check_two_factor(devtools, report, base_url, arguments.devtools_port, folder)
    check_friends(devtools, report, base_url, arguments.devtools_port, folder)
    check_retention(devtools, report, base_url, arguments.devtools_port, folder)
    check_explore(devtools, report, base_url, folder)
    check_review_replay(devtools, report, base_url, folder)
    menu_day = (datetime.datetime.now().astimezone() - datetime.timedelta(days=MENU_DAYS_AGO)).date().isoformat()
    check_photos(devtools, report, base_url, menu_day, folder, arguments.devtools_port)

    devtools.evaluate("document.getElementById('logout').click()")
    report(bool(devtools.wait_for("!document.getElementById('login').hidden", 5)), "logging out shows the login form")


def run_bench(arguments):
    base_url = arguments.url.rstrip("/")
    devtools = DevTools(arguments.devtools_port)
    open_page(devtools, base_url + "/")
    if not log_in(devtools, arguments.user, arguments.password):
        return
    devtools.wait_for(PATH_READY + " || document.getElementById('list-note').textContent", 20)
    figures = []
    for run in range(arguments.runs):
        devtools.call("Page.navigate", {"url": "about:blank"})
        devtools.wait_for("location.href === 'about:blank'", 10)
        devtools.call("Page.navigate", {"url": f"{base_url}/#from={arguments.from_day}&to={arguments.to_day}"})
        devtools.wait_for("location.pathname === '/'", 10, interval=0.005)
        # A range of more than a day is drawn by history tiles (layers.js), a day by the vector path.
        # The tiles count once the whole view the map was placed in is drawn, not at the first tile.
        found = devtools.wait_for(
            f"({POINT_COUNT} > 0 || {VIEW_DRAWN} > 0) && [{POINT_COUNT} || {TILES_DRAWN}, performance.now(), {VIEW_DRAWN}]",
            120, interval=0.01)
        if not found:
            report(False, f"run {run + 1}: no path drawn within 120 s")
            return
        count, milliseconds, zoom = found
        requests = devtools.evaluate(
            "(() => { const entries = performance.getEntriesByType('resource');"
            " const find = (part) => entries.find((e) => e.name.includes(part));"
            " const tiles = entries.filter((e) => e.name.includes('/api/v1/tiles/') && !e.name.includes('/bounds'));"
            " const timing = (e) => e ? [e.responseStart - e.requestStart, e.responseEnd] : null;"
            " return { path: timing(find('/api/v1/path')), bounds: timing(find('/api/v1/tiles/bounds')),"
            " firstTile: tiles.length ? Math.min(...tiles.map((e) => e.responseEnd)) : null,"
            " slowestTile: tiles.length ? Math.max(...tiles.map((e) => e.responseStart - e.requestStart)) : null }; })()")
        figures.append(milliseconds)
        detail = []
        if requests.get("bounds"):
            detail.append(f"/api/v1/tiles/bounds answered in {requests['bounds'][0]:.0f} ms")
        if requests.get("firstTile") is not None:
            detail.append(f"first tile at {requests['firstTile']:.0f} ms, slowest tile answered in {requests['slowestTile']:.0f} ms")
        if requests.get("path"):
            detail.append(f"/api/v1/path answered in {requests['path'][0]:.0f} ms, done at {requests['path'][1]:.0f} ms")
        what = f"{count} points" if not zoom else f"the view's {count} tiles at zoom {zoom}"
        print(f"run {run + 1}: first draw {milliseconds:.0f} ms after navigation start ({what}); " + "; ".join(detail), flush=True)
        # The list and the journal of a tiled range load after its tiles (the journal's statistics,
        # visits and whereabouts read the whole range): let them finish, or the server would still
        # be reading for them during the next run.
        devtools.wait_for("performance.getEntriesByType('resource').some((e) => e.name.includes('/api/v1/stats'))"
                          " && document.getElementById('journal').getAttribute('aria-busy') === 'false'", 600, interval=0.05)
        # The map then moves to the path and may ask again at its new zoom: let that finish, or the
        # server would still be reading for it during the next run.
        settle(devtools)
    # What the last run drew, to look at: the range placed on the map, drawn by tiles.
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    with open(arguments.screenshot.replace("heatmap", "bench-range"), "wb") as output:
        output.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {arguments.screenshot.replace('heatmap', 'bench-range')}", flush=True)
    figures.sort()
    median = figures[len(figures) // 2] / 1000
    report(median < BENCH_TARGET_SECONDS,
           f"median time to the first drawn path over {len(figures)} runs: {median:.3f} s"
           f" (target under {BENCH_TARGET_SECONDS:.0f} s; {arguments.stored_points} stored points in the range)")
    # The same range through a share link, as a visitor opens it.
    bench_shared_page(devtools, report, base_url, arguments.from_day, arguments.to_day, arguments.runs, median,
                      screenshot=arguments.screenshot.replace("heatmap", "bench-shared"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("test", "bench"))
    parser.add_argument("--url", required=True, help="the server's address, http://127.0.0.1:PORT")
    parser.add_argument("--devtools-port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--token", help="a device token of the user (test mode)")
    parser.add_argument("--tile-origin", default="http://127.0.0.1:9/", help="tile loads from here may fail")
    parser.add_argument("--from-day", help="bench: the range's first day (YYYY-MM-DD)")
    parser.add_argument("--to-day", help="bench: the range's last day (YYYY-MM-DD)")
    parser.add_argument("--screenshot", default="/tmp/travelog-heatmap.png", help="test: where the heatmap's screenshot goes")
    parser.add_argument("--axe", help="test: axe-core's axe.min.js (from PyPI's axe-selenium-python)")
    parser.add_argument("--runs", type=int, default=3, help="bench: page loads measured")
    parser.add_argument("--stored-points", default="?", help="bench: stored points in the range (for the report)")
    arguments = parser.parse_args()
    try:
        if arguments.mode == "test":
            run_test(arguments)
        else:
            run_bench(arguments)
    except Exception as error:  # a broken protocol exchange is a failure, said plainly
        report(False, f"{type(error).__name__}: {error}")
    print(("FAIL" if failures else "PASS") + f": browser {arguments.mode}" +
          (f" ({len(failures)} failed)" if failures else ""), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
