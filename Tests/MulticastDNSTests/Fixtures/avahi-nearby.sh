#!/usr/bin/env bash
# The nearby tool discovering through avahi-daemon in the lab (../shared/nearby/lab.sh): h1 and
# h2 each run a private dbus-daemon and avahi-daemon (avahi-daemons.sh), and nearby reaches them
# through DBUS_SYSTEM_BUS_ADDRESS. h1 pairs with h2, then `nearby receive` in h1 announces itself
# through h1's daemon on a port other than the one it was paired at, so that h2's `nearby list`
# and `nearby send --to h1`, browsing through h2's daemon, can only have found it by discovery.
# Prints key=value lines for MulticastDNSLabTests.
#   avahi-nearby.sh NEARBY PROBE LAB_SH WORK     (WORK holds device roots A and B made by the test)
set -euo pipefail
NEARBY=$1 PROBE=$2 LABSH=$3 WORK=$4
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dav} LAB_NET=${LAB_NET:-10.219.0}
lab() { bash "$LABSH" "$@"; }
at() { local h=$1; shift; lab exec "$h" "$@"; }
bg_at() { exec bash "$LABSH" exec "$@"; }
pids=()
BUSES=$(mktemp -d /tmp/dav-bus.XXXXXX)
# nearby runs as the test user and reaches the buses here.
chmod 755 "$BUSES"
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  lab down >/dev/null 2>&1 || true
  rm -rf "$BUSES"
}
trap cleanup EXIT
wait_for() {
  for _ in $(seq "${3:-200}"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2 2>/dev/null || true; return 1
}
json_field() { python3 -c 'import json,sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if sys.argv[2] in d: print(d[sys.argv[2]]); break' "$1" "$2"; }
ms() { python3 -c "print(round(1000 * ($1 - $2)))"; }

lab up >/dev/null
lab fence reset >/dev/null
H1=$(lab addr h1)
source "$HERE/avahi-daemons.sh"
source "$HERE/../../NearbyTests/Fixtures/lab-user.sh"
A1=$(start_daemons h1); pids+=($A1)
A2=$(start_daemons h2); pids+=($A2)
wait_for "$WORK/avahi-h1.out" 'Server startup complete' 1200 || true
wait_for "$WORK/avahi-h2.out" 'Server startup complete' 1200 || true
pids+=("$(cat "$BUSES/h1/bus.pid")" "$(cat "$BUSES/h2/bus.pid")")
BUS1="unix:path=$BUSES/h1/socket" BUS2="unix:path=$BUSES/h2/socket"

# Pairing: h1 shows a code, h2 types it (by address: no discovery in pairing).
bg_at h1 "${AS_USER[@]}" "$NEARBY" pair --show-code --root "$WORK/A" --name h1 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
wait_for "$WORK/show.out" '"code"'
CODE=$(json_field "$WORK/show.out" code)
at h2 "${AS_USER[@]}" "$NEARBY" pair h1 --code "$CODE" --to "$H1:53401" --root "$WORK/B" --name h2 --json > "$WORK/pair.out" 2>&1
echo "pair_status=$?"
wait "${pids[-1]}" && echo "show_status=0" || echo "show_status=$?"

# The receiver in h1, announcing through h1's avahi-daemon, on a port it was not paired at.
bg_at h1 "${AS_USER[@]}" DBUS_SYSTEM_BUS_ADDRESS="$BUS1" "$NEARBY" receive --root "$WORK/A" --mode paired --port 53500 --interface eth0 --json \
  --no-launch --downloads "$WORK/A/Downloads" > "$WORK/recv.out" 2>&1 & R=$!; pids+=($R)
wait_for "$WORK/recv.out" '"listening"'
listening=$(date +%s.%N)
echo "udp5353_h1=$(udp5353 h1)"
# What the receiver's announcement looks like from h3 (our built-in browser, no daemon there; 5 s
# bounds a hang: a loaded fresh-clone CI saw nothing within 2 s):
# the host label is nearby's random one, not the daemon's host name.
at h3 "${AS_USER[@]}" "$PROBE" lookup --backend built-in --interface eth0 --type _di-nearby._tcp --timeout 5 > "$WORK/lookup-h3.out" 2>&1 || true
echo "announced_host=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    for s in d.get("services", []): print(s["host"], s["port"])' "$WORK/lookup-h3.out")"

# h2 finds h1 through h2's daemon: in reach at the receiver's port, and a send by name.
t0=$(date +%s.%N)
at h2 "${AS_USER[@]}" DBUS_SYSTEM_BUS_ADDRESS="$BUS2" "$NEARBY" list --root "$WORK/B" --interface eth0 --json > "$WORK/list.out" 2>&1 || true
echo "list_ms=$(ms "$(date +%s.%N)" "$t0")"
echo "h2_sees_h1_at=$(grep -o '"inReach":"[^"]*"' "$WORK/list.out" | head -1 | sed 's/.*:"//; s/"//')"
set +e
t0=$(date +%s.%N)
at h2 "${AS_USER[@]}" DBUS_SYSTEM_BUS_ADDRESS="$BUS2" "$NEARBY" send "$WORK/notes.txt" --to h1 --app com.example.notes --from com.example.mail \
  --root "$WORK/B" --interface eth0 --json > "$WORK/send.out" 2>&1
echo "send_status=$?"
echo "send_ms=$(ms "$(date +%s.%N)" "$t0")"
set -e
echo "received=$(cmp -s "$WORK/notes.txt" "$WORK/A/Containers/com.example.notes/Documents/Inbox/notes.txt" && echo intact || echo missing)"
kill -TERM "$R" 2>/dev/null || true; wait "$R" 2>/dev/null || true
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
