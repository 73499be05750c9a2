"""Photos on the page (issue 32), for the main user: three copies of Pillow's flower.jpg (`make
photo-samples`) taken during the menu check's walk (no GPS of their own) are added through the Import
panel's file control, as a person chooses files; the server places them on the walk (between its
fixes); the day shows them in the strip and on the map, clustered when zoomed out (the count over
the newest photo), and a click opens the viewer with the time and how each was placed. Then a day
with only a photo that has its own GPS (no fixes) brings the map to the photo. Screenshots at
1400x900 and 390x844."""
import datetime
import json
import os
import shutil
import subprocess
import tempfile
import time
import zipfile

from layout_check import SIZES, open_view, screenshot, set_size

FLOWER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build-data", "photos", "pillow", "flower.jpg")
#: A day with no fixes, for the photo that carries its own GPS.
PHOTO_ONLY_DAY = "2021-03-14"


def make_photos(folder, day, offset):
    """Copies of flower.jpg taken at 09:40, 09:45 and 09:50 local on `day` (no GPS), and one with its
    own GPS on PHOTO_ONLY_DAY; exiftool writes the tags. Returns their paths."""
    paths = []
    for number, minute in enumerate((40, 45, 50)):
        path = os.path.join(folder, f"walk-{number}.jpg")
        shutil.copy(FLOWER, path)
        subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", f"-DateTimeOriginal={day.replace('-', ':')} 09:{minute}:00",
                        f"-OffsetTimeOriginal={offset}", "-gps:all=", path], check=True)
        paths.append(path)
    path = os.path.join(folder, "own-gps.jpg")
    shutil.copy(FLOWER, path)
    subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", f"-DateTimeOriginal={PHOTO_ONLY_DAY.replace('-', ':')} 12:00:00",
                    "-OffsetTimeOriginal=+01:00", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                    "-GPSLongitudeRef=E", path], check=True)
    paths.append(path)
    return paths


