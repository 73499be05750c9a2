"""Issue 26's page features in a real browser (imported by page_test.py), each at a desktop size
(1400×900) and a phone size (390×844): the one date model (‹ ›, Today, the date field, the address,
back and forward, the year and month picker reaching 2008, the years overview, dates on a range's
timeline), the device filter, twelve distinct device colours, one mode colour in legend and
timeline, Follow live position, the journal entry's menu with a confirmation and an Undo, the chart's
axes and zero bars, a region placed by clicking a journal pin (and its name not reused), and
axe-core finding no serious or critical violation on any view; and the journal's defects as a person
met them (journal_truth_check.py)."""

import datetime
import json
import math
import time
import urllib.request

from journal_truth_check import check_journal_truths
from layout_check import SIZES, open_view, screenshot, set_size
from regions_check import click

#: A fix of 2008, so the year picker has a year eighteen back to reach.
OLD_DAY = "2008-05-10"
#: Where the menu check's two stays are (a day of their own, far back).
MENU_DAYS_AGO = 400


def value(devtools, expression):
    return devtools.evaluate(expression)


def wait_day(devtools, day, timeout=10):
    return devtools.wait_for(f"document.getElementById('from').value === '{day}'"
                             f" && location.hash.includes('from={day}')", timeout)


def seed_two_stays(base_url, token, post_locations, iso, day):
    """Two stays joined by a 20-minute walk on `day` (a datetime at 09:00 local)."""
    first, second = (47.3700, 8.5400), (47.3700, 8.5650)
    fixes = []
    for minute in range(0, 91):
        share = 0 if minute <= 35 else 1 if minute >= 55 else (minute - 35) / 20
        jitter = 0.00002 * math.sin(minute)
        fixes.append({"latitude": first[0] + jitter, "longitude": first[1] + (second[1] - first[1]) * share - jitter,
                      "timestamp": iso(day + datetime.timedelta(minutes=minute)), "horizontalAccuracy": 10})
    post_locations(base_url, token, fixes)


def import_as(devtools, device, day, latitude, longitude):
    """A GPX of 40 fixes on `day` imported through the API under another device's name."""
    points = "".join(f'<trkpt lat="{latitude + index * 0.0004:.5f}" lon="{longitude + index * 0.0004:.5f}">'
                     f'<time>{day}T08:{index:02d}:00Z</time></trkpt>' for index in range(40))
    gpx = ('<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">'
           f'<trk><trkseg>{points}</trkseg></trk></gpx>')
    return devtools.evaluate(f"fetch('/api/v1/imports?filename=w.gpx&device={device}', {{method: 'POST',"
                             " headers: {'X-Requested-With': 'fetch', 'Content-Type': 'application/octet-stream'},"
                             f" body: {json.dumps(gpx)}}}).then((r) => r.status)")


def check_features(devtools, report, base_url, token, post_locations, iso, folder, axe_source):
    post_locations(base_url, token, [{"latitude": 48.137, "longitude": 11.575, "timestamp": f"{OLD_DAY}T10:00:00Z",
                                      "horizontalAccuracy": 10},
                                     {"latitude": 48.139, "longitude": 11.578, "timestamp": f"{OLD_DAY}T10:30:00Z",
                                      "horizontalAccuracy": 10}])
    menu_day = (datetime.datetime.now().astimezone() - datetime.timedelta(days=MENU_DAYS_AGO)).replace(
        hour=9, minute=0, second=0, microsecond=0)
    seed_two_stays(base_url, token, post_locations, iso, menu_day)
    status = import_as(devtools, "watch", "2019-07-14", 46.60, 8.10)
    report(status == 200, f"a second device's track is imported for the device filter (HTTP {status})")
    for size, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        check_dates(devtools, report, base_url, size, menu_day.date().isoformat())
        check_menu(devtools, report, base_url, size, menu_day.date().isoformat(), folder)
        check_chart(devtools, report, base_url, size, menu_day.date().isoformat(), folder)
        check_devices(devtools, report, base_url, size, folder, menu_day.date().isoformat())
        check_region_on_pin(devtools, report, base_url, size, menu_day.date().isoformat())
        check_image_of_view(devtools, report, base_url, size, menu_day.date().isoformat())
        check_journal_truths(devtools, report, base_url, token, post_locations, iso, size)
    check_follow(devtools, report, base_url, token, post_locations, iso)
    check_live_released(devtools, report, base_url, token, post_locations, iso)
    check_rejected(devtools, report, base_url, token, folder)
    check_keyboard(devtools, report, base_url, menu_day.date().isoformat())
    check_axe(devtools, report, base_url, axe_source, menu_day.date().isoformat(), folder)


