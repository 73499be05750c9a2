"""The Settings view in a real browser (imported by page_test.py): it opens from the address
(#settings) in place of the map, at a desktop size (a nav list beside one section) and a phone size
(390×844: the sections stacked and collapsible) with nothing wider than the screen; the password is
changed through its form (and the session goes on), a notification channel is added, the units
chosen there are the map's, an import is discarded, and as the administrator a user is added and disabled; "Back to the
map" shows the map again. A screenshot of each size is kept in the screenshots folder."""

import json
import time

from features_check import AXE_RUN
from layout_check import screenshot, set_size

SIZES = (("desktop", 1400, 900, False), ("phone", 390, 844, True))

#: Widths of the page and of every element of the Settings view that is wider than the screen.
OVERFLOW = """(() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll('#settings *')]
    .filter((node) => node.offsetParent !== null && node.getBoundingClientRect().right > width + 1)
    .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`);
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, wide: wide.slice(0, 5)};
})()"""


def type_into(devtools, element_id, text):
    devtools.evaluate(f"(() => {{ const field = document.getElementById('{element_id}'); field.value = ''; field.focus(); }})()")
    devtools.call("Input.insertText", {"text": text})


def fetch_json(devtools, path, method="GET", body=None):
    """The page's own request (its session cookie), as {status, body}."""
    options = {"method": method, "headers": {"Accept": "application/json", "Content-Type": "application/json",
                                             "X-Requested-With": "fetch"}}
    if body is not None:
        options["body"] = json.dumps(body)
    answer = devtools.evaluate(f"fetch({json.dumps(path)}, {json.dumps(options)})"
                               ".then(async (r) => JSON.stringify({status: r.status, body: await r.text()}))")
    answer = json.loads(answer)
    try:
        answer["body"] = json.loads(answer["body"]) if answer["body"] else None
    except ValueError:
        pass
    return answer


def open_settings(devtools, base_url, section):
    devtools.call("Page.navigate", {"url": f"{base_url}/#settings/{section}"})
    return devtools.wait_for("document.readyState === 'complete' && !document.getElementById('settings').hidden"
                             " && document.getElementById('app').hidden"
                             f" && document.getElementById('settings-{section}').open"
                             f" && document.querySelector('#settings-{section} .settings-content').childElementCount > 0", 20)


def check_axe(devtools, report, size, axe_source):
    """axe-core on the Settings view with every section open: no serious or critical violation."""
    # axe compiles its rules' messages with new Function, which the page's policy forbids.
    devtools.call("Page.setBypassCSP", {"enabled": True})
    devtools.evaluate("document.querySelectorAll('.settings-section').forEach((d) => { d.open = true; })")
    time.sleep(0.5)
    devtools.evaluate(axe_source + "\n;true")
    found = devtools.evaluate(AXE_RUN)
    report(found == [], f"{size}: axe-core finds no serious or critical violation in Settings" + ("" if not found else f": {found}"))
    devtools.call("Page.setBypassCSP", {"enabled": False})


def check_sizes(devtools, report, base_url, folder, axe_source):
    for size, width, height, mobile in SIZES:
        set_size(devtools, width, height, mobile)
        for section in ("account", "notifications", "rejected", "imports", "administration", "preferences"):
            shown = open_settings(devtools, base_url, section)
            if not report(bool(shown), f"{size}: #settings/{section} shows the Settings view, its section open, and hides the map"):
                return
            time.sleep(0.5)  # the section's lists
            measured = devtools.evaluate(OVERFLOW)
            report(measured["scrollWidth"] <= measured["innerWidth"] and not measured["wide"],
                   f"{size}: {section}: nothing wider than the screen ({measured})")
            screenshot(devtools, folder, f"settings-{section}-{size}")
        if axe_source:
            check_axe(devtools, report, size, axe_source)
        nav = devtools.evaluate("getComputedStyle(document.querySelector('.settings-nav')).display")
        others = devtools.evaluate("[...document.querySelectorAll('.settings-section')]"
                                   ".filter((s) => getComputedStyle(s).display !== 'none').length")
        if mobile:
            report(nav == "none" and others >= 6, f"phone: no nav list, the sections stacked ({others} shown)")
        else:
            report(nav != "none" and others == 1, f"desktop: a nav list beside one section ({others} shown)")


