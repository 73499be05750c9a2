#!/usr/bin/python3
"""The first run as a new user meets it, in headless Chromium over the DevTools protocol (called by
scripts/first-run-test.sh on a server with an empty database):

1. the page without the link says the server has no account yet and where the link is, and
   offers no login that could not work;
2. the printed link opens the first-run form; a mismatched second password is caught on the page;
   the account is made and logged in;
3. the page at once offers a phone: a device is added there, and the phone app's setup link
   (OwnTracks' remote configuration) is shown with its QR code;
4. a location is reported exactly as that app does with that configuration (its URL, user, device
   and token, read from the link, not from anywhere else);
5. "Go to the map" shows the map with that location on it;
6. the used link then opens the login form, not the first-run form.

At desktop (1400x900) and phone (390x844) size; screenshots in $TRAVELOG_SCREENSHOTS. Prints
PASS/FAIL lines; exits 1 on any failure.
"""
import argparse
import base64
import json
import os
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page_test import DevTools  # noqa: E402  (Debian's python3-websocket)

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--link", required=True)
parser.add_argument("--devtools-port", required=True)
args = parser.parse_args()
failures = []
folder = os.environ.get("TRAVELOG_SCREENSHOTS") or "/tmp"
os.makedirs(folder, exist_ok=True)