def check_dates(devtools, report, base_url, size, day):
    """‹ ›, Today, the date field, the address and back/forward all change the one range and the URL."""
    today = datetime.date.today().isoformat()
    open_view(devtools, base_url, "#from=2019-07-14")
    devtools.evaluate("document.getElementById('next').click()")
    report(bool(wait_day(devtools, "2019-07-15")), f"{size}: › moves the field and the address to the next day")
    devtools.evaluate("history.back()")
    report(bool(wait_day(devtools, "2019-07-14")), f"{size}: the browser's Back goes to the day before it")
    devtools.evaluate("document.getElementById('today').click()")
    report(bool(wait_day(devtools, today)), f"{size}: Today moves the field and the address to today")
    devtools.evaluate("(() => { const f = document.getElementById('from'); f.value = '2019-07-14';"
                      " f.dispatchEvent(new Event('change')); })()")
    marked = devtools.wait_for("document.querySelector('#calendar button[aria-current=date]')"
                               " && document.querySelector('#calendar button[aria-current=date]').dataset.day", 10)
    report(bool(wait_day(devtools, "2019-07-14")) and marked == "2019-07-14",
           f"{size}: the date field moves the address and the calendar ({marked})")
    devtools.evaluate("location.hash = '#from=2019-07-10&to=2019-07-16'")
    both = devtools.wait_for("document.getElementById('from').value === '2019-07-10'"
                             " && document.getElementById('to').value === '2019-07-16'"
                             " && document.getElementById('range-toggle').checked", 10)
    report(bool(both), f"{size}: an address with a range sets both fields and the range mode")
    around = (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()
    devtools.evaluate(f"location.hash = '#from={around}&to={day}'")
    devtools.wait_for(f"document.getElementById('from').value === '{around}'", 10)
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') === 'false'"
                      " && document.querySelectorAll('#timeline li.timeline-visit').length > 0", 20)
    rows = devtools.evaluate("[...document.querySelectorAll('#timeline li:not(.timeline-empty)')]"
                             ".map((li) => (li.querySelector('.timeline-date') || {}).textContent || '')")
    report(bool(rows) and all(rows), f"{size}: every row of a range's timeline has its date ({rows[:3]})")
    # 2008 in at most three actions: the year, the month, the day.
    devtools.evaluate("(() => { const s = document.getElementById('calendar-year'); s.value = '2008';"
                      " s.dispatchEvent(new Event('change')); })()")
    devtools.wait_for("document.getElementById('from').value.startsWith('2008-')", 10)
    devtools.wait_for("document.getElementById('calendar-month')", 5)
    devtools.evaluate("(() => { const s = document.getElementById('calendar-month'); s.value = '05';"
                      " s.dispatchEvent(new Event('change')); })()")
    report(bool(wait_day(devtools, OLD_DAY, 15)),
           f"{size}: the year and month pickers reach {OLD_DAY} in two actions"
           f" ({devtools.evaluate('document.getElementById(' + repr('from') + ').value')})")
    # The years overview: a row per year, a click on a day of 2008 shows it.
    devtools.evaluate("document.getElementById('today').click()")
    wait_day(devtools, today)
    found = devtools.wait_for(f"document.querySelector('#years rect[data-day=\"{OLD_DAY}\"]') !== null", 20)
    rows = devtools.evaluate("[...document.querySelectorAll('#years svg')].map((s) => s.dataset.year)")
    report(bool(found) and "2008" in rows and str(datetime.date.today().year) in rows,
           f"{size}: the years overview has a row per year from 2008 ({rows[-1:] + rows[:1]}) with {OLD_DAY} coloured")
    # A day is under a pixel wide: the click is given to its element, at its place.
    devtools.evaluate(f"(() => {{ const r = document.querySelector('#years rect[data-day=\"{OLD_DAY}\"]');"
                      " r.closest('svg').scrollIntoView({block: 'center'}); const b = r.getBoundingClientRect();"
                      " r.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: b.left + b.width / 2,"
                      " clientY: b.top + b.height / 2})); })()")
    report(bool(wait_day(devtools, OLD_DAY)), f"{size}: a click on a day of the years overview shows that day")


