# Sourced by the display checks (CHECK.sh x11|wayland BIN_DIR): a scratch folder $T with a device
# root in it, the counters and ok/fail/check that print "ok NAME" or "FAIL NAME: why", a cleanup
# on exit that kills $SERVER and the checks' own $DP and $JOB; then it starts the display server
# of $backend (x11: Xvfb; wayland: headless sway run as 'nobody', since sway refuses root; the
# tools connect to its socket as the caller), sets SERVER to its process, exports DISPLAY or
# WAYLAND_DISPLAY, and defines the clipboard helpers of that desktop: copy, owner, paste,
# paste_type, list_types, copy_type. Exits 77 with "skip: why" when the server cannot run here.
set -u
backend=$1; bin=$2
T=$(mktemp -d); chmod 755 $T
export DOCUMENT_INTERCHANGE_ROOT=$T/root; mkdir -p $DOCUMENT_INTERCHANGE_ROOT
passed=0; failed=0
ok() { echo "ok $1"; passed=$((passed+1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed+1)); }
check() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected [$3], got [$2]"; fi; }
cleanup() {
  for pid in ${DP:-} ${JOB:-} ${SERVER:-}; do kill -9 $pid 2>/dev/null; done
  wait 2>/dev/null; rm -rf $T
}
trap cleanup EXIT

if [ $backend = x11 ]; then
  command -v Xvfb >/dev/null && command -v xclip >/dev/null || { echo "skip: Xvfb or xclip is not installed"; exit 77; }
  # Xvfb picks a free display itself and writes its number (other X servers may run here).
  Xvfb -displayfd 3 -nolisten tcp 3>$T/display >$T/server.log 2>&1 < /dev/null & SERVER=$!
  for i in $(seq 50); do [ -s $T/display ] && break; sleep 0.1; done
  [ -s $T/display ] || { echo "skip: Xvfb did not start: $(tail -2 $T/server.log)"; exit 77; }
  export DISPLAY=:$(cat $T/display); unset WAYLAND_DISPLAY
  copy() { xclip -selection clipboard -i "$@" >/dev/null 2>&1; }            # forks, serves until replaced
  owner=(xclip -quiet -selection clipboard -i)                               # serves in the foreground
  paste() { timeout 20 xclip -selection clipboard -o "$@" 2>/dev/null; }
  paste_type() { timeout 20 xclip -selection clipboard -t "$1" -o 2>/dev/null; }
  list_types() { timeout 5 xclip -selection clipboard -t TARGETS -o 2>/dev/null; }
  copy_type() { xclip -selection clipboard -t "$1" -i >/dev/null 2>&1; }
else
  command -v sway >/dev/null && command -v wl-paste >/dev/null || { echo "skip: sway or wl-clipboard is not installed"; exit 77; }
  export XDG_RUNTIME_DIR=$T/rt; mkdir -m 700 $XDG_RUNTIME_DIR; chown nobody $XDG_RUNTIME_DIR $T
  printf 'output HEADLESS-1 resolution 800x600\n' > $T/sway.conf
  # setpriv execs sway itself, so that $! is sway's process (runuser would stay as its parent).
  env HOME=$T XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    setpriv --reuid=nobody --regid=nogroup --clear-groups sway -c $T/sway.conf >$T/server.log 2>&1 < /dev/null & SERVER=$!
  unset DISPLAY
  for i in $(seq 50); do WAYLAND_DISPLAY=$(ls $XDG_RUNTIME_DIR 2>/dev/null | grep -m1 '^wayland-[0-9]*$'); [ -n "$WAYLAND_DISPLAY" ] && break; sleep 0.1; done
  [ -n "$WAYLAND_DISPLAY" ] || { echo "skip: sway did not start: $(tail -2 $T/server.log)"; exit 77; }
  export WAYLAND_DISPLAY
  # Copies that stay in the background must not hold the caller's output open.
  copy() { wl-copy "$@" >/dev/null 2>&1; }
  owner=(wl-copy --foreground)
  paste() { timeout 20 wl-paste --no-newline "$@" 2>/dev/null; }
  paste_type() { timeout 20 wl-paste --no-newline --type "$1" 2>/dev/null; }
  list_types() { timeout 5 wl-paste --list-types 2>/dev/null; }
  copy_type() { wl-copy --type "$1" >/dev/null 2>&1; }
fi

