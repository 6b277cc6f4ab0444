#!/usr/bin/env bash
# openin's desktop dialog and the file managers' "Open In…" and "Send to Nearby Device…" actions,
# as installed by scripts/install, on a real X server (Xvfb) with the real zenity and kdialog driven by xdotool:
#   openin_dialog_check.sh PACKAGE_ROOT BIN_DIR [SCREENSHOT.png]
# Prints "ok NAME" or "FAIL NAME: why" per check and "passed N failed M"; exits 77 with
# "skip: why" when a program it needs is missing. Each action is started as its file manager
# starts it: Nautilus's script with the files as arguments in their folder, Dolphin's service
# menu and the desktop entry by their Exec= line (the entry through the real `gio launch`),
# Thunar's action by its <command> with %F expanded to quoted paths. None has a terminal.
set -u
pkg=$1; bin=$2; shot=${3:-}
for program in Xvfb zenity kdialog xdotool gio python3 desktop-file-validate; do
  command -v $program >/dev/null || { echo "skip: $program is not installed"; exit 77; }
done
T=$(mktemp -d)
passed=0; failed=0
ok() { echo "ok $1"; passed=$((passed+1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed+1)); }
check() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected [$3], got [$2]"; fi; }
cleanup() { for p in ${SERVER:-} ${RECEIVER:-}; do kill -9 $p 2>/dev/null; done; wait 2>/dev/null; rm -rf $T; }
trap cleanup EXIT

Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 3>$T/display >$T/server.log 2>&1 < /dev/null & SERVER=$!
for i in $(seq 50); do [ -s $T/display ] && break; sleep 0.1; done
[ -s $T/display ] || { echo "skip: Xvfb did not start: $(tail -2 $T/server.log)"; exit 77; }
export DISPLAY=:$(cat $T/display); unset WAYLAND_DISPLAY
# A user of our own, with this machine's desktop applications (the dialog programs need the
# system's XDG data folders: icons, the MIME database) and no session bus.
mkdir -p $T/home $T/rt; chmod 700 $T/rt
export HOME=$T/home XDG_CURRENT_DESKTOP=GNOME XDG_RUNTIME_DIR=$T/rt LANG=C.UTF-8
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_DATA_DIRS DBUS_SESSION_BUS_ADDRESS
# The dialog programs through wrappers that note each command line (what was shown), then run
# the real program (the window's process is still the program itself).
mkdir -p $T/bin
for p in zenity kdialog; do
  printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> %s/%s.log\nexec /usr/bin/%s "$@"\n' "$T" "$p" "$p" > $T/bin/$p
  chmod +x $T/bin/$p
done
export PATH=$T/bin:$PATH
shown() { for i in $(seq 30); do grep -q -- "$2" $T/$1.log 2>/dev/null && break; sleep 0.1; done; grep -c -- "$2" $T/$1.log 2>/dev/null; }
cp -R "$pkg/Samples" $T/root; rm -rf $T/root/registry.bin $T/root/Containers
export DOCUMENT_INTERCHANGE_ROOT=$T/root
requests() { ls $T/root/Containers/com.example.files/Library/OpenRequests 2>/dev/null | wc -l; }

# A Thunar user with an action of their own, which the install keeps.
mkdir -p $HOME/.config/Thunar
cat > $HOME/.config/Thunar/uca.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<actions>
<action><icon>utilities-terminal</icon><name>Open Terminal Here</name><unique-id>1234-1</unique-id><command>exo-open --working-directory %f --launch TerminalEmulator</command><description>mine</description><patterns>*</patterns><startup-notify/><directories/></action>
</actions>
XML
for run in 1 2; do  # twice: installing again replaces our action, never adds a second one
  bash "$pkg/scripts/install" --prefix $T/prefix --built "$bin" > $T/install.log 2>&1 || { fail install "$(tail -3 $T/install.log)"; exit 1; }
done
ok install
entry=$T/prefix/share/applications/org.document-interchange.openin.desktop
menu=$T/prefix/share/kio/servicemenus/openin.desktop
script="$HOME/.local/share/nautilus/scripts/Open In…"
check "desktop entry is valid" "$(desktop-file-validate $entry 2>&1)" ""
check "nearby desktop entry is valid" "$(desktop-file-validate $T/prefix/share/applications/org.document-interchange.nearby.desktop 2>&1)" ""
check "service menu is executable" "$([ -x $menu ] && echo yes)" yes
check "nautilus script is executable" "$([ -x "$script" ] && echo yes)" yes
check "thunar keeps the user's action and has ours once" "$(python3 - $HOME/.config/Thunar/uca.xml <<'PY'
import sys, xml.etree.ElementTree as ET
ids = [a.findtext("unique-id") for a in ET.parse(sys.argv[1]).getroot().findall("action")]
print(" ".join(ids))
PY
)" "1234-1 org.document-interchange.openin org.document-interchange.nearby"