def entry_count(devtools):
    return devtools.evaluate("document.querySelectorAll('#journal li').length")


def check_menu(devtools, report, base_url, size, day, folder):
    """One menu per entry: Delete asks, deletes, and Undo brings the entry back; Merge names both entries."""
    open_view(devtools, base_url, f"#from={day}")
    devtools.wait_for("document.querySelectorAll('#journal li').length >= 2", 20)
    before = entry_count(devtools)
    titles = devtools.evaluate("[...document.querySelectorAll('#journal li .place')].map((e) => e.textContent)")
    buttons = devtools.evaluate("[...document.querySelectorAll('#journal li')].map((li) =>"
                                " li.querySelectorAll(':scope > button, :scope > .entry-menu > button').length)")
    report(before >= 2 and all(count == 2 for count in buttons),
           f"{size}: each entry shows its title and one menu button, not four buttons ({buttons})")
    devtools.evaluate("document.querySelector('#journal li:last-child .menu-button').click()")
    shown = devtools.evaluate("(() => { const b = document.querySelector('#journal li:last-child .menu-button');"
                              " const m = b.nextElementSibling; return [b.getAttribute('aria-haspopup'), b.getAttribute('aria-expanded'),"
                              " m.getClientRects().length > 0, [...m.querySelectorAll('[role=menuitem]')].map((i) => i.textContent)]; })()")
    screenshot(devtools, folder, f"{size}-entry-menu")
    merge = next((text for text in shown[3] if text.startswith("Merge")), "")
    report(shown[0] == "menu" and shown[1] == "true" and shown[2] and {"Rename…", "Delete…"} <= set(shown[3]),
           f"{size}: the entry's menu button opens its menu ({shown[3]})")
    report(titles[-1] in merge and titles[-2] in merge and merge.count("–") >= 2,
           f"{size}: Merge names the entries it joins with their times ({merge!r})")
    devtools.evaluate("window.__asked = []; window.confirm = (text) => { window.__asked.push(text); return true; }")
    devtools.evaluate("document.querySelector('#journal li:last-child [data-action=delete]').click()")
    gone = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before - 1}", 10)
    asked = devtools.evaluate("window.__asked")
    toast = devtools.wait_for("!document.getElementById('toast').hidden && document.getElementById('toast-text').textContent", 5)
    screenshot(devtools, folder, f"{size}-undo-toast")
    report(bool(gone) and asked and titles[-1] in asked[0] and toast,
           f"{size}: Delete asks first ({asked}), removes the entry and offers Undo ({toast!r})")
    devtools.evaluate("document.getElementById('toast-undo').click()")
    back = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before}", 10)
    report(bool(back), f"{size}: Undo brings the deleted entry back ({entry_count(devtools)} of {before})")
    devtools.wait_for("document.getElementById('journal').getAttribute('aria-busy') === 'false'", 10)
    devtools.evaluate("document.querySelector('#journal li:last-child [data-action=merge]').click()")
    merged = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before - 1}", 10)
    devtools.wait_for("!document.getElementById('toast').hidden", 5)
    devtools.evaluate("document.getElementById('toast-undo').click()")
    unmerged = devtools.wait_for(f"document.querySelectorAll('#journal li').length === {before}", 10)
    report(bool(merged) and bool(unmerged), f"{size}: a merge joins the two entries and Undo separates them again")


