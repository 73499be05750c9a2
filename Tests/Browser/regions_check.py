"""The page's regions in a real browser (imported by page_test.py): a region is added by naming
it and clicking the map, locations that leave it are posted through the API, and the transition
arrives in the day timeline ("left Corner 08:12") and beside the region in its list; a polygon is
drawn by clicking its corners; the circle is edited (renamed, a new radius, moved by clicking the
map) and the change is stored and drawn; the regions are then deleted from their list."""

import datetime
import base64
import json
import os
import time

#: The longest the page may take to show a transition after the locations were posted (the page
#: reloads the journal 3 s after live fixes arrive).
TRANSITION_DEADLINE_SECONDS = 15.0


def click(devtools, x, y):
    for kind in ("mousePressed", "mouseReleased"):
        devtools.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


def check_regions(devtools, base_url, token, post_locations, report, iso):
    """Adds a region through the page and sees a transition arrive."""
    devtools.evaluate("document.getElementById('today').click()")
    devtools.evaluate("document.getElementById('section-regions').open = true")  # closed by default
    if not report(bool(devtools.wait_for("document.getElementById('map').dataset.regionCount === '0'", 10)),
                  "the page asks for the regions and draws none at first"):
        return
    devtools.evaluate("document.getElementById('region-name').focus()")
    devtools.call("Input.insertText", {"text": "Corner"})
    devtools.evaluate("document.getElementById('region-add').click()")
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    box = devtools.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    click(devtools, box[0], box[1])
    drawn = devtools.wait_for("document.getElementById('map').dataset.regionCount === '1'", 10)
    regions = json.loads(devtools.evaluate("fetch('/api/v1/regions', {headers: {Accept: 'application/json'}})"
                                           ".then((r) => r.text())") or "[]")
    report(bool(drawn) and len(regions) == 1 and regions[0].get("name") == "Corner"
           and regions[0].get("circle", {}).get("radiusMeters") == 150,
           f"naming a region and clicking the map adds it and draws it ({regions})")
    if not regions:
        return
    center = regions[0]["circle"]
    # Three minutes at its centre, then four a kilometre east: one exit, decided 20 s after leaving.
    start = datetime.datetime.now().astimezone() - datetime.timedelta(minutes=8)
    locations = []
    for index in range(42):
        away = index >= 18
        locations.append({"latitude": center["latitude"], "longitude": center["longitude"] + (0.015 if away else 0),
                          "timestamp": iso(start + datetime.timedelta(seconds=10 * index)), "horizontalAccuracy": 5})
    post_locations(base_url, token, locations)
    shown = devtools.wait_for("[...document.querySelectorAll('#timeline .timeline-transition')]"
                              ".map((row) => row.textContent).join(' | ')", TRANSITION_DEADLINE_SECONDS)
    report(bool(shown) and "left Corner" in shown, f"a transition arrives in the timeline ({shown!r})")
    listed = devtools.wait_for("(() => { const row = document.querySelector('#regions li .region-transitions');"
                               " return row && row.textContent.includes('left') ? row.textContent : ''; })()", 10)
    report(bool(listed), f"the region's list shows its transitions of the day ({listed!r})")

    edit_circle(devtools, report, regions[0]["id"])

    # A polygon: name it, press "Draw a polygon", click three corners around the map's centre, finish.
    devtools.evaluate("document.getElementById('region-name').focus()")
    devtools.call("Input.insertText", {"text": "Park"})
    devtools.evaluate("document.getElementById('region-draw').click()")
    devtools.evaluate("document.getElementById('map').scrollIntoView()")  # focusing the name scrolled the page
    box = devtools.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    for dx, dy in ((-60, -40), (60, -40), (0, 60)):
        click(devtools, box[0] + dx, box[1] + dy)
    devtools.evaluate("document.getElementById('region-draw').click()")
    drawn = devtools.wait_for("document.getElementById('map').dataset.regionCount === '2'", 10)
    regions = json.loads(devtools.evaluate("fetch('/api/v1/regions', {headers: {Accept: 'application/json'}})"
                                           ".then((r) => r.text())") or "[]")
    park = [region for region in regions if region.get("name") == "Park"]
    said = devtools.evaluate("document.getElementById('region-status').textContent")
    report(bool(drawn) and len(park) == 1 and len((park[0].get("polygon") or [[]])[0]) >= 4,
           f"clicking a polygon's corners on the map adds it ({park}; the page said {said!r})")

    devtools.evaluate("window.confirm = () => true")
    removed = True
    for left in ("1", "0"):
        devtools.evaluate("document.querySelector('#regions .region-remove').click()")
        removed = removed and bool(devtools.wait_for(f"document.getElementById('map').dataset.regionCount === '{left}'", 10))
    report(bool(removed), "deleting the regions from their list removes them from the map")


