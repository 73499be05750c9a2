"""The search box over the map in a real browser (imported by page_test.py), against a server given
the Helsinki extract (browser-test.sh: `travelog osm add` of .build-data/Helsinki.osm.pbf, `serve
--osm-dir`). On a day walked in central Helsinki whose first visit the person titled "Engel
meeting", at a desktop size (1400×900, with the keyboard: arrows and Enter) and a phone size
(390×844, a tap): typing "engel" lists that place of the person's own first ("yours · last there
…"), then Cafe Engel (a café on Aleksanterinkatu) with its category, address and distance, and
credits OpenStreetMap under the list; choosing the café moves the map there at a door's zoom and
drops a pin whose callout names it with its address, opening hours, phone and the OSM credit;
Escape takes the pin away. The box and its list stay inside the map's area and nothing overflows
the page; axe-core finds nothing serious with the list open. Screenshots go to the folder given."""

import datetime
import math
import time

from layout_check import SIZES, open_view, screenshot, set_size
from regions_check import click

#: The café searched for, as OSM has it (node 307465178 of the Helsinki extract).
CAFE = {"query": "engel", "name": "Cafe Engel", "street": "Aleksanterinkatu 26", "latitude": 60.168913, "longitude": 24.951745,
        "hours": "Mo-Fr 08:00-21:00"}
#: The day's walk, about 1.5 km west of the café (Kamppi to the Esplanadi), so choosing it moves the map.
WALK = ((60.1690, 24.9310), (60.1675, 24.9440))
#: The zoom a point of interest is shown at (search.js, ZOOM_BY_KIND.poi).
POI_ZOOM = 18
OSM_CREDIT = "© OpenStreetMap contributors"
#: The title given to the day's first visit: one of the person's own places, found by the same query.
OWN_TITLE = "Engel meeting"
DAYS_AGO = 4

#: The search box, its list and the map, as boxes; whether the page is wider than the window.
GEOMETRY = """(() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return { map: box('map'), form: box('map-search'), panel: document.getElementById('search-panel').hidden ? null : box('search-panel'),
           scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, innerHeight: window.innerHeight };
})()"""


def seed_walk(base_url, token, post_locations, iso):
    """On a day DAYS_AGO (from 10:00 local, a fix a minute): 20 minutes at WALK's start (a visit),
    a 20-minute walk along WALK, 20 minutes at its end. Returns the day (YYYY-MM-DD)."""
    start = (datetime.datetime.now().astimezone() - datetime.timedelta(days=DAYS_AGO)).replace(
        hour=10, minute=0, second=0, microsecond=0)
    fixes = []
    for minute in range(61):
        share = 0 if minute <= 20 else 1 if minute >= 40 else (minute - 20) / 20
        jitter = 0.00002 * math.sin(minute)
        fixes.append({"latitude": WALK[0][0] + (WALK[1][0] - WALK[0][0]) * share + jitter,
                      "longitude": WALK[0][1] + (WALK[1][1] - WALK[0][1]) * share - jitter,
                      "timestamp": iso(start + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 8})
    post_locations(base_url, token, fixes)
    return start.date().isoformat()


def title_first_visit(devtools, report, day):
    """Gives the day's first visit the title OWN_TITLE through the API (the page's session), so the
    search has one of the person's own places to put first."""
    visits = devtools.wait_for(
        f"fetch('/api/v1/visits?from={day}&to={day}&timezone=' + encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone),"
        " {headers: {Accept: 'application/json', 'X-Requested-With': 'fetch'}}).then((r) => r.json()).then((v) => v.length ? v : null)", 30, 0.3)
    status = None
    if visits:
        status = devtools.evaluate(
            f"fetch('/api/v1/visits/{visits[0]['id']}', {{method: 'PATCH', headers: {{'Content-Type': 'application/json',"
            f" 'X-Requested-With': 'fetch'}}, body: JSON.stringify({{title: '{OWN_TITLE}'}})}}).then((r) => r.status)")
    return report(status == 200, f"the day's first visit is titled {OWN_TITLE!r} ({len(visits or [])} visits, PATCH {status})")


def expected_subtitle(visit):
    """The page's rule (format.js, placeSubtitle), computed apart: the address unless the title says it."""
    address, title = (visit.get("address") or "").strip(), (visit.get("place") or "").strip()
    if not address or address == title:
        return ""
    return address[len(title) + 2:] if title and address.startswith(f"{title}, ") else address


def check_journal_addresses(devtools, report, day):
    """Each journal entry of the day whose JSON has an address the title does not say shows it under
    the title in the list, and its pin's title is "place · address". A server whose journal gives no
    address (no OSM extract where the visits are) is said so, not passed."""
    visits = devtools.evaluate(
        f"fetch('/api/v1/visits?from={day}&to={day}&timezone=' + encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone),"
        " {headers: {Accept: 'application/json', 'X-Requested-With': 'fetch'}}).then((r) => r.json())") or []
    wanted = {visit["id"]: expected_subtitle(visit) for visit in visits}
    if not any(wanted.values()):
        print(f"NOTE: the journal of {day} gives no address for any entry ({len(visits)} entries): the address line is not checked", flush=True)
        return
    devtools.evaluate("document.getElementById('section-journal').open = true")
    shown = devtools.wait_for("(() => { const rows = [...document.querySelectorAll('#journal li[data-visit-id]')];"
                              " return rows.length ? Object.fromEntries(rows.map((li) => [li.dataset.visitId,"
                              " (li.querySelector('.place-address') || {}).textContent || ''])) : null; })()", 10) or {}
    titles = devtools.evaluate("[...document.querySelectorAll('.leaflet-marker-icon.visit-pin')].map((pin) => pin.title)")
    expected_titles = sorted(f"{visit['place']} · {wanted[visit['id']]}" if wanted[visit["id"]] else visit["place"] for visit in visits)
    report(all(shown.get(str(identifier)) == subtitle for identifier, subtitle in wanted.items()) and sorted(titles) == expected_titles,
           f"the journal shows an entry's address under its title, and its pin is titled with both ({shown}; pins {titles})")


def key(devtools, name, code):
    for kind in ("rawKeyDown", "keyUp"):
        devtools.call("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                                 "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})


