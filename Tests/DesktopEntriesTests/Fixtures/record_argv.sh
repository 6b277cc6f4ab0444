#!/bin/sh
# Records how it was started into $RECORD_DIR (one file per start): the working folder, then
# GIO_LAUNCHED_DESKTOP_FILE, then each argument, all NUL-terminated.
f="$RECORD_DIR/$(date +%s%N)-$$"
{ printf '%s\0' "$(pwd)" "${GIO_LAUNCHED_DESKTOP_FILE:-}"; for a in "$@"; do printf '%s\0' "$a"; done; } > "$f.tmp" && mv "$f.tmp" "$f"
