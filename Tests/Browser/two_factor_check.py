"""Two-factor login in Chromium (issue 30 item 6), for a user of its own (tess, made by the
administrator's API, so the other checks' login is untouched), in a browser context of its own:
Settings → Two-factor login shows the QR code, the secret as text and ten recovery codes, and a
code of the secret turns it on; the next login asks for the code after the password (a second
step with one-time-code autocomplete), refuses a wrong one and takes the right one; turning it off
takes the password. Screenshots at 1400x900 and 390x844 of the setup and of the code step."""
import base64
import hashlib
import hmac
import struct
import time

from layout_check import set_size
from shares_check import SIZES, Visitor, overflow, screenshot

USER, PASSWORD = "tess", "tess-browser-password"


def totp(secret, offset=0):
    """RFC 6238's code of the current step (+ offset) for a base32 secret: what an authenticator app shows."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", int(time.time() // 30) + offset), hashlib.sha1).digest()
    start = mac[-1] & 15
    return "%06d" % ((struct.unpack(">I", mac[start:start + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def type_into(client, element_id, text):
    client.evaluate(f"document.getElementById('{element_id}').value = ''; document.getElementById('{element_id}').focus()")
    client.call("Input.insertText", {"text": text})


def submit_login(client, password, code=None):
    type_into(client, "login-user", USER)
    type_into(client, "login-password", password)
    if code is not None:
        type_into(client, "login-code", code)
    client.evaluate("document.getElementById('login-submit').click()")


def check_two_factor(devtools, report, base_url, devtools_port, folder):
    made = devtools.evaluate(
        "fetch('/api/v1/admin/users', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Requested-With': 'fetch'},"
        f" body: JSON.stringify({{name: '{USER}', password: '{PASSWORD}'}})}}).then((r) => r.status)")
    if not report(made == 201, f"the administrator adds a user for the two-factor check ({made})"):
        return
    visitor = Visitor(devtools_port)
    try:
        for domain in ("Page", "Runtime"):
            visitor.call(f"{domain}.enable")
        set_size(visitor, 1400, 900, False)
        visitor.call("Page.navigate", {"url": base_url + "/#settings/two-factor"})
        visitor.wait_for("!document.getElementById('login').hidden", 15)
        submit_login(visitor, PASSWORD)
        start = visitor.wait_for("!!document.getElementById('two-factor-start')", 15)
        if not report(bool(start), "Settings → Two-factor login says it is off and offers to turn it on"):
            return
        visitor.evaluate("document.getElementById('two-factor-start').click()")
        shown = visitor.wait_for("(() => { const i = document.getElementById('two-factor-qr'); return i && i.complete && i.naturalWidth > 0"
                                 " && document.querySelectorAll('#two-factor-recovery li').length; })()", 10)
        secret = (visitor.evaluate("document.getElementById('two-factor-secret').textContent") or "").replace(" ", "")
        report(shown == 10 and len(secret) == 32, f"turning it on shows the QR code, the secret as text ({len(secret)} characters) and {shown} recovery codes")
        report(visitor.evaluate("document.getElementById('two-factor-code').autocomplete") == "one-time-code",
               "the confirmation field asks for a one-time code")
        for name, width, height, mobile in SIZES:
            set_size(visitor, width, height, mobile)
            visitor.evaluate("document.getElementById('two-factor-qr').scrollIntoView({block: 'start'})")
            time.sleep(0.3)
            report(not overflow(visitor), f"the two-factor setup fits at {width}x{height}")
            screenshot(visitor, f"{folder}/two-factor-setup-{name}.png")
        type_into(visitor, "two-factor-code", totp(secret))
        visitor.evaluate("document.querySelector('#two-factor-confirm button[type=submit]').click()")
        on = visitor.wait_for("document.getElementById('two-factor-state').textContent.startsWith('On')"
                              " && !!document.getElementById('two-factor-disable')", 10)
        report(bool(on), "a code of the app turns it on; the section then offers to turn it off")

        visitor.evaluate("document.getElementById('logout').click()")
        visitor.wait_for("!document.getElementById('login').hidden", 10)
        submit_login(visitor, PASSWORD)
        step = visitor.wait_for("!document.getElementById('login-code').hidden"
                                " && document.activeElement === document.getElementById('login-code')", 10)
        report(bool(step) and visitor.evaluate("document.getElementById('login-code').autocomplete") == "one-time-code",
               "the password alone leads to a second step asking for the code (one-time-code, focused)")
        for name, width, height, mobile in SIZES:
            set_size(visitor, width, height, mobile)
            time.sleep(0.3)
            report(not overflow(visitor), f"the login's code step fits at {width}x{height}")
            screenshot(visitor, f"{folder}/two-factor-login-{name}.png")
        type_into(visitor, "login-code", "000000" if totp(secret, 1) != "000000" else "111111")
        visitor.evaluate("document.getElementById('login-submit').click()")
        refused = visitor.wait_for("document.getElementById('login-error').textContent.startsWith('Wrong code')", 10)
        report(bool(refused) and visitor.evaluate("document.getElementById('app').hidden"), "a wrong code is refused, saying so")
        type_into(visitor, "login-code", totp(secret, 1))
        visitor.evaluate("document.getElementById('login-submit').click()")
        entered = visitor.wait_for("!document.getElementById('app').hidden || !document.getElementById('settings').hidden", 15)
        report(bool(entered), "the right code logs in")

        set_size(visitor, 1400, 900, False)
        visitor.call("Page.navigate", {"url": base_url + "/#settings/two-factor"})
        visitor.wait_for("!!document.getElementById('two-factor-password')", 15)
        type_into(visitor, "two-factor-password", PASSWORD)
        visitor.evaluate("document.querySelector('#two-factor-disable button[type=submit]').click()")
        off = visitor.wait_for("!!document.getElementById('two-factor-start')", 10)
        report(bool(off), "turning it off with the password: the section says it is off again")
    finally:
        visitor.close()