def choose_files(devtools, selector, paths):
    """Sets the files of a file input as a person's choice would (DevTools DOM.setFileInputFiles)."""
    root = devtools.call("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = devtools.call("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    devtools.call("DOM.setFileInputFiles", {"nodeId": node, "files": paths})


def check_photos(devtools, report, base_url, day, folder, devtools_port):
    if not os.path.exists(FLOWER) or not shutil.which("exiftool"):
        report(False, f"photos: {FLOWER} and exiftool are needed (make photo-samples deps-test)")
        return
    work = tempfile.mkdtemp(prefix="travelog-photos-check-")
    try:
        local = datetime.datetime.fromisoformat(f"{day}T09:40:00").astimezone()
        offset = local.strftime("%z")
        paths = make_photos(work, day, f"{offset[:3]}:{offset[3:]}")
        set_size(devtools, 1400, 900, False)
        open_view(devtools, base_url, f"#from={day}")
        devtools.evaluate("document.getElementById('section-import').open = true")
        choose_files(devtools, "#photo-upload-files", paths)
        status = devtools.wait_for("(() => { const s = document.getElementById('photo-upload-status').textContent;"
                                   " return s.includes('added') && s; })()", 60)
        report(bool(status) and status.startswith("4 added"), f"photos: four photos added through the Import panel's file control ({status!r})")
        devtools.evaluate("document.getElementById('section-import').open = false")
        answer = json.loads(devtools.evaluate(f"fetch('/api/v1/photos?from={day}&to={day}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                                              ".then((r) => r.text())") or "{}")
        listed = answer.get("photos", [])
        placed = [photo for photo in listed if photo.get("placement") == "interpolated"]
        report(len(listed) == 3 and len(placed) == 3,
               f"photos: the day's three photos without GPS are placed on the walk between its fixes ({[p.get('placement') for p in listed]})")
        newest = max(listed, key=lambda photo: photo.get("time", ""))["id"] if listed else None
        for size, width, height, mobile in SIZES:
            set_size(devtools, width, height, mobile)
            open_view(devtools, base_url, f"#from={day}")
            shown = devtools.wait_for("document.getElementById('map').dataset.photoCount === '3'"
                                      " && document.getElementById('photo-strip').dataset.count === '3'", 15)
            report(bool(shown), f"{size}: the day's three photos are on the map and in the strip")
            check_journal_photos(devtools, report, day, listed, folder, size)
            # Zoomed out, one cluster: the count over the newest photo.
            devtools.evaluate("import('/map.js').then((m) => { m.drawn.map.setZoom(11, {animate: false}); return true; })")
            cluster = devtools.wait_for("(() => { const c = document.querySelector('#map .photo-cluster');"
                                        " return c && [c.querySelector('span').textContent, c.querySelector('img').getAttribute('src')]; })()", 10)
            report(bool(cluster) and cluster[0] == "3" and f"/api/v1/photos/{newest}/thumbnail" in cluster[1],
                   f"{size}: zoomed out, one cluster shows 3 over the newest photo ({cluster}, newest {newest})")
            time.sleep(0.5)
            screenshot(devtools, folder, f"{size}-photos-cluster")
            devtools.evaluate("document.querySelector('#photo-strip button.photo-thumb').click()")
            caption = devtools.wait_for("document.getElementById('photo-viewer').open"
                                        " && document.getElementById('photo-viewer-caption').textContent", 10)
            count = devtools.evaluate("document.getElementById('photo-viewer-count').textContent")
            loaded = devtools.wait_for("(() => { const i = document.getElementById('photo-viewer-image');"
                                       " return i.complete && i.naturalWidth > 0 && i.naturalWidth; })()", 10)
            report(bool(caption) and "placed between your fixes" in caption and count == "1 of 3" and bool(loaded),
                   f"{size}: a photo of the strip opens the viewer with its time and placement ({caption!r}, {count}, {loaded} px wide)")
            screenshot(devtools, folder, f"{size}-photos-viewer")
            devtools.evaluate("document.getElementById('photo-viewer-close').click()")
            # A day with only a photo, no fixes: the map goes to the photo.
            open_view(devtools, base_url, f"#from={PHOTO_ONLY_DAY}")
            there = devtools.wait_for("(() => { const b = (document.getElementById('map').dataset.bounds || '').split(',').map(Number);"
                                      " return document.getElementById('map').dataset.photoCount === '1'"
                                      " && b.length === 4 && b[0] < 2.2945 && b[2] > 2.2945 && b[1] < 48.8584 && b[3] > 48.8584"
                                      " && Number(document.getElementById('map').dataset.zoom) >= 10; })()", 10)
            state = devtools.evaluate("[document.getElementById('map').dataset.zoom, document.getElementById('map').dataset.bounds]")
            report(bool(there), f"{size}: a day with a photo and no fixes shows the map at the photo ({state})")
            screenshot(devtools, folder, f"{size}-photos-only-day")
        check_server_clusters(devtools, report, base_url, day, folder)
        check_visit_photo(devtools, report, base_url, day, folder, work)
        check_shared_photos(devtools, report, base_url, day, folder, devtools_port)
        check_export_with_photos(devtools, report, base_url, folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_visit_photo(devtools, report, base_url, day, folder, work):
    """A photo taken in the middle of one of the day's visits, added through the Import panel, is
    shown under that visit's journal entry (and no other), placed at the visit; then deleted again."""
    set_size(devtools, 1400, 900, False)
    open_view(devtools, base_url, f"#from={day}")
    visits = json.loads(devtools.evaluate(f"fetch('/api/v1/visits?from={day}&to={day}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                                          ".then((r) => r.text())") or "[]")
    parse = lambda text: datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    closed = [visit for visit in visits if visit.get("departure") and (parse(visit["departure"]) - parse(visit["arrival"])).total_seconds() >= 300]
    if not closed:
        report(False, f"journal photos: the day {day} has no visit of 5 minutes or more to take a photo in ({visits})")
        return
    visit = closed[0]
    middle = parse(visit["arrival"]) + (parse(visit["departure"]) - parse(visit["arrival"])) / 2
    path = os.path.join(work, "at-the-visit.jpg")
    shutil.copy(FLOWER, path)
    subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", f"-DateTimeOriginal={middle.strftime('%Y:%m:%d %H:%M:%S')}",
                    "-OffsetTimeOriginal=+00:00", "-gps:all=", path], check=True)
    devtools.evaluate("document.getElementById('section-import').open = true")
    choose_files(devtools, "#photo-upload-files", [path])
    added = devtools.wait_for("document.getElementById('photo-upload-status').textContent.startsWith('1 added')", 20)
    devtools.evaluate("document.getElementById('section-import').open = false")
    vid = json.dumps(str(visit["id"]))
    shown = devtools.wait_for("(() => { const counts = [...document.querySelectorAll('#journal li[data-visit-id]')]"
                              ".map((li) => [li.dataset.visitId, li.dataset.photoCount]);"
                              " return counts.every(([id, n]) => n === (id === " + vid + " ? '1' : '0'))"
                              " && document.querySelector('#journal li[data-visit-id=' + JSON.stringify(" + vid + ") + '] .entry-photos img') !== null; })()", 15)
    report(bool(added) and bool(shown), f"journal photos: a photo taken during the visit to {visit.get('place')!r} is under its entry, and no other")
    devtools.evaluate("(() => { const row = document.querySelector('#journal .entry-photos'); if (row) row.scrollIntoView({block: 'center'}); return 1; })()")
    screenshot(devtools, folder, "desktop-photos-journal-entry")
    photo = json.loads(devtools.evaluate(f"fetch('/api/v1/photos?from={day}&to={day}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                                         ".then((r) => r.text())") or "{}").get("photos", [])
    ours = [item for item in photo if item.get("placement") == "visit"]
    report(len(ours) == 1, f"journal photos: the photo is placed at the visit ({[item.get('placement') for item in photo]})")
    for item in ours:
        devtools.evaluate(f"fetch('/api/v1/photos/{item['id']}', {{method: 'DELETE', headers: {{'X-Requested-With': 'fetch'}}}}).then((r) => r.status)")


def check_shared_photos(devtools, report, base_url, day, folder, devtools_port):
    """A password share link of the day made with "Include the photos taken then" shows the walk's
    three photos to a visitor without an account, once unlocked: pins on the map, a strip in the
    side panel (thumbnails fetched with the link's key) and a viewer with the larger picture."""
    from shares_check import Visitor, overflow
    set_size(devtools, 1400, 900, False)
    open_view(devtools, base_url, f"#from={day}")
    devtools.evaluate("document.getElementById('section-map').open = true")
    devtools.evaluate("document.getElementById('share-view').click()")
    ticked = devtools.wait_for("!!document.getElementById('share-include-photos')", 5)
    devtools.evaluate("document.getElementById('share-include-photos').checked = true;"
                      "document.getElementById('share-title-input').value = 'Walk with photos';"
                      "document.getElementById('share-password-input').value = 'flowers 1234';"
                      "document.querySelector('#share-form button[type=submit]').click()")
    link = devtools.wait_for("(document.getElementById('share-link') || {}).value", 10)
    if not report(bool(ticked) and bool(link), f"shared photos: the share panel offers to include the photos and makes the link ({link!r})"):
        return
    devtools.evaluate("document.getElementById('share-panel').hidden = true")
    visitor = Visitor(devtools_port)
    try:
        for domain in ("Page", "Runtime"):
            visitor.call(f"{domain}.enable")
        for size, width, height, mobile in SIZES:
            set_size(visitor, width, height, mobile)
            visitor.call("Page.navigate", {"url": link})
            locked = visitor.wait_for("document.getElementById('share-map') && document.getElementById('share-map').dataset.state === 'locked'"
                                      " || (document.getElementById('share-map') || {dataset: {}}).dataset.state === 'shown'", 20)
            if visitor.evaluate("document.getElementById('share-map').dataset.state") == "locked":
                visitor.evaluate("document.getElementById('share-password').value = 'flowers 1234';"
                                 "document.querySelector('#share-unlock button').click()")
            shown = visitor.wait_for("(() => { const m = document.getElementById('share-map');"
                                     " const strip = [...document.querySelectorAll('#share-photo-strip img')];"
                                     " const pins = [...document.querySelectorAll('#share-map .photo-pin img')];"
                                     " return m.dataset.state === 'shown' && m.dataset.photoCount === '3' && strip.length === 3"
                                     " && pins.length > 0 && strip.concat(pins).every((i) => i.complete && i.naturalWidth > 0)"
                                     " && [strip.length, pins.length]; })()", 20)
            report(bool(locked) and bool(shown),
                   f"shared photos, {size}: once unlocked, the visitor sees the three photos on the map and in the strip ({shown})")
            report(not overflow(visitor), f"shared photos, {size}: the page fits at {width}x{height}")
            screenshot(visitor, folder, f"{size}-share-photos")
            visitor.evaluate("document.querySelector('#share-photo-strip button').click()")
            viewer = visitor.wait_for("(() => { const v = document.getElementById('share-photo-viewer');"
                                      " const image = document.getElementById('share-photo-image');"
                                      " const t = document.getElementById('share-photo-position').textContent;"
                                      " return v.open && t === '1 of 3' && image.complete && image.naturalWidth > 0"
                                      " && document.getElementById('share-photo-caption').textContent && [t, image.naturalWidth]; })()", 10)
            report(bool(viewer), f"shared photos, {size}: a photo of the strip opens the viewer with its picture and time ({viewer})")
            screenshot(visitor, folder, f"{size}-share-photos-viewer")
            visitor.evaluate("document.getElementById('share-photo-next').click()")
            following = visitor.wait_for("document.getElementById('share-photo-position').textContent === '2 of 3'", 5)
            report(bool(following), f"shared photos, {size}: Next shows the second photo")
            visitor.evaluate("document.getElementById('share-photo-close').click()")
    finally:
        visitor.close()


def check_export_with_photos(devtools, report, base_url, folder):
    """Settings → Your data with "With the photos' files" ticked downloads the account's zip with
    every photo's original in photos/ (as the browser saves it), none missing."""
    from settings_check import open_settings
    work = tempfile.mkdtemp(prefix="travelog-export-check-")
    try:
        devtools.call("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": work})
        set_size(devtools, 1400, 900, False)
        opened = open_settings(devtools, base_url, "data")
        ticked = devtools.evaluate("(() => { const box = document.getElementById('data-export-photos');"
                                   " if (!box) return false; box.checked = true; return true; })()")
        screenshot(devtools, folder, "desktop-settings-data-photos")
        devtools.evaluate("document.getElementById('data-export-download').click()")
        saved = None
        deadline = time.time() + 90
        while time.time() < deadline and not saved:
            names = [name for name in os.listdir(work) if name.endswith(".zip")]
            saved = os.path.join(work, names[0]) if names else None
            time.sleep(0.2)
        if not report(bool(opened) and bool(ticked) and bool(saved),
                      f"export with photos: Settings → Your data offers the photos' files and downloads the zip ({saved})"):
            return
        listed = json.loads(devtools.evaluate("fetch('/api/v1/photos', {headers: {'X-Requested-With': 'fetch'}}).then((r) => r.text())")
                            or "{}").get("photos", [])
        with zipfile.ZipFile(saved) as archive:
            names = archive.namelist()
            manifest = json.loads(archive.read("manifest.json"))
            originals = [name for name in names if name.startswith("photos/")]
            stored = all(archive.getinfo(name).compress_type == zipfile.ZIP_STORED for name in originals)
        report(len(listed) > 0 and len(originals) == len(listed) and manifest.get("photoFilesMissing") == [] and stored,
               f"export with photos: the zip holds each of the {len(listed)} photos' originals, stored as they are, none missing "
               f"({len(originals)} in photos/, missing {manifest.get('photoFilesMissing')})")
    finally:
        devtools.call("Page.setDownloadBehavior", {"behavior": "default"})
        shutil.rmtree(work, ignore_errors=True)
        devtools.call("Page.navigate", {"url": base_url + "/"})
        devtools.wait_for("document.readyState === 'complete' && !document.getElementById('app').hidden", 20)


def check_server_clusters(devtools, report, base_url, day, folder):
    """A range with more photos than the page pins one by one (2,000; lowered to 2 here through
    localStorage) is drawn from the server's clusters (/api/v1/photos/clusters): the walk's three
    photos are one cluster when zoomed out, a click on it zooms to them, a click on one opens the viewer."""
    set_size(devtools, 1400, 900, False)
    devtools.evaluate("localStorage.setItem('travelog.photoPinLimit', '2')")
    try:
        open_view(devtools, base_url, f"#from={day}")
        grouped = devtools.wait_for("document.getElementById('map').dataset.photoClusters === 'server'"
                                    " && document.getElementById('map').dataset.photoCount === '3'", 15)
        strip = devtools.evaluate("document.getElementById('photo-strip').dataset.count")
        report(bool(grouped) and strip == "3", f"server clusters: three photos counted, grouped by the server, three in the strip (strip {strip})")
        # The journal places them from their ids and times (/api/v1/photos/times), not the strip's list.
        timed = devtools.wait_for("(() => { const t = document.getElementById('map').dataset.photoTimes;"
                                  " const rows = [...document.querySelectorAll('#timeline .timeline-photos')];"
                                  " const thumbs = rows.reduce((n, row) => n + row.querySelectorAll('.photo-thumb').length, 0);"
                                  " return t === '3' && thumbs === 3 && [t, rows.length, thumbs]; })()", 10)
        report(bool(timed), f"server clusters: the journal's timeline gets the three photos from their times ({timed})")
        devtools.evaluate("document.querySelector('#timeline .timeline-photos .photo-thumb').click()")
        opened = devtools.wait_for("(() => { const v = document.getElementById('photo-viewer');"
                                   " const c = document.getElementById('photo-viewer-caption').textContent;"
                                   " return v.open && c.includes('placed between your fixes') && c; })()", 10)
        report(bool(opened), f"server clusters: a timeline photo known by its id and time opens the viewer with its placement ({opened!r})")
        devtools.evaluate("document.getElementById('photo-viewer-close').click()")
        devtools.evaluate("import('/map.js').then((m) => { m.drawn.map.setZoom(11, {animate: false}); return true; })")
        cluster = devtools.wait_for("(() => { const c = document.querySelectorAll('#map .photo-cluster');"
                                    " return c.length === 1 && c[0].querySelector('span').textContent === '3'"
                                    " && document.getElementById('map').dataset.photoClustersZoom === '11';"
                                    " })()", 10)
        report(bool(cluster), "server clusters: zoomed out to 11, the view's clusters are asked again and the three photos are one cluster of 3")
        screenshot(devtools, folder, "desktop-photos-server-cluster")
        devtools.evaluate("document.querySelector('#map .photo-cluster').click()")
        singles = devtools.wait_for("(() => { const zoom = Number(document.getElementById('map').dataset.zoom);"
                                    " return zoom > 11 && document.querySelectorAll('#map .photo-pin:not(.photo-cluster)').length === 3"
                                    " && document.querySelectorAll('#map .photo-cluster').length === 0 && zoom; })()", 10)
        report(bool(singles), f"server clusters: a click on the cluster zooms to its photos (zoom {singles}), each then its own pin")
        devtools.evaluate("document.querySelector('#map .photo-pin:not(.photo-cluster)').click()")
        viewer = devtools.wait_for("(() => { const v = document.getElementById('photo-viewer'); const t = document.getElementById('photo-viewer-count').textContent;"
                                   " const image = document.getElementById('photo-viewer-image');"
                                   " return v.open && / of 3$/.test(t) && image.complete && image.naturalWidth > 0 && t; })()", 10)
        report(bool(viewer), f"server clusters: a click on a pin opens the viewer with its picture ({viewer!r})")
        screenshot(devtools, folder, "desktop-photos-server-viewer")
        devtools.evaluate("document.getElementById('photo-viewer-close').click()")
    finally:
        devtools.evaluate("localStorage.removeItem('travelog.photoPinLimit')")


def check_journal_photos(devtools, report, day, listed, folder, size):
    """The day's photos in the timeline (a row per burst at its time; the walk's three, 5 minutes
    apart, are one row) and under each journal entry those taken during its visit, counted another
    way from /api/v1/visits; a thumbnail of the timeline opens the viewer."""
    row = devtools.wait_for("(() => { const r = document.querySelectorAll('#timeline .timeline-photos');"
                            " return r.length === 1 && r[0].querySelectorAll('img').length === 3"
                            " && r[0].textContent.includes('3 photos'); })()", 15)
    report(bool(row), f"{size}: journal photos: the walk's three photos are one row of the timeline, with three thumbnails")
    # Its time reads in the clock of the rows around it: between the previous row's start and the next one's.
    order = devtools.evaluate("(() => { const rows = [...document.querySelectorAll('#timeline li')]; const i = rows.findIndex((r) => r.classList.contains('timeline-photos'));"
                              " const minutes = (r) => { const m = (r && r.querySelector('.timeline-time') || {}).textContent || '';"
                              " const t = m.match(/(\\d+):(\\d+)\\s*(AM|PM)?/); if (!t) return null; let h = Number(t[1]) % 12 + (t[3] === 'PM' ? 12 : 0);"
                              " if (!t[3]) h = Number(t[1]); return h * 60 + Number(t[2]); };"
                              " return [minutes(rows[i - 1]), minutes(rows[i]), minutes(rows[i + 1])]; })()")
    in_order = bool(order) and None not in order and order[0] <= order[1] <= order[2]
    report(in_order, f"{size}: journal photos: the photo row's time reads in the same clock as its neighbours (minutes {order})")
    devtools.evaluate("(() => { const row = document.querySelector('#timeline .timeline-photos'); if (row) row.scrollIntoView({block: 'center'}); return 1; })()")
    screenshot(devtools, folder, f"{size}-photos-timeline-row")
    visits = json.loads(devtools.evaluate(f"fetch('/api/v1/visits?from={day}&to={day}', {{headers: {{'X-Requested-With': 'fetch'}}}})"
                                          ".then((r) => r.text())") or "[]")
    def during(visit):
        start = datetime.datetime.fromisoformat(visit["arrival"].replace("Z", "+00:00"))
        end = (datetime.datetime.fromisoformat(visit["departure"].replace("Z", "+00:00")) if visit.get("departure")
               else datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1))
        return sum(1 for photo in listed if start <= datetime.datetime.fromisoformat(photo["time"].replace("Z", "+00:00")) <= end)
    expected = {str(visit["id"]): during(visit) for visit in visits}
    shown = json.loads(devtools.evaluate("JSON.stringify(Object.fromEntries([...document.querySelectorAll('#journal li[data-visit-id]')]"
                                         ".map((li) => [li.dataset.visitId, Number(li.dataset.photoCount || 0)])))"))
    report(shown == expected, f"journal photos: each entry shows the photos taken during its visit (shown {shown}, from the visits {expected})")
    devtools.evaluate("document.querySelector('#timeline .timeline-photos button.photo-thumb').click()")
    opened = devtools.wait_for("(() => { const v = document.getElementById('photo-viewer'); const t = document.getElementById('photo-viewer-count').textContent;"
                               " return v.open && / of 3$/.test(t) && document.getElementById('photo-viewer-original').href.includes('/original') && t; })()", 10)
    report(bool(opened), f"journal photos: a thumbnail of the timeline opens the viewer, with a link to the original ({opened!r})")
    screenshot(devtools, folder, f"{size}-photos-timeline")
    devtools.evaluate("document.getElementById('photo-viewer-close').click()")
    status = devtools.evaluate("fetch(document.getElementById('photo-viewer-original').href).then((r) => `${r.status} ${r.headers.get('content-type')}`)")
    report(status == "200 image/jpeg", f"journal photos: the viewer's Original link answers the file ({status})")