def shape_box(devtools, region_id):
    """The region's drawn shape relative to the map's top left: [centre x, centre y, width], or None."""
    return devtools.evaluate(f"(() => {{ const shape = document.querySelector('#map path.region-{region_id}');"
                             " if (!shape) return null; const m = document.getElementById('map').getBoundingClientRect();"
                             " const r = shape.getBoundingClientRect();"
                             " return [r.left + r.width / 2 - m.left, r.top + r.height / 2 - m.top, r.width]; })()")


def screenshot(devtools, path):
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    with open(path, "wb") as output:
        output.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")


def edit_circle(devtools, report, region_id):
    """Edits the circle region: a new name and radius in its row's form, a click on the map moves
    its centre there, Save stores it (GET /api/v1/regions) and the map draws it at the new place."""
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    before = shape_box(devtools, region_id)
    # The region's list item, as a JavaScript string literal.
    row = json.dumps(f"#regions li[data-region-id='{region_id}']")
    devtools.evaluate(f"document.querySelector({row} + ' .region-edit-start').click()")
    editing = devtools.wait_for(f"document.getElementById('map').dataset.editingRegion === '{region_id}'", 10)
    if not report(bool(editing) and before is not None, f"Edit opens the region's form (shape at {before})"):
        return
    for field, text in (("region-edit-name", "Corner shop"), ("region-edit-radius", "300")):
        devtools.evaluate(f"(() => {{ const input = document.querySelector({row} + ' .{field}'); input.focus(); input.select(); }})()")
        devtools.call("Input.insertText", {"text": text})
    devtools.evaluate(f"document.querySelector({row}).scrollIntoView({{block: 'center', inline: 'nearest'}})")
    screenshot(devtools, os.environ.get("TRAVELOG_REGION_FORM_SCREENSHOT", "/tmp/travelog-region-edit-form.png"))
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    box = devtools.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect();"
                            " return [r.left, r.top, r.width, r.height]; })()")
    target = [before[0] + 80, before[1] + 50]
    click(devtools, box[0] + target[0], box[1] + target[1])
    screenshot(devtools, os.environ.get("TRAVELOG_REGION_SCREENSHOT", "/tmp/travelog-region-edit.png"))
    devtools.evaluate(f"document.querySelector({row} + ' .region-save').click()")
    saved = devtools.wait_for(f"(() => {{ const name = document.querySelector({row} + ' .region-name');"
                              " return !document.getElementById('map').dataset.editingRegion"
                              " && Boolean(name) && name.textContent === 'Corner shop'; })()", 10)
    stored = json.loads(devtools.evaluate(f"fetch('/api/v1/regions/{region_id}', {{headers: {{Accept: 'application/json'}}}})"
                                          ".then((r) => r.text())") or "{}")
    circle = stored.get("circle") or {}
    said = devtools.evaluate("document.getElementById('region-status').textContent")
    report(bool(saved) and stored.get("name") == "Corner shop" and circle.get("radiusMeters") == 300,
           f"Save stores the new name and radius ({stored}; the page said {said!r})")
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    after = shape_box(devtools, region_id)
    # The click moved the centre by (80, 50) px; the radius doubled, so the drawn width does (a pixel
    # either way from Leaflet rounding the SVG path, and the Mercator scale differing over 50 px).
    moved = after is not None and abs(after[0] - target[0]) <= 2 and abs(after[1] - target[1]) <= 2
    widened = after is not None and before[2] > 0 and abs(after[2] / before[2] - 2) <= 0.1 + 2 / before[2]
    report(moved and widened, f"the map draws the edited circle where the map was clicked, twice as wide"
                              f" (before {before}, after {after}, clicked {target})")
    listed = devtools.evaluate(f"document.querySelector({row}).textContent")
    report("Corner shop" in (listed or "") and "300 m" in (listed or ""), f"the list shows the new name and radius ({listed!r})")
