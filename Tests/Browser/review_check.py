"""A year in review and the replay of a day in Chromium (issue 33 items 2 and 3), on the page test's
own history (today's path and yesterday's stays): Review → the current year shows its figures with
links to their days and the image the server draws, and a day link opens that day; Replay of
yesterday loads its fixes, plays at 1000× (the clock moves), pauses (the clock stays), and jumps to
a visit (the clock is its arrival). Screenshots at 1400x900 and 390x844.

`python3 review_check.py frames --url URL --devtools-port N --user U --password P --day DAY` measures
the replay instead: DAY's fixes played at 1000× for 8 s, requestAnimationFrame intervals and the
performance timeline's long animation frames (scripts/bench-replay-frames.sh seeds a day of 86,400 fixes; `make bench NAMES=replay-frames`)."""
import argparse
import datetime
import json
import sys
import time

from layout_check import set_size
from shares_check import SIZES, overflow, screenshot

CLOCK = "document.getElementById('replay').dataset.clock || ''"


def open_section(devtools, name):
    devtools.evaluate(f"(() => {{ const s = document.getElementById('section-{name}'); s.open = true;"
                      " s.scrollIntoView({block: 'center'}); })()")


def check_review(devtools, report, base_url, folder):
    year = datetime.date.today().year
    devtools.call("Page.navigate", {"url": base_url + "/"})
    devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden", 15)
    open_section(devtools, "review")
    devtools.evaluate(f"document.getElementById('review-year').value = '{year}'; document.getElementById('review-month').value = '';"
                      " document.getElementById('review-show').click()")
    shown = devtools.wait_for(f"document.getElementById('review').dataset.period === '{year}'"
                              " && document.querySelectorAll('#review-figures li').length", 20)
    figures = devtools.evaluate("Array.from(document.querySelectorAll('#review-figures li')).map((li) => li.dataset.figure)")
    report(bool(shown) and "distance" in figures and "busiest" in figures,
           f"Review of {year} shows its figures ({figures})")
    loaded = devtools.wait_for("(() => { const i = document.getElementById('review-image');"
                               " return !i.hidden && i.complete && i.naturalWidth > 1000 && i.naturalWidth; })()", 20)
    report(bool(loaded), f"the review's image is drawn by the server ({loaded} px wide)")
    pdf = devtools.evaluate("fetch(document.getElementById('review-pdf').href, {headers: {'X-Requested-With': 'fetch'}})"
                            ".then(async (r) => [r.status, r.headers.get('Content-Type'), new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5))])")
    report(pdf == [200, "application/pdf", "%PDF-"], f"Download as PDF answers a PDF ({pdf})")
    for name, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        open_section(devtools, "review")
        time.sleep(0.3)
        report(not overflow(devtools), f"the Review section fits at {width}x{height}")
        screenshot(devtools, f"{folder}/review-{name}.png")
    day = devtools.evaluate("(document.querySelector('#review-figures li[data-figure=busiest] a.review-day') || {}).textContent")
    devtools.evaluate("document.querySelector('#review-figures li[data-figure=busiest] a.review-day').click()")
    opened = devtools.wait_for(f"location.hash === '#from={day}' && document.getElementById('from').value === '{day}'", 10)
    report(bool(day) and bool(opened), f"the busiest day's link opens that day ({day})")


def check_replay(devtools, report, base_url, folder):
    yesterday = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    devtools.call("Page.navigate", {"url": f"{base_url}/#from={yesterday}"})
    devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden", 15)
    set_size(devtools, 1400, 900, False)
    open_section(devtools, "replay")
    devtools.wait_for("document.getElementById('map').getAttribute('aria-busy') === 'false'", 10)
    devtools.evaluate("document.getElementById('replay-load').click()")
    fixes = devtools.wait_for("!document.getElementById('replay-controls').hidden && Number(document.getElementById('replay').dataset.fixes)", 15)
    report(bool(fixes), f"Replay loads yesterday's fixes at full resolution ({fixes})")
    if not fixes:
        return
    start = devtools.evaluate(CLOCK)
    devtools.evaluate("document.getElementById('replay-speed').value = '1000';"
                      " document.getElementById('replay-speed').dispatchEvent(new Event('change'));"
                      " document.getElementById('replay-play').click()")
    moved = devtools.wait_for(f"document.getElementById('replay').dataset.playing === 'true' && ({CLOCK}) > '{start}' && ({CLOCK})", 5)
    report(bool(moved), f"Play at 1000× moves the clock ({start} → {moved})")
    time.sleep(0.3)
    devtools.evaluate("document.getElementById('replay-play').click()")
    paused = devtools.evaluate(CLOCK)
    time.sleep(0.4)
    still = devtools.evaluate(CLOCK)
    readout = devtools.evaluate("['replay-time', 'replay-speed-now', 'replay-altitude'].map((id) => document.getElementById(id).textContent)")
    report(devtools.evaluate("document.getElementById('replay').dataset.playing") == "false" and paused == still,
           f"Pause stops the clock ({paused}; readout {readout})")
    visits = devtools.evaluate("document.getElementById('replay-jump').options.length - 1")
    if report(visits > 0, f"the visits of the day are offered to jump to ({visits})"):
        arrival = devtools.evaluate("document.getElementById('replay-jump').options[1].dataset.arrival")
        devtools.evaluate("(() => { const jump = document.getElementById('replay-jump'); jump.value = '0';"
                          " jump.dispatchEvent(new Event('change')); })()")
        clock = devtools.evaluate(CLOCK)
        report(bool(arrival) and clock[:19] == arrival[:19], f"a jump to the first visit sets the clock to its arrival ({clock} / {arrival})")
    for name, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        open_section(devtools, "replay")
        time.sleep(0.3)
        report(not overflow(devtools), f"the Replay section fits at {width}x{height}")
        screenshot(devtools, f"{folder}/replay-{name}.png")