def inside(inner, outer, slack=1):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def map_view(devtools):
    """The map's zoom and the centre of its bounds (#map[data-zoom], [data-bounds] west,south,east,north)."""
    zoom, bounds = devtools.evaluate("[Number(document.getElementById('map').dataset.zoom), document.getElementById('map').dataset.bounds]")
    west, south, east, north = (float(part) for part in bounds.split(","))
    return zoom, ((south + north) / 2, (west + east) / 2), (west, south, east, north)


def meters_between(a, b):
    """Equirectangular: good to a metre at these few kilometres (the check's tolerance is 50 m)."""
    x = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    y = math.radians(b[0] - a[0])
    return 6371008.8 * math.hypot(x, y)


def check_search(devtools, report, base_url, token, post_locations, iso, folder, axe_source=None):
    day = seed_walk(base_url, token, post_locations, iso)
    # axe compiles its rules' messages with new Function, which the page's policy forbids.
    devtools.call("Page.setBypassCSP", {"enabled": bool(axe_source)})
    try:
        set_size(devtools, *SIZES[0][1:])
        open_view(devtools, base_url, f"#from={day}")
        title_first_visit(devtools, report, day)
        open_view(devtools, base_url, f"#from={day}", entries=True)
        check_journal_addresses(devtools, report, day)
        for size, width, height, mobile in SIZES:
            set_size(devtools, width, height, mobile)
            check_one_size(devtools, report, base_url, day, size, mobile, folder, axe_source)
    finally:
        devtools.call("Page.setBypassCSP", {"enabled": False})


