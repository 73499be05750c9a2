"""Share links in Chromium (issue 30 item 1): "Share this view" makes a link of the day shown, a
second browser context without any login opens it and sees the path read-only (noindex, no
cookie), a privacy zone made afterwards with the Regions panel's tools hides the part of the path
inside it from the visitor (issue 30 item 3), Settings → Shares lists the link with its view, and
Revoke makes the visitor's page say it is gone. Screenshots at 1400x900 and 390x844 of the owner's
panel and map with the zone, the visitor's page before and after, and Settings → Zones."""
import base64
import json
import math
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

        check_zone(devtools, visitor, report, base_url, link, folder)

        set_size(devtools, 1400, 900, False)
        listed = open_settings(devtools, base_url, "shares") and devtools.wait_for(
            "[...document.querySelectorAll('#shares-list li')].map((li) => li.textContent).find((t) => t.includes('Browser walk'))", 10)
        # Three views: the visitor opened the page, and reloaded it at two sizes in check_zone.
        report(bool(listed) and "3 views" in listed, f"Settings → Shares lists the link with its views ({listed!r})")
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


def meters(a, b):
    """The haversine distance between two [longitude, latitude] positions (enough for 150 m)."""
    to_radians = math.pi / 180
    d_latitude, d_longitude = (b[1] - a[1]) * to_radians, (b[0] - a[0]) * to_radians
    h = math.sin(d_latitude / 2) ** 2 + math.cos(a[1] * to_radians) * math.cos(b[1] * to_radians) * math.sin(d_longitude / 2) ** 2
    return 2 * 6_371_000 * math.asin(math.sqrt(h))


def check_zone(devtools, visitor, report, base_url, link, folder):
    """A hide zone of 150 m on the middle of the shared path's longest piece, made on the owner's map
    with the Regions panel (Make: a privacy zone), cuts the path the visitor reads there: fewer fixes,
    one piece more, none within the zone. Then Settings → Zones removes it."""
    path = "/api/v1/s/" + link.rsplit("/", 1)[1] + "/path?zoom=16"
    read = f"fetch('{path}', {{credentials: 'omit', cache: 'no-store'}}).then((r) => r.json())"
    before = visitor.evaluate(read)
    pieces = [piece for feature in before["features"] for piece in feature["geometry"]["coordinates"]]
    longest = max(pieces, key=len)
    middle = longest[len(longest) // 2]
    devtools.call("Page.navigate", {"url": base_url + "/"})
    devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden"
                      " && window.TravelogZones && document.getElementById('map').dataset.zoneCount === '0'", 20)
    placed = devtools.evaluate(f"""(() => {{
        const panel = document.getElementById('section-regions');
        panel.open = true;
        document.getElementById('region-kind').value = 'hide';
        document.getElementById('region-name').value = 'Browser zone';
        document.getElementById('region-radius').value = '150';
        document.getElementById('region-add').click();
        return TravelogRegions.placeAt(L.latLng({middle[1]}, {middle[0]}));
    }})()""")
    drawn = devtools.wait_for("document.getElementById('map').dataset.zoneCount === '1'"
                              " && !!document.querySelector('#map path.zone-hide')", 10)
    report(bool(placed) and bool(drawn), "the Regions panel's tools make a privacy zone (Make: hidden on share links), "
           "drawn on the owner's map in its own style")
    for name, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        devtools.evaluate("document.getElementById('section-regions').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        report(not overflow(devtools), f"the map with the zone and the Regions panel fit at {width}x{height}")
        screenshot(devtools, f"{folder}/zone-owner-{name}.png")
    after = visitor.evaluate(read)
    kept = [piece for feature in after["features"] for piece in feature["geometry"]["coordinates"]]
    inside = [point for piece in kept for point in piece if meters(point, middle) < 149]
    report(after["properties"]["rawPointCount"] < before["properties"]["rawPointCount"] and not inside
           and len(kept) > len(pieces),
           f"the visitor's path leaves the zone out at once, cut into pieces ({before['properties']['rawPointCount']} → "
           f"{after['properties']['rawPointCount']} fixes, {len(pieces)} → {len(kept)} pieces, {len(inside)} inside)")
    for name, width, height, mobile in SIZES:
        set_size(visitor, width, height, mobile)
        visitor.call("Page.reload")
        time.sleep(0.3)
        visitor.wait_for("document.getElementById('share-map') && document.getElementById('share-map').dataset.state === 'shown'", 20)
        time.sleep(0.5)
        screenshot(visitor, f"{folder}/zone-visitor-{name}.png")
    set_size(devtools, 1400, 900, False)
    listed = open_settings(devtools, base_url, "zones") and devtools.wait_for(
        "(document.querySelector('#zones-list li') || {}).textContent", 10)
    report(bool(listed) and "Browser zone" in listed and "hidden on share links" in listed,
           f"Settings → Zones lists the zone with its rule ({listed!r})")
    screenshot(devtools, f"{folder}/zone-settings-desktop.png")
    devtools.evaluate("document.querySelector('#zones-list .zone-remove').click()")
    devtools.evaluate("document.querySelector('#zones-list .zone-remove-confirm').click()")
    removed = devtools.wait_for("document.querySelector('#settings-zones .settings-content p').textContent.startsWith('Removed')"
                                " && document.querySelectorAll('#zones-list li').length === 0", 10)
    again = visitor.evaluate(read)
    report(bool(removed) and again["properties"]["rawPointCount"] == before["properties"]["rawPointCount"],
           "Remove asks first; the visitor's path is whole again on the next request")
