"""Retention in Chromium (issue 30 item 4), for a user of its own (rhea, made by the administrator's
API, so the other checks' history is untouched), in a browser context of its own: Settings →
Retention says everything is kept; choosing 400 days with the journal deleted and Save says so;
Preview lists the three fixes of 2020 an import brought (not the recent one); Delete now asks
inline, then deletes them and says how many. Screenshots at 1400x900 and 390x844."""
import datetime
import time

from layout_check import set_size
from shares_check import SIZES, Visitor, overflow, screenshot

USER, PASSWORD = "rhea", "rhea-browser-password"


def check_retention(devtools, report, base_url, devtools_port, folder):
    made = devtools.evaluate(
        "fetch('/api/v1/admin/users', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Requested-With': 'fetch'},"
        f" body: JSON.stringify({{name: '{USER}', password: '{PASSWORD}'}})}}).then((r) => r.status)")
    if not report(made == 201, f"the administrator adds a user for the retention check ({made})"):
        return
    visitor = Visitor(devtools_port)
    try:
        for domain in ("Page", "Runtime"):
            visitor.call(f"{domain}.enable")
        set_size(visitor, 1400, 900, False)
        visitor.call("Page.navigate", {"url": base_url + "/#settings/retention"})
        visitor.wait_for("!document.getElementById('login').hidden", 15)
        visitor.evaluate(f"document.getElementById('login-user').value = '{USER}';"
                         f" document.getElementById('login-password').value = '{PASSWORD}';"
                         " document.getElementById('login-submit').click()")
        state = visitor.wait_for("(() => { const n = document.getElementById('retention-state');"
                                 " return n && document.getElementById('retention-form') && n.textContent; })()", 15)
        report(bool(state) and state.startswith("Everything is kept"), f"Settings → Retention says everything is kept ({state!r})")
        recent = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
        csv = ("time,latitude,longitude\\n2020-03-01T10:00:00Z,60.17,24.94\\n2020-03-01T10:05:00Z,60.18,24.95\\n"
               f"2020-03-02T10:00:00Z,60.19,24.96\\n{recent},60.2,24.97\\n")
        status = visitor.evaluate("fetch('/api/v1/imports?filename=old.csv&device=phone', {method: 'POST', headers:"
                                  f" {{'Content-Type': 'text/csv', 'X-Requested-With': 'fetch'}}, body: '{csv}'}}).then((r) => r.status)")
        report(status == 200, f"three fixes of 2020 and one of three days ago imported ({status})")
        visitor.evaluate("(() => { const kind = document.getElementById('retention-kind'); kind.value = 'period';"
                         " kind.dispatchEvent(new Event('change')); document.getElementById('retention-amount').value = '400';"
                         " document.getElementById('retention-unit').value = 'd'; document.getElementById('retention-journal').value = 'delete';"
                         " document.getElementById('retention-save').click(); })()")
        saved = visitor.wait_for("(() => { const t = document.getElementById('retention-state').textContent;"
                                 " return t.startsWith('Saved.') && t; })()", 10)
        report(bool(saved) and "400 days" in saved and "deleted too" in saved, f"Save keeps 400 days with the journal deleted ({saved!r})")
        visitor.evaluate("document.getElementById('retention-preview').click()")
        preview = visitor.wait_for("document.getElementById('retention-preview-result').textContent", 10)
        report(bool(preview) and preview.startswith("3 fixes before") and "phone: 3 fixes" in preview,
               f"Preview lists the three old fixes of the phone ({preview!r})")
        for name, width, height, mobile in SIZES:
            set_size(visitor, width, height, mobile)
            visitor.evaluate("document.getElementById('retention-form').scrollIntoView({block: 'start'})")
            time.sleep(0.3)
            report(not overflow(visitor), f"the Retention section fits at {width}x{height}")
            screenshot(visitor, f"{folder}/retention-{name}.png")
        visitor.evaluate("document.getElementById('retention-run').click()")
        asked = visitor.wait_for("!document.querySelector('.retention-confirm').hidden", 5)
        screenshot(visitor, f"{folder}/retention-confirm-phone.png")
        report(bool(asked), "Delete now asks before deleting")
        visitor.evaluate("document.getElementById('retention-run-confirm').click()")
        done = visitor.wait_for("(() => { const t = document.getElementById('retention-state').textContent;"
                                " return t.startsWith('Deleted') && t; })()", 10)
        left = visitor.evaluate("fetch('/api/v1/account/retention', {headers: {'X-Requested-With': 'fetch'}})"
                                ".then((r) => r.json()).then((j) => j.lastRun && j.lastRun.deletedFixes)")
        report(bool(done) and done.startswith("Deleted 3 fixes") and left == 3, f"confirming deletes the three old fixes ({done!r}, {left})")
    finally:
        visitor.close()
