#!/usr/bin/env bash
# pasteboardd started again and again on an Xvfb that resets whenever its last client leaves (as
# X servers do unless started with -noreset): a start that lands in the reset must still connect.
# Usage: x11_restart_check.sh BIN_DIR ROUNDS. Prints "N of ROUNDS started"; exit 77 to skip.
# Before the fix, 2-9% of connections made while a client kept connecting failed (ECONNRESET).
set -u
bin=$1; rounds=${2:-30}
command -v Xvfb >/dev/null || { echo "skip: Xvfb is not installed"; exit 77; }
# SIGKILL throughout: a test runner's children may have SIGTERM blocked.
T=$(mktemp -d); trap 'kill -9 $SERVER 2>/dev/null; wait 2>/dev/null; rm -rf $T' EXIT
Xvfb -displayfd 3 -nolisten tcp 3>$T/display >$T/server.log 2>&1 < /dev/null & SERVER=$!
for i in $(seq 50); do [ -s $T/display ] && break; sleep 0.1; done
[ -s $T/display ] || { echo "skip: Xvfb did not start: $(tail -2 $T/server.log)"; exit 77; }
export DISPLAY=:$(cat $T/display) DOCUMENT_INTERCHANGE_ROOT=$T/root; unset WAYLAND_DISPLAY
mkdir -p $T/root
# Another client connecting and leaving over and over: the server resets after each one, so a
# start is likely to land in a reset (without it, a reset is over before pasteboardd connects).
command -v xclip >/dev/null || { echo "skip: xclip is not installed"; exit 77; }
( while :; do xclip -selection clipboard -t TARGETS -o >/dev/null 2>&1; done ) & CHURN=$!
trap 'kill -9 $CHURN $SERVER 2>/dev/null; wait 2>/dev/null; rm -rf $T' EXIT
started=0
for round in $(seq $rounds); do
  $bin/pasteboardd run --backend x11 --log-level info 2>$T/bridge.log >/dev/null < /dev/null & P=$!
  # Up to 60 s (timed, not counted in loop turns): on a loaded machine a start alone can take seconds.
  deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do grep -q "msg=started" $T/bridge.log && break; kill -0 $P 2>/dev/null || break; sleep 0.01; done
  if grep -q "msg=started" $T/bridge.log; then started=$((started+1))
  else
    kill -0 $P 2>/dev/null && { kill -9 $P; echo "round $round: no start within 60 s: $(cat $T/bridge.log)"; continue; }
    wait $P; echo "round $round: exit $?: $(cat $T/bridge.log)"
  fi
  # Its disconnection makes the server reset; the next start comes right away.
  kill -9 $P 2>/dev/null; wait $P 2>/dev/null
done
echo "$started of $rounds started"
