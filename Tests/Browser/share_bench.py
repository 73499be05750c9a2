"""The shared page's half of the page bench (page_test.py bench, scripts/browser-test.sh
--bench-million): the owner's range made into a share link, opened as a visitor would, and timed
from the navigation's start to the path drawn (`#share-map[data-point-count] > 0`, the share page's
path of `/api/v1/s/TOKEN/path`, simplified on the server like the owner's) — issue 30's "a shared
page of a 1M-point range draws as fast as the owner's (< 1 s)".

Standard library plus Debian's python3-websocket; run with /usr/bin/python3.
"""

import json

#: Target for the shared page's time to the drawn path.
SHARED_TARGET_SECONDS = 1.0

SHARED_DRAWN = "Number((document.getElementById('share-map') || {dataset: {}}).dataset.pointCount || 0)"


def bench_shared_page(devtools, report, base_url, from_day, to_day, runs, owner_median_seconds):
    """Makes a range link of the owner's days (the session's), opens it `runs` times and reports the median."""
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
            "(() => { const e = performance.getEntriesByType('resource').find((e) => e.name.includes('/path'));"
            " return e ? [e.responseStart - e.requestStart, e.responseEnd] : null; })()")
        detail = f"; /api/v1/s/…/path answered in {answered[0]:.0f} ms, done at {answered[1]:.0f} ms" if answered else ""
        print(f"shared run {run + 1}: path drawn {milliseconds:.0f} ms after navigation start ({count} points){detail}", flush=True)
        figures.append(milliseconds)
    figures.sort()
    median = figures[len(figures) // 2] / 1000
    report(median < SHARED_TARGET_SECONDS,
           f"median time to the shared page's drawn path over {len(figures)} runs: {median:.3f} s (target under"
           f" {SHARED_TARGET_SECONDS:.0f} s; the owner's page: {owner_median_seconds:.3f} s)")
