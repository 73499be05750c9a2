#!/usr/bin/env python3
"""`travelog track` against the real thing: gpsd's regression logs replayed by gpsfake into a real
gpsd, recorded at the same time by gpxlogger (gpsd-clients) and by the tracker.

Checks:
  1. With no filter the tracker keeps exactly the fixes gpsd reports (gpxlogger's, same replay,
     from the later of their first fixes: the replay starts when the first client watches).
  2. With a distance filter, on the same real stream: the first fix is kept, kept fixes are at
     least the filter apart, and every fix left out is closer than the filter to the last kept one
     (distances by `travelog geodesic inverse`, WGS84).
  3. kill -9 of the tracker mid-stream and a server stopped for a while lose nothing: every fix
     either tracker run kept reaches the server exactly once.
  4. `travelog track` runs as the lean `travelog-track` beside it (the same process, replaced), with
     the same help, errors and exit codes as in-process (TRAVELOG_TRACK_IN_PROCESS=1), and keeps a
     fix sent to it over UDP. This one needs no fixtures.

Usage: track_test.py --travelog BIN [--fixtures DIR]
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

RESULTS = {"passed": 0, "failed": 0}
RESULTS_LOCK = threading.Lock()


def check(condition, what, detail=""):
    with RESULTS_LOCK:
        RESULTS["passed" if condition else "failed"] += 1
        print(("PASS: " if condition else "FAIL: ") + what + ("" if condition or not detail else f"\n      {detail}"), flush=True)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=90):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.5)
    return False


def start_gpsfake(log, port):
    """gpsfake in a session of its own, so that stopping it also stops its gpsd."""
    # -c 0.2: a sentence every 0.2 s (gpsfake's -S crawls on a loaded machine; no delay races the clients).
    process = subprocess.Popen(["gpsfake", "--port", str(port), "-1", "-q", "-c", "0.2", log],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    if not wait_for_port(port):
        stop(process, group=True)
        raise SystemExit(f"FAIL: gpsfake's gpsd did not listen on port {port}")
    return process


def stop(process, group=False, sig=signal.SIGTERM):
    if process.poll() is not None:
        return
    try:
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL) if group else process.kill()
        except ProcessLookupError:
            pass


TRKPT = re.compile(r'<trkpt\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)"\s*>(.*?)</trkpt>', re.S)
TIME = re.compile(r"<time>([^<]+)</time>")


def epoch_ms(text):
    from datetime import datetime
    text = text.strip().replace("Z", "+00:00")
    return round(datetime.fromisoformat(text).timestamp() * 1000)


def read_gpx(path):
    """(time in ms, lat, lon) of every track point, also from a file cut short by kill -9."""
    if not os.path.exists(path):
        return []
    points = []
    for lat, lon, body in TRKPT.findall(open(path, encoding="utf-8", errors="replace").read()):
        found = TIME.search(body)
        if found:
            points.append((epoch_ms(found.group(1)), float(lat), float(lon)))
    return points


def count_points(path):
    return len(read_gpx(path))


def wait_quiet(paths, quiet_seconds=10, limit_seconds=240, minimum=1):
    """Waits until the files have stopped growing (the log has played)."""
    last, still_since, start = None, time.time(), time.time()
    while time.time() - start < limit_seconds:
        sizes = [os.path.getsize(p) if os.path.exists(p) else 0 for p in paths]
        if sizes != last:
            last, still_since = sizes, time.time()
        elif time.time() - still_since >= quiet_seconds and sum(count_points(p) for p in paths) >= minimum:
            return True
        time.sleep(1)
    return False


def same_fix(a, b):
    return a[0] == b[0] and abs(a[1] - b[1]) < 2e-7 and abs(a[2] - b[2]) < 2e-7


def distances(travelog, pairs):
    if not pairs:
        return []
    lines = "".join(f"{a[1]} {a[2]} {b[1]} {b[2]}\n" for a, b in pairs)
    out = subprocess.run([travelog, "geodesic", "inverse"], input=lines, capture_output=True, text=True, check=True).stdout
    return [float(line.split()[2]) for line in out.splitlines()]


def track(travelog, args, log_path):
    return subprocess.Popen([travelog, "track"] + args, stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))


def test_gpsd_fixes(travelog, fixtures, work, log_name, filter_meters):
    log = os.path.join(fixtures, "gpsd", "nmea", log_name)
    port = free_port()
    fake = start_gpsfake(log, port)
    reference, everything, filtered = (os.path.join(work, f"{log_name}.{n}.gpx") for n in ("gpxlogger", "all", "filtered"))
    logger = subprocess.Popen(["gpxlogger", "-e", "sockets", "-f", reference, f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    plain = track(travelog, ["--gpsd", f"127.0.0.1:{port}", "--queue", os.path.join(work, f"{log_name}.q1"),
                             "--output", everything], os.path.join(work, f"{log_name}.all.log"))
    distance = track(travelog, ["--gpsd", f"127.0.0.1:{port}", "--queue", os.path.join(work, f"{log_name}.q2"),
                                "--output", filtered, "--distance-filter", str(filter_meters)],
                     os.path.join(work, f"{log_name}.filtered.log"))
    wait_quiet([reference, everything], minimum=2)
    stop(fake, group=True)  # gpsfake would linger a minute at the end of the log
    for process in (plain, distance, logger):
        stop(process)
    gpsd = read_gpx(reference)
    kept = read_gpx(everything)
    check(len(gpsd) > 0, f"{log_name}: gpxlogger recorded gpsd's fixes ({len(gpsd)})")
    if not kept:
        check(False, f"{log_name}: the tracker kept fixes", open(os.path.join(work, f"{log_name}.all.log")).read())
        return
    # Both connect while the replay starts: compare from the later of their first fixes.
    start = max(gpsd[0][0], kept[0][0]) if gpsd else kept[0][0]
    expected = [p for p in gpsd if p[0] >= start]
    actual = [p for p in kept if p[0] >= start]
    check(len(expected) == len(actual) and all(same_fix(a, b) for a, b in zip(expected, actual)),
          f"{log_name}: with no filter the tracker keeps exactly gpsd's fixes ({len(actual)} of {len(expected)})",
          f"gpsd {expected[:3]}… tracker {actual[:3]}…")
    check(len(actual) >= 0.8 * len(gpsd), f"{log_name}: the tracker saw most of the replay ({len(actual)} of {len(gpsd)})")
    # The distance filter's rules on the same real stream.
    chosen = read_gpx(filtered)
    # The real stream from the filtered tracker's first fix on (the unfiltered tracker's, or gpxlogger's
    # if the filtered one connected first).
    base = kept if chosen and kept[0][0] <= chosen[0][0] else gpsd
    stream = [p for p in base if chosen and p[0] >= chosen[0][0]]
    check(bool(chosen) and stream and same_fix(chosen[0], stream[0]), f"{log_name}: the filter keeps the first fix")
    apart = distances(travelog, list(zip(chosen, chosen[1:])))
    check(all(d >= filter_meters for d in apart),
          f"{log_name}: kept fixes are at least {filter_meters} m apart ({len(chosen)} kept of {len(stream)})", f"{apart}")
    left_out, last, pairs = [], None, []
    kept_times = {p[0] for p in chosen}
    for p in stream:
        if p[0] in kept_times:
            last = p
        elif last is not None:
            pairs.append((last, p))
    near = distances(travelog, pairs)
    check(all(d < filter_meters for d in near),
          f"{log_name}: every fix left out is within {filter_meters} m of the last kept one ({len(pairs)} left out)", f"{near}")


def start_server(travelog, work, port):
    log = open(os.path.join(work, "server.log"), "a")
    server = subprocess.Popen([travelog, "serve", "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=log)
    if not wait_for_port(port, 120):
        stop(server)
        raise SystemExit("FAIL: the server did not start: " + open(os.path.join(work, "server.log")).read())
    return server


def test_kill_and_outage(travelog, fixtures, work):
    os.environ["TRAVELOG_DB"] = os.path.join(work, "server.sqlite")
    subprocess.run([travelog, "user", "add", "ada", "--password-stdin"], input="tracker-test-password\n", text=True,
                   check=True, capture_output=True)
    token = json.loads(subprocess.run([travelog, "device", "add", "--user", "ada", "van", "--app", "overland", "--json"],
                                      check=True, capture_output=True, text=True).stdout)["token"]
    server_port = free_port()
    server = start_server(travelog, work, server_port)
    port = free_port()
    fake = start_gpsfake(os.path.join(fixtures, "gpsd", "nmea", "haicom-305N.log"), port)
    queue = os.path.join(work, "outage.queue")
    common = ["--gpsd", f"127.0.0.1:{port}", "--queue", queue, "--server", f"http://127.0.0.1:{server_port}",
              "--token", token, "--upload-interval", "1", "--batch-size", "20"]
    first_gpx, second_gpx = os.path.join(work, "first.gpx"), os.path.join(work, "second.gpx")
    first = track(travelog, common + ["--output", first_gpx], os.path.join(work, "first.log"))
    deadline = time.time() + 120
    while count_points(first_gpx) < 40 and time.time() < deadline:
        time.sleep(0.5)
    stop(first, sig=signal.SIGKILL)
    stop(server)
    second_log = os.path.join(work, "second.log")
    second = track(travelog, common + ["--output", second_gpx], second_log)
    time.sleep(12)  # the server is down: uploads fail, the queue grows
    server = start_server(travelog, work, server_port)
    wait_quiet([second_gpx], minimum=1)
    stop(fake, group=True)
    deadline = time.time() + 90
    queued = None
    while time.time() < deadline:
        status = json.loads(subprocess.run([travelog, "track", "status", "--queue", queue, "--json"],
                                           capture_output=True, text=True).stdout or "{}")
        queued = status.get("queued_count")
        if queued == 0:
            break
        time.sleep(1)
    stop(second)
    kept = read_gpx(first_gpx) + read_gpx(second_gpx)
    export = subprocess.run([travelog, "export", "--user", "ada", "--format", "gpx"], capture_output=True, text=True)
    stop(server)
    exported = os.path.join(work, "server.gpx")
    open(exported, "w").write(export.stdout)
    stored = read_gpx(exported)
    check(count_points(first_gpx) >= 40, f"the first tracker kept {count_points(first_gpx)} fixes before kill -9")
    check("upload failed" in open(second_log).read(), "the tracker said the server was unreachable and kept the fixes queued")
    check(queued == 0, f"the queue emptied once the server was back (left: {queued})")
    missing = [p for p in kept if not any(same_fix(p, s) for s in stored)]
    check(not missing, f"every fix either tracker run kept is on the server ({len(kept)} kept, {len(stored)} stored)",
          f"missing {missing[:5]}")
    check(len(stored) == len({p[0] for p in kept}), "nothing is stored twice")


def nmea_sentence(body):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return f"${body}*{checksum:02X}\r\n"


def wait_for_text(path, text, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and text in open(path).read():
            return True
        time.sleep(0.2)
    return False


def test_lean_executable(travelog, work):
    lean = os.path.join(os.path.dirname(os.path.abspath(travelog)), "travelog-track")
    if not check(os.access(lean, os.X_OK), f"the lean tracker is built beside travelog ({lean})"):
        return
    in_process = dict(os.environ, TRAVELOG_TRACK_IN_PROCESS="1")
    for args in (["--help"], ["run", "--help"], ["status", "--help"], ["--queue-capacity", "0"], ["--gpsd", "a:1", "--nmea", "b"]):
        lean_run = subprocess.run([travelog, "track"] + args, capture_output=True, text=True)
        own_run = subprocess.run([travelog, "track"] + args, capture_output=True, text=True, env=in_process)
        check((lean_run.returncode, lean_run.stdout, lean_run.stderr) == (own_run.returncode, own_run.stdout, own_run.stderr),
              f"`travelog track {' '.join(args)}` answers the same through travelog-track as in-process (exit {lean_run.returncode})",
              f"lean: {lean_run.returncode} {lean_run.stdout[:300]!r} {lean_run.stderr[:300]!r}\n"
              f"      in-process: {own_run.returncode} {own_run.stdout[:300]!r} {own_run.stderr[:300]!r}")
    for env, expected in ((os.environ, "travelog-track"), (in_process, "travelog")):
        port = free_port()
        queue, log = os.path.join(work, f"lean-{expected}.q"), os.path.join(work, f"lean-{expected}.log")
        process = subprocess.Popen([travelog, "track", "--nmea", f"udp://:{port}", "--queue", queue],
                                   stdout=subprocess.DEVNULL, stderr=open(log, "w"), env=env)
        try:
            started = wait_for_text(log, "reading NMEA over UDP")
            executable = os.path.basename(os.readlink(f"/proc/{process.pid}/exe")) if process.poll() is None else "(exited)"
            check(started and executable == expected,
                  f"`travelog track` {'with TRAVELOG_TRACK_IN_PROCESS=1 ' if env is in_process else ''}runs as {expected} (process {executable})",
                  open(log).read())
            queued, start = 0, time.time()
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
                for second in range(50):  # one epoch a second; an epoch is complete when the next one starts
                    now = time.gmtime(start + second)
                    hhmmss, ddmmyy = time.strftime("%H%M%S.00", now), time.strftime("%d%m%y", now)
                    datagram = (nmea_sentence(f"GPRMC,{hhmmss},A,4630.00000,N,00636.00000,E,0.27,0.0,{ddmmyy},,,A")
                                + nmea_sentence(f"GPGGA,{hhmmss},4630.00000,N,00636.00000,E,1,09,0.9,372.0,M,48.0,M,,"))
                    sender.sendto(datagram.encode(), ("127.0.0.1", port))
                    time.sleep(0.2)
                    status = subprocess.run([travelog, "track", "status", "--queue", queue, "--json"], capture_output=True, text=True)
                    queued = json.loads(status.stdout).get("queued_count", 0) if status.returncode == 0 else 0
                    if queued:
                        break
            check(queued >= 1, f"{expected} kept a fix sent over UDP in its queue ({queued} queued)", open(log).read())
        finally:
            stop(process)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--travelog", required=True)
    parser.add_argument("--fixtures", default=os.environ.get("TRAVELOG_SHARED_FIXTURES") or
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "fixtures"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="travelog-track-lean.") as work:
        test_lean_executable(args.travelog, work)
    if not os.path.isdir(os.path.join(args.fixtures, "gpsd")):
        print(f"SKIPPED: the tracker's gpsd tests need ../shared/fixtures/gpsd beside the repository ({args.fixtures} is absent)")
        print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
        return 1 if RESULTS["failed"] else 0
    for tool in ("gpsfake", "gpxlogger"):
        if subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True).returncode != 0:
            print(f"FAIL: {tool} is missing (Debian gpsd / gpsd-clients; `make test` installs them)")
            return 1
    with tempfile.TemporaryDirectory(prefix="travelog-track.") as work:
        os.environ["XDG_STATE_HOME"] = work
        # The three replays run at once (each its own gpsfake, ports and files): they wait on gpsd's
        # pace, not on the processor, and one after another they took four minutes of make test.
        runs = [(test_gpsd_fixes, (args.travelog, args.fixtures, work, "bu353s4.log", 1.0)),      # a receiver standing still
                (test_gpsd_fixes, (args.travelog, args.fixtures, work, "haicom-305N.log", 5.0)),  # one moving 150 m
                (test_kill_and_outage, (args.travelog, args.fixtures, work))]
        errors = []

        def run(function, arguments):
            try:
                function(*arguments)
            except BaseException as error:  # SystemExit from a helper included: reported as a failure
                errors.append(f"{function.__name__}{arguments[3:]}: {error!r}")

        threads = [threading.Thread(target=run, args=entry) for entry in runs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for error in errors:
            check(False, "a tracker run ended early", error)
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
