#!/usr/bin/python3
"""Single sign-on against a real provider (provider.py), as a browser's HTTP exchanges: the
script follows each redirect itself, keeps each browser's cookies apart (requests.Session), and
posts the provider's login form. Called by scripts/oidc-test.sh with two running servers:
--url (users matched, none created) and --create-url (--oidc-create-users). Prints one line a
check and "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import re
import sys
import urllib.parse

import requests

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--create-url", required=True)
parser.add_argument("--provider", required=True)
parser.add_argument("--log", required=True, help="the --url server's log (LOG_LEVEL=debug)")
args = parser.parse_args()
passed = failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {name}")
    else:
        failed += 1
        print(f"FAIL: {name} {detail}")


def start(browser, base):
    """Travelog's login route, then the provider's form: the callback URL the provider sends back."""
    answer = browser.get(base + "/api/v1/oidc/login", allow_redirects=False)
    assert answer.status_code == 302, answer.text
    authorize = answer.headers["Location"]
    params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorize).query))
    return authorize, params


def provider_login(browser, authorize, params, user):
    form = browser.get(authorize, allow_redirects=False)
    assert form.status_code == 200 and "<form" in form.text, form.text
    fields = dict(params, username=user, password="provider-password")
    posted = browser.post(args.provider + "/authorize", data=fields, allow_redirects=False)
    assert posted.status_code == 302, posted.text
    return posted.headers["Location"]


def login(base, user, fault="none"):
    """A whole login in a new browser: (browser, the callback's answer, the callback URL)."""
    requests.post(args.provider + "/_test/next-token", json={"fault": fault}).raise_for_status()
    browser = requests.Session()
    authorize, params = start(browser, base)
    callback = provider_login(browser, authorize, params, user)
    return browser, browser.get(callback, allow_redirects=False), callback


# The page learns that single sign-on is offered.
offer = requests.get(args.url + "/api/v1/oidc").json()
check("GET /api/v1/oidc offers single sign-on", offer.get("enabled") is True and offer.get("providerName"), offer)

# The authorization request: code flow, PKCE S256, state and nonce, the state cookie.
browser = requests.Session()
authorize, params = start(browser, args.url)
check("the login asks for a code with PKCE S256, a state and a nonce",
      params.get("response_type") == "code" and params.get("code_challenge_method") == "S256"
      and len(params.get("code_challenge", "")) == 43 and len(params.get("state", "")) >= 43
      and len(params.get("nonce", "")) >= 43 and "openid" in params.get("scope", ""), params)
check("the state is kept in a cookie of this browser, for the callback only",
      browser.cookies.get("travelog_oidc_state", path="/api/v1/oidc/callback") == params.get("state"), browser.cookies)

# A full login.
browser, answer, callback = login(args.url, "alice")
check("a full login redirects to the page with the session cookie",
      answer.status_code == 302 and answer.headers.get("Location") == "/" and browser.cookies.get("travelog_session"),
      f"{answer.status_code} {answer.text[:300]}")
set_cookie = answer.headers.get("Set-Cookie", "")
check("the session cookie is HttpOnly and SameSite=Strict",
      re.search(r"travelog_session=[^;]+;[^,]*HttpOnly", set_cookie, re.I) is not None and "SameSite=Strict" in set_cookie, set_cookie)
session = browser.get(args.url + "/api/v1/session")
check("GET /api/v1/session answers for the signed-in user", session.status_code == 200 and session.json().get("user") == "alice",
      f"{session.status_code} {session.text[:200]}")

# The same callback again (a replay), with and without the state cookie.
replay = requests.get(callback, allow_redirects=False)
check("a replayed callback without the state cookie is refused", replay.status_code == 403 and "not started in this browser" in replay.text,
      replay.text[:300])
state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query))["state"]
replay = requests.get(callback, allow_redirects=False, cookies={"travelog_oidc_state": state})
check("a replayed callback with its state cookie is refused (a state is used once)",
      replay.status_code == 403 and "already used" in replay.text and "travelog_session" not in replay.headers.get("Set-Cookie", ""),
      replay.text[:300])

# Login CSRF: the victim's browser started its own login; the attacker's callback link carries another state.
victim = requests.Session()
start(victim, args.url)
attacker = requests.Session()
a_authorize, a_params = start(attacker, args.url)
attacker_callback = provider_login(attacker, a_authorize, a_params, "alice")
answer = victim.get(attacker_callback, allow_redirects=False)
check("a callback whose state is not this browser's is refused", answer.status_code == 403 and "state does not match" in answer.text,
      answer.text[:300])

for fault, words in [("forged", "signature"), ("wrong_audience", "audience"), ("expired", "expired"), ("wrong_nonce", "nonce")]:
    browser, answer, _ = login(args.url, "alice", fault)
    check(f"an ID token with a fault ({fault}) is refused", answer.status_code == 403 and words in answer.text
          and not browser.cookies.get("travelog_session"), f"{answer.status_code} {answer.text[:300]}")

# Users the server does not know.
browser, answer, _ = login(args.url, "bob")
check("an unknown user is refused without --oidc-create-users",
      answer.status_code == 403 and "no such user" in answer.text and not browser.cookies.get("travelog_session"), answer.text[:300])
browser, answer, _ = login(args.create_url, "carol")
session = browser.get(args.create_url + "/api/v1/session")
check("an unknown user is made with --oidc-create-users", answer.status_code == 302
      and session.status_code == 200 and session.json().get("user") == "carol", f"{answer.status_code} {session.text[:200]}")

# Nothing of the callback's query reaches the log.
with open(args.log) as log:
    text = log.read()
code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query))["code"]
check("the request log shows the callback with code and state redacted",
      "code=REDACTED" in text and "state=REDACTED" in text and code not in text and state not in text,
      "(the log has the code or the state, or no callback line)")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
