#!/usr/bin/env bash
# A backup while the server stores posts and is killed with -9 mid-way; restore refused under a
# running server (Tests/Backup/backup_kill_test.py). Usage: scripts/backup-kill-test.sh --travelog BIN
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec "${PYTHON:-python3}" "$root/Tests/Backup/backup_kill_test.py" "$@"
