#!/usr/bin/env python3
"""The page with many photo pins in the range (issue 32's "< 1 s to draw"): logs in, opens the page on
the photos' day, and reports from the performance timeline when /api/v1/photos answered, when the
clustered pins were first drawn, when the drawing stopped changing, and the longest main-thread task
(PerformanceObserver 'longtask'). Run by scripts/bench-photo-pins.sh; prints figures, no pass/fail."""
import argparse, base64, sys, time
import page_test
from layout_check import set_size

CLUSTERS = "document.querySelectorAll('#map .photo-pin').length"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--devtools-port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--day", required=True)
    parser.add_argument("--photos", type=int, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--screenshot", default="")
    arguments = parser.parse_args()
    base = arguments.url.rstrip("/")
    devtools = page_test.DevTools(arguments.devtools_port)
    set_size(devtools, 1400, 900, False)
    page_test.open_page(devtools, base + "/")
    if not page_test.log_in(devtools, arguments.user, arguments.password):
        print("FAIL: could not log in"); sys.exit(1)
    for run in range(arguments.runs):
        devtools.call("Page.navigate", {"url": "about:blank"})
        devtools.wait_for("location.href === 'about:blank'", 10)
        devtools.call("Page.navigate", {"url": f"{base}/#from={arguments.day}&to={arguments.day}"})
        devtools.wait_for("location.pathname === '/'", 10, interval=0.005)
        devtools.evaluate("window.__longest = 0; window.__tasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) {"
                          " window.__longest = Math.max(window.__longest, e.duration); window.__tasks.push(`${e.duration.toFixed(0)} ms @${e.startTime.toFixed(0)}`); }"
                          " }).observe({type: 'longtask', buffered: true}); 1")
        counted = devtools.wait_for(f"document.getElementById('map').dataset.photoCount === '{arguments.photos}' && performance.now()", 120, 0.01)
        if not counted:
            shown = devtools.evaluate("document.getElementById('map').dataset.photoCount")
            print(f"FAIL: run {run + 1}: the map never counted {arguments.photos} photos (data-photo-count {shown})"); sys.exit(1)
        first = devtools.wait_for(f"{CLUSTERS} > 0 && performance.now()", 120, 0.01)
        # Drawn: the pins on the map unchanged for 0.5 s (chunked loading adds them in slices).
        last_count, last_change, stable = -1, time.time(), None
        while time.time() - last_change < 0.5:
            count, now = devtools.evaluate(f"[{CLUSTERS}, performance.now()]")
            if count != last_count:
                last_count, last_change, stable = count, time.time(), now
            time.sleep(0.02)
        # The first photos request: the server's clusters (a range of many photos) or the whole list.
        answered = devtools.evaluate("(() => { const e = performance.getEntriesByType('resource').find((e) => /\\/api\\/v1\\/photos(\\/clusters)?\\?/.test(e.name));"
                                     " return e ? [e.requestStart, e.responseStart, e.responseEnd, e.encodedBodySize, e.name] : null; })()")
        asked = devtools.evaluate("performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/photos'))"
                                  ".map((e) => `${new URL(e.name).pathname}${new URL(e.name).searchParams.has('zoom') ? ' zoom ' + new URL(e.name).searchParams.get('zoom') : ''}"
                                  "${new URL(e.name).searchParams.has('limit') ? ' limit ' + new URL(e.name).searchParams.get('limit') : ''} ${(e.encodedBodySize / 1e3).toFixed(0)} kB @${e.responseEnd.toFixed(0)} ms`).join('; ')")
        grouping = devtools.evaluate("document.getElementById('map').dataset.photoClusters")
        zoom = devtools.evaluate("document.getElementById('map').dataset.zoom")
        # The drawn clusters' icons: the least distance between two middles, screen pixels.
        closest = devtools.evaluate("(() => { const c = [...document.querySelectorAll('#map .photo-pin')].map((e) => { const r = e.getBoundingClientRect();"
                                    " return [r.x + r.width / 2, r.y + r.height / 2]; }); let least = null;"
                                    " for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) {"
                                    " const d = Math.hypot(c[i][0] - c[j][0], c[i][1] - c[j][1]); if (least === null || d < least) least = d; }"
                                    " return least === null ? null : Math.round(least); })()")
        longest = devtools.evaluate("window.__longest")
        request = (f"{answered[4].split('?')[0].split('/api/')[1]} asked at {answered[0]:.0f} ms, answered {answered[1] - answered[0]:.0f} ms later, "
                   f"{answered[3] / 1e6:.1f} MB done at {answered[2]:.0f} ms") if answered else "no /api/v1/photos request seen"
        print(f"run {run + 1}: {arguments.photos} photos; {request}; pins counted at {counted:.0f} ms; first clusters drawn at "
              f"{first:.0f} ms ({first - (answered[2] if answered else 0):.0f} ms after the answer); drawing settled at {stable:.0f} ms "
              f"with {last_count} pins/clusters in view (grouped by the {grouping}, map zoom {zoom}, icons at least {closest} px apart); longest main-thread task {longest:.0f} ms (times from navigation start)", flush=True)
        print(f"  photo requests: {asked}", flush=True)
        if grouping == "server":
            # The journal's photos: every photo's id and time (/api/v1/photos/times), placed in the timeline.
            timed = devtools.wait_for(f"document.getElementById('map').dataset.photoTimes === '{arguments.photos}' && performance.now()", 60, 0.01)
            rows = devtools.evaluate("document.getElementById('timeline').dataset.photoRows")
            longest = devtools.evaluate("window.__longest")
            print(f"  journal: the {arguments.photos} photos' times placed at {timed or 0:.0f} ms in {rows} timeline rows; "
                  f"longest main-thread task by then {longest:.0f} ms", flush=True)
        tasks = devtools.evaluate("window.__tasks.join(', ')")
        print(f"  main-thread tasks over 50 ms: {tasks}", flush=True)
    if arguments.screenshot:
        shot = devtools.call("Page.captureScreenshot", {"format": "png"})
        open(arguments.screenshot, "wb").write(base64.b64decode(shot["data"]))
        print(f"screenshot: {arguments.screenshot}")


if __name__ == "__main__":
    main()