doc=$T/root/Documents/file.person
# The row of Files (registered, opens in place, no launch command) as the sheet numbers it here:
# the machine's desktop applications may come before it.
row=$("$T/prefix/bin/openin" --list $doc | sed -n 's/^ *\([0-9][0-9]*\) .* com\.example\.files .*/\1/p')
[ -n "$row" ] || { fail "sheet" "com.example.files is not in the sheet: $("$T/prefix/bin/openin" --list $doc)"; exit 1; }
downs=$((row - 1))

# choose NAME DOWNS KEY [TITLE [PROGRAM]]: waits for the dialog titled TITLE (default "Open In"),
# of PROGRAM when given, notes which program shows it, presses Down DOWNS times (the first row
# has the cursor) and then KEY.
choose() {
  local wid="" w
  for _ in $(seq 300); do
    for w in $(xdotool search --name "^${4:-Open In}" 2>/dev/null); do
      # PROGRAM, when given: that program's window only (under load a message of the action
      # before, titled the same, can still be on screen).
      [ -n "${5:-}" ] && [ "$(cat /proc/$(xdotool getwindowpid $w 2>/dev/null)/comm 2>/dev/null)" != "$5" ] && continue
      wid=$w; break
    done
    [ -n "$wid" ] && break; sleep 0.1
  done
  [ -n "$wid" ] || { fail "$1" "no dialog appeared"; return 1; }
  cat /proc/$(xdotool getwindowpid $wid)/comm > $T/$1.program 2>/dev/null
  sleep 0.5
  xdotool windowfocus --sync $wid 2>/dev/null
  if [ -n "$shot" ]; then import -window root "$shot"; shot=""; fi
  # (xdotool reports a BadWindow when the window closes as the last key reaches it.)
  for i in $(seq $2); do xdotool key --window $wid Down 2>>$T/xdotool.log; done
  xdotool key --window $wid $3 2>>$T/xdotool.log
}
# finished NAME: the action's exit status, once it has ended (30 s at most).
finished() {
  for i in $(seq 300); do [ -s $T/$1.status ] && break; sleep 0.1; done
  cat $T/$1.status 2>/dev/null || echo "still running"
}

# Nautilus: the script with the selected files as arguments, in their folder; zenity on GNOME.
(cd $T/root/Documents && "$script" file.person </dev/null >$T/nautilus.out 2>$T/nautilus.err; echo $? > $T/nautilus.status) &
choose nautilus $downs Return
check "nautilus script: zenity on GNOME" "$(cat $T/nautilus.program)" zenity
check "nautilus script: delivered" "$(finished nautilus)" 0
check "nautilus script: to Files" "$(grep -c 'opened in place by Files (com.example.files)' $T/nautilus.out)" 1
check "nautilus script: one request" "$(requests)" 1

# Dolphin on KDE: the service menu's Exec= with %F; kdialog.
exec_line=$(sed -n 's/^Exec=//p' $menu)
(export XDG_CURRENT_DESKTOP=KDE; eval "${exec_line//%F/\"$doc\"}" </dev/null >$T/dolphin.out 2>$T/dolphin.err; echo $? > $T/dolphin.status) &
choose dolphin $downs Return
check "dolphin service menu: kdialog on KDE" "$(cat $T/dolphin.program)" kdialog
check "dolphin service menu: delivered" "$(finished dolphin)" 0
check "dolphin service menu: to Files" "$(grep -c 'opened in place by Files (com.example.files)' $T/dolphin.out)" 1
check "dolphin service menu: two requests" "$(requests)" 2

# Thunar: the action's command, %F expanded into quoted paths; cancelled with Escape.
command_line=$(python3 - $HOME/.config/Thunar/uca.xml "$doc" <<'PY'
import shlex, sys, xml.etree.ElementTree as ET
action = [a for a in ET.parse(sys.argv[1]).getroot().findall("action") if a.findtext("unique-id") == "org.document-interchange.openin"][0]
print(action.findtext("command").replace("%F", shlex.quote(sys.argv[2])))
PY
)
(sh -c "$command_line" </dev/null >$T/thunar.out 2>$T/thunar.err; echo $? > $T/thunar.status) &
choose thunar 0 Escape
check "thunar action: cancelled" "$(finished thunar)" 1
check "thunar action: says so" "$(grep -c '^openin: cancelled$' $T/thunar.err)" 1
check "thunar action: nothing delivered" "$(requests)" 2

