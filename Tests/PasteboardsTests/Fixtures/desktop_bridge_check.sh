#!/usr/bin/env bash
# The desktop bridge end to end, on a real display server started here:
#   desktop_bridge_check.sh x11|wayland BIN_DIR
# x11: Xvfb, with xclip as the other desktop program. wayland: headless sway (run as 'nobody':
# sway refuses root; the tools connect to its socket as the caller), with wl-copy/wl-paste.
# Each check prints "ok NAME" or "FAIL NAME: why"; the last line is "N passed, M failed".
# Exits 77 with "skip: why" when the display server cannot run here.
. "$(dirname "$0")/start_display.sh"

# 1. What was on the general pasteboard before the bridge started is on the clipboard after.
printf 'before the bridge' | $bin/pbcopy
$bin/pasteboardd run --log-level info 2>$T/bridge.log >/dev/null < /dev/null & DP=$!
for i in $(seq 200); do grep -q "msg=published" $T/bridge.log && break; sleep 0.1; done
check "pasteboard published at start" "$(paste)" "before the bridge"
types=$(list_types | tr '\n' ' ')
case "$types" in *"text/plain;charset=utf-8"*UTF8_STRING*public.utf8-plain-text*) ok "text offered under MIME, X11 and UTI names";; *) fail "text offered under MIME, X11 and UTI names" "$types";; esac

# 2. pbcopy -> desktop, with a non-ASCII text.
printf 'héllo → wörld' | $bin/pbcopy
# Waits below are polls of up to 20 s, never fixed sleeps: on a loaded machine (CI) the bridge
# can take longer than any short sleep.
until_paste() { for i in $(seq 100); do [ "$(paste)" = "$1" ] && return; sleep 0.2; done; }
until_paste 'héllo → wörld'
check "pbcopy reaches the desktop" "$(paste)" "héllo → wörld"

# 3. desktop -> pbpaste, and the desktop program's copy outlives it.
printf 'from the desktop' | copy
for i in $(seq 200); do [ "$($bin/pbpaste)" = "from the desktop" ] && break; sleep 0.1; done
check "a desktop copy reaches pbpaste" "$($bin/pbpaste)" "from the desktop"
check "desktop copy stored as UTF-8 text" "$($bin/pbpaste --types)" "public.utf8-plain-text"
# The owner is started directly (not through a shell function) so that $! is its own process.
printf 'owner exits' > $T/owner.txt
"${owner[@]}" < $T/owner.txt >/dev/null 2>&1 & OP=$!
for i in $(seq 200); do [ "$($bin/pbpaste)" = "owner exits" ] && break; sleep 0.1; done
check "the owner's copy is imported" "$($bin/pbpaste)" "owner exits"
# SIGKILL: the owner dies without a word (and SIGTERM may be blocked in a test runner's children).
kill -9 $OP; wait $OP 2>/dev/null
kill -0 $OP 2>/dev/null && fail "the owner exited" "still running" || ok "the owner exited"
until_paste 'owner exits'
check "data outlives its owner" "$(paste)" "owner exits"
grep -q "msg=published changeCount=$($bin/pbpaste --change-count)" $T/bridge.log && ok "the bridge took the clipboard when the owner went" || fail "the bridge took the clipboard when the owner went" "$(tail -3 $T/bridge.log)"

# 4. Types go through the type engine both ways.
head -c 3000 /dev/urandom > $T/image.png
copy_type image/png < $T/image.png
for i in $(seq 200); do $bin/pbpaste --types | grep -q public.png && break; sleep 0.1; done
check "image/png becomes public.png" "$($bin/pbpaste --types)" "public.png"
$bin/pbpaste --type public.image > $T/image.out
cmp -s $T/image.png $T/image.out && ok "image bytes intact desktop -> pasteboard" || fail "image bytes intact desktop -> pasteboard" "differ"
printf 'package' | $bin/pbcopy --type com.example.undeclared-package
for i in $(seq 100); do [ "$(paste_type com.example.undeclared-package)" = "package" ] && break; sleep 0.2; done
check "an undeclared type is offered under its identifier" "$(paste_type com.example.undeclared-package)" "package"
$bin/pbcopy --type public.png < $T/image.png
for i in $(seq 100); do paste_type image/png > $T/image.back; cmp -s $T/image.png $T/image.back && break; sleep 0.2; done
cmp -s $T/image.png $T/image.back && ok "public.png offered as image/png" || fail "public.png offered as image/png" "differ"

# 5. localOnly is kept off the desktop; expiry withdraws.
printf 'visible' | $bin/pbcopy; until_paste 'visible'
# A local-only copy must never reach the desktop: given time to (wrongly) do so, it is not pasted.
printf 'secret' | $bin/pbcopy --local-only; sleep 1
got=$(paste); [ "$got" != "secret" ] && ok "localOnly not published" || fail "localOnly not published" "the desktop pasted it"
# Polled, not slept: under load publishing can take longer than a short expiry (a fixed 0.3 s
# wait against a 0.5 s expiry failed on a busy machine). 6 s to live, seen within 5 s, gone by 20 s.
printf 'short-lived' | $bin/pbcopy --expires 6
got=""; for i in $(seq 50); do got=$(paste); [ "$got" = "short-lived" ] && break; sleep 0.1; done
check "expiring copy published" "$got" "short-lived"
for i in $(seq 200); do got=$(paste); [ "$got" != "short-lived" ] && break; sleep 0.1; done
[ "$got" != "short-lived" ] && ok "expired copy withdrawn" || fail "expired copy withdrawn" "still pasted"

# 6. 16 MiB both ways (X11: INCR transfers), byte for byte.
head -c 16777216 /dev/urandom | base64 -w0 | head -c 16777216 > $T/big
# Polled, not slept on: on a loaded machine the bridge may publish later than 0.5 s (seen in CI).
$bin/pbcopy < $T/big
for i in $(seq 100); do paste > $T/big.out; cmp -s $T/big $T/big.out && break; sleep 0.2; done
cmp -s $T/big $T/big.out && ok "16 MiB pasteboard -> desktop" || fail "16 MiB pasteboard -> desktop" "$(stat -c%s $T/big.out) bytes"
copy < $T/big
for i in $(seq 100); do $bin/pbpaste | cmp -s - $T/big && break; sleep 0.2; done
$bin/pbpaste | cmp -s - $T/big && ok "16 MiB desktop -> pasteboard" || fail "16 MiB desktop -> pasteboard" "differ"

kill $DP
for i in $(seq 200); do kill -0 $DP 2>/dev/null || break; sleep 0.1; done
if kill -0 $DP 2>/dev/null; then status=timeout; kill -9 $DP; else wait $DP; status=$?; fi
[ $status = 0 ] && ok "SIGTERM stops the bridge cleanly" || fail "SIGTERM stops the bridge cleanly" "status $status"
DP=
grep -q 'level=error' $T/bridge.log && fail "no errors logged" "$(grep level=error $T/bridge.log | head -3)" || ok "no errors logged"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
