#!/usr/bin/python3
"""Runs a command under the system-call filter and memory rule docs/travelog.service sets, without a
booted systemd: SystemCallFilter=@system-service minus ~@privileged @resources (the groups expanded by
`systemd-analyze syscall-filter`, everything else refused with EPERM, as SystemCallErrorNumber=EPERM
does) through libseccomp (Debian's python3-seccomp), and MemoryDenyWriteExecute= through the
kernel's prctl(PR_SET_MDWE). Usage: sandbox_exec.py UNIT COMMAND [ARGUMENTS…]
"""
import ctypes
import errno
import os
import re
import subprocess
import sys

try:
    import seccomp
except ImportError:
    sys.exit("FAIL: Debian's python3-seccomp is missing (make deps-test installs it): the unit's system-call filter cannot be tried")


def expand(group, seen=None):
    """The system calls of a systemd group (`@system-service`), nested groups expanded."""
    seen = seen if seen is not None else set()
    if group in seen:
        return set()
    seen.add(group)
    listing = subprocess.run(["systemd-analyze", "syscall-filter", group], check=True, capture_output=True, text=True).stdout
    calls = set()
    for line in listing.splitlines()[1:]:
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        calls |= expand(item, seen) if item.startswith("@") else {item}
    return calls


def unit_filter(unit):
    """The allowed system calls from the unit's SystemCallFilter= lines."""
    allowed = set()
    for line in open(unit):
        match = re.match(r"SystemCallFilter=(~?)(.*)", line.strip())
        if not match:
            continue
        names = set()
        for item in match.group(2).split():
            names |= expand(item) if item.startswith("@") else {item}
        allowed = allowed - names if match.group(1) else allowed | names
    return allowed


def main():
    unit, command = sys.argv[1], sys.argv[2:]
    allowed = unit_filter(unit)
    if not allowed:
        sys.exit(f"FAIL: {unit} has no SystemCallFilter=")
    rules = seccomp.SyscallFilter(defaction=seccomp.ERRNO(errno.EPERM))
    for call in sorted(allowed):
        try:
            rules.add_rule(seccomp.ALLOW, call)
        except (RuntimeError, ValueError, OSError):
            pass  # not a system call of this architecture
    if "MemoryDenyWriteExecute=yes" in open(unit).read():
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
            sys.exit(f"FAIL: prctl(PR_SET_MDWE) refused: errno {ctypes.get_errno()} (Linux 6.3 or later is needed)")
    rules.load()  # sets no_new_privs, as NoNewPrivileges= does
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
