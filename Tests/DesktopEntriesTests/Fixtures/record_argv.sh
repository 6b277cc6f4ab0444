#!/bin/sh
# Records the arguments it was started with, NUL-separated, into $RECORD_DIR (one file per start).
f="$RECORD_DIR/$(date +%s%N)-$$"
for a in "$@"; do printf '%s\0' "$a"; done > "$f.tmp" && mv "$f.tmp" "$f"
