#!/usr/bin/python3
"""Single sign-on as a person does it, in headless Chromium over the DevTools protocol: the page's
login form offers "Log in with <provider>", the link leads to the provider's form (another site:
the issuer is on localhost, Travelog on 127.0.0.1), the person types a name and password there,
and the page comes back logged in (the map shown, GET /api/v1/session answering for that user).

With --delete-url and --delete-db (a server with --oidc-create-users and its SQLite file): someone
made by the provider, with no password of Travelog's, deletes their account on the page. Their
session is made twenty minutes old (a row written into the database, as a browser left open would
have), so Settings → Your data asks them to sign in again; the link goes to the provider and back to
Settings → Your data, where the fresh sign-in confirms the deletion without a password.
Called by scripts/oidc-test.sh; prints PASS/FAIL lines; exits 1 on any failure.
"""
import argparse
import base64
import hashlib
import os
import secrets
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Browser"))
from page_test import DevTools  # noqa: E402  (Debian's python3-websocket)

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--provider", required=True)
parser.add_argument("--devtools-port", required=True)
parser.add_argument("--user", required=True)
parser.add_argument("--delete-url", help="a server with --oidc-create-users, where a new user deletes their account")
parser.add_argument("--delete-db", help="that server's SQLite file")
args = parser.parse_args()
failures = []


