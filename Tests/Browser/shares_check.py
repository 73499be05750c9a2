"""Share links in Chromium (issue 30 item 1): "Share this view" makes a link of the day shown, a
second browser context without any login opens it and sees the path read-only (noindex, no
cookie), Settings → Shares lists it with its view, and Revoke makes the visitor's page say it is
gone. Screenshots at 1400x900 and 390x844 of the owner's panel and the visitor's page."""
import base64
import json
import time
import urllib.request

import websocket

from layout_check import set_size
from settings_check import open_settings

SIZES = (("desktop", 1400, 900, False), ("phone", 390, 844, True))


class Visitor:
    """A page in a browser context of its own (no cookies, no storage of the owner's)."""

    def __init__(self, devtools_port):
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/version", timeout=10) as answer:
            browser_url = json.load(answer)["webSocketDebuggerUrl"]
        self.browser = websocket.create_connection(browser_url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.context = self.browser_call("Target.createBrowserContext", {"disposeOnDetach": True})["browserContextId"]
        target = self.browser_call("Target.createTarget", {"url": "about:blank", "browserContextId": self.context})["targetId"]
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list", timeout=10) as answer:
            page = next(item for item in json.load(answer) if item.get("id") == target)
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)

    def browser_call(self, method, params=None):
        self.next_id += 1
        self.browser.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.browser.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def call(self, method, params=None):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        return None if "exceptionDetails" in result else result["result"].get("value")

    def wait_for(self, expression, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        return None

    def close(self):
        self.socket.close()
        self.browser_call("Target.disposeBrowserContext", {"browserContextId": self.context})
        self.browser.close()


def screenshot(client, path):
    shot = client.call("Page.captureScreenshot", {"format": "png"})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def overflow(client):
    return client.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


def check_shares(devtools, report, base_url, devtools_port, folder):
    devtools.call("Page.navigate", {"url": base_url + "/"})
    ready = devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden"
                              " && !!document.getElementById('share-view')", 20)
    if not report(bool(ready), "the page offers \"Share this view\" beside \"Image of this view\""):
        return
    devtools.evaluate("document.getElementById('section-map').open = true")
    devtools.wait_for("window.__travelogTestRange = document.getElementById('from') && document.getElementById('from').value", 5)
    devtools.evaluate("document.getElementById('share-view').click()")
    opened = devtools.wait_for("document.getElementById('share-form') && !document.getElementById('share-panel').hidden", 5)
    report(bool(opened), "\"Share this view\" opens the panel (dates, expiry, password, places, live)")
    devtools.evaluate("document.getElementById('share-title-input').value = 'Browser walk';"
                      "document.querySelector('#share-form button[type=submit]').click()")
    link = devtools.wait_for("(document.getElementById('share-link') || {}).value", 10)
    if not report(bool(link) and link.startswith(base_url + "/s/") and len(link) == len(base_url) + 3 + 22,
                  f"the panel shows the new link with a copy button ({link!r})"):
        print(devtools.evaluate("document.getElementById('share-result').textContent"))
        return
    for name, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        devtools.evaluate("document.getElementById('share-link').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        report(not overflow(devtools), f"the share panel fits at {width}x{height}")
        screenshot(devtools, f"{folder}/share-panel-{name}.png")

    visitor = Visitor(devtools_port)
    try:
        for domain in ("Page", "Runtime"):
            visitor.call(f"{domain}.enable")
        set_size(visitor, 1400, 900, False)
        visitor.call("Page.navigate", {"url": link})
        state = visitor.wait_for("(document.getElementById('share-map') || {dataset: {}}).dataset.state !== 'loading'"
                                 " && document.getElementById('share-map').dataset.state", 20)
        points = visitor.evaluate("Number(document.getElementById('share-map').dataset.pointCount || 0)")
        report(state == "shown", f"a browser context without any login opens the link read-only (state {state!r}, {points} points)")
        report(visitor.evaluate("document.getElementById('share-title').textContent") == "Browser walk"
               and visitor.evaluate("document.cookie") == ""
               and visitor.evaluate("document.querySelector('meta[name=robots]').content").startswith("noindex")
               and not visitor.evaluate("!!(document.getElementById('logout') || document.getElementById('open-settings'))"),
               "the shared page shows the link's title, no cookie, noindex, and no account controls")
        for name, width, height, mobile in SIZES:
            set_size(visitor, width, height, mobile)
            time.sleep(0.5)
            report(not overflow(visitor), f"the shared page fits at {width}x{height}")
            screenshot(visitor, f"{folder}/share-visitor-{name}.png")

        set_size(devtools, 1400, 900, False)
        listed = open_settings(devtools, base_url, "shares") and devtools.wait_for(
            "[...document.querySelectorAll('#shares-list li')].map((li) => li.textContent).find((t) => t.includes('Browser walk'))", 10)
        report(bool(listed) and "1 view" in listed, f"Settings → Shares lists the link with its view ({listed!r})")
        screenshot(devtools, f"{folder}/share-settings-desktop.png")
        devtools.evaluate("document.querySelector('#shares-list .share-revoke').click()")
        devtools.evaluate("document.querySelector('#shares-list .share-revoke-confirm').click()")
        revoked = devtools.wait_for("document.querySelector('#settings-shares .settings-content p').textContent.startsWith('Revoked')", 10)
        report(bool(revoked), "Revoke asks first, then the list says the link reads nothing any more")
        visitor.call("Page.reload")
        time.sleep(0.3)
        gone = visitor.wait_for("document.getElementById('share-map') && document.getElementById('share-map').dataset.state === 'gone'"
                                " && document.getElementById('share-message').textContent", 10)
        report(bool(gone) and "revoked" in gone, f"the visitor's page says the link was revoked ({gone!r})")
    finally:
        visitor.close()