def check_password(devtools, report, base_url, user, password):
    open_settings(devtools, base_url, "account")
    new_password = password + "-changed"
    type_into(devtools, "password-current", password)
    type_into(devtools, "password-new", new_password)
    type_into(devtools, "password-again", new_password)
    devtools.evaluate("document.querySelector('#password-form button[type=submit]').click()")
    said = devtools.wait_for("(() => { const s = document.getElementById('password-status').textContent;"
                             " return s.startsWith('Password changed') ? s : ''; })()", 15)
    session = fetch_json(devtools, "/api/v1/session")
    report(bool(said) and session["status"] == 200, f"the password form changes the password and the login goes on ({said!r})")
    logins = devtools.wait_for("document.querySelectorAll('#sessions li').length", 5)
    report(logins == 1, f"after the change one login is listed, this browser's ({logins})")
    # Back to the test's password, for the checks after this one.
    back = fetch_json(devtools, "/api/v1/account/password", "POST", {"current": new_password, "new": password})
    report(back["status"] == 200, f"the password is changed back through the API ({back['status']})")


def check_notifications(devtools, report, base_url):
    open_settings(devtools, base_url, "notifications")
    devtools.evaluate("document.getElementById('channel-type').value = 'ntfy'")
    type_into(devtools, "channel-url", "https://ntfy.example.org/travelog-settings-check")
    devtools.evaluate("document.querySelector('#channel-form button[type=submit]').click()")
    listed = devtools.wait_for("[...document.querySelectorAll('#channels li')].map((li) => li.textContent)"
                               ".find((text) => text.includes('ntfy.example.org')) || ''", 10)
    channels = fetch_json(devtools, "/api/v1/notifications/channels")["body"] or []
    report(bool(listed) and any("ntfy.example.org" in channel.get("url", "") for channel in channels),
           f"a notification channel is added through the form and listed ({listed!r})")
    for channel in channels:
        fetch_json(devtools, f"/api/v1/notifications/channels/{channel['id']}", "DELETE")


def check_units(devtools, report, base_url):
    open_settings(devtools, base_url, "preferences")
    devtools.evaluate("document.querySelector('input[name=settings-units][value=imperial]').click()")
    mirrored = devtools.evaluate("document.querySelector('input[name=units][value=imperial]').checked"
                                 " && localStorage.getItem('travelog.units') === 'imperial'")
    devtools.evaluate("document.querySelector('input[name=settings-units][value=metric]').click()")
    report(bool(mirrored), "the units chosen in Settings are the map's one setting")


def check_administration(devtools, report, base_url):
    session = fetch_json(devtools, "/api/v1/session")["body"] or {}
    if not report(session.get("administrator") is True, f"the session says the first user is the administrator ({session})"):
        return
    open_settings(devtools, base_url, "administration")
    type_into(devtools, "admin-new-name", "carol")
    type_into(devtools, "admin-new-password", "carol-password-1")
    devtools.evaluate("document.querySelector('#admin-add-user button[type=submit]').click()")
    row = "document.querySelector('#admin-users li[data-user=carol]')"
    added = devtools.wait_for(f"{row} && {row}.textContent", 10)
    report(bool(added), f"the administrator adds a user through the form ({added!r})")
    if not added:
        return
    devtools.evaluate(f"[...{row}.querySelectorAll('button')].find((b) => b.textContent === 'Disable').click()")
    disabled = devtools.wait_for(f"{row} && {row}.textContent.includes('disabled')", 10)
    users = fetch_json(devtools, "/api/v1/admin/users")["body"] or []
    carol = next((user for user in users if user.get("name") == "carol"), {})
    report(bool(disabled) and carol.get("disabled") is True, f"the administrator disables the user ({carol})")
    server = devtools.evaluate("document.getElementById('admin-server').textContent")
    report("Version" in server and "sqlite" in server, f"the server's version and database are shown ({server[:120]!r})")


