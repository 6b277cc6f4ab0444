#!/usr/bin/env bash
# A real notification server for DesktopNotificationTests, and the user who answers it:
#   notification_server.sh start DIR [bus-only]   a private dbus-daemon, Xvfb on a free display and
#                                                 dunst on both (bus-only: the bus alone); prints and
#                                                 writes DIR/env (DBUS_SESSION_BUS_ADDRESS, DISPLAY)
#   notification_server.sh answer DIR HOW         waits until dunst displays a notification, then
#                                                 answers as a user would: choose LABEL (dunst's
#                                                 context menu, the action labelled LABEL), close, or
#                                                 forge KEY (other clients send ActionInvoked KEY, and
#                                                 then the user closes it)
#   notification_server.sh displayed DIR          how many notifications dunst displays
#   notification_server.sh history DIR            dunst's history (JSON): what it was sent
#   notification_server.sh stop DIR               kills what start started and removes DIR
# The daemons are started from here, detached, with their output in files and none of the test's
# descriptors, so that the test's runs of this script end when the script does. Exits 77 with
# "skip: why" when a program is missing.
set -u
command=$1; dir=$2
# Foundation's Process gives its child one end of a socket pair (not close-on-exec) and reports
# the exit only once every holder has closed it: daemons that inherit it keep the test waiting
# in waitUntilExit for as long as they run (it hung here). Only 0, 1 and 2 are ours to pass on.
for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
for program in dbus-daemon dbus-send Xvfb dunst dunstctl; do
  command -v $program >/dev/null || { echo "skip: $program is not installed"; exit 77; }
done
load() { set -a; . "$dir/env"; set +a; }

case $command in
start)
  mkdir -p "$dir"
  # No service folders: dunst ships a D-Bus service file, and the bus must not start one by
  # itself (the bus-only case must find no server; the started dunst must be the only one).
  cat > "$dir/bus.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=$dir</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
XML
  dbus-daemon --config-file="$dir/bus.conf" --fork --print-address=3 --print-pid=4 3>"$dir/address" 4>"$dir/pids" \
    >"$dir/bus.log" 2>&1 </dev/null || { echo "dbus-daemon did not start: $(tail -2 "$dir/bus.log")"; exit 1; }
  echo "DBUS_SESSION_BUS_ADDRESS=$(head -1 "$dir/address")" > "$dir/env"
  if [ "${3:-}" != bus-only ]; then
    # Xvfb picks a free display itself and writes its number (other X servers may run here).
    Xvfb -displayfd 3 -nolisten tcp 3>"$dir/display" >"$dir/xvfb.log" 2>&1 </dev/null & echo $! >> "$dir/pids"
    for i in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.05; done
    [ -s "$dir/display" ] || { echo "Xvfb did not start: $(tail -2 "$dir/xvfb.log")"; exit 1; }
    echo "DISPLAY=:$(cat "$dir/display")" >> "$dir/env"
    # The user's menu is this script's choose (dunst pipes it one line per action and reads back
    # the chosen line); critical notifications stay until answered, as dunst's own default has it.
    cat > "$dir/dunstrc" <<INI
[global]
    font = Monospace 8
    markup = full
    dmenu = /bin/bash $0 choose $dir
[urgency_critical]
    timeout = 0
INI
    load
    HOME=$dir dunst -config "$dir/dunstrc" >"$dir/dunst.log" 2>&1 </dev/null & echo $! >> "$dir/pids"
    for i in $(seq 200); do
      dbus-send --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
        string:org.freedesktop.Notifications 2>/dev/null | grep -q true && break
      sleep 0.05
    done
    dunstctl count displayed >/dev/null 2>&1 || { echo "dunst did not start: $(tail -3 "$dir/dunst.log")"; exit 1; }
  fi
  cat "$dir/env"
  ;;
choose)
  # Called by dunst as its dmenu: prints the line of the action whose label is in DIR/choice.
  label=$(cat "$dir/choice")
  grep -m1 "^#$label (" || true
  ;;
answer)
  load
  how=$3; value=${4:-}
  # Up to 60 s: a loaded machine (a release build beside the suite) was seen taking over 10.
  for i in $(seq 1200); do [ "$(dunstctl count displayed 2>/dev/null)" = 1 ] && break; sleep 0.05; done
  [ "$(dunstctl count displayed)" = 1 ] || { echo "no notification was displayed"; exit 1; }
  case $how in
    choose) printf '%s' "$value" > "$dir/choice"; dunstctl action 0 ;;
    close) dunstctl close ;;
    forge)
      # Other clients answer for the user: a broadcast ActionInvoked, and one sent to every
      # connection on the bus, for the first ids a fresh dunst gives (it numbers from 1, and its
      # first notification here had id 2).
      names=$(dbus-send --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames | grep -o ':[0-9.]*')
      for id in $(seq 20); do
        dbus-send --type=signal /org/freedesktop/Notifications org.freedesktop.Notifications.ActionInvoked uint32:$id string:$value
        for name in $names; do
          dbus-send --type=signal --dest=$name /org/freedesktop/Notifications org.freedesktop.Notifications.ActionInvoked uint32:$id string:$value 2>/dev/null
        done
      done
      sleep 0.3
      dunstctl close ;;
  esac
  ;;
displayed) load; dunstctl count displayed ;;
history) load; dunstctl history ;;
stop)
  for pid in $(cat "$dir/pids" 2>/dev/null); do kill -9 $pid 2>/dev/null; done
  rm -rf "$dir"
  ;;
esac