def check_chart(devtools, report, base_url, size, day, folder):
    """A week around a day with data: seven bars, the empty days as zero bars, ticks on both axes."""
    start = (datetime.date.fromisoformat(day) - datetime.timedelta(days=3)).isoformat()
    end = (datetime.date.fromisoformat(day) + datetime.timedelta(days=3)).isoformat()
    open_view(devtools, base_url, f"#from={start}&to={end}")
    chart = devtools.wait_for("(() => { const c = document.getElementById('chart');"
                              " return c.dataset.barCount && [Number(c.dataset.barCount), Number(c.dataset.zeroBars),"
                              " c.querySelectorAll('.chart-tick-y').length, c.querySelectorAll('.chart-tick-x').length,"
                              " (c.querySelector('.chart-unit') || {}).textContent]; })()", 20)
    devtools.evaluate("document.getElementById('section-stats').scrollIntoView()")
    screenshot(devtools, folder, f"{size}-chart")
    report(bool(chart) and chart[0] == 7 and chart[1] >= 5 and chart[2] >= 2 and chart[3] >= 2 and chart[4] in ("km", "mi"),
           f"{size}: the chart draws every day of the week (empty ones as zero bars) with y ticks in its unit and dates on x"
           f" ([bars, zero bars, y ticks, x ticks, unit] = {chart})")


def check_devices(devtools, report, base_url, size, folder, day):
    """The device filter hides a device's path; twelve devices get twelve colours; one mode colour."""
    devtools.evaluate("localStorage.removeItem('travelog.hiddenDevices')")
    open_view(devtools, base_url, "#from=2019-07-14")
    devtools.wait_for("document.querySelector('#device-filter input[data-device=watch]')", 10)
    legend = "[...document.querySelectorAll('#map-legend li[data-kind=device]')].map((r) => r.textContent).sort().join(',')"
    both = devtools.wait_for(f"{legend}.includes('watch') && {legend}.includes('imports') && {legend}", 10)
    points = devtools.evaluate("Number(document.getElementById('map').dataset.pointCount)")
    devtools.evaluate("document.querySelector('#device-filter input[data-device=watch]').click()")
    started = time.monotonic()
    hidden = devtools.wait_for(f"!{legend}.includes('watch') && document.getElementById('map').getAttribute('aria-busy') === 'false'"
                               f" && {legend}", 40)
    print(f"{size}: the path without the hidden device came in {time.monotonic() - started:.1f} s", flush=True)
    fewer = devtools.evaluate("Number(document.getElementById('map').dataset.pointCount)")
    asked = devtools.evaluate("performance.getEntriesByType('resource').map((e) => e.name)"
                              ".filter((n) => n.includes('/api/v1/path')).pop()")
    screenshot(devtools, folder, f"{size}-device-hidden")
    report(bool(both) and bool(hidden) and fewer < points and "device=imports" in (asked or "") and "device=watch" not in (asked or ""),
           f"{size}: unticking a device hides its path ({both} -> {hidden}; {points} -> {fewer} points; {asked})")
    devtools.evaluate("document.querySelector('#device-filter input[data-device=watch]').click()")
    devtools.wait_for(f"{legend}.includes('watch')", 10)
    colors = devtools.evaluate("import('/colors.js').then((m) => { const names = Array.from({length: 12}, (_, i) => `device ${i}`);"
                               " return names.map((n) => m.deviceColor(n, names)); })")
    report(len(set(c.lower() for c in colors)) == 12, f"{size}: twelve devices get twelve colours ({colors})")
    swatches = devtools.evaluate("[...document.querySelectorAll('#device-filter .device-swatch')].map((s) => getComputedStyle(s).backgroundColor)")
    report(len(swatches) >= 3 and len(set(swatches)) == len(swatches), f"{size}: the filter's devices have distinct colours ({swatches})")
    # One mode colour: the legend's and the timeline's for the walk of the menu check's day.
    open_view(devtools, base_url, f"#from={day}")
    pair = devtools.wait_for("(() => { const row = document.querySelector('#timeline .timeline-trip');"
                             " if (!row) return null; const mode = row.dataset.mode;"
                             " const swatch = [...document.querySelectorAll('#map-legend li[data-kind=mode]')].find((r) => r.textContent === mode);"
                             " return swatch && [mode, getComputedStyle(row).borderLeftColor,"
                             " getComputedStyle(swatch.querySelector('.swatch')).borderTopColor]; })()", 15)
    report(bool(pair) and pair[1] == pair[2], f"{size}: a trip's mode has one colour in the timeline and the legend ({pair})")


