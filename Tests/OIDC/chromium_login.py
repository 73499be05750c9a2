#!/usr/bin/python3
"""Single sign-on as a person does it, in headless Chromium over the DevTools protocol: the page's
login form offers "Log in with <provider>", the link leads to the provider's form (another site:
the issuer is on localhost, Travelog on 127.0.0.1), the person types a name and password there,
and the page comes back logged in (the map shown, GET /api/v1/session answering for that user).
Called by scripts/oidc-test.sh; prints PASS/FAIL lines; exits 1 on any failure.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Browser"))
from page_test import DevTools  # noqa: E402  (Debian's python3-websocket)

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--provider", required=True)
parser.add_argument("--devtools-port", required=True)
parser.add_argument("--user", required=True)
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
sys.exit(1 if failures else 0)
