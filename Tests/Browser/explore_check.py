"""Where I have been and the timeline of a life (issue 33 items 1 and 4), for the main user (whose
history the earlier checks stored): the map's Explored layer draws its fog tiles and the figures of
/api/v1/explore under the switch; the years view is drawn from /api/v1/days, coloured by distance
and, toggled, by country, and pointing at a day shows its summary. Screenshots at 1400x900 and
390x844; the layer is set back to the path afterwards."""
import datetime
import json
import math
import time

from layout_check import SIZES, open_view, screenshot, set_size


def percent(fraction):
    """explore.js's share: two significant digits, "0.00019 %", "1.2 %", "45 %"."""
    value = fraction * 100
    if not value > 0:
        return "0 %"
    decimals = max(0, min(8, 1 - math.floor(math.log10(value))))
    return f"{value:.{decimals}f} %"


def check_explore(devtools, report, base_url, folder):
    today = datetime.date.today().isoformat()
    for name, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        devtools.evaluate("localStorage.setItem('travelog.layer', 'explored');"
                          " localStorage.setItem('travelog.section.map', 'open')")
        open_view(devtools, base_url, f"#from=2019-07-14&to={today}")
        devtools.evaluate("document.getElementById('section-map').open = true")
        drawn = devtools.wait_for("document.getElementById('map').dataset.historyLayer === 'explored'"
                                  " && document.getElementById('map').dataset.historyDrawn !== undefined"
                                  " && [...document.querySelectorAll('#map img.leaflet-tile')].some((i) => i.src.includes('/tiles/explored/'))", 15)
        report(bool(drawn), f"{name}: the Explored layer draws its fog tiles")
        area = devtools.wait_for("(() => { const box = document.getElementById('explore-figures');"
                                 " return box && !box.hidden && box.dataset.area; })()", 15)
        report(bool(area) and float(area) > 0, f"{name}: the explored area is shown under the layer switch ({area} km²)")
        screenshot(devtools, folder, f"explore-{name}")
        # The countries map: each country with days shaded, as many as the API has, with the list's days.
        shaded = devtools.wait_for("Number(document.getElementById('map').dataset.countryCount || 0)", 15)
        api = devtools.evaluate("fetch('/api/v1/explore/countries', {headers: {'X-Requested-With': 'fetch'}}).then((r) => r.json())"
                                ".then((m) => JSON.stringify(m.features.map((f) => [f.id, f.properties.days])))")
        features = json.loads(api or "[]")
        listed = dict(devtools.evaluate("[...document.querySelectorAll('.explore-country')].map((li) =>"
                                        " [li.querySelector('.explore-code').textContent, parseInt(li.querySelector('.explore-days').textContent, 10)])") or [])
        report(bool(shaded) and shaded == len(features) and all(listed.get(code) == days for code, days in features),
               f"{name}: the countries map shades {shaded} countries, each with the list's days ({features[:4]})")
        # A country's area and its share of the country agree: no "0 km²" over a share above zero.
        rows = devtools.evaluate("[...document.querySelectorAll('.explore-country .explore-area')].map((cell) =>"
                                 " [cell.firstChild.textContent, (cell.querySelector('.explore-share') || {}).textContent || ''])") or []
        report(bool(rows) and not [row for row in rows if row[0].startswith("0 km") and row[1] and row[1] != "0 %"]
               and any(row[1].endswith("%") for row in rows),
               f"{name}: each country's explored area and its share of the country agree ({rows[:3]})")
        if features:
            first = features[0][0]
            devtools.evaluate(f"[...document.querySelectorAll('.explore-country')].find((li) => li.querySelector('.explore-code').textContent === '{first}')"
                              ".querySelector('button.explore-name').click()")
            moved = devtools.wait_for("(() => { const map = document.getElementById('map');"
                                      " return Number(map.dataset.zoom) <= 6 && document.querySelector('.leaflet-countries-pane canvas, .leaflet-countries-pane path'); })()", 10)
            report(bool(moved), f"{name}: a click on {first} in the list shows it on the map, shaded")
            time.sleep(0.5)
            screenshot(devtools, folder, f"explore-countries-{name}")
        # The city explored most: its name opens its streets (the server has the Helsinki extract) and districts.
        city = devtools.evaluate("(document.querySelector('.explore-city button.explore-name') || {}).textContent")
        if report(bool(city), f"{name}: the cities explored most are listed ({city!r})"):
            devtools.evaluate("document.querySelector('.explore-city button.explore-name').click()")
            details = devtools.wait_for("(() => { const d = document.querySelector('.explore-city-details');"
                                        " return d && d.textContent.startsWith('Streets') && d.textContent; })()", 30)
            asked = devtools.evaluate(f"fetch('/api/v1/explore?city=' + encodeURIComponent({json.dumps(city)}),"
                                      " {headers: {'X-Requested-With': 'fetch'}}).then((r) => r.json()).then((f) => JSON.stringify(f.city))")
            figures = json.loads(asked or "{}")
            streets = figures.get("streets")
            agrees = bool(details) and (("walked or driven" in details and f"({percent(streets['share'])})" in details)
                                        if streets else "no map extract" in details)
            report(agrees, f"{name}: {city}'s details show its streets as the API measures them ({details!r}; {streets})")
            devtools.evaluate("document.querySelector('.explore-city-details').scrollIntoView({block: 'center'})")
            time.sleep(0.3)
            screenshot(devtools, folder, f"explore-city-{name}")
            devtools.evaluate("document.querySelector('.explore-city button.explore-name').click()")
            closed = devtools.wait_for("!document.querySelector('.explore-city-details')", 5)
            report(bool(closed), f"{name}: a second click on {city} closes its details")
        # Down to a street: the newest fix at zoom 16, where each cell of 25 m is cleared.
        devtools.evaluate("fetch('/api/v1/locations?limit=1&order=newest', {headers: {'X-Requested-With': 'fetch'}})"
                          ".then((r) => r.json()).then((found) => import('/map.js').then((m) => {"
                          " const [lon, lat] = found.features[0].geometry.coordinates; m.drawn.map.setView([lat, lon], 16, {animate: false}); }))")
        street = devtools.wait_for("[...document.querySelectorAll('#map img.leaflet-tile')]"
                                   ".some((i) => i.src.includes('/tiles/explored/16/') && i.complete && i.naturalWidth > 0)", 15)
        report(bool(street), f"{name}: at zoom 16 the fog tiles show the cells of a street")
        time.sleep(0.5)
        screenshot(devtools, folder, f"explore-street-{name}")
        # The timeline of a life: drawn, then by country, a day's summary on pointing at it.
        devtools.evaluate("document.getElementById('years').scrollIntoView()")
        drawn_ms = devtools.wait_for("document.getElementById('years').dataset.drawnMs", 10)
        cells = devtools.evaluate("document.querySelectorAll('#years rect[data-day]').length")
        report(bool(drawn_ms) and cells > 0, f"{name}: the years view draws {cells} days in {drawn_ms} ms")
        devtools.evaluate("document.querySelector('#years input[value=country]').click()")
        colour = devtools.wait_for("document.getElementById('years').dataset.colour === 'country'"
                                   " && document.querySelectorAll('#years .years-key').length", 5)
        day = devtools.evaluate("(() => { const cell = document.querySelector('#years rect[data-day]');"
                                " cell.dispatchEvent(new PointerEvent('pointermove', {bubbles: true, clientX: cell.getBoundingClientRect().x + 0.2}));"
                                " return cell.dataset.day; })()")
        summary = devtools.evaluate("document.getElementById('years-summary').textContent")
        report(bool(colour) and summary.startswith(day) and ' · ' in summary,
               f"{name}: days coloured by country with a legend; pointing at {day} shows {summary!r}")
        devtools.evaluate("document.getElementById('years').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        screenshot(devtools, folder, f"life-{name}")
        if name == "desktop":  # (features_check clicks the years view at both sizes)
            devtools.evaluate(f"document.querySelector('#years rect[data-day=\"{day}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}))")
            opened = devtools.wait_for(f"document.getElementById('from').value === '{day}'", 10)
            report(bool(opened), f"{name}: a click on {day} in the years view opens that day")
        devtools.evaluate("document.querySelector('#years input[value=distance]').click()")
    devtools.evaluate("localStorage.setItem('travelog.layer', 'path'); localStorage.removeItem('travelog.years.colour')")
    set_size(devtools, 1400, 900, False)