def check_region_on_pin(devtools, report, base_url, size, day):
    """Adding a region and clicking a journal pin places the region at the pin; the name is not reused."""
    open_view(devtools, base_url, f"#from={day}")
    devtools.evaluate("document.getElementById('section-regions').open = true")
    devtools.evaluate("document.querySelector('#journal li:last-child .place').click()")
    devtools.wait_for("Number(document.getElementById('map').dataset.zoom) >= 15", 5)
    time.sleep(1.0)  # the map's move to the entry ends
    pin = devtools.wait_for("(() => { const map = document.getElementById('map').getBoundingClientRect();"
                            " const pins = [...document.querySelectorAll('.leaflet-journal-pins-pane .visit-pin')].map((p) => p.getBoundingClientRect())"
                            ".filter((b) => b.width > 0 && b.left > map.left && b.right < map.right && b.top > map.top && b.bottom < map.bottom);"
                            " return pins.length && [pins[0].left + pins[0].width / 2, pins[0].top + pins[0].height / 2]; })()", 10)
    name = f"Pinned {size}"
    devtools.evaluate(f"document.getElementById('region-name').value = {json.dumps(name)}")
    devtools.evaluate("document.getElementById('region-add').click()")
    before = json.loads(devtools.evaluate("fetch('/api/v1/regions').then((r) => r.text())"))
    if pin:
        click(devtools, pin[0], pin[1])
    added = devtools.wait_for(f"fetch('/api/v1/regions').then((r) => r.json()).then((l) => l.length === {len(before) + 1} && l)", 10)
    visit = devtools.evaluate("fetch(`/api/v1/visits?from=" + day + "&to=" + day
                              + "&timezone=${Intl.DateTimeFormat().resolvedOptions().timeZone}`).then((r) => r.json())")
    region = next((r for r in added or [] if r.get("name") == name), None)
    near = region and any(abs(region["circle"]["latitude"] - v["latitude"]) < 1e-6
                          and abs(region["circle"]["longitude"] - v["longitude"]) < 1e-6 for v in visit)
    report(bool(pin) and bool(near), f"{size}: a click on a journal pin while adding a region places it at the pin ({region and region.get('circle')})")
    left = devtools.evaluate("document.getElementById('region-name').value")
    devtools.evaluate("window.__prompted = 0; window.prompt = () => { window.__prompted += 1; return null; }")
    devtools.evaluate("document.getElementById('region-add').click()")
    box = devtools.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.left + 30, r.bottom - 40]; })()")
    click(devtools, box[0], box[1])
    prompted = devtools.wait_for("window.__prompted", 5)
    report(left == "" and prompted == 1, f"{size}: the name is cleared after adding, so the next region asks for its own ({left!r}, asked {prompted})")
    if region:
        devtools.evaluate(f"fetch('/api/v1/regions/{region['id']}', {{method: 'DELETE', headers: {{'X-Requested-With': 'fetch'}}}}).then((r) => r.status)")


