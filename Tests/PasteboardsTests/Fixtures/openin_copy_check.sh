#!/usr/bin/env bash
# openin's Copy activity on a real display server started here:
#   openin_copy_check.sh x11|wayland BIN_DIR
# xclip and wl-copy fork a child that serves the clipboard until another program takes it:
# openin must return at once (not wait for that child), also when its output is read to the end
# ($(openin …)), and the clipboard must still hold the document after openin has exited.
# Each check prints "ok NAME" or "FAIL NAME: why"; the last line is "N passed, M failed".
. "$(dirname "$0")/start_display.sh"

now() { date +%s%N; }
# A helper openin starts inherits its environment: the mark finds exactly that copy's helpers.
helpers() { grep -l "DI_COPY_MARK=$1" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
# Runs "$@" in the background with its output read to the end by $(…), and waits up to 20 s for
# it: a command that hangs is reported, never waited for.
run_captured() {
  rm -f $T/rc $T/out
  # Not on our output: a hung command must not hold the test runner's pipe.
  ( out=$("$@" 2>&1); echo "$?" > $T/rc.tmp; printf '%s' "$out" > $T/out; mv $T/rc.tmp $T/rc ) >/dev/null 2>&1 & JOB=$!
  for i in $(seq 400); do [ -e $T/rc ] && return 0; sleep 0.05; done
  return 1
}

printf 'notes for the clipboard\n' > $T/notes.txt
start=$(now)
if run_captured env DI_COPY_MARK=$T/notes $bin/openin --activity copy-to-clipboard $T/notes.txt; then
  ms=$(( ($(now) - start) / 1000000 ))
  check "copy exits 0 with its output read to the end" "$(cat $T/rc)" "0"
  # The time is printed, not judged (a loaded CI took 17 s to start the display's clients; the
  # benchmarks own figures). What "at once" means here: openin returned while the helper it
  # started still serves the clipboard, so it waited neither for that helper nor for its output.
  echo "copy took $ms ms"
  [ "$(helpers $T/notes)" -ge 1 ] && ok "copy returns while its helper still serves" || fail "copy returns while its helper still serves" "no helper left running"
else
  fail "copy exits 0 with its output read to the end" "still running after 20 s"
fi
check "the clipboard holds the document after openin exited" "$(paste)" "notes for the clipboard"
case "$(list_types | tr '\n' ' ')" in *text/plain*) ok "offered as text/plain";; *) fail "offered as text/plain" "$(list_types | tr '\n' ' ')";; esac

# A second copy replaces the first, and the first helper goes (it lost the clipboard).
head -c 2000 /dev/urandom > $T/picture.png
run_captured env DI_COPY_MARK=$T/picture $bin/openin --activity copy-to-clipboard $T/picture.png && check "a second copy exits 0" "$(cat $T/rc)" "0" || fail "a second copy exits 0" "hung"
for i in $(seq 100); do paste_type image/png > $T/back.png; cmp -s $T/picture.png $T/back.png && break; sleep 0.1; done
cmp -s $T/picture.png $T/back.png && ok "the image is pasted byte for byte as image/png" || fail "the image is pasted byte for byte as image/png" "differ"
# Without a bridge, the helper is what serves it, after openin has exited.
check "a helper serves it" "$(helpers $T/picture)" "1"

# Standard output a terminal would see: no message of the helper, one line of ours.
check "one line of output" "$(cat $T/out)" "$T/picture.png: copied to the clipboard"

# With pasteboardd serving this display, the copy goes through the general pasteboard: no helper.
$bin/pasteboardd run --log-level info 2>$T/bridge.log >/dev/null < /dev/null & DP=$!
for i in $(seq 200); do grep -q "msg=published\|msg=imported" $T/bridge.log && break; sleep 0.1; done
printf 'through the bridge\n' > $T/bridge.txt
run_captured env DI_COPY_MARK=$T/bridge $bin/openin --activity copy-to-clipboard $T/bridge.txt && check "a copy with the bridge running exits 0" "$(cat $T/rc)" "0" || fail "a copy with the bridge running exits 0" "hung"
check "the bridge serves it" "$(cat $T/out)" "$T/bridge.txt: copied to the clipboard (served by pasteboardd)"
check "no clipboard helper was started" "$(helpers $T/bridge)" "0"
check "it is on the general pasteboard" "$($bin/pbpaste)" "through the bridge"
for i in $(seq 100); do [ "$(paste)" = "through the bridge" ] && break; sleep 0.2; done
check "the desktop pastes it" "$(paste)" "through the bridge"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