def check_review_replay(devtools, report, base_url, folder):
    check_review(devtools, report, base_url, folder)
    check_replay(devtools, report, base_url, folder)


FRAMES = """(async () => {
  const intervals = []; let last = null; let frames = 0;
  const long = [];
  let observer = null;
  try {
    observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e.duration); });
    observer.observe({type: 'long-animation-frame', buffered: false});
  } catch (_) { /* no long-animation-frame entries in this Chromium */ }
  performance.mark('replay-start');
  await new Promise((done) => {
    const end = performance.now() + SECONDS * 1000;
    function step(now) {
      if (last !== null) intervals.push(now - last);
      last = now; frames += 1;
      if (now < end) requestAnimationFrame(step); else done();
    }
    requestAnimationFrame(step);
  });
  performance.mark('replay-end');
  if (observer) observer.disconnect();
  const sorted = [...intervals].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
  return {frames, meanMs: mean, fps: 1000 / mean, p50Ms: q(0.5), p95Ms: q(0.95), p99Ms: q(0.99), maxMs: sorted[sorted.length - 1],
          over20Ms: intervals.filter((i) => i > 20).length, longAnimationFrames: long.length,
          longest: long.length ? Math.max(...long) : 0};
})()"""


def measure_frames(arguments):
    import page_test
    devtools = page_test.DevTools(arguments.devtools_port)
    page_test.open_page(devtools, arguments.url + "/")
    page_test.log_in(devtools, arguments.user, arguments.password)
    set_size(devtools, 1400, 900, False)
    devtools.call("Page.navigate", {"url": f"{arguments.url}/#from={arguments.day}"})
    devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden", 15)
    devtools.wait_for("document.getElementById('map').getAttribute('aria-busy') === 'false'", 60)
    open_section(devtools, "replay")
    started = time.monotonic()
    devtools.evaluate("document.getElementById('replay-load').click()")
    fixes = devtools.wait_for("!document.getElementById('replay-controls').hidden && Number(document.getElementById('replay').dataset.fixes)", 120)
    loaded = time.monotonic() - started
    idle = devtools.evaluate(FRAMES.replace("SECONDS", "3"))
    # From 07:00 of the day (the slider's share of it), where the generated day starts to move.
    devtools.evaluate(f"(() => {{ const s = document.getElementById('replay-slider'); s.value = String(Math.round({arguments.start_hour} / 24 * Number(s.max)));"
                      " s.dispatchEvent(new Event('input')); })()")
    devtools.evaluate(f"document.getElementById('replay-follow').checked = {'false' if arguments.no_follow else 'true'}")
    devtools.evaluate("document.getElementById('replay-speed').value = '1000';"
                      " document.getElementById('replay-speed').dispatchEvent(new Event('change'));"
                      " document.getElementById('replay-play').click()")
    playing = devtools.evaluate(FRAMES.replace("SECONDS", str(arguments.seconds)))
    clock = devtools.evaluate(CLOCK)
    if arguments.screenshot:
        screenshot(devtools, arguments.screenshot)
    print(json.dumps({"fixes": fixes, "loadSeconds": round(loaded, 2), "clockAfter": clock, "idle": idle, "playing1000x": playing}, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["frames"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--devtools-port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--day", required=True)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--start-hour", type=float, default=0, help="where in the day to start playing")
    parser.add_argument("--screenshot", help="a PNG of the page after playing")
    parser.add_argument("--no-follow", action="store_true", help="the map does not follow the markers")
    measure_frames(parser.parse_args())
    sys.exit(0)