def check_image_of_view(devtools, report, base_url, size, day):
    """Image of this view at zoom 15 is drawn at zoom 15, centred where the map is, at the map's size."""
    open_view(devtools, base_url, f"#from={day}")
    devtools.evaluate("document.querySelector('#journal li:last-child .place').click()")
    devtools.wait_for("Number(document.getElementById('map').dataset.zoom) === 15", 5)
    time.sleep(0.8)
    answer = devtools.evaluate("(() => { const link = document.getElementById('view-image');"
                               " link.addEventListener('click', (e) => e.preventDefault(), { once: true });"
                               " link.dispatchEvent(new MouseEvent('click', { cancelable: true }));"
                               " const map = document.getElementById('map');"
                               " return fetch(link.href).then((r) => [r.status, r.headers.get('X-Travelog-Zoom-Level'),"
                               " map.dataset.zoom, link.href, map.clientWidth + 'x' + map.clientHeight]); })()")
    ok = bool(answer) and answer[0] == 200 and answer[1] == answer[2] == "15" and f"size={answer[4]}" in answer[3]
    report(ok, f"{size}: Image of this view at zoom 15 is drawn at zoom 15 at the map's size ({answer})")


def check_follow(devtools, report, base_url, token, post_locations, iso):
    """Follow live position: a new live point far away brings the map to it."""
    set_size(devtools, 1400, 900, False)
    open_view(devtools, base_url, "#from=" + datetime.date.today().isoformat())
    devtools.evaluate("document.getElementById('follow-live').checked || document.getElementById('follow-live').click()")
    moment = datetime.datetime.now().astimezone() - datetime.timedelta(seconds=2)
    post_locations(base_url, token, [{"latitude": 41.9028, "longitude": 12.4964, "timestamp": iso(moment), "horizontalAccuracy": 5}])
    followed = devtools.wait_for("(() => { const b = (document.getElementById('map').dataset.bounds || '').split(',').map(Number);"
                                 " return b.length === 4 && b[0] < 12.4964 && b[2] > 12.4964 && b[1] < 41.9028 && b[3] > 41.9028; })()", 5)
    remembered = devtools.evaluate("localStorage.getItem('travelog.followLive')")
    report(bool(followed) and remembered == "on", f"with Follow live position on, the map pans to a new live point ({remembered})")
    devtools.evaluate("document.getElementById('follow-live').click()")


def check_live_released(devtools, report, base_url, token, post_locations, iso):
    """A page left for another gives its live stream's connection back: a browser opens at most six
    HTTP/1.1 connections to a server, and pages kept in its back/forward cache held theirs, so every
    sixth page opened waited about 50 s for its document. Coming back catches up with what arrived."""
    today = datetime.date.today().isoformat()
    times = []
    for _ in range(8):
        devtools.call("Page.navigate", {"url": "about:blank"})
        devtools.wait_for("location.href === 'about:blank'", 10)
        started = time.monotonic()
        devtools.call("Page.navigate", {"url": f"{base_url}/#from={today}"}, timeout=90)
        devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden", 20)
        times.append(round(time.monotonic() - started, 1))
    report(max(times) < 20, f"eight pages opened in turn each get their document at once (seconds: {times})")
    devtools.wait_for("document.getElementById('live-state').textContent.startsWith('Live:')", 10)
    devtools.call("Page.navigate", {"url": "about:blank"})
    devtools.wait_for("location.href === 'about:blank'", 10)
    moment = datetime.datetime.now().astimezone() - datetime.timedelta(seconds=1)
    away = {"latitude": 41.9100, "longitude": 12.4800, "timestamp": iso(moment), "horizontalAccuracy": 5}
    post_locations(base_url, token, [away])
    devtools.evaluate("history.back()")
    wanted = f"{away['latitude']:.5f}, {away['longitude']:.5f}"
    listed = devtools.wait_for(f"[...document.querySelectorAll('#locations li')].some((li) => li.textContent.includes('{wanted}'))"
                               " && document.getElementById('live-state').textContent.startsWith('Live:')", 15)
    state = devtools.evaluate("document.getElementById('live-state').textContent")
    report(bool(listed), f"back on the page, the fix posted while away is listed and the stream is open again ({state!r})")


