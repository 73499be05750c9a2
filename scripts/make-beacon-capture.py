#!/usr/bin/env python3
"""Records Tests/Captures/beacon-scan.btsnoop with BlueZ's own btmon (Debian's `bluez`), without
Bluetooth hardware: btmon reads HCI traffic from a TTY in its monitor-over-TTY framing (`btmon -d`,
as Zephyr and ESP32 stacks send it) and writes what it hears with `-w`, exactly as it writes a
scan from a controller. This script is the controller: it opens a pseudo-terminal and sends the
LE advertising reports of a 90-second scan, timestamped with the framing's 32-bit extended
header (units of 100 µs; btmon writes records without a timestamp not at all).

The scan: iBeacons of UUID F7826DA6-4FA2-4E98-8024-BC5B71E0893E, major 100 — minor 1 about 8 m
away (RSSI -77 dBm ± 1, measured power -59), minor 2 about 1.4 m (-62, in extended reports),
minor 3 held close (-48) for the first 20 s and again from 60 s; a beacon of another UUID
(0000…4444, major 1 minor 1) for 10 s from 30 s; a phone's Apple "nearby" advertisement and a
non-Apple look-alike every second; scan enable and its command complete first.

    scripts/make-beacon-capture.py [OUT]    (default Tests/Captures/beacon-scan.btsnoop)

OUT may be a FIFO that a reader drains as btmon writes (the live test of `travelog beacons`).
"""

import os
import pty
import struct
import subprocess
import sys
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UUID = bytes.fromhex("F7826DA64FA24E988024BC5B71E0893E")
OTHER = bytes.fromhex("00000000111122223333444444444444")
#: The scan's first second, in the TTY framing's units of 100 µs (btmon writes them as seconds
#: after 1970-01-01).
START = 1_000 * 10_000
COMMAND, EVENT = 2, 3  # BlueZ monitor opcodes


def frame(opcode, packet, ts32):
    """One packet in btmon's TTY framing: data length, opcode, flags, the TS32 extended header."""
    body = struct.pack("<HBBBI", opcode, 0, 5, 8, ts32) + packet
    return struct.pack("<H", len(body)) + body


def ibeacon(uuid, major, minor, power=-59):
    return bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + uuid + struct.pack(">HHb", major, minor, power)


def legacy_report(address, data, rssi):
    parameters = bytes([0x02, 1, 0x00, 0x01]) + bytes(reversed(address)) + bytes([len(data)]) + data + struct.pack("b", rssi)
    return bytes([0x3E, len(parameters)]) + parameters


def extended_report(address, data, rssi):
    parameters = bytes([0x0D, 1, 0x10, 0x00, 0x01]) + bytes(reversed(address))
    parameters += bytes([0x01, 0x00, 0xFF, 0x7F]) + struct.pack("b", rssi) + bytes(9) + bytes([len(data)]) + data
    return bytes([0x3E, len(parameters)]) + parameters


def packets():
    """(time in 100 µs units, opcode, packet) of the scan, in order."""
    yield START, COMMAND, bytes([0x0C, 0x20, 0x02, 0x01, 0x00])             # LE Set Scan Enable
    yield START + 5, EVENT, bytes([0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])     # Command Complete
    for second in range(90):
        at = START + second * 10_000
        jitter = second % 3 - 1
        yield at + 100, EVENT, legacy_report([0xC1, 0, 0, 0, 0, 0x01], ibeacon(UUID, 100, 1), -77 + jitter)
        yield at + 1_000, EVENT, legacy_report([0x5A, 0x11, 0x22, 0x33, 0x44, 0x55],
                                               bytes([0x02, 0x01, 0x1A, 0x05, 0xFF, 0x4C, 0x00, 0x10, 0x01]), -60)
        yield at + 2_000, EVENT, extended_report([0xC1, 0, 0, 0, 0, 0x02], ibeacon(UUID, 100, 2), -62 + jitter)
        if second < 20 or second >= 60:
            yield at + 4_000, EVENT, legacy_report([0xC1, 0, 0, 0, 0, 0x03], ibeacon(UUID, 100, 3), -48 + jitter)
        if 30 <= second < 40:
            yield at + 5_000, EVENT, legacy_report([0xC1, 0, 0, 0, 1, 0x01], ibeacon(OTHER, 1, 1), -70)
        look_alike = bytes([0x1A, 0xFF, 0x59, 0x00, 0x02, 0x15]) + ibeacon(UUID, 100, 9)[9:]
        yield at + 6_000, EVENT, legacy_report([0xE0, 1, 2, 3, 4, 5], look_alike, -50)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Tests", "Captures", "beacon-scan.btsnoop")
    controller, monitor_side = pty.openpty()
    tty.setraw(monitor_side)
    if os.path.isfile(out):
        os.remove(out)  # a FIFO (travelog beacons --live reading btmon's stream) stays
    btmon = subprocess.Popen(["btmon", "-d", os.ttyname(monitor_side), "-w", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.5)
    count = 0
    for ts32, opcode, packet in packets():
        os.write(controller, frame(opcode, packet, ts32))
        count += 1
        if count % 20 == 0:
            time.sleep(0.02)  # the pseudo-terminal's buffer is small
    time.sleep(0.5)
    btmon.terminate()
    errors = btmon.communicate()[1].decode()
    written = f", {os.path.getsize(out)} bytes written by btmon" if os.path.isfile(out) else ""
    print(f"{out}: {count} packets sent{written}" + (f" ({errors.strip()})" if errors.strip() else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
