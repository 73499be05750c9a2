"""The Directions panel in a real browser (imported by page_test.py), against a server given the
Helsinki extract (browser-test.sh: `travelog osm add` of .build-data/Helsinki.osm.pbf, `serve
--osm-dir`), whose road graph covers 60.164–60.179 N, 24.935–24.953 E. On a day walked inside that
box, at a desktop size (1400×900) and a phone size (390×844): the Directions button in the search
box opens the panel (beside the map on a desktop, under it on a phone, the map still in view);
From is searched ("engel": Cafe Engel, chosen with the keyboard or a tap), To is chosen on the map
("Choose on the map", then a click at the walk's start); the route is drawn in its own layer,
fitted into view, with its time and distance on top and its steps listed, and OpenStreetMap is
credited on the map; driving, walking and cycling each ask for and draw their route; a step hovered
lights up its part of the line, a click zooms to it; a To outside the coverage (the sea south of
the box) says so in words beside that end and draws no route; axe-core finds nothing serious with
the panel open; closing it takes the route away; the day's first entry offers its trip "on roads"
(GET /api/v1/match): the matched line drawn and fitted, its roads named, matched beside recorded
distance. On the desktop also: "Directions to here" on a
search result's pin and "Directions from here" on a journal entry fill that end. Screenshots go to
the folder given.

Run on its own against a running server and headless Chromium (for working on the panel):
  python3 Tests/Browser/directions_check.py --url URL --devtools-port PORT --user U --password P --token T [--axe axe.min.js]
"""

import datetime
import math
import time

from layout_check import SIZES, open_view, screenshot, set_size
from regions_check import click
from search_check import key

#: Where the day was walked: from a street corner by the railway station square (the route's To,
#: chosen on the map) to the Esplanadi, inside the road graph's box.
WALK = ((60.17000, 24.94000), (60.16800, 24.95000))
DAYS_AGO = 5
FROM_QUERY, FROM_NAME = "engel", "Cafe Engel"
#: A To in the sea south of the road graph's box: outside its coverage.
SEA = "60.15000, 24.94500"
MODES = ("driving", "walking", "cycling")
ROUTE_CREDIT = "Routes: © OpenStreetMap contributors"

STATE = "document.getElementById('directions').dataset.state"
ROUTE = ("(() => { const line = document.querySelector('#map path.directions-line'); const map = document.getElementById('map');"
         " return line && map.dataset.directionsRoute ? map.dataset.directionsRoute : null; })()")
BOX = "((element) => { if (!element) return null; const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"


