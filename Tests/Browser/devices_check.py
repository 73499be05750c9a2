"""The Devices settings in a real browser (imported by page_test.py): a device is added by name and
app and its setup shows a QR code (an SVG image) and an owntracks:/// link carrying the token; the
phone reports with that token and the list says when, with its battery and app; the device is
renamed, gets a new token (the old one then refused), is watched for silence, removed keeping its
history, then deleted with it. Screenshots at desktop and phone size."""

import base64
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

SIZES = ((1400, 900, False), (390, 844, True))


def owntracks_post(base_url, user, token, device, battery):
    """An OwnTracks location as the app posts it in HTTP mode; the HTTP status."""
    body = json.dumps({"_type": "location", "lat": 52.52, "lon": 13.405, "tst": int(time.time()) - 30, "acc": 12,
                       "tid": "PX", "batt": battery, "bs": 1, "conn": "w", "SSID": "Home", "m": 1,
                       "inregions": ["home"]}).encode()
    credentials = base64.b64encode(f"{user}:{token}".encode()).decode()
    request = urllib.request.Request(base_url + "/api/v1/owntracks", data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Basic {credentials}", "X-Limit-U": user,
        "X-Limit-D": device, "User-Agent": "Owntracks-Android/2.4.12"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def configuration_of(link):
    """The JSON an owntracks:///config?inline=… link carries."""
    query = urllib.parse.urlparse(link).query
    inline = urllib.parse.parse_qs(query).get("inline", [""])[0]
    return json.loads(base64.b64decode(inline))


def devices_of(devtools):
    text = devtools.evaluate("fetch('/api/v1/devices', {headers: {Accept: 'application/json'}}).then((r) => r.text())")
    return {device["name"]: device for device in json.loads(text or "[]")}


def resize(devtools, width, height, mobile):
    devtools.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def screenshot(devtools, folder, name):
    if not folder:
        return
    data = devtools.call("Page.captureScreenshot", {"format": "png"})["data"]
    with open(os.path.join(folder, name), "wb") as file:
        file.write(base64.b64decode(data))


def reopen(devtools):
    """Draws the section anew (the Settings view renders a section when it opens)."""
    devtools.evaluate("(async () => { const d = document.getElementById('settings-devices'); d.open = false;"
                      " await new Promise((r) => setTimeout(r, 50)); d.open = true; })()")


def item(name):
    return f"document.querySelector('#devices-list li[data-device=\"{name}\"]')"


def check_devices(devtools, report, base_url, folder=None, user="ada"):
    resize(devtools, 1400, 900, False)
    devtools.evaluate("window.location.hash = '#settings/devices'")
    if not report(bool(devtools.wait_for("Boolean(document.querySelector('#devices-list li.device-item'))", 10)),
                  "the Devices settings list the user's devices"):
        return

    # Add a device: name and app, as a person would.
    devtools.evaluate("document.getElementById('device-add-name').focus()")
    devtools.call("Input.insertText", {"text": "pixel"})
    devtools.evaluate("(() => { const s = document.getElementById('device-add-app'); s.value = 'owntracks';"
                      " s.dispatchEvent(new Event('change')); })()")
    devtools.evaluate("document.querySelector('#device-add-form button[type=submit]').click()")
    shown = devtools.wait_for("(() => { const s = document.getElementById('device-setup');"
                              " return s && !s.hidden && s.querySelector('img.device-qr') ? s.textContent : ''; })()", 10)
    report(bool(shown) and "shown only now" in shown, "adding a device shows its setup, saying the token is shown only now")
    svg_url = devtools.evaluate("(document.querySelector('#device-setup img.device-qr') || {}).src || ''")
    svg = urllib.parse.unquote(svg_url.split(",", 1)[1]) if "," in svg_url else ""
    report(svg.startswith("<svg") and "<path" in svg and devtools.evaluate(
        "document.querySelector('#device-setup img.device-qr').naturalWidth > 0"),
        f"the QR code is an SVG image the browser draws ({len(svg)} bytes)")
    link = devtools.evaluate("(document.querySelector('#device-setup a.device-setup-link') || {}).href || ''")
    try:
        configuration = configuration_of(link)
    except ValueError:
        configuration = {}
    token = configuration.get("password", "")
    report(link.startswith("owntracks:///config?inline=") and configuration.get("mode") == 3
           and configuration.get("username") == user and configuration.get("deviceId") == "pixel"
           and configuration.get("url") == base_url + "/api/v1/owntracks" and len(token) > 20,
           f"the link to tap on the phone is OwnTracks' remote configuration for this server ({ {k: v for k, v in configuration.items() if k != 'password'} })")
    for width, height, mobile in SIZES:
        resize(devtools, width, height, mobile)
        devtools.evaluate("document.getElementById('device-setup').scrollIntoView()")
        time.sleep(0.2)
        wide = devtools.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        report(bool(wide), f"the setup fits the width at {width}×{height} (no sideways scrolling)")
        screenshot(devtools, folder, f"devices-setup-{width}x{height}.png")
    resize(devtools, 1400, 900, False)

    # The phone reports with the token from the link; the list says so.
    status = owntracks_post(base_url, user, token, "pixel", 54)
    report(status == 200, f"the phone posts with the token from the link (HTTP {status})")
    devtools.evaluate("document.querySelector('#device-setup .device-setup-done').click()")
    reopen(devtools)
    line = devtools.wait_for(f"(() => {{ const li = {item('pixel')}; const s = li && li.querySelector('.device-status');"
                             " return s && s.textContent.includes('battery') ? s.textContent : ''; })()", 10)
    report(bool(line) and "last report" in line and "54 % battery" in line and "OwnTracks" in line
           and 'Wi-Fi "Home" · significant changes · in home' in line,
           f"the list shows the last report, battery, what the phone said of itself (Wi-Fi, mode, regions) and app ({line!r})")
    for width, height, mobile in SIZES:
        resize(devtools, width, height, mobile)
        devtools.evaluate("document.getElementById('devices-list').scrollIntoView()")
        time.sleep(0.2)
        screenshot(devtools, folder, f"devices-list-{width}x{height}.png")
    resize(devtools, 1400, 900, False)

    # Rename.
    devtools.evaluate(f"{item('pixel')}.querySelector('.device-rename').click()")
    devtools.evaluate(f"(() => {{ const input = {item('pixel')}.querySelector('.device-rename-input'); input.select(); }})()")
    devtools.call("Input.insertText", {"text": "pixel7"})
    devtools.evaluate(f"{item('pixel')}.querySelector('.device-rename-save').click()")
    renamed = devtools.wait_for(f"Boolean({item('pixel7')})", 10)
    report(bool(renamed) and "pixel7" in devices_of(devtools), "renaming a device shows and stores the new name")

    # Silence watch.
    devtools.evaluate(f"(() => {{ const s = {item('pixel7')}.querySelector('.device-silence-select'); s.value = '3600';"
                      " s.dispatchEvent(new Event('change')); })()")
    watched = devtools.wait_for("fetch('/api/v1/devices', {headers: {Accept: 'application/json'}}).then((r) => r.json())"
                                ".then((list) => list.some((d) => d.name === 'pixel7' && d.silentAfterSeconds === 3600))", 10)
    report(bool(watched), "choosing 'tell me when silent for 1 h' stores it")

    # A new token, after a confirmation: the old one is refused, the new one works.
    # The list may be drawn anew right after the silence choice was saved: open the panel on the
    # item that is there once it is drawn (clicking again only while the panel is not shown).
    devtools.wait_for(f"(() => {{ const li = {item('pixel7')}; if (!li) return false;"
                      " const confirm = li.querySelector('.device-rotate-confirm');"
                      " if (confirm && confirm.offsetParent !== null) return true;"
                      " li.querySelector('.device-rotate').click(); return false; })()", 10, interval=0.3)
    asked = devtools.evaluate(f"({item('pixel7')}.querySelector('.device-panel') || {{}}).textContent || ''")
    devtools.evaluate(f"{item('pixel7')}.querySelector('.device-rotate-confirm').click()")
    shown = devtools.wait_for("(() => { const s = document.getElementById('device-setup');"
                              " return s && !s.hidden && s.textContent.includes('New token for pixel7'); })()", 10)
    link = devtools.evaluate("(document.querySelector('#device-setup a.device-setup-link') || {}).href || ''")
    try:
        fresh = configuration_of(link).get("password", "")
    except ValueError:
        fresh = ""
    old_status = owntracks_post(base_url, user, token, "pixel7", 50)
    new_status = owntracks_post(base_url, user, fresh, "pixel7", 49)
    report("stops working" in asked and bool(shown) and fresh and fresh != token and old_status == 401 and new_status == 200,
           f"a new token is given after a confirmation: old token HTTP {old_status}, new HTTP {new_status}")
    devtools.evaluate("document.querySelector('#device-setup .device-setup-done').click()")

    # An OwnTracks phone in MQTT mode: its setup (no token needed), and its encryption secret set on the page.
    devtools.evaluate("document.getElementById('device-add-name').value = 'mqttphone';"
                      " document.getElementById('device-add-app').value = 'owntracks-mqtt';"
                      " document.querySelector('#device-add-form button[type=submit]').click()")
    mqtt_card = "document.querySelector('#device-setup [data-app=\"owntracks-mqtt\"]')"
    added = devtools.wait_for(f"(() => {{ const c = {mqtt_card}; return c ? c.textContent : ''; }})()", 10) or ""
    report("MQTT" in added and "owntracks/" in added and "/mqttphone" in added,
           "adding an OwnTracks (MQTT) device shows the MQTT settings: mode, broker, topic")
    devtools.evaluate("document.querySelector('#device-setup .device-setup-done').click()")
    devtools.wait_for(f"Boolean({item('mqttphone')} && {item('mqttphone')}.querySelector('.device-secret'))", 10)
    devtools.evaluate(f"{item('mqttphone')}.querySelector('.device-secret').click()")
    devtools.evaluate(f"{item('mqttphone')}.querySelector('.device-secret-input').focus()")
    devtools.call("Input.insertText", {"text": "a long shared secret"})
    devtools.evaluate(f"{item('mqttphone')}.querySelector('.device-secret-save').click()")
    # The setup shown again carries the key (in its link too when the server knows its broker: serve --mqtt).
    keyed = devtools.wait_for(f"(() => {{ const c = {mqtt_card}; if (!c || !c.textContent.includes('a long shared secret')) return '';"
                              " const a = c.querySelector('a.device-setup-link'); return a ? a.href : 'no link'; })()", 10) or ""
    try:
        key = configuration_of(keyed).get("encryptionKey") if keyed.startswith("owntracks:") else keyed == "no link"
    except ValueError:
        key = None
    report(key in ("a long shared secret", True) and devices_of(devtools).get("mqttphone", {}).get("ownTracksSecretSet") is True,
           f"Encryption… sets the secret: the list says so and the setup shows it ({'link key ' + repr(key) if keyed.startswith('owntracks:') else keyed or 'not shown'})")
    screenshot(devtools, folder, "devices-mqtt-secret-1400x900.png")
    devtools.evaluate("document.querySelector('#device-setup .device-setup-done').click()")
    devtools.wait_for(f"Boolean({item('mqttphone')}.querySelector('.device-secret'))", 10)
    devtools.evaluate(f"{item('mqttphone')}.querySelector('.device-secret').click()")
    devtools.evaluate(f"{item('mqttphone')}.querySelector('.device-secret-clear').click()")
    cleared = devtools.wait_for("fetch('/api/v1/devices').then((r) => r.json())"
                                ".then((l) => l.some((d) => d.name === 'mqttphone' && d.ownTracksSecretSet === false))", 10)
    report(bool(cleared), "Remove secret clears it")
    # The list drawn anew after the removal, before the next check opens a panel in it.
    devtools.wait_for(f"(() => {{ const b = {item('mqttphone')}.querySelector('.device-secret'); return b && b.textContent === 'Encryption…'; }})()", 10)
    devtools.evaluate("(document.querySelector('#device-setup .device-setup-done') || {click() {}}).click()")

    # Remove, keeping the history; then delete it with its history.
    devtools.evaluate(f"{item('pixel7')}.querySelector('.device-remove').click()")
    devtools.evaluate(f"{item('pixel7')}.querySelector('input[value=keep]').click()")
    screenshot(devtools, folder, "devices-remove-1400x900.png")
    devtools.evaluate(f"{item('pixel7')}.querySelector('.device-remove-confirm').click()")
    kept = devtools.wait_for(f"(() => {{ const li = {item('pixel7')}; return li && li.classList.contains('is-retired'); }})()", 10)
    listed = devices_of(devtools).get("pixel7", {})
    report(bool(kept) and bool(listed.get("retiredAt")) and listed.get("locations", 0) >= 2
           and owntracks_post(base_url, user, fresh, "pixel7", 48) == 401,
           f"removing and keeping the history keeps its {listed.get('locations')} locations and refuses its token")
    devtools.evaluate(f"{item('pixel7')}.querySelector('.device-remove').click()")
    devtools.evaluate(f"{item('pixel7')}.querySelector('.device-remove-confirm').click()")
    gone = devtools.wait_for(f"!{item('pixel7')}", 10)
    report(bool(gone) and "pixel7" not in devices_of(devtools), "deleting it with its history takes it from the list and the server")
    resize(devtools, 390, 844, True)  # as page_test.py left it
