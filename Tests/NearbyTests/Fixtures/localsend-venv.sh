#!/usr/bin/env bash
# Makes VENV with the PyPI LocalSend peer (localsend 0.1.2 with its CLI extras) unless it is
# there already. The package needs Python 3.12 or later: Debian's python3 (3.11 here) is too old,
# so the first of python3.13, python3.12 and pyenv's 3.12+ builds is used. Exits 77 with
# "skip: why" when none is installed.
set -euo pipefail
VENV=$1
if "$VENV/bin/python" -c 'import localsend, importlib.metadata as m, sys; sys.exit(m.version("localsend") != "0.1.2")' 2>/dev/null; then exit 0; fi
PYTHON=
for candidate in python3.13 python3.12 $(ls -d /root/.pyenv/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -r); do
  path=$(command -v "$candidate" 2>/dev/null || true)
  [ -n "$path" ] || continue
  # pyenv's shims exist for versions that are not selected: ask the interpreter itself.
  if "$path" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then PYTHON=$path; break; fi
done
[ -n "$PYTHON" ] || { echo "skip: no Python 3.12 or later for the LocalSend peer"; exit 77; }
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install -q "localsend[cli]==0.1.2"
