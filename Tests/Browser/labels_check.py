"""Labels in a real browser (imported by page_test.py): an OwnTracks phone publishes two fixes with
a POI ("Publish with POI") and a tag among plain ones; the day's journal lists each at its time
among the visits and trips, and the map draws each as a small flag with its words. Screenshots at
desktop and phone size go to the screenshots folder."""

import base64
import datetime
import json
import os
import time
import urllib.error
import urllib.request
import zoneinfo

SIZES = ((1400, 900, False, "desktop"), (390, 844, True, "phone"))
DAYS_AGO = 4
#: Where the phone was: a morning on Helsinki's Esplanadi, far from the other checks' places.
SPOT = (60.1675, 24.9480)


def owntracks_post(base_url, user, password, device, messages):
    """OwnTracks locations as the app posts them in HTTP mode (a JSON array); the HTTP status."""
    credentials = base64.b64encode(f"{user}:{password}".encode()).decode()
    request = urllib.request.Request(base_url + "/api/v1/owntracks", data=json.dumps(messages).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Basic {credentials}", "X-Limit-U": user, "X-Limit-D": device,
        "User-Agent": "Owntracks/13.2 CFNetwork"})
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def screenshot(devtools, folder, name, width, height, mobile):
    devtools.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    time.sleep(0.6)
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    path = os.path.join(folder, f"{name}.png")
    with open(path, "wb") as output:
        output.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")


def check_labels(devtools, report, base_url, user, password, folder):
    start = (datetime.datetime.now().astimezone() - datetime.timedelta(days=DAYS_AGO)).replace(hour=9, minute=0, second=0, microsecond=0)
    messages = []
    for minute in range(0, 61, 2):
        message = {"_type": "location", "tid": "LB", "tst": int((start + datetime.timedelta(minutes=minute)).timestamp()),
                   "lat": SPOT[0] + minute * 0.00004, "lon": SPOT[1] + minute * 0.0001, "acc": 8}
        if minute == 10:
            message.update(poi="Coffee at Kappeli", tag="breakfast")
        if minute == 40:
            message["poi"] = "Havis Amanda"
        messages.append(message)
    status = owntracks_post(base_url, user, password, "labels-phone", messages)
    if not report(status == 200, f"an OwnTracks phone posts 31 fixes, two with a POI and one with a tag ({status})"):
        return
    day = start.date().isoformat()
    devtools.call("Emulation.clearDeviceMetricsOverride")
    devtools.evaluate(f"window.location.hash = '#from={day}'")
    drawn = devtools.wait_for("document.getElementById('map').getAttribute('aria-busy') === 'false'"
                              " && Number(document.getElementById('map').dataset.labelCount) === 3"
                              " && Number(document.getElementById('timeline').dataset.labelCount) === 3"
                              " && document.querySelectorAll('.label-pin').length", 20)
    report(drawn == 2, f"the day's three labels are in the timeline and on the map, one flag per fix ({drawn} flags)")
    rows = devtools.evaluate("[...document.querySelectorAll('#timeline li')].map((row) => [row.className,"
                             " (row.querySelector('strong') || {}).textContent || '', (row.querySelector('.timeline-time') || {}).textContent || '',"
                             " row.dataset.start || ''])") or []
    labels = [row for row in rows if row[0] == "timeline-label"]
    report([row[1] for row in labels] == ["Coffee at Kappeli", "breakfast", "Havis Amanda"],
           f"the timeline lists them in time order ({[row[1] for row in labels]})")
    # In the place's own time, as the visits' rows are (Helsinki's, whatever the browser's zone).
    wanted = (start + datetime.timedelta(minutes=10)).astimezone(zoneinfo.ZoneInfo("Europe/Helsinki")).strftime("%H:%M")
    shown = labels[0][2] if labels else ""
    digits = "".join(ch for ch in shown if ch.isdigit() or ch == ":")
    hours, minutes = (int(part) for part in wanted.split(":"))
    twelve = f"{(hours - 1) % 12 + 1}:{minutes:02d}"
    report(digits in (wanted, twelve, wanted.lstrip("0")),
           f"a label's row shows its fix's time in the place's zone, as the visits' rows do ({shown!r}, the fix at {wanted} in Helsinki)")
    # The locations list beside it uses the same clock: its newest fix (minute 60) in Helsinki's time.
    newest = (start + datetime.timedelta(minutes=60)).astimezone(zoneinfo.ZoneInfo("Europe/Helsinki"))
    listed = devtools.evaluate("(document.querySelector('#locations li .when') || {}).textContent || ''") or ""
    hours24, twelve = newest.strftime("%H:%M:%S"), f"{(newest.hour - 1) % 12 + 1}:{newest.strftime('%M:%S')}"
    report(hours24 in listed or listed.startswith(twelve) or f" {twelve}" in listed,
           f"the locations list writes its fixes in the place's time too ({listed!r}, the newest at {hours24} in Helsinki)")
    starts = [row[3] for row in rows if row[3]]
    report(starts == sorted(starts), "every row of the timeline, labels among them, is in time order")
    tooltips = devtools.evaluate("[...document.querySelectorAll('.leaflet-tooltip.label-text')].map((t) => t.textContent)") or []
    report(sorted(tooltips) == sorted(["Coffee at Kappeli · breakfast", "Havis Amanda"]),
           f"the map shows each flag's words, a fix's POI and tag together ({tooltips})")
    api = json.loads(devtools.evaluate(f"fetch('/api/v1/labels?from={day}&to={day}').then((r) => r.text())") or "[]")
    report([label["text"] for label in api] == ["Coffee at Kappeli", "breakfast", "Havis Amanda"]
           and {label["device"] for label in api} == {"labels-phone"}, f"GET /api/v1/labels answers the same ({len(api)})")
    devtools.evaluate("document.getElementById('map').scrollIntoView()")
    for width, height, mobile, name in SIZES:
        screenshot(devtools, folder, f"labels-{name}", width, height, mobile)
        if mobile:
            devtools.evaluate("(document.querySelector('#timeline .timeline-label') || document.body).scrollIntoView()")
            screenshot(devtools, folder, f"labels-timeline-{name}", width, height, mobile)
    devtools.call("Emulation.clearDeviceMetricsOverride")
