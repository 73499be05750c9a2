"""The page's layout in a real browser (imported by page_test.py), at a desktop size (1400×900) and
a phone size (390×844): the map stays in view at every scroll position (the side panel, on a phone
the bottom sheet, scrolls on its own), no horizontal scrollbar, the side panel's sections collapse
and are remembered, the locations list is collapsed by default and paginated, and the whole-history
view of a multi-day history keeps the side panel below three screens (2,700 px). A screenshot of
each view at each size is kept in the screenshots folder."""

import base64
import datetime
import math
import os
import time

#: Desktop and phone, as (name, width, height, mobile).
SIZES = (("desktop", 1400, 900, False), ("phone", 390, 844, True))
#: The side panel's content at most, pixels, with its sections in their default state (issue 26).
SIDE_PANEL_LIMIT_PX = 2700
#: Rows of the locations list on one page.
LIST_PAGE_SIZE = 50

#: Everything the page's layout is judged by, measured after scrolling every scrollable box to its end.
MEASURE = """(() => {
  const side = document.getElementById('side');
  const app = document.getElementById('app');
  const root = document.scrollingElement;
  const sideHeight = side.scrollHeight;
  for (const box of [side, app, root]) box.scrollTop = box.scrollHeight;
  window.scrollTo(0, document.body.scrollHeight);
  const map = document.getElementById('map').getBoundingClientRect();
  const result = {
    sideHeight, sideClient: side.clientHeight,
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, innerHeight: window.innerHeight,
    rootScrolls: root.scrollHeight > window.innerHeight + 1,
    mapTop: map.top, mapBottom: map.bottom, mapHeight: map.height, mapWidth: map.width,
    sideScrolled: side.scrollTop,
  };
  for (const box of [side, app, root]) box.scrollTop = 0;
  return result;
})()"""


def screenshot(devtools, folder, name):
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    path = os.path.join(folder, f"{name}.png")
    with open(path, "wb") as output:
        output.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}", flush=True)
    return path


def seed_history(base_url, token, post_locations, iso, days=24):
    """A multi-day history: on `days` days spread over the last two years, two stays joined by a
    walk (as a day of a real history reads). Returns the first day (local, YYYY-MM-DD)."""
    now = datetime.datetime.now().astimezone()
    first = None
    for index in range(days):
        day = (now - datetime.timedelta(days=30 * index + 3)).replace(hour=8, minute=0, second=0, microsecond=0)
        a = (48.85 + 0.01 * index, 2.35 + 0.005 * index)
        b = (a[0] + 0.004, a[1] + 0.02)
        fixes = []
        for minute in range(0, 100, 2):
            share = 0 if minute <= 40 else 1 if minute >= 60 else (minute - 40) / 20
            jitter = 0.00002 * math.sin(minute)
            fixes.append({"latitude": a[0] + (b[0] - a[0]) * share + jitter,
                          "longitude": a[1] + (b[1] - a[1]) * share - jitter,
                          "timestamp": iso(day + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 10})
        post_locations(base_url, token, fixes)
        first = day.date().isoformat()
    return first


def open_view(devtools, base_url, query, entries=False):
    """Opens the page afresh on a view (its address) and waits until the journal and the map are
    loaded (and, with `entries`, until the journal lists some)."""
    devtools.call("Page.navigate", {"url": "about:blank"})
    devtools.wait_for("location.href === 'about:blank'", 10)
    devtools.call("Page.navigate", {"url": f"{base_url}/{query}"})
    devtools.wait_for("document.readyState === 'complete' && document.getElementById('app')"
                      " && !document.getElementById('app').hidden", 20)
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') === 'false'"
                      " && document.getElementById('map').getAttribute('aria-busy') === 'false'"
                      + (" && document.querySelectorAll('#journal li').length > 0" if entries else ""), 60)
    time.sleep(0.8)  # the map's move to the path and the thumbnails