def report(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def screenshot(name):
    shot = devtools.call("Page.captureScreenshot", {"format": "png"})
    path = os.path.join(folder, f"first-run-{name}.png")
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def set_size(width, height, mobile):
    devtools.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def navigate(url):
    devtools.call("Page.navigate", {"url": "about:blank"})
    devtools.call("Page.navigate", {"url": url})


def type_into(element_id, text):
    devtools.evaluate(f"(() => {{ const e = document.getElementById({element_id!r}); e.value = ''; e.focus(); }})()")
    devtools.call("Input.insertText", {"text": text})


def overflow():
    """Elements wider than the screen (the page must not scroll sideways)."""
    return devtools.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


devtools = DevTools(args.devtools_port)
for domain in ("Page", "Runtime"):
    devtools.call(f"{domain}.enable")

# 1. Without the link.
for width, height, mobile, name in ((1400, 900, False, "desktop"), (390, 844, True, "phone")):
    set_size(width, height, mobile)
    navigate(args.url + "/")
    text = devtools.wait_for("(() => { const s = document.getElementById('setup');"
                             " return s && !s.hidden && s.textContent.includes('no account yet') && s.textContent; })()", 20)
    report(bool(text) and "link" in text, f"{name}: without the link the page says the server has no account and where the link is")
    report(devtools.evaluate("document.getElementById('login').hidden") is True, f"{name}: no login form is offered on an unclaimed server")
    report(not overflow(), f"{name}: nothing wider than the screen")
    screenshot(f"unclaimed-{name}")

# 2. The link, at phone size (where most people will open it first).
set_size(390, 844, True)
navigate(args.link)
shown = devtools.wait_for("(() => { const f = document.getElementById('setup-form'); return f && !document.getElementById('setup').hidden; })()", 20)
report(bool(shown), "the printed link opens the first-run form")
screenshot("form-phone")
type_into("setup-user", "ada")
type_into("setup-password", "first-run-password")
type_into("setup-password-again", "first-run-passwort")
devtools.evaluate("document.getElementById('setup-submit').click()")
mismatch = devtools.wait_for("document.getElementById('setup-error').textContent", 5)
report(bool(mismatch) and "differ" in mismatch, f"two different passwords are caught on the page ({mismatch!r})")
type_into("setup-password-again", "first-run-password")
devtools.evaluate("document.getElementById('setup-submit').click()")
welcomed = devtools.wait_for("(() => { const t = document.getElementById('setup-title'); return t && t.textContent.startsWith('Welcome, ') && t.textContent; })()", 20)
report(welcomed == "Welcome, ada", f"the account is made and logged in ({welcomed!r})")
report(devtools.evaluate("location.hash.includes('setup=')") is False, "the token left the address once used")
session = devtools.wait_for("fetch('/api/v1/session', {headers: {'X-Requested-With': 'fetch'}}).then((r) => r.ok ? r.json() : {}).then((s) => s.user)", 10)
report(session == "ada", f"GET /api/v1/session answers for the new account ({session!r})")

# 3. A phone, added on the page.
form = devtools.wait_for("(() => { const f = document.getElementById('device-add-form'); return f && f.closest('#setup') !== null; })()", 20)
report(bool(form), "right after the account, the page offers to add a phone")
type_into("device-add-name", "phone")
devtools.evaluate("(() => { const s = document.getElementById('device-add-app'); s.value = 'owntracks';"
                  " s.dispatchEvent(new Event('change', {bubbles: true})); })()")
devtools.evaluate("document.querySelector('#device-add-form button[type=submit]').click()")
link = devtools.wait_for("(() => { const s = document.getElementById('device-setup');"
                         " const a = s && !s.hidden && s.querySelector('a.device-setup-link[href^=\"owntracks:\"]');"
                         " return a && a.getAttribute('href'); })()", 20)
report(bool(link), f"the phone's setup link is shown ({(link or '')[:40]}…)")
qr = devtools.evaluate("(() => { const i = document.querySelector('#device-setup img.device-qr');"
                       " return i && i.complete && i.naturalWidth > 0; })()")
report(qr is True, "with its QR code drawn")
report(not overflow(), "phone: nothing wider than the screen with the QR code shown")
screenshot("phone-added-phone")
set_size(1400, 900, False)
screenshot("phone-added-desktop")
set_size(390, 844, True)

# 4. Report as the app does, with exactly what the link carries (OwnTracks' remote configuration).
configuration = {}
if link:
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    configuration = json.loads(base64.b64decode(query["inline"][0] + "==="))
report(configuration.get("_type") == "configuration" and configuration.get("mode") == 3,
       f"the link is OwnTracks' remote configuration in HTTP mode ({configuration.get('_type')!r}, mode {configuration.get('mode')!r})")
latitude, longitude = 60.16985, 24.93838
stamp = int(time.time()) - 60
status = None
if configuration.get("url"):
    body = json.dumps({"_type": "location", "lat": latitude, "lon": longitude, "tst": stamp, "acc": 12,
                       "batt": 77, "bs": 1, "tid": "ph", "conn": "w"}).encode()
    credentials = base64.b64encode(f"{configuration['username']}:{configuration['password']}".encode()).decode()
    request = urllib.request.Request(configuration["url"], data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Basic {credentials}",
        "X-Limit-U": configuration["username"], "X-Limit-D": configuration.get("deviceId", ""),
        "User-Agent": "Owntracks-Android/2.4.12"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
report(status == 200, f"a location posted as OwnTracks with the link's settings is taken ({status})")
reported = devtools.wait_for("(() => { const l = document.getElementById('devices-list');"
                             " return l && /77 ?%/.test(l.textContent) && l.textContent; })()", 20)
report(bool(reported), "the device list shows the report (its battery)")

# 5. The map.
devtools.evaluate("document.getElementById('setup-done').click()")
drawn = devtools.wait_for("(() => { const m = document.getElementById('map');"
                          " return !document.getElementById('app').hidden && Number(m.dataset.pointCount) >= 1 && m.dataset.pointCount; })()", 30)
report(bool(drawn), f"'Go to the map' shows the map with the reported location ({drawn} point)")
day = devtools.evaluate("document.getElementById('from').value")
expected_day = time.strftime("%Y-%m-%d", time.gmtime(stamp))
report(day == expected_day, f"on the day it was reported ({day}, expected {expected_day})")
time.sleep(1)
screenshot("map-phone")
set_size(1400, 900, False)
time.sleep(1)
screenshot("map-desktop")

# 6. The used link.
navigate(args.link)
login = devtools.wait_for("!document.getElementById('login').hidden || !document.getElementById('app').hidden", 20)
report(bool(login) and devtools.evaluate("document.getElementById('setup').hidden") is True,
       "the used link opens the page (logged in) or its login, never the first-run form again")
sys.exit(1 if failures else 0)
