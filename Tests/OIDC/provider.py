#!/usr/bin/python3
"""A small, real OpenID Connect provider for Travelog's single sign-on tests (scripts/oidc-test.sh).

Authorization code flow with PKCE (S256 only), discovery, a JWKS, ID tokens signed RS256 with
Authlib's JOSE (Debian's python3-authlib). One registered client; any redirect URI on
127.0.0.1. Users log in on an HTML form with the password "provider-password".

For the refusal tests the next ID token can be made wrong on purpose:
  POST /_test/next-token {"fault": "forged" | "wrong_audience" | "expired" | "wrong_nonce" | "none"}
The fault applies to one token only. Listens on 127.0.0.1; prints "listening PORT" when ready.

    provider.py --port 0 --client-id ID --client-secret SECRET [--issuer-host localhost]
"""
import argparse
import base64
import html
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from authlib.jose import JsonWebKey, jwt
from authlib.oauth2.rfc7636 import create_s256_code_challenge

PASSWORD = "provider-password"

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--client-id", required=True)
parser.add_argument("--client-secret", required=True)
parser.add_argument("--issuer-host", default="127.0.0.1",
                    help="the host in the issuer URL: localhost makes the provider another site than Travelog's 127.0.0.1")
args = parser.parse_args()

signing_key = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "test-key-1"})
# Same kid, another key: what a forger without the provider's key would send.
forged_key = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "test-key-1"})
lock = threading.Lock()
codes = {}  # code -> the authorization request and the user
next_fault = {"fault": "none"}
issuer = ""


def users_email(user):
    return f"{user}@example.test"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *a):
        sys.stderr.write("provider: " + (fmt % a) + "\n")

    def answer(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else (json.dumps(body) if content_type == "application/json" else body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        return dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/.well-known/openid-configuration":
            return self.answer(200, {
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                "jwks_uri": issuer + "/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
                "scopes_supported": ["openid", "profile", "email"]})
        if url.path == "/jwks":
            return self.answer(200, {"keys": [signing_key.as_dict(is_private=False, use="sig", alg="RS256")]})
        if url.path == "/authorize":
            error = self.check_authorization(query)
            if error:
                return self.answer(400, {"error": error})
            hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in query.items())
            page = ('<!doctype html><title>Test provider</title><form method="post" action="/authorize">' + hidden
                    + '<input name="username" id="username"><input name="password" id="password" type="password">'
                    + '<button id="submit" type="submit">Sign in</button></form>')
            return self.answer(200, page, "text/html; charset=utf-8")
        return self.answer(404, {"error": "not_found"})

    def check_authorization(self, query):
        if query.get("client_id") != args.client_id:
            return "unauthorized_client"
        if query.get("response_type") != "code" or "openid" not in query.get("scope", "").split():
            return "invalid_request"
        if not query.get("redirect_uri", "").startswith("http://127.0.0.1:"):
            return "invalid_redirect_uri"
        if query.get("code_challenge_method") != "S256" or len(query.get("code_challenge", "")) != 43:
            return "invalid_request: PKCE S256 is required"
        if not query.get("state") or not query.get("nonce"):
            return "invalid_request: state and nonce are required"
        return None

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_test/next-token":
            length = int(self.headers.get("Content-Length") or 0)
            with lock:
                next_fault["fault"] = json.loads(self.rfile.read(length))["fault"]
            return self.answer(200, next_fault)
        if url.path == "/authorize":
            form = self.form()
            error = self.check_authorization(form)
            if error:
                return self.answer(400, {"error": error})
            if form.get("password") != PASSWORD or not form.get("username"):
                return self.answer(401, "wrong user name or password", "text/plain")
            code = secrets.token_urlsafe(24)
            with lock:
                codes[code] = dict(form, issued=time.time())
            target = form["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": form["state"]})
            return self.answer(302, b"", "text/plain", [("Location", target)])
        if url.path == "/token":
            return self.token()
        return self.answer(404, {"error": "not_found"})

    def token(self):
        form = self.form()
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("Basic "):
            pair = base64.b64decode(authorization[6:]).decode()
            client_id, _, client_secret = (urllib.parse.unquote_plus(p) for p in pair.partition(":"))
        if client_id != args.client_id or client_secret != args.client_secret:
            return self.answer(401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            return self.answer(400, {"error": "unsupported_grant_type"})
        with lock:
            grant = codes.pop(form.get("code", ""), None)  # a code is used once
            fault, next_fault["fault"] = next_fault["fault"], "none"
        if grant is None or time.time() - grant["issued"] > 60:
            return self.answer(400, {"error": "invalid_grant"})
        if form.get("redirect_uri") != grant["redirect_uri"]:
            return self.answer(400, {"error": "invalid_grant: redirect_uri"})
        verifier = form.get("code_verifier", "")
        if create_s256_code_challenge(verifier) != grant["code_challenge"]:
            return self.answer(400, {"error": "invalid_grant: PKCE verifier"})
        now = int(time.time())
        user = grant["username"]
        claims = {"iss": issuer, "sub": "sub-" + user, "aud": args.client_id, "iat": now, "exp": now + 300,
                  "nonce": grant["nonce"], "preferred_username": user, "email": users_email(user), "email_verified": True}
        key = signing_key
        if fault == "forged":
            key = forged_key
        elif fault == "wrong_audience":
            claims["aud"] = "another-client"
        elif fault == "expired":
            claims["iat"], claims["exp"] = now - 3600, now - 1800
        elif fault == "wrong_nonce":
            claims["nonce"] = secrets.token_urlsafe(16)
        id_token = jwt.encode({"alg": "RS256", "kid": "test-key-1"}, claims, key).decode()
        return self.answer(200, {"access_token": secrets.token_urlsafe(24), "token_type": "Bearer", "expires_in": 300,
                                 "id_token": id_token})


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
issuer = f"http://{args.issuer_host}:{server.server_address[1]}"
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