def check_imports(devtools, report, base_url):
    """An imported file is discarded from Settings → Imports: the confirm names it and its count."""
    csv = "time,latitude,longitude\n2024-05-02T10:00:00Z,48.2,11.6\n2024-05-02T10:01:00Z,48.21,11.61\n"
    posted = devtools.evaluate("fetch('/api/v1/imports?filename=settings-check.csv&device=settings-check', {method: 'POST', "
                               f"headers: {{'Content-Type': 'text/csv', 'X-Requested-With': 'fetch'}}, body: {json.dumps(csv)}}})"
                               ".then((r) => r.status)")
    if not report(posted == 200, f"a file is imported for the Imports section ({posted})"):
        return
    open_settings(devtools, base_url, "imports")
    # Drawn before the file came (the sizes' pass): closed and opened again, it lists anew.
    devtools.evaluate("document.getElementById('settings-imports').open = false")
    time.sleep(0.2)
    devtools.evaluate("document.getElementById('settings-imports').open = true")
    row = "[...document.querySelectorAll('#imports-list li')].find((li) => li.textContent.includes('settings-check.csv'))"
    if not report(bool(devtools.wait_for(f"!!({row})", 10)), "the imported file is listed in Settings → Imports"):
        return
    devtools.evaluate(f"{row}.querySelector('.import-discard').click()")
    confirm = devtools.evaluate(f"{row}.querySelector('.import-confirm').textContent")
    report("settings-check.csv" in confirm and "2 locations" in confirm,
           f"Discard asks first, naming the file and how many locations go ({confirm!r})")
    devtools.evaluate(f"{row}.querySelector('.import-discard-confirm').click()")
    gone = devtools.wait_for(f"!({row}) && document.querySelector('#settings-imports .muted').textContent.startsWith('Discarded')", 10)
    imports = fetch_json(devtools, "/api/v1/imports")["body"] or []
    report(bool(gone) and not any(item.get("fileName") == "settings-check.csv" for item in imports),
           f"the import is discarded and the list refreshed ({[item.get('fileName') for item in imports]})")


def check_back(devtools, report):
    devtools.evaluate("document.getElementById('settings-back').click()")
    back = devtools.wait_for("!document.getElementById('app').hidden && document.getElementById('settings').hidden"
                             " && !location.hash.startsWith('#settings')", 10)
    report(bool(back), f"'Back to the map' shows the map again ({devtools.evaluate('location.hash')!r})")


def check_settings(devtools, report, base_url, user, password, folder, axe_source=None):
    check_sizes(devtools, report, base_url, folder, axe_source)
    set_size(devtools, 1400, 900, False)
    check_password(devtools, report, base_url, user, password)
    check_notifications(devtools, report, base_url)
    check_units(devtools, report, base_url)
    check_administration(devtools, report, base_url)
    check_imports(devtools, report, base_url)
    check_back(devtools, report)
    set_size(devtools, 390, 844, True)


if __name__ == "__main__":
    # Alone, against a running server and Chromium: settings_check.py URL DEVTOOLS_PORT USER PASSWORD FOLDER [AXE_JS]
    import sys
    import page_test
    url, port, user, password, folder = sys.argv[1:6]
    tools = page_test.DevTools(int(port))
    page_test.open_page(tools, url + "/")
    if page_test.log_in(tools, user, password):
        axe = sys.argv[6] if len(sys.argv) > 6 else None
        check_settings(tools, page_test.report, url, user, password, folder, open(axe).read() if axe else None)
    sys.exit(1 if page_test.failures else 0)
