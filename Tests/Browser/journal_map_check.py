"""The journal on the map in a real browser (imported by page_test.py): two stays' pins are
clustered at a low zoom and single at a high one, where a real click on a pin (hit-tested by the
browser, so the path drawn below must not take it) opens its popup; the legend names the devices
in the colour their names choose and the trips' modes; after a range that reaches a fix in Munich
the map fits the day chosen next. Screenshots go to $TRAVELOG_MAP_SCREENSHOTS (a folder) when it is set."""

import base64
import datetime
import json
import os
import time

from regions_check import click

#: The page's device palette (journal-map.js, RenderColor.devicePalette).
DEVICE_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#332288",
                 "#882255", "#117733", "#999933", "#AA4499", "#44AA99"]
#: Where the page test seeds today's walk (page_test.py, seed_today).
TODAY_WALK = (52.5200, 52.5300, 13.4050, 13.4250)  # south, north, west, east


def device_color(name, devices):
    """The device's place among the user's devices sorted by name, in the twelve-colour palette: the
    page's rule (colors.js), computed apart."""
    return DEVICE_COLORS[sorted(set(devices) | {name}).index(name) % len(DEVICE_COLORS)]


def screenshot(devtools, name):
    folder = os.environ.get("TRAVELOG_MAP_SCREENSHOTS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    time.sleep(0.4)
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    path = os.path.join(folder, f"{name}.png")
    with open(path, "wb") as output:
        output.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")


def zoom_out_to(devtools, zoom):
    """Clicks the map's zoom-out button until the map is at `zoom` or lower."""
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    for _ in range(20):
        current = devtools.evaluate("Number(document.getElementById('map').dataset.zoom)")
        if current <= zoom:
            return current
        devtools.evaluate("document.querySelector('.leaflet-control-zoom-out').click()")
        devtools.wait_for(f"Number(document.getElementById('map').dataset.zoom) < {current}", 3)
    return devtools.evaluate("Number(document.getElementById('map').dataset.zoom)")


def center_of(devtools, selector):
    """The centre of the first element matching `selector` inside the map's box, and whether it
    is what the browser's hit test finds there."""
    return devtools.evaluate(
        "(() => { const box = document.getElementById('map').getBoundingClientRect();"
        f" for (const element of document.querySelectorAll('{selector}')) {{"
        " const r = element.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;"
        " if (x > box.left && x < box.right && y > box.top && y < box.bottom)"
        " return [x, y, element.contains(document.elementFromPoint(x, y))]; } return null; })()")


#: Two stays 2 km apart (30 minutes each, a 20-minute walk between, a fix a minute), two days ago.
STAYS = ((52.5000, 13.3000), (52.5000, 13.3300))
STAYS_DAYS_AGO = 2
#: A fix far from the others (Munich, ten days ago), so a range that reaches it is wide on the map.
FAR_FIX = (48.1372, 11.5755)
FAR_DAYS_AGO = 10


def check_journal_map(devtools, report, base_url, token, post_locations, iso):
    """Two stays' pins, the legend, and the fit after a wide range (the page's time zone is the test's)."""
    now = datetime.datetime.now().astimezone()
    start = (now - datetime.timedelta(days=STAYS_DAYS_AGO)).replace(hour=9, minute=0, second=0, microsecond=0)
    fixes = []
    for minute in range(81):
        share = 0 if minute <= 30 else 1 if minute >= 50 else (minute - 30) / 20
        fixes.append({"latitude": STAYS[0][0], "longitude": STAYS[0][1] + (STAYS[1][1] - STAYS[0][1]) * share,
                      "timestamp": iso(start + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 10})
    far = (now - datetime.timedelta(days=FAR_DAYS_AGO)).replace(hour=12, minute=0, second=0, microsecond=0)
    fixes.append({"latitude": FAR_FIX[0], "longitude": FAR_FIX[1], "timestamp": iso(far), "horizontalAccuracy": 10})
    post_locations(base_url, token, fixes)
    day = start.date().isoformat()
    devtools.evaluate(f"window.location.hash = '#from={day}'")
    pins = devtools.wait_for("Number(document.getElementById('map').dataset.visitCount) >= 2"
                             " && document.getElementById('map').getAttribute('aria-busy') === 'false'", 15)
    if not report(bool(pins), f"the two stays of {day} are drawn as pins"):
        return
    time.sleep(0.8)
    zoom = zoom_out_to(devtools, 10)
    # The cluster's animation removes the single pins' elements when it ends.
    clustered = devtools.wait_for("document.querySelectorAll('.leaflet-journal-pins-pane .visit-pin').length === 0"
                                  " && document.querySelectorAll('.leaflet-journal-pins-pane .marker-cluster').length", 5)
    single = devtools.evaluate("document.querySelectorAll('.leaflet-journal-pins-pane .visit-pin').length")
    report(bool(clustered) and single == 0,
           f"at a low zoom (zoom {zoom}) the pins are drawn as a cluster ({clustered} cluster, {single} single pins)")
    screenshot(devtools, "pins-clustered")

    cluster = center_of(devtools, ".leaflet-journal-pins-pane .marker-cluster")
    if cluster:
        click(devtools, cluster[0], cluster[1])
    shown = devtools.wait_for("document.querySelectorAll('.leaflet-journal-pins-pane .visit-pin').length", 5)
    report(bool(shown), f"clicking the cluster zooms in to single pins ({shown})")
    time.sleep(0.6)
    point = center_of(devtools, ".leaflet-journal-pins-pane .visit-pin")
    report(bool(point) and point[2], f"a pin is above the path and the trip: it is what a click there reaches ({point})")
    if point:
        click(devtools, point[0], point[1])
    popup = devtools.wait_for("(document.querySelector('.leaflet-popup .callout strong') || {}).textContent", 5)
    report(bool(popup), f"clicking a pin opens its popup ({popup!r})")
    screenshot(devtools, "pin-popup")
    devtools.evaluate("(document.querySelector('.leaflet-popup-close-button') || { click() {} }).click()")

    legend = devtools.evaluate("[...document.querySelectorAll('#map-legend li')].map((row) => [row.dataset.kind,"
                               " row.textContent, getComputedStyle(row.querySelector('.swatch')).borderTopColor])")
    devices = {text: color for kind, text, color in legend or [] if kind == "device"}
    modes = [text for kind, text, _ in legend or [] if kind == "mode"]
    names = json.loads(devtools.evaluate("fetch('/api/v1/devices', {headers: {Accept: 'application/json'}})"
                                         ".then((r) => r.text())") or "[]")
    wanted = device_color("phone", [device["name"] for device in names])
    rgb = "rgb({}, {}, {})".format(*(int(wanted[index:index + 2], 16) for index in (1, 3, 5)))
    report(devices.get("phone") == rgb and len(modes) >= 1,
           f"the legend names the device in the colour its place among the user's devices chooses ({devices}, wanted {rgb}) and the trips' modes ({modes})")

    # A range reaching Munich, then one day in Berlin: the map fits the day.
    today = now.date().isoformat()
    devtools.evaluate(f"window.location.hash = '#from={far.date().isoformat()}&to={today}'")
    wide = devtools.wait_for("document.getElementById('map').dataset.historyLayer !== 'vector'"
                             " && Number(document.getElementById('map').dataset.zoom) <= 8"
                             " && Number(document.getElementById('map').dataset.zoom)", 20)
    report(bool(wide), f"a range reaching Munich shows Munich and Berlin at once (zoom {wide})")
    devices = devtools.wait_for("[...document.querySelectorAll('#map-legend li[data-kind=device]')].map((r) => r.textContent).join(',')", 10)
    report(devices == "phone", f"the legend lists the range's devices, drawn as tiles ({devices!r})")
    screenshot(devtools, "wide-range")
    devtools.evaluate("document.getElementById('today').click()")
    fitted = devtools.wait_for(
        "(() => { const map = document.getElementById('map'); if (map.getAttribute('aria-busy') !== 'false'"
        " || map.dataset.historyLayer !== 'vector') return false;"
        " const [west, south, east, north] = (map.dataset.bounds || '').split(',').map(Number);"
        f" return Number(map.dataset.zoom) >= 13 && south <= {TODAY_WALK[0]} && north >= {TODAY_WALK[1]}"
        f" && west <= {TODAY_WALK[2]} && east >= {TODAY_WALK[3]} && [Number(map.dataset.zoom), map.dataset.bounds]; }})()", 15)
    report(bool(fitted), "after the range, choosing a day fits the map to the day's path"
           f" ({fitted or devtools.evaluate('[document.getElementById(' + repr('map') + ').dataset.zoom, document.getElementById(' + repr('map') + ').dataset.bounds]')})")
    screenshot(devtools, "day-after-range")
