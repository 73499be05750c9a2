#!/usr/bin/env python3
"""A backup taken while the server stores phones' posts and is killed with SIGKILL mid-way (issue 27).

Starts `travelog serve` on a new SQLite database, posts Overland batches as a phone does (recording
each batch acknowledged with {"result":"ok"}), starts `travelog backup` (slowed to a page a step so
it runs for seconds), kills the server with -9 while the backup runs, and checks that the backup
finished, passes PRAGMA integrity_check, and holds every location acknowledged before it began.
Then `travelog restore` refuses the database while a second server holds it, and restores it once
that server is stopped. Usage: backup_kill_test.py --travelog BIN
"""
import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def fail(message):
    sys.exit("FAIL: " + message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(travelog, db, env, log):
    port = free_port()
    process = subprocess.Popen([travelog, "serve", "--db", db, "--port", str(port)], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read()
            return process, port
        except OSError:
            if process.poll() is not None:
                fail(f"the server exited with {process.returncode}")
            time.sleep(0.1)
    fail("the server did not answer")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--travelog", required=True)
    travelog = os.path.abspath(parser.parse_args().travelog)
    work = tempfile.mkdtemp(prefix="travelog-backup-kill-")
    db = os.path.join(work, "travelog.sqlite")
    env = dict(os.environ, HOME=work, XDG_DATA_HOME=work, TRAVELOG_TRACK_IN_PROCESS="1")
    run = lambda *args, **kw: subprocess.run([travelog, *args], env=env, check=True, capture_output=True, text=True, **kw)
    run("user", "add", "ada", "--db", db, "--password-stdin", input="correct horse battery\n")
    token = json.loads(run("device", "add", "phone", "--db", db, "--user", "ada", "--app", "overland", "--json").stdout)["token"]
    log = open(os.path.join(work, "serve.log"), "w")
    server, port = start_server(travelog, db, env, log)

    acknowledged = []  # timestamps (ms) of locations whose batch got {"result":"ok"}
    lock = threading.Lock()
    stop = threading.Event()
    first_ms = 1_700_000_000_000

    def post(index):
        features = []
        for i in range(index * 100, index * 100 + 100):
            ms = first_ms + i * 1000
            features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.4 + (i % 500) * 1e-5, 52.5 + (i // 500) * 1e-5]},
                             "properties": {"timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + "Z",
                                            "horizontal_accuracy": 5}})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/overland", data=json.dumps({"locations": features}).encode(),
                                         headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
        answer = json.loads(urllib.request.urlopen(request, timeout=30).read())
        if answer.get("result") != "ok":
            fail(f"the server answered {answer}")
        return [first_ms + i * 1000 for i in range(index * 100, index * 100 + 100)]

    # A history of 30,000 fixes first, so that the backup (a page a step) runs for seconds.
    for index in range(300):
        acknowledged.extend(post(index))

    def poster():
        index = 300
        while not stop.is_set():
            try:
                stored = post(index)
            except OSError:
                return  # the server was killed
            with lock:
                acknowledged.extend(stored)
            index += 1

    thread = threading.Thread(target=poster)
    thread.start()
    time.sleep(0.5)
    with lock:
        before = set(acknowledged)
    backup_path = os.path.join(work, "backup.sqlite")
    backup = subprocess.Popen([travelog, "backup", "--db", db, backup_path, "--step-pages", "1", "--step-pause-ms", "2"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    if backup.poll() is not None:
        fail("the backup ended before the server could be killed during it: " + backup.stderr.read())
    server.send_signal(signal.SIGKILL)
    server.wait()
    stop.set()
    thread.join()
    out, err = backup.communicate(timeout=600)
    if backup.returncode != 0:
        fail(f"travelog backup failed after the server was killed: {err}")
    if os.path.exists(backup_path + "-wal") or any(".partial-" in name for name in os.listdir(work)):
        fail("the backup left files behind")
    copy = sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)
    if copy.execute("PRAGMA integrity_check").fetchall() != [("ok",)]:
        fail("the backup fails PRAGMA integrity_check")
    stored = {row[0] for row in copy.execute("SELECT timestamp_ms FROM locations")}
    copy.close()
    missing = before - stored
    if missing:
        fail(f"{len(missing)} locations acknowledged before the backup began are not in it")
    with lock:
        after = set(acknowledged)
    if not stored <= after | before:
        fail("the backup holds locations nobody posted")

    # Restore: refused while a server holds the database, done once it stopped.
    server, port = start_server(travelog, db, env, log)
    refused = subprocess.run([travelog, "restore", "--db", db, backup_path], env=env, capture_output=True, text=True)
    if refused.returncode == 0 or "stop the server first" not in refused.stderr:
        fail(f"restore did not refuse a database a running server holds: {refused.stdout} {refused.stderr}")
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    run("restore", "--db", db, backup_path)
    restored = sqlite3.connect(db)
    count = restored.execute("SELECT count(*) FROM locations").fetchone()[0]
    restored.close()
    if count != len(stored):
        fail(f"the restored database holds {count} locations, the backup {len(stored)}")
    print(f"backup kill -9 test: ok ({len(before)} acknowledged before the backup, {len(stored)} in it, "
          f"{len(after) - len(before)} more acknowledged while it ran; restore refused under a server, done after)")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
