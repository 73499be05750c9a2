"""The shared page's half of the page bench (page_test.py bench, scripts/browser-test.sh
--bench-million): the owner's range made into a share link, opened as a visitor would, and timed
from the navigation's start to the path drawn (`#share-map[data-point-count] > 0`: for a range of
many fixes, the first screenful of `/api/v1/s/TOKEN/tiles` loaded, drawn from the owner's tile index as
the owner's page draws a range; for a few, the vector path of `/api/v1/s/TOKEN/path`) — issue 30's "a
shared page of a 1M-point range draws as fast as the owner's (< 1 s)".

Standard library plus Debian's python3-websocket; run with /usr/bin/python3.
"""

import base64
import json
import time

#: Target for the shared page's time to the drawn path.
SHARED_TARGET_SECONDS = 1.0

SHARED_DRAWN = "Number((document.getElementById('share-map') || {dataset: {}}).dataset.pointCount || 0)"


def bench_shared_page(devtools, report, base_url, from_day, to_day, runs, owner_median_seconds, screenshot=None):
    """Makes a range link of the owner's days (the session's), opens it `runs` times and reports the median.
    With `screenshot` (a path ending in .png), the last run's page is saved there at the window's size and
    at desktop size (1400×900, `-desktop` before the suffix), to be looked at."""
    made = devtools.evaluate(
        "fetch('/api/v1/shares', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Requested-With': 'fetch'},"
        f" body: JSON.stringify({json.dumps({'kind': 'range', 'from': from_day, 'to': to_day, 'title': 'bench'})})}})"
        ".then(async (r) => [r.status, await r.json()])")
    if not report(bool(made) and made[0] == 201, f"a range link of {from_day} to {to_day} is made ({made and made[0]})"):
        return
    link = f"{base_url}/s/{made[1]['token']}"
    figures = []
    for run in range(runs):
        devtools.call("Page.navigate", {"url": "about:blank"})
        devtools.wait_for("location.href === 'about:blank'", 10)
        devtools.call("Page.navigate", {"url": link})
        devtools.wait_for("location.pathname.startsWith('/s/')", 10, interval=0.005)
        found = devtools.wait_for(f"{SHARED_DRAWN} > 0 && [{SHARED_DRAWN}, performance.now()]", 120, interval=0.01)
        if not found:
            report(False, f"shared run {run + 1}: no path drawn within 120 s")
            return
        count, milliseconds = found
        answered = devtools.evaluate(
            "(() => { const all = performance.getEntriesByType('resource');"
            " const bounds = all.find((e) => e.name.includes('/bounds'));"
            " const tiles = all.filter((e) => e.name.includes('/tiles/'));"
            " const path = all.find((e) => e.name.includes('/path'));"
            " return [bounds ? bounds.responseEnd : null, tiles.length, tiles.length ? Math.max(...tiles.map((e) => e.responseEnd)) : null,"
            " path ? path.responseEnd : null]; })()")
        detail = ""
        if answered:
            bounds_done, tile_count, tiles_done, path_done = answered
            if bounds_done is not None:
                detail += f"; bounds at {bounds_done:.0f} ms"
            if tile_count:
                detail += f"; {tile_count} tiles, the last at {tiles_done:.0f} ms"
            if path_done is not None:
                detail += f"; vector path at {path_done:.0f} ms"
        print(f"shared run {run + 1}: path drawn {milliseconds:.0f} ms after navigation start ({count} points){detail}", flush=True)
        figures.append(milliseconds)
    if screenshot:
        save_screenshots(devtools, screenshot)
    figures.sort()
    median = figures[len(figures) // 2] / 1000
    report(median < SHARED_TARGET_SECONDS,
           f"median time to the shared page's drawn path over {len(figures)} runs: {median:.3f} s (target under"
           f" {SHARED_TARGET_SECONDS:.0f} s; the owner's page: {owner_median_seconds:.3f} s)")


def save_screenshots(devtools, path):
    """The shared page as it is (tiles faded in), then opened again at desktop size."""
    def save(target):
        time.sleep(0.6)  # Leaflet fades tiles in over 200 ms
        shot = devtools.call("Page.captureScreenshot", {"format": "png"})
        with open(target, "wb") as output:
            output.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {target}", flush=True)

    save(path)
    link = devtools.evaluate("location.href")
    devtools.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    devtools.call("Page.navigate", {"url": "about:blank"})
    devtools.wait_for("location.href === 'about:blank'", 10)
    devtools.call("Page.navigate", {"url": link})
    devtools.wait_for("location.pathname.startsWith('/s/')", 10, interval=0.005)
    devtools.wait_for(f"{SHARED_DRAWN} > 0", 120, interval=0.05)
    save(path.replace(".png", "-desktop.png"))
    devtools.call("Emulation.clearDeviceMetricsOverride", {})