def report(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


devtools = DevTools(args.devtools_port)
for domain in ("Page", "Runtime"):
    devtools.call(f"{domain}.enable")
devtools.call("Page.navigate", {"url": args.url + "/"})
label = devtools.wait_for("(() => { const link = document.getElementById('login-sso');"
                          " return !document.getElementById('login').hidden && link && link.textContent; })()", 20)
report(label == "Log in with Test provider", f"the login form offers single sign-on ({label!r})")
devtools.evaluate("document.getElementById('login-sso').click()")
at_provider = devtools.wait_for(f"location.origin === {args.provider!r} && document.getElementById('username') !== null", 20)
report(bool(at_provider), "the link leads to the provider's login form")
if at_provider:
    for field, text in (("username", args.user), ("password", "provider-password")):
        devtools.evaluate(f"document.getElementById('{field}').focus()")
        devtools.call("Input.insertText", {"text": text})
    devtools.evaluate("document.getElementById('submit').click()")
    shown = devtools.wait_for(f"location.origin === {args.url!r} && !document.getElementById('app').hidden"
                              " && document.getElementById('login').hidden", 20)
    report(bool(shown), "back from the provider, the page shows the map, logged in")
    user = devtools.wait_for("fetch('/api/v1/session').then((r) => r.ok ? r.json() : {}).then((s) => s.user)", 10)
    report(user == args.user, f"GET /api/v1/session answers for {args.user} ({user!r})")
    cookie_visible = devtools.evaluate("document.cookie.includes('travelog_session')")
    report(cookie_visible is False, "the session cookie is not readable by scripts (HttpOnly)")


def provider_sign_in(user):
    for field, text in (("username", user), ("password", "provider-password")):
        devtools.evaluate(f"document.getElementById('{field}').focus()")
        devtools.call("Input.insertText", {"text": text})
    devtools.evaluate("document.getElementById('submit').click()")


def screenshot(name, width, height, mobile, shown="account-delete"):
    devtools.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    time.sleep(0.4)
    devtools.evaluate(f"document.getElementById('{shown}').scrollIntoView()")
    time.sleep(0.2)
    folder = os.environ.get("TRAVELOG_SCREENSHOTS") or tempfile.gettempdir()
    path = os.path.join(folder, f"sso-delete-{name}.png")
    with open(path, "wb") as out:
        out.write(base64.b64decode(devtools.call("Page.captureScreenshot", {"format": "png"})["data"]))
    print(f"screenshot: {path}", flush=True)


def delete_through_provider(url, database):
    user = "erin"
    devtools.call("Network.enable")
    devtools.call("Network.clearBrowserCookies")
    devtools.call("Emulation.clearDeviceMetricsOverride")
    devtools.call("Page.navigate", {"url": url + "/"})
    devtools.wait_for("(() => { const link = document.getElementById('login-sso'); return link && !document.getElementById('login').hidden; })()", 20)
    devtools.evaluate("document.getElementById('login-sso').click()")
    if not report(bool(devtools.wait_for(f"location.origin === {args.provider!r} && document.getElementById('username') !== null", 20)),
                  "a new person goes to the provider from the login form"):
        return
    provider_sign_in(user)
    made = devtools.wait_for(f"location.origin === {url!r} && fetch('/api/v1/session').then((r) => r.ok ? r.json() : {{}}).then((s) => s.user)", 20)
    report(made == user, f"the provider's {user} is made on the server and signed in ({made!r})")
    # The session a browser left open twenty minutes ago: written as the server writes one.
    secret = secrets.token_urlsafe(32)
    now_ms = int(time.time() * 1000)
    with sqlite3.connect(database, timeout=10) as db:
        (user_id,) = db.execute("SELECT id FROM users WHERE name = ?", (user,)).fetchone()
        db.execute("INSERT INTO sessions (id_sha256, user_id, expires_at_ms, started_at_ms) VALUES (?, ?, ?, ?)",
                   (hashlib.sha256(secret.encode()).hexdigest(), user_id, now_ms + 86_400_000, now_ms - 20 * 60_000))
    host = url.split("://", 1)[1].split(":")[0]
    devtools.call("Network.setCookie", {"name": "travelog_session", "value": secret, "domain": host, "path": "/", "httpOnly": True,
                                        "sameSite": "Strict"})
    devtools.call("Page.navigate", {"url": url + "/#settings/data"})
    again = devtools.wait_for("(() => { const link = document.getElementById('account-delete-sign-in-again');"
                              " return link && link.offsetParent !== null && link.textContent; })()", 20)
    report(bool(again) and again.startswith("Sign in again with "),
           f"a sign-in of twenty minutes ago: Settings → Your data offers to sign in again with the provider ({again!r})")
    password_shown = devtools.evaluate("!document.getElementById('account-delete-password').closest('label').hidden")
    report(password_shown is True, "the password field is still there, for someone who has one")
    refused = devtools.evaluate("fetch('/api/v1/account', {method: 'DELETE', headers: {'Content-Type': 'application/json'}, body: '{}'})"
                                ".then((r) => r.status)")
    report(refused == 403, f"without a password, the old sign-in does not confirm a deletion ({refused})")
    screenshot("sign-in-again-desktop", 1400, 900, False)
    screenshot("sign-in-again-phone", 390, 844, True)
    devtools.call("Emulation.clearDeviceMetricsOverride")
    devtools.evaluate("document.getElementById('account-delete-sign-in-again').click()")
    if not report(bool(devtools.wait_for(f"location.origin === {args.provider!r} && document.getElementById('username') !== null", 20)),
                  "the link leads to the provider's form"):
        return
    provider_sign_in(user)
    confirmed = devtools.wait_for(f"location.origin === {url!r} && location.hash === '#settings/data' && (() => {{"
                                  f" const note = document.getElementById('account-delete-sign-in');"
                                  f" return note && note.offsetParent !== null && note.textContent; }})()", 20)
    report(bool(confirmed) and "no password is needed" in confirmed,
           f"back on Settings → Your data, the fresh sign-in confirms ({confirmed!r})")
    hidden = devtools.evaluate("document.getElementById('account-delete-password').closest('label').hidden")
    report(hidden is True, "no password field is shown then")
    screenshot("confirmed-phone", 390, 844, True)
    devtools.call("Emulation.clearDeviceMetricsOverride")
    devtools.evaluate("document.getElementById('account-delete-confirm').click()")
    devtools.evaluate("document.getElementById('account-delete-submit').click()")
    gone = devtools.wait_for("!document.getElementById('login').hidden", 20)
    report(bool(gone), "after the deletion the page shows the login form")
    with sqlite3.connect(database, timeout=10) as db:
        left = db.execute("SELECT count(*) FROM users WHERE name = ?", (user,)).fetchone()[0]
        sessions = db.execute("SELECT count(*) FROM sessions WHERE id_sha256 = ?", (hashlib.sha256(secret.encode()).hexdigest(),)).fetchone()[0]
    report(left == 0 and sessions == 0, f"{user} and every session of theirs are gone from the database ({left} user, {sessions} old session)")


if args.delete_url and args.delete_db:
    delete_through_provider(args.delete_url, args.delete_db)
sys.exit(1 if failures else 0)