def seed_walk(base_url, token, post_locations, iso):
    """On a day DAYS_AGO: 20 minutes at WALK's start (a visit), a 20-minute walk, 20 minutes at its end."""
    start = (datetime.datetime.now().astimezone() - datetime.timedelta(days=DAYS_AGO)).replace(
        hour=9, minute=0, second=0, microsecond=0)
    fixes = []
    for minute in range(61):
        share = 0 if minute <= 20 else 1 if minute >= 40 else (minute - 20) / 20
        jitter = 0.00002 * math.sin(minute)
        fixes.append({"latitude": WALK[0][0] + (WALK[1][0] - WALK[0][0]) * share + jitter,
                      "longitude": WALK[0][1] + (WALK[1][1] - WALK[0][1]) * share - jitter,
                      "timestamp": iso(start + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 8})
    post_locations(base_url, token, fixes)
    return start.date().isoformat()


def settle(devtools):
    """Waits for the map's animated move to end (Leaflet's zoom-animation class gone), for a screenshot."""
    devtools.wait_for("!document.querySelector('#map .leaflet-zoom-anim')", 3)
    time.sleep(0.4)


def box(devtools, selector):
    return devtools.evaluate(f"{BOX}(document.querySelector({selector!r}))")


def center(rect):
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def click_element(devtools, selector):
    """A real click (mouse events at its centre, as a person's), after scrolling it into view."""
    devtools.evaluate(f"document.querySelector({selector!r}).scrollIntoView({{block: 'nearest'}})")
    rect = box(devtools, selector)
    if rect:
        click(devtools, *center(rect))
    return rect


def map_pixel(devtools, latitude, longitude):
    """Where a point is on the screen: the map's box and its bounds (#map[data-bounds]) under Web Mercator."""
    rect, bounds = devtools.evaluate(f"[{BOX}(document.getElementById('map')), document.getElementById('map').dataset.bounds]")
    west, south, east, north = (float(part) for part in bounds.split(","))
    mercator = lambda lat: math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
    x = rect[0] + (longitude - west) / (east - west) * (rect[2] - rect[0])
    y = rect[1] + (mercator(north) - mercator(latitude)) / (mercator(north) - mercator(south)) * (rect[3] - rect[1])
    return x, y


def inside(inner, outer, slack=1):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def check_directions(devtools, report, base_url, token, post_locations, iso, folder, axe_source=None):
    day = seed_walk(base_url, token, post_locations, iso)
    devtools.call("Page.setBypassCSP", {"enabled": bool(axe_source)})
    seen = len(devtools.events)
    try:
        for size, width, height, mobile in SIZES:
            set_size(devtools, width, height, mobile)
            check_one_size(devtools, report, base_url, day, size, mobile, folder, axe_source)
        set_size(devtools, *SIZES[0][1:])
        check_handed_ends(devtools, report, base_url, day)
        thrown = [event["params"]["exceptionDetails"].get("exception", {}).get("description", "")
                  for event in devtools.events[seen:] if event["method"] == "Runtime.exceptionThrown"]
        report(not thrown, "no script error on the page during the Directions checks" + ("" if not thrown else f": {thrown[:3]}"))
    finally:
        devtools.evaluate("localStorage.removeItem('travelog.directionsMode')")
        devtools.call("Page.setBypassCSP", {"enabled": False})


def check_one_size(devtools, report, base_url, day, size, mobile, folder, axe_source):
    open_view(devtools, base_url, f"#from={day}")
    devtools.evaluate("localStorage.setItem('travelog.directionsMode', 'driving')")
    button = click_element(devtools, "#directions-open")
    shown = devtools.wait_for("!document.getElementById('directions').hidden"
                              " && document.activeElement === document.getElementById('directions-from-input')", 3)
    if not report(bool(button) and bool(shown) and button[2] - button[0] >= 24,
                  f"{size}: the Directions button in the search box ({button}) opens the panel, From focused"):
        return
    geometry = devtools.evaluate(f"({{ map: {BOX}(document.getElementById('map')), panel: {BOX}(document.getElementById('directions')),"
                                 f" side: {BOX}(document.getElementById('side')), search: {BOX}(document.getElementById('map-search')),"
                                 " innerWidth: innerWidth, innerHeight: innerHeight, scrollWidth: document.documentElement.scrollWidth })")
    outlined = devtools.wait_for("Boolean(document.querySelector('#map path.directions-coverage'))", 5)
    report(bool(outlined), f"{size}: the map outlines where routes can be found while the panel is open")
    map_box, panel = geometry["map"], geometry["panel"]
    map_in_view = map_box[1] >= 0 and map_box[3] <= geometry["innerHeight"] + 1 and map_box[3] - map_box[1] >= 0.4 * geometry["innerHeight"]
    placed = panel[1] >= map_box[3] - 16 if mobile else panel[0] >= map_box[2] - 1 and inside(panel, geometry["side"])
    report(map_in_view and placed and geometry["scrollWidth"] <= geometry["innerWidth"] and inside(geometry["search"], map_box),
           f"{size}: the panel is {'under the map' if mobile else 'beside the map'} and the map stays in view"
           f" (map {map_box}, panel {panel}, scrollWidth {geometry['scrollWidth']})")

    # From: a search, chosen as in the search box (the same suggestions).
    devtools.call("Input.insertText", {"text": FROM_QUERY})
    rows = devtools.wait_for("(() => { const rows = [...document.querySelectorAll('#directions-from-results li')];"
                             " return rows.length && !document.getElementById('directions-from-panel').hidden"
                             " ? rows.map((li) => li.querySelector('.search-result-name').textContent) : null; })()", 10) or []
    index = rows.index(FROM_NAME) if FROM_NAME in rows else None
    if not report(index is not None, f"{size}: From lists places as the search box does ({rows})"):
        return
    if mobile:
        click_element(devtools, f"#directions-from-result-{index}")
    else:
        for _ in range(index + 1):
            key(devtools, "ArrowDown", 40)
        key(devtools, "Enter", 13)
    chosen = devtools.wait_for("document.getElementById('directions-from-input').value"
                               " && document.querySelector('#map path.directions-from-marker') ? document.getElementById('directions-from-input').value : null", 3)
    report(chosen == FROM_NAME, f"{size}: choosing {FROM_NAME} sets From and marks it on the map ({chosen!r})")

    # Choosing on the map ends with Escape, nothing chosen.
    click_element(devtools, "#directions-from-pick")
    key(devtools, "Escape", 27)
    cancelled = devtools.evaluate("[document.getElementById('directions-from-pick').getAttribute('aria-pressed'),"
                                  " document.getElementById('map').classList.contains('picking-directions'), document.getElementById('directions-from-input').value]")
    report(cancelled == ["false", False, FROM_NAME], f"{size}: Escape ends choosing on the map and keeps From ({cancelled})")

    # To: chosen on the map, where the day's walk started.
    click_element(devtools, "#directions-to-pick")
    picking = devtools.evaluate("[document.getElementById('directions-to-pick').getAttribute('aria-pressed'),"
                                " document.getElementById('map').classList.contains('picking-directions'),"
                                " document.getElementById('directions-hint').textContent]")
    report(picking[0] == "true" and picking[1] and "map" in picking[2],
           f"{size}: 'Choose on the map' is pressed, the map shows a crosshair and the panel says what to do ({picking})")
    x, y = map_pixel(devtools, *WALK[0])
    click(devtools, x, y)
    routed = devtools.wait_for(f"{STATE} === 'route' && {ROUTE}", 15)
    picked = devtools.evaluate("[document.getElementById('directions-to-input').value,"
                               " document.getElementById('directions-to-pick').getAttribute('aria-pressed'),"
                               " document.getElementById('map').classList.contains('picking-directions')]")
    report(bool(routed) and picked[0] != "" and picked[1] == "false" and not picked[2],
           f"{size}: a click on the map sets To ({picked[0]!r}) and ends choosing; the route is drawn ({routed}, state"
           f" {devtools.evaluate(STATE)!r}: {devtools.evaluate('document.getElementById(' + repr('directions-error') + ').textContent')!r})")
    if not routed:
        return
    check_route_shown(devtools, report, size, "driving")
    check_units(devtools, report, size)

    # The modes: each asks for its own route and draws it.
    for mode in MODES[1:] + MODES[:1]:
        before = devtools.evaluate("performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/directions?')).length")
        click_element(devtools, f"#directions-modes input[value={mode}] + span")
        asked = devtools.wait_for(f"(() => {{ const asked = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/directions?'));"
                                  f" return asked.length > {before} && asked[asked.length - 1].name.includes('mode={mode}') && {STATE} === 'route'; }})()", 15)
        checked = devtools.evaluate(f"document.querySelector('#directions-modes input[value={mode}]').checked")
        report(bool(asked) and checked and bool(devtools.evaluate(ROUTE)), f"{size}: {mode} is chosen, asked for and drawn ({devtools.evaluate(ROUTE)})")
    # Swap: From and To change places and the route is asked for again.
    before = devtools.evaluate("[document.getElementById('directions-from-input').value, document.getElementById('directions-to-input').value]")
    click_element(devtools, "#directions-swap")
    swapped = devtools.wait_for(f"{STATE} === 'route' && [document.getElementById('directions-from-input').value, document.getElementById('directions-to-input').value]", 10)
    report(swapped == before[::-1], f"{size}: the swap button exchanges From and To and the route follows ({before} → {swapped})")
    click_element(devtools, "#directions-swap")
    devtools.wait_for(f"{STATE} === 'route' && document.getElementById('directions-from-input').value === {before[0]!r}", 10)
    check_steps(devtools, report, size, folder)
    if axe_source:
        from features_check import AXE_RUN
        devtools.evaluate(axe_source + "\n;true")
        found = devtools.evaluate(AXE_RUN)
        report(found == [], f"{size}: axe-core finds no serious or critical violation with the Directions panel open"
               + ("" if not found else f": {found}"))

    # A To in the sea: outside the coverage, said in words beside To; no route drawn.
    devtools.evaluate("document.getElementById('directions-to-input').focus(); document.getElementById('directions-to-input').select()")
    devtools.call("Input.insertText", {"text": SEA})
    devtools.evaluate("document.getElementById('directions-to-input').blur()")
    failed = devtools.wait_for(f"{STATE} === 'error' && document.getElementById('directions-error').textContent", 10)
    marked = devtools.evaluate("[document.getElementById('directions-to-input').getAttribute('aria-invalid'),"
                               " document.getElementById('directions-to-error').textContent, Boolean(document.querySelector('#map path.directions-line')),"
                               " document.querySelector('.leaflet-control-attribution').textContent]")
    report(bool(failed) and "destination" in failed and "outside the coverage" in failed and marked[0] == "true" and marked[1]
           and not marked[2] and ROUTE_CREDIT not in marked[3],
           f"{size}: a To in the sea is refused in words beside To, and no route is drawn ({failed!r}; {marked[:3]})")
    # The map moves (animated) to show both: its bounds (set at the move's end) hold the refused To.
    sea = [float(part) for part in SEA.split(",")]
    devtools.wait_for(f"(() => {{ const [west, south, east, north] = document.getElementById('map').dataset.bounds.split(',').map(Number);"
                      f" return south < {sea[0]} && {sea[0]} < north && west < {sea[1]} && {sea[1]} < east; }})()", 3)
    time.sleep(0.3)
    dot, outline, map_box = (box(devtools, selector) for selector in ("#map path.directions-to-marker", "#map path.directions-coverage", "#map"))
    report(dot is not None and outline is not None and inside(dot, map_box) and inside(outline, map_box, 12),
           f"{size}: the map then shows both the refused To and the outline it lies outside (To {dot}, outline {outline})")
    settle(devtools)
    screenshot(devtools, folder, f"{size}-directions-error")

    click_element(devtools, "#directions-close")
    closed = devtools.wait_for("document.getElementById('directions').hidden && !document.querySelector('#map .directions-line, #map .directions-end-marker')"
                               " && !document.getElementById('map').dataset.directionsRoute", 3)
    report(bool(closed), f"{size}: closing the panel takes the route and its ends off the map")
    check_trip_on_roads(devtools, report, size, folder)


def check_trip_on_roads(devtools, report, size, folder):
    """"Show the trip from here on roads" on the day's first entry: the walk matched to the roads
    (GET /api/v1/match), drawn and fitted, the roads named, the matched beside the recorded distance.
    Before that: the server matched the day's trip in the background, so the timeline names its roads
    under it and the map draws it on them (the page reads pending trips again)."""
    background = devtools.wait_for("document.querySelectorAll('#timeline .timeline-roads').length > 0"
                                   " && Number(document.getElementById('map').dataset.matchedTripCount) > 0", 8)
    roads = devtools.evaluate("[...document.querySelectorAll('#timeline .timeline-roads')].map((e) => e.textContent)")
    report(bool(background) and bool(roads) and all(" on roads" in text for text in roads),
           f"{size}: the day's trip, matched to the roads in the background, names its roads in the timeline and is drawn on them ({roads})")
    devtools.evaluate("document.getElementById('section-journal').open = true")
    devtools.wait_for("document.querySelector('#journal li:last-child .menu-button')", 10)
    click_element(devtools, "#journal li:last-child .menu-button")
    offered = devtools.wait_for("Boolean(document.querySelector('#journal li:last-child [data-action=show-on-roads]'))", 3)
    if not report(bool(offered), f"{size}: the day's first entry, which a trip leaves, offers to show that trip on roads"):
        return
    click_element(devtools, "#journal li:last-child [data-action=show-on-roads]")
    matched = devtools.wait_for(f"{STATE} === 'route' && document.getElementById('map').dataset.matchedRoute", 15)
    shown = devtools.evaluate("[document.getElementById('directions').dataset.view, document.getElementById('directions-title').textContent,"
                              " document.getElementById('directions-summary').textContent, document.getElementById('directions-roads').textContent,"
                              " document.querySelector('#directions-modes input:checked').value, document.getElementById('directions-ends').hidden,"
                              " document.querySelector('.leaflet-control-attribution').textContent]")
    report(bool(matched) and shown[0] == "trip" and "recorded" in shown[2] and shown[3].startswith("Roads") and "→" in shown[3]
           and shown[4] == "walking" and shown[5] and ROUTE_CREDIT in shown[6],
           f"{size}: the walk is matched to the roads in walking mode, drawn, its roads named and its distances shown ({matched}; {shown[1:5]})")
    devtools.wait_for(f"(() => {{ const line = {BOX}(document.querySelector('#map path.directions-matched')); const map = {BOX}(document.getElementById('map'));"
                      " return line && line[0] >= map[0] - 12 && line[1] >= map[1] - 12 && line[2] <= map[2] + 12 && line[3] <= map[3] + 12; })()", 3)
    line, map_box = box(devtools, "#map path.directions-matched"), box(devtools, "#map")
    report(line is not None and inside(line, map_box, 12), f"{size}: the matched line is fitted into the map's view ({line} in {map_box})")
    settle(devtools)
    screenshot(devtools, folder, f"{size}-trip-on-roads")
    click_element(devtools, "#directions-close")
    report(bool(devtools.wait_for("document.getElementById('directions').hidden && !document.getElementById('map').dataset.matchedRoute"
                                  " && !document.querySelector('#map .directions-line')", 3)), f"{size}: closing the panel takes the matched line away")


def check_route_shown(devtools, report, size, mode):
    """The summary (time and distance in the page's formats), the steps, the line fitted into view, the credit."""
    shown = devtools.evaluate(
        "(() => { const text = (id) => (document.getElementById(id) || {}).textContent || '';"
        " return { time: (document.querySelector('.directions-time') || {}).textContent || '', distance: (document.querySelector('.directions-distance') || {}).textContent || '',"
        " steps: [...document.querySelectorAll('#directions-steps .directions-instruction')].map((e) => e.textContent),"
        " credit: text('directions-credit'), attribution: document.querySelector('.leaflet-control-attribution').textContent }; })()")
    map_box = box(devtools, "#map")
    # The map moves to the route (an animated fit): the line inside the map's box once it is done.
    devtools.wait_for(f"(() => {{ const line = {BOX}(document.querySelector('#map path.directions-line'));"
                      f" return line && line[0] >= {map_box[0] - 12} && line[1] >= {map_box[1] - 12} && line[2] <= {map_box[2] + 12} && line[3] <= {map_box[3] + 12}; }})()", 3)
    line = box(devtools, "#map path.directions-line")
    steps = shown["steps"]
    report(shown["time"].endswith("min") and shown["distance"].endswith((" m", " km", " ft", " mi"))
           and len(steps) >= 2 and steps[0].startswith("Head") and steps[-1].startswith("Arrive"),
           f"{size}: {mode}: the time and distance are on top and the steps listed ({shown['time']!r}, {shown['distance']!r}, {len(steps)} steps: {steps[:2]}…)")
    report(line is not None and inside(line, map_box, 12), f"{size}: the route's line is fitted into the map's view ({line} in {map_box})")
    report(ROUTE_CREDIT in shown["attribution"] and "OpenStreetMap" in shown["credit"],
           f"{size}: OpenStreetMap is credited on the map and in the panel while the route is drawn")


def check_units(devtools, report, size):
    """The route's distances follow the page's unit (the km / miles choice under the dates), and back."""
    distances = "[...document.querySelectorAll('.directions-distance, .directions-step-distance')].map((e) => e.textContent)"
    before = devtools.evaluate(distances)
    unit = devtools.evaluate("document.querySelector('input[name=units]:checked').value")
    other = "metric" if unit == "imperial" else "imperial"
    devtools.evaluate(f"document.querySelector('input[name=units][value={other}]').click()")
    after = devtools.evaluate(distances)
    devtools.evaluate(f"document.querySelector('input[name=units][value={unit}]').click()")
    again = devtools.evaluate(distances)
    imperial = (after if other == "imperial" else before)
    report(len(after) == len(before) > 1 and all(text.endswith((" ft", " mi")) for text in imperial) and again == before,
           f"{size}: the route's distances follow the page's unit and back ({before[:2]} → {after[:2]})")


def check_steps(devtools, report, size, folder):
    """A step hovered lights its part of the line; a click zooms to it; the list scrolls inside the panel."""
    count = int(devtools.evaluate("document.getElementById('directions').dataset.stepCount") or 0)
    index = 1 if count > 2 else 0
    selector = f"#directions-steps [data-step='{index}']"
    devtools.evaluate(f"document.querySelector(\"{selector}\").scrollIntoView({{block: 'nearest'}})")
    x, y = center(box(devtools, selector))
    devtools.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    lit = devtools.wait_for(f"document.getElementById('directions').dataset.highlightedStep === '{index}'"
                            " && Boolean(document.querySelector('#map path.directions-highlight'))", 3)
    report(bool(lit), f"{size}: hovering step {index + 1} lights up its part of the line")
    screenshot(devtools, folder, f"{size}-directions-route")
    devtools.evaluate(f"document.querySelector(\"#directions-steps [data-step='{index + 1}']\").focus()")
    focused = devtools.evaluate("document.getElementById('directions').dataset.highlightedStep")
    devtools.evaluate(f"document.querySelector(\"#directions-steps [data-step='{index + 1}']\").blur()")
    back = devtools.evaluate("document.getElementById('directions').dataset.highlightedStep")
    report(focused == str(index + 1) and back == str(index),
           f"{size}: a step focused with the keyboard lights up too, and the one under the pointer again when the focus leaves ({focused}, then {back})")
    zoom_before, bounds_before = devtools.evaluate("[Number(document.getElementById('map').dataset.zoom), document.getElementById('map').dataset.bounds]")
    click(devtools, x, y)
    devtools.wait_for(f"document.getElementById('map').dataset.bounds !== {bounds_before!r}", 3)
    time.sleep(0.4)  # the animated move
    zoom, part, map_box = devtools.evaluate(f"[Number(document.getElementById('map').dataset.zoom), {BOX}(document.querySelector('#map path.directions-highlight')),"
                                            f" {BOX}(document.getElementById('map'))]")
    centred = part is not None and abs(center(part)[0] - center(map_box)[0]) < 0.25 * (map_box[2] - map_box[0]) \
        and abs(center(part)[1] - center(map_box)[1]) < 0.25 * (map_box[3] - map_box[1])
    report(zoom >= zoom_before and centred and inside(part, map_box, 12),
           f"{size}: a click on the step brings its part to the middle of the map, as close as it fits (zoom {zoom_before} → {zoom}, part {part})")
    steps = devtools.evaluate("(() => { const list = document.getElementById('directions-steps'); const style = getComputedStyle(list);"
                              " return [style.overflowY, list.getBoundingClientRect().height, innerHeight]; })()")
    report(steps[0] == "auto" and steps[1] <= 0.45 * steps[2] + 1, f"{size}: the steps scroll inside the panel (overflow {steps[0]}, {steps[1]:.0f} px of {steps[2]})")


def check_handed_ends(devtools, report, base_url, day):
    """"Directions to here" on a search result's pin and "Directions from here" on a journal entry."""
    open_view(devtools, base_url, f"#from={day}", entries=True)
    devtools.evaluate("document.getElementById('search-input').focus()")
    devtools.call("Input.insertText", {"text": FROM_QUERY})
    devtools.wait_for("document.querySelectorAll('#search-results li').length > 0", 10)
    index = devtools.evaluate(f"[...document.querySelectorAll('#search-results .search-result-name')].findIndex((e) => e.textContent === {FROM_NAME!r})")
    if index >= 0:
        click_element(devtools, f"#search-result-{index}")
    offered = devtools.wait_for("Boolean(document.querySelector('.leaflet-popup .search-callout [data-directions=to]'))", 5)
    if not offered:
        print(f"search: row {index}, popup {devtools.evaluate('(document.querySelector(' + repr('.leaflet-popup') + ') || {}).textContent')!r}", flush=True)
    else:
        devtools.evaluate("document.querySelector('.leaflet-popup .search-callout [data-directions=to]').click()")
    handed = devtools.wait_for("!document.getElementById('directions').hidden && document.getElementById('directions-to-input').value", 3)
    report(handed == FROM_NAME, f"{size_name()}: 'Directions to here' on a search result's pin opens the panel with it as To ({handed!r})")
    devtools.evaluate("document.getElementById('section-journal').open = true")
    devtools.evaluate("document.querySelector('#journal li .menu-button').click()")
    title = devtools.evaluate("document.querySelector('#journal li .place').textContent")
    devtools.evaluate("document.querySelector('#journal li [data-action=directions-from]').click()")
    routed = devtools.wait_for(f"{STATE} === 'route' && {ROUTE}", 15)
    report(devtools.evaluate("document.getElementById('directions-from-input').value") == title and bool(routed),
           f"{size_name()}: 'Directions from here' on the journal entry {title!r} sets From, and the route to {FROM_NAME} is drawn ({routed})")
    devtools.evaluate("document.getElementById('directions-close').click()")


def size_name():
    return SIZES[0][0]


def main():
    """Runs the check on its own against a server and Chromium already running."""
    import argparse
    import os
    import page_test
    parser = argparse.ArgumentParser()
    for name in ("--url", "--user", "--password", "--token"):
        parser.add_argument(name, required=True)
    parser.add_argument("--devtools-port", type=int, required=True)
    parser.add_argument("--axe")
    parser.add_argument("--screenshots", default="/tmp/directions-screenshots")
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    devtools = page_test.DevTools(arguments.devtools_port)
    page_test.open_page(devtools, arguments.url + "/")
    devtools.wait_for("!document.getElementById('login').hidden || !document.getElementById('app').hidden", 15)
    if devtools.evaluate("!document.getElementById('login').hidden"):
        page_test.log_in(devtools, arguments.user, arguments.password)
    axe_source = open(arguments.axe).read() if arguments.axe else None
    started = time.monotonic()
    check_directions(devtools, page_test.report, arguments.url, arguments.token, page_test.post_locations, page_test.iso,
                     arguments.screenshots, axe_source)
    print(f"{len(page_test.failures)} failed in {time.monotonic() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