def set_size(devtools, width, height, mobile):
    devtools.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def check_layout(devtools, report, base_url, token, post_locations, iso, folder):
    first_day = seed_history(base_url, token, post_locations, iso)
    today = datetime.date.today().isoformat()
    views = (("day", f"#from={first_day}"), ("history", f"#from=2019-07-14&to={today}"))
    # The sections in their default state (earlier checks opened some).
    devtools.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('travelog.section.'))"
                      ".forEach((k) => localStorage.removeItem(k))")
    for size, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        for view, query in views:
            open_view(devtools, base_url, query, entries=True)
            screenshot(devtools, folder, f"{size}-{view}")
            m = devtools.evaluate(MEASURE)
            where = f"{size} {width}×{height}, {view}"
            report(m["scrollWidth"] <= m["innerWidth"],
                   f"{where}: no horizontal scrollbar (scrollWidth {m['scrollWidth']} ≤ {m['innerWidth']})")
            visible = m["mapTop"] >= 0 and m["mapBottom"] <= m["innerHeight"] + 1 and m["mapHeight"] >= 0.4 * m["innerHeight"]
            report(visible and not m["rootScrolls"],
                   f"{where}: the map stays in view with the side panel scrolled to its end"
                   f" (map {m['mapTop']:.0f}–{m['mapBottom']:.0f} of {m['innerHeight']}, page scrolls: {m['rootScrolls']},"
                   f" panel scrolled {m['sideScrolled']:.0f} px)")
            if view == "history":
                report(m["sideHeight"] < SIDE_PANEL_LIMIT_PX,
                       f"{where}: the side panel's content is {m['sideHeight']} px, below {SIDE_PANEL_LIMIT_PX} px")
                devtools.evaluate("document.getElementById('side').scrollTop = document.getElementById('side').scrollHeight")
                time.sleep(0.2)
                screenshot(devtools, folder, f"{size}-{view}-scrolled")
                devtools.evaluate("document.getElementById('side').scrollTop = 0")
        if size == "desktop":
            check_sections(devtools, report, base_url, views[1][1], folder)


def check_sections(devtools, report, base_url, query, folder):
    """Sections collapse and are remembered; the locations list is closed by default and shows a
    page of LIST_PAGE_SIZE rows with Older/Newer buttons."""
    closed = devtools.evaluate("!document.getElementById('section-locations').open")
    report(closed, "the locations list is collapsed by default")
    devtools.evaluate("document.querySelector('#section-locations > summary').click()")
    devtools.evaluate("document.querySelector('#section-timeline > summary').click()")
    open_view(devtools, base_url, query)
    remembered = devtools.evaluate("[document.getElementById('section-locations').open,"
                                   " document.getElementById('section-timeline').open]")
    report(remembered == [True, False], f"opened and closed sections stay so after a reload ({remembered})")
    devtools.wait_for("document.querySelectorAll('#locations li').length > 50", 20)
    rows = devtools.evaluate("[document.querySelectorAll('#locations li').length,"
                             " [...document.querySelectorAll('#locations li')].filter((li) => li.getClientRects().length > 0).length,"
                             " document.getElementById('locations-page').textContent]")
    report(rows[0] > LIST_PAGE_SIZE and rows[1] == LIST_PAGE_SIZE,
           f"the locations list shows a page of {LIST_PAGE_SIZE} of its {rows[0]} rows ({rows[2]!r})")
    first = devtools.evaluate("[...document.querySelectorAll('#locations li')].find((li) => !li.hidden).textContent")
    devtools.evaluate("document.getElementById('locations-next').click()")
    after = devtools.evaluate("[[...document.querySelectorAll('#locations li')].find((li) => !li.hidden).textContent,"
                              " document.getElementById('locations-page').textContent,"
                              " document.getElementById('locations-previous').disabled]")
    report(after[0] != first and after[1].startswith(f"{LIST_PAGE_SIZE + 1}–") and after[2] is False,
           f"Older shows the next page ({after[1]!r})")
    screenshot(devtools, folder, "desktop-locations-page-2")
    devtools.evaluate("document.querySelector('#section-locations > summary').click();"
                      " document.querySelector('#section-timeline > summary').click()")
