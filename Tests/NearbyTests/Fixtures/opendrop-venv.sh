#!/usr/bin/env bash
# Makes VENV with the PyPI AirDrop peer (opendrop 0.13.0, pinned with libarchive-c<4 and
# Pillow<10; it runs on Python 3.11 only, which Debian 12's python3 is) unless it is there
# already. It also needs Debian's libarchive13 (scripts/install-dependencies --tests). Exits 77
# with "skip: why" when no Python 3.11 is installed.
set -euo pipefail
VENV=$1
if "$VENV/bin/python" -c 'import opendrop, importlib.metadata as m, sys; sys.exit(m.version("opendrop") != "0.13.0")' 2>/dev/null; then exit 0; fi
PYTHON=
for candidate in python3.11 /usr/bin/python3 $(ls -d /root/.pyenv/versions/3.11*/bin/python3 2>/dev/null); do
  path=$(command -v "$candidate" 2>/dev/null || true)
  [ -n "$path" ] || continue
  if "$path" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then PYTHON=$path; break; fi
done
[ -n "$PYTHON" ] || { echo "skip: no Python 3.11 for the OpenDrop peer"; exit 77; }
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install -q opendrop==0.13.0 "libarchive-c<4" "Pillow<10"