# The desktop entry, started by GIO itself (gio launch expands %F); the third row again.
gio launch $entry $doc </dev/null >$T/gio.out 2>&1
choose gio $downs Return
for i in $(seq 300); do [ "$(requests)" = 3 ] && break; sleep 0.1; done
check "desktop entry through gio launch: delivered" "$(requests)" 3

# "Send to Nearby Device…": only the paired devices are offered, and choosing one sends there with
# nearby send. The other device is a second root paired by code on loopback, its receiver on
# loopback; the pair's discovery key is removed so the send goes to the address noted, without
# looking for the device on this machine's networks (tests never browse the host's interfaces).
nb=$T/prefix/bin/nearby
number() { sed -n "s/.*\"$1\":\"\{0,1\}\([0-9]*\).*/\1/p" "$2" | head -1; }
cp -R "$pkg/Samples" $T/other; rm -rf $T/other/registry.bin $T/other/Containers $T/other/Nearby
"$nb" pair --show-code --no-discovery --root $T/other --name desk --port 0 --json > $T/show.out 2>&1 &
for i in $(seq 100); do grep -q '"code"' $T/show.out 2>/dev/null && break; sleep 0.1; done
"$nb" pair --code "$(number code $T/show.out)" --to "127.0.0.1:$(number port $T/show.out)" --root $T/root > $T/pair.out 2>&1
check "nearby: paired by code" "$?" 0
"$nb" receive --root $T/other --mode paired --listen 127.0.0.1 --port 0 --no-launch --no-discovery --json > $T/recv.out 2>&1 & RECEIVER=$!
for i in $(seq 100); do grep -q '"listening"' $T/recv.out 2>/dev/null && break; sleep 0.1; done
"$T/prefix/bin/plutil" -remove Devices.0.DiscoveryKey $T/root/Nearby/Paired.plist >/dev/null
"$T/prefix/bin/plutil" -replace Devices.0.LastAddress -string "127.0.0.1:$(number port $T/recv.out)" $T/root/Nearby/Paired.plist >/dev/null
received() { ls $T/other/Containers/*/Documents/Inbox/file*.person 2>/dev/null | wc -l; }
nearby_script="$HOME/.local/share/nautilus/scripts/Send to Nearby Device…"
(cd $T/root/Documents && "$nearby_script" file.person </dev/null >$T/nautilus-nearby.out 2>$T/nautilus-nearby.err; echo $? > $T/nautilus-nearby.status) &
choose nautilus-nearby 1 Return "Send to Nearby Device"  # one row: Down stays on it
check "nearby nautilus script: zenity, titled Send to Nearby Device" "$(cat $T/nautilus-nearby.program)" zenity
check "nearby nautilus script: sent" "$(finished nautilus-nearby)" 0
check "nearby nautilus script: says so" "$(grep -c 'sent 1 document to desk (nearby)' $T/nautilus-nearby.out)" 1
check "nearby nautilus script: received on the other device" "$(received)" 1
# What the desktop user saw while it was sent, and after: a progress window, then a message.
check "nearby nautilus script: a progress window while sending" "$(shown zenity '--progress .*Sending file.person to desk')" 1
check "nearby nautilus script: a message that it was sent" "$(shown zenity '--info .*Sent file.person to desk.')" 1
# That message closes by itself after 10 s; closed now, so that the next dialog found by its
# title is the next action's.
pkill -x zenity 2>/dev/null
for i in $(seq 50); do [ -z "$(xdotool search --name '^Send to Nearby Device' 2>/dev/null)" ] && break; sleep 0.1; done
exec_line=$(sed -n 's/^Exec=//p' $T/prefix/share/kio/servicemenus/nearby.desktop)
(export XDG_CURRENT_DESKTOP=KDE; eval "${exec_line//%F/\"$doc\"}" </dev/null >$T/dolphin-nearby.out 2>$T/dolphin-nearby.err; echo $? > $T/dolphin-nearby.status) &
choose dolphin-nearby 1 Return "Send to Nearby Device" kdialog
check "nearby service menu: kdialog on KDE" "$(cat $T/dolphin-nearby.program)" kdialog
check "nearby service menu: sent" "$(finished dolphin-nearby)" 0
check "nearby service menu: received on the other device" "$(received)" 2
check "nearby service menu: a popup that it is being sent" "$(shown kdialog '--passivepopup Sending file.person to desk')" 1
check "nearby service menu: a popup that it was sent" "$(shown kdialog '--passivepopup Sent file.person to desk.')" 1
check "nearby: nothing delivered on this device meanwhile" "$(requests)" 3

echo "passed $passed failed $failed"
[ $failed -eq 0 ]
