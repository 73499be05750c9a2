"""Friends in Chromium (issue 30 item 2): the administrator (ada) adds a second user, who logs in
in a browser context of her own; ada invites her by name in Settings → Friends, she accepts there,
and ada's map shows her phone's position as a friend's marker (orange, her initial and name), which
appears within the page's 4 s poll, moves when her phone posts and goes when her latest fix lies in
a hide zone of hers (those two asked for at once by focusing the window, as a person coming back to
the page does, to keep the check short). Remove in Settings → Friends ends it. Screenshots at 1400x900 and 390x844 of ada's
map with the marker (and her path, drawn by a click once she shares her history) and of both
Settings → Friends."""
import base64
import json
import time
import urllib.request

from layout_check import set_size
from settings_check import OVERFLOW, open_settings
from shares_check import SIZES, Visitor, screenshot
from two_factor_check import type_into

USER, PASSWORD = "bea", "bea-browser-password"
MARKER = "document.querySelector(\".friend-marker[data-friend='bea']\")"


def post_owntracks(base_url, token, latitude, longitude, when):
    body = json.dumps({"_type": "location", "lat": latitude, "lon": longitude, "tst": int(when), "acc": 12, "tid": "ip"}).encode()
    credentials = base64.b64encode(f"{USER}:{token}".encode()).decode()
    request = urllib.request.Request(f"{base_url}/api/v1/owntracks", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Basic {credentials}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


def fetch(client, path, method="GET", body=None):
    options = {"method": method, "headers": {"Content-Type": "application/json", "X-Requested-With": "fetch"}}
    if body is not None:
        options["body"] = json.dumps(body)
    return client.evaluate(f"fetch({json.dumps(path)}, {json.dumps(options)}).then(async (r) => ({{status: r.status, body: await r.json().catch(() => null)}}))")


def check_friends(devtools, report, base_url, devtools_port, folder):
    made = fetch(devtools, "/api/v1/admin/users", "POST", {"name": USER, "password": PASSWORD})
    if not report(made and made["status"] == 201, f"the administrator adds a user for the friends check ({made and made['status']})"):
        return
    visitor = Visitor(devtools_port)
    try:
        for domain in ("Page", "Runtime"):
            visitor.call(f"{domain}.enable")
        set_size(visitor, 1400, 900, False)
        visitor.call("Page.navigate", {"url": base_url + "/#settings/friends"})
        visitor.wait_for("!document.getElementById('login').hidden", 15)
        type_into(visitor, "login-user", USER)
        type_into(visitor, "login-password", PASSWORD)
        visitor.evaluate("document.getElementById('login-submit').click()")
        visitor.wait_for("document.getElementById('login').hidden && !!document.getElementById('friends-list')", 15)
        phone = fetch(visitor, "/api/v1/devices", "POST", {"name": "iphone", "app": "owntracks"})
        token = (phone or {}).get("body", {}).get("token")
        if not report(bool(token), "the friend logs in in a browser context of her own and adds a phone"):
            return

        # Ada invites her by name; she accepts in her own Settings → Friends.
        set_size(devtools, 1400, 900, False)
        open_settings(devtools, base_url, "friends")
        type_into(devtools, "friend-name", USER)
        devtools.evaluate("document.querySelector('#friend-invite button[type=submit]').click()")
        invited = devtools.wait_for("!!document.querySelector(\"#friends-list li[data-friend='bea'][data-state='invited']\")", 5)
        report(bool(invited), "Settings → Friends invites a user by name: the invitation is listed as waiting")
        visitor.call("Page.reload")
        accept = visitor.wait_for("!!document.querySelector(\"#friends-list li[data-friend='ada'] .friend-accept\")", 15)
        report(bool(accept), "the invited user's Settings → Friends shows the invitation with Accept and Decline")
        visitor.evaluate("document.querySelector('.friend-accept').click()")
        accepted = visitor.wait_for("!!document.querySelector(\"#friends-list li[data-friend='ada'][data-state='friend'] .friend-history\")", 5)
        report(bool(accepted), "Accept makes them friends, with a 'Share my history' switch (off) and Remove")

        # Her phone reports in the middle of ada's map: ada's map shows her marker, then follows it.
        devtools.call("Page.navigate", {"url": base_url + "/"})
        devtools.wait_for("document.getElementById('map').dataset.bounds", 20)
        west, south, east, north = map(float, devtools.evaluate("document.getElementById('map').dataset.bounds").split(","))
        latitude, longitude = round((south + north) / 2, 6), round((west + east) / 2, 6)
        now = time.time()
        post_owntracks(base_url, token, latitude, longitude, now - 60)
        shown = devtools.wait_for(f"{MARKER} && {MARKER}.dataset.position", 10)
        report(shown == f"{latitude:.6f},{longitude:.6f}", f"ada's map shows her friend's phone as a marker ({shown})")
        moved_to = f"{latitude + (north - south) / 8:.6f},{longitude + (east - west) / 8:.6f}"
        posted = time.monotonic()
        post_owntracks(base_url, token, *map(float, moved_to.split(",")), now - 30)
        devtools.evaluate("window.dispatchEvent(new Event('focus'))")
        moved = devtools.wait_for(f"{MARKER} && {MARKER}.dataset.position === '{moved_to}'", 8)
        report(bool(moved), f"the friend's marker moves when her phone posts ({time.monotonic() - posted:.1f} s)")
        # She shares her history with ada: a click on her marker draws her path of the day shown.
        fetch(visitor, "/api/v1/friends/ada/history", "PUT", {"shared": True})
        devtools.evaluate("window.dispatchEvent(new Event('focus'))")
        devtools.wait_for(f"{MARKER} && {MARKER}.parentElement.title.includes('their path')", 5)
        devtools.evaluate(f"{MARKER}.parentElement.click()")
        drawn = devtools.wait_for("document.getElementById('map').dataset.friendPathPoints", 5)
        report(drawn == "2", f"once she shares her history, a click on her marker draws her path of the day ({drawn} points)")
        label = devtools.evaluate(f"{MARKER}.textContent")
        report(label == "Bbea", f"the marker shows her initial and name, in the friends' style ({label!r})")
        for name, width, height, mobile in SIZES:
            set_size(devtools, width, height, mobile)
            time.sleep(0.2)
            screenshot(devtools, f"{folder}/friends-map-{name}.png")

        # A hide zone of hers around where she goes next: the fix inside never reaches ada's map.
        hidden_at = (latitude - (north - south) / 8, longitude - (east - west) / 8)
        zone = fetch(visitor, "/api/v1/zones", "POST", {"name": "Home", "rule": "hide", "circle": {
            "latitude": hidden_at[0], "longitude": hidden_at[1], "radiusMeters": 200}})
        post_owntracks(base_url, token, hidden_at[0], hidden_at[1], now)
        devtools.evaluate("window.dispatchEvent(new Event('focus'))")
        gone = devtools.wait_for(f"!{MARKER} && document.getElementById('map').dataset.friendCount === '0'", 8)
        report(zone and zone["status"] == 201 and bool(gone),
               "a fix inside the friend's hide zone is not shown: her marker leaves ada's map rather than go there")

        for client, who, sizes in ((devtools, "ada", SIZES), (visitor, "bea", SIZES[1:])):
            for name, width, height, mobile in sizes:
                set_size(client, width, height, mobile)
                open_settings(client, base_url, "friends")
                client.wait_for("document.querySelectorAll('#friends-list li').length > 0", 5)
                layout = client.evaluate(OVERFLOW)
                report(layout["scrollWidth"] <= layout["innerWidth"], f"Settings → Friends fits {width} px for {who} ({layout})")
                screenshot(client, f"{folder}/friends-settings-{who}-{name}.png")

        # Ada ends it: the list empties for both.
        devtools.evaluate("document.querySelector(\"#friends-list li[data-friend='bea'] .friend-remove\").click()")
        devtools.evaluate("document.querySelector(\"#friends-list li[data-friend='bea'] .friend-remove-confirm\").click()")
        ended = devtools.wait_for("document.querySelectorAll('#friends-list li').length === 0", 5)
        left = fetch(visitor, "/api/v1/friends")
        report(bool(ended) and left and left["body"] == [], "Remove ends the friendship for both")
        set_size(devtools, 390, 844, True)
    finally:
        visitor.close()