def check_rejected(devtools, report, base_url, token, folder):
    """An item a phone app sent that could not be stored is listed with its reason in Import."""
    body = json.dumps({"locations": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.4, 52.5]},
                                      "properties": {"timestamp": "yesterday"}}]}).encode()
    request = urllib.request.Request(f"{base_url}/api/v1/overland", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
    for size, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        open_view(devtools, base_url, "#from=2019-07-14")
        devtools.evaluate("document.getElementById('section-import').open = true")
        listed = devtools.wait_for("[...document.querySelectorAll('#rejected li')].map((li) => li.textContent).join('|')", 10)
        devtools.evaluate("document.getElementById('rejected').scrollIntoView()")
        screenshot(devtools, folder, f"{size}-rejected")
        report(bool(listed) and "yesterday" in listed and "overland" in listed,
               f"{size}: the items the server refused are listed with their reasons ({listed!r})")
        devtools.evaluate("document.getElementById('section-import').open = false")


def check_keyboard(devtools, report, base_url, day):
    """Tab alone reaches the dates, the device filter, a section's summary, the year picker, the
    years overview and an entry's menu, each with a visible focus outline."""
    set_size(devtools, 1400, 900, False)
    open_view(devtools, base_url, f"#from={day}")
    devtools.evaluate("document.activeElement && document.activeElement.blur()")
    seen, unmarked = [], []
    for _ in range(120):
        for kind in ("rawKeyDown", "keyUp"):
            devtools.call("Input.dispatchKeyEvent", {"type": kind, "key": "Tab", "code": "Tab",
                                                     "windowsVirtualKeyCode": 9, "nativeVirtualKeyCode": 9})
        focused = devtools.evaluate("(() => { const e = document.activeElement; if (!e || e === document.body) return null;"
                                    " const style = getComputedStyle(e);"
                                    " return [e.id || e.className || e.tagName, e.tagName, e.dataset.device || '',"
                                    " style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0]; })()")
        if focused:
            seen.append(focused)
            if not focused[3]:
                unmarked.append(focused[0])
    names = [entry[0] for entry in seen]
    wanted = {"from": "the day field", "next": "›", "calendar-year": "the year picker", "menu-button": "an entry's menu"}
    missing = [label for key, label in wanted.items() if key not in names]
    devices = any(entry[2] for entry in seen)
    summary = any(entry[1] == "SUMMARY" for entry in seen)
    years = any(entry[0] == "years-label" for entry in seen)
    report(not missing and devices and summary and years,
           f"Tab reaches the day field, ›, the device filter, the sections, the year picker, the years overview"
           f" and an entry's menu (missing: {missing}, devices {devices}, sections {summary}, years {years})")
    report(not unmarked, f"every control reached by Tab shows a focus outline ({len(seen)} reached; without: {sorted(set(unmarked))[:8]})")


AXE_RUN = ("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations"
           ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
           ".map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`))")


def check_axe(devtools, report, base_url, axe_source, day, folder):
    """axe-core on the login form and on a day, a range and the whole history (every section open),
    at both sizes: no serious or critical violation."""
    if not report(bool(axe_source), "axe-core's axe.min.js is given to the test (browser-test.sh extracts it)"):
        return
    # axe compiles its rules' messages with new Function, which the page's policy forbids.
    devtools.call("Page.setBypassCSP", {"enabled": True})
    today = datetime.date.today().isoformat()
    views = (("day", f"#from={day}"), ("range", f"#from={day}&to={today}"))
    for size, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        for view, query in views:
            open_view(devtools, base_url, query)
            devtools.evaluate("document.querySelectorAll('details[data-section]').forEach((d) => { d.open = true; })")
            devtools.evaluate("document.querySelector('#journal li .menu-button') && document.querySelector('#journal li .menu-button').click()")
            devtools.evaluate(axe_source + "\n;true")
            found = devtools.evaluate(AXE_RUN)
            report(found == [], f"{size} {view}: axe-core finds no serious or critical violation" + ("" if not found else f": {found}"))
    devtools.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('travelog.section.')).forEach((k) => localStorage.removeItem(k))")
    devtools.call("Page.setBypassCSP", {"enabled": False})