def check_one_size(devtools, report, base_url, day, size, mobile, folder, axe_source):
    open_view(devtools, base_url, f"#from={day}")
    zoom_before, center_before, _ = map_view(devtools)
    devtools.evaluate("document.getElementById('search-input').focus()")
    devtools.call("Input.insertText", {"text": CAFE["query"]})
    listed = devtools.wait_for("document.querySelectorAll('#search-results li').length > 0"
                               " && !document.getElementById('search-panel').hidden", 10)
    rows = devtools.evaluate("[...document.querySelectorAll('#search-results li')].map((li) => ({"
                             " name: li.querySelector('.search-result-name').textContent,"
                             " details: (li.querySelector('.search-result-details') || {}).textContent || '',"
                             " distance: (li.querySelector('.search-result-distance') || {}).textContent || '',"
                             " own: li.classList.contains('is-own'), note: (li.querySelector('.search-result-own') || {}).textContent || '' }))")
    if not report(bool(listed) and bool(rows), f"{size}: typing {CAFE['query']!r} in the box over the map lists places ({len(rows or [])} rows)"):
        print(f"search footer: {devtools.evaluate('document.getElementById(' + repr('search-footer') + ').textContent')!r}", flush=True)
        return
    cafe = next((index for index, row in enumerate(rows) if row["name"] == CAFE["name"]), None)
    row = rows[cafe] if cafe is not None else {}
    report(cafe is not None and "Café" in row["details"] and CAFE["street"] in row["details"] and row["distance"].endswith(("m", "km")),
           f"{size}: {CAFE['name']} is listed with its category, address and distance ({row})")
    owns = [entry["own"] for entry in rows]
    report(rows[0]["name"] == OWN_TITLE and rows[0]["own"] and rows[0]["note"].startswith("yours · last there ")
           and owns == sorted(owns, reverse=True),
           f"{size}: the person's own place comes first, marked as theirs with the day last there ({rows[0]})")
    footer = devtools.evaluate("document.getElementById('search-footer').textContent")
    report(OSM_CREDIT in footer, f"{size}: the list credits OpenStreetMap under its OSM results ({footer!r})")
    geometry = devtools.evaluate(GEOMETRY)
    report(inside(geometry["form"], geometry["map"]) and geometry["panel"] is not None and inside(geometry["panel"], geometry["map"])
           and geometry["scrollWidth"] <= geometry["innerWidth"],
           f"{size}: the box and its list stay inside the map's area, nothing wider than the window"
           f" (map {geometry['map']}, box {geometry['form']}, list {geometry['panel']}, scrollWidth {geometry['scrollWidth']})")
    map_top, map_bottom = geometry["map"][1], geometry["map"][3]
    report(map_top >= 0 and map_bottom <= geometry["innerHeight"] + 1 and map_bottom - map_top >= 0.4 * geometry["innerHeight"],
           f"{size}: the map stays in view with the list open ({map_top:.0f}–{map_bottom:.0f} of {geometry['innerHeight']})")
    screenshot(devtools, folder, f"{size}-search-results")
    if axe_source:
        check_axe_open(devtools, report, size, axe_source)
    if cafe is None:
        return

    if mobile:  # a tap on the row
        devtools.evaluate(f"document.getElementById('search-result-{cafe}').scrollIntoView({{block: 'nearest'}})")
        point = devtools.evaluate(f"(() => {{ const r = document.getElementById('search-result-{cafe}').getBoundingClientRect();"
                                  " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        click(devtools, point[0], point[1])
    else:
        for _ in range(cafe + 1):
            key(devtools, "ArrowDown", 40)
        active = devtools.evaluate("document.getElementById('search-input').getAttribute('aria-activedescendant')")
        report(active == f"search-result-{cafe}", f"{size}: the arrow keys move through the results ({active!r})")
        key(devtools, "Enter", 13)  # the keyboard
    pinned = devtools.wait_for("Boolean(document.getElementById('map').dataset.searchPin && document.querySelector('.leaflet-popup .search-callout'))", 5)
    zoom, center, (west, south, east, north) = map_view(devtools)
    moved = meters_between(center_before, center) > 500
    shows = south < CAFE["latitude"] < north and west < CAFE["longitude"] < east
    report(bool(pinned) and moved and shows and zoom == POI_ZOOM,
           f"{size}: choosing it moves the map there at zoom {POI_ZOOM} and drops a pin"
           f" (zoom {zoom_before} → {zoom}, centre moved {meters_between(center_before, center):.0f} m, café in view: {shows})")
    callout = devtools.evaluate("(document.querySelector('.leaflet-popup .search-callout') || {}).textContent || ''")
    report(CAFE["name"] in callout and CAFE["street"] in callout and CAFE["hours"] in callout and OSM_CREDIT in callout,
           f"{size}: the callout names the place, its address and opening hours, and credits OpenStreetMap ({callout!r})")
    links = devtools.evaluate("[...document.querySelectorAll('.leaflet-popup .search-callout a')].map((a) => a.getAttribute('href'))")
    report(any(link.startswith("tel:+358") for link in links), f"{size}: the phone number is a link to call ({links})")
    overflow = devtools.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    report(overflow, f"{size}: no horizontal scrollbar with the callout open")
    time.sleep(0.4)  # the callout fades in
    screenshot(devtools, folder, f"{size}-search-callout")

    devtools.evaluate("document.getElementById('search-input').focus()")
    key(devtools, "Escape", 27)
    gone = devtools.wait_for("!document.getElementById('map').dataset.searchPin && !document.querySelector('.search-pin')"
                             " && document.getElementById('search-input').value === ''", 3)
    report(bool(gone), f"{size}: Escape takes the pin away and empties the box")


def check_axe_open(devtools, report, size, axe_source):
    """axe-core over the open search box: no serious or critical violation (the combobox, its listbox)."""
    from features_check import AXE_RUN
    devtools.evaluate(axe_source + "\n;true")
    found = devtools.evaluate(AXE_RUN.replace("axe.run(document,", "axe.run(document.getElementById('map-search'),"))
    report(found == [], f"{size}: axe-core finds no serious or critical violation in the open search box"
           + ("" if not found else f": {found}"))
