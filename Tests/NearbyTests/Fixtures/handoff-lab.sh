#!/usr/bin/env bash
# Handoff between real processes on three hosts in network namespaces (../shared/nearby/lab.sh):
# h1 (device A) and h2 (device B) pair with a one-time code; A's receiver runs in paired mode; an
# app on A (handoff-probe, as com.example.notes) makes an activity current and resigns it ROUNDS
# times while B watches (`nearby activities --watch`, A found by discovery), each change timed
# from the command to B's line; then the app is killed with SIGKILL while current. Then seed 002's
# contacts list: B continues it and receives the list over continuation streams. h3 (device C,
# not paired) asks A for its activities and is refused. tcpdump on the lab's switch captures
# everything: no byte of the activity (its type, title, userInfo) may cross in the clear.
# Prints key=value lines for HandoffLabTests.
#   handoff-lab.sh NEARBY PROBE LAB_SH WORK [ROUNDS]   (WORK holds device roots A, B, C made by the test)
set -euo pipefail
NEARBY=$1 PROBE=$2 LABSH=$3 WORK=$4 ROUNDS=${5:-20}
source "$(dirname "$0")/lab-user.sh"
export LAB=${LAB:-dho} LAB_NET=${LAB_NET:-10.224.0}
# No system bus: nearby would otherwise announce through the machine's avahi-daemon (lab-session.sh).
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/nearby-lab/system_bus_socket
lab() { bash "$LABSH" "$@"; }
bg_at() { exec bash "$LABSH" exec "$@"; }
now() { date +%s%N; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; lab down >/dev/null 2>&1 || true; }
trap cleanup EXIT
wait_for() { for _ in $(seq "${3:-200}"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2; return 1; }
lab up >/dev/null
lab fence reset >/dev/null

# Everything that crosses the switch, from before the pairing to the end.
ip netns exec "$LAB-sw" tcpdump -i br0 -U -s 0 -w "$WORK/capture.pcap" > "$WORK/tcpdump.out" 2>&1 &
CAPTURE=$!; pids+=($CAPTURE)
wait_for "$WORK/tcpdump.out" 'listening on'

# Pairing with a one-time code: A shows it, B types it.
bg_at h1 "${AS_USER[@]}" "$NEARBY" pair --show-code --root "$WORK/A" --name h1 --port 53401 --interface eth0 --json > "$WORK/show.out" 2>&1 &
SHOW=$!; pids+=($SHOW)
wait_for "$WORK/show.out" '"code"'
CODE=$(python3 -c 'import json,sys
print(next(json.loads(l)["code"] for l in open(sys.argv[1]) if "\"code\"" in l))' "$WORK/show.out")
lab exec h2 "${AS_USER[@]}" "$NEARBY" pair h1 --code "$CODE" --root "$WORK/B" --name h2 --interface eth0 --json > "$WORK/pair.out" 2>&1 && st=0 || st=$?
wait "$SHOW" && show=0 || show=$?
echo "pair_status=$st/$show"

# A's receiver (paired mode), and B watching every paired device in reach.
bg_at h1 "${AS_USER[@]}" "$NEARBY" receive --root "$WORK/A" --mode paired --name h1 --port 53500 --interface eth0 --json --no-launch > "$WORK/recv.out" 2>&1 &
pids+=($!)
wait_for "$WORK/recv.out" '"listening"'
( bash "$LABSH" exec h2 "${AS_USER[@]}" "$NEARBY" activities --watch --root "$WORK/B" --interface eth0 --timeout 10 --json 2>"$WORK/watch.err" \
    | while IFS= read -r line; do printf '%s %s\n' "$(now)" "$line"; done > "$WORK/watch.out" ) &
pids+=($!)
wait_for "$WORK/watch.out" '"activities"' 400

# The app on A: current at its start; told to resign and to become current again through a FIFO.
mkfifo "$WORK/probe.in"
(cd "$WORK" && DI_BUNDLE_IDENTIFIER=com.example.notes DOCUMENT_INTERCHANGE_ROOT="$WORK/A" bg_at h1 "${AS_USER[@]}" "$PROBE" com.example.notes.editing 600) \
  < "$WORK/probe.in" > "$WORK/probe.out" 2> "$WORK/probe.err" &
PROBE_PID=$!; pids+=($PROBE_PID)
exec 7>"$WORK/probe.in"
wait_for "$WORK/probe.out" 'current'

# Waits for B's next line after line N that holds offers (want=some) or none (want=none); prints
# the time it arrived, in ns.
seen_after() {
  local n=$1 want=$2
  for _ in $(seq 1000); do
    local t; t=$(python3 - "$WORK/watch.out" "$n" "$want" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
for line in lines:
    stamp, text = line.split(" ", 1)
    offers = json.loads(text).get("offers", [])
    if (sys.argv[3] == "some") == (len(offers) > 0 and offers[0]["activityType"] == "com.example.notes.editing"):
        print(stamp); break
PY
)
    if [ -n "$t" ]; then echo "$t"; return 0; fi
    sleep 0.01
  done
  return 1
}
wait_lines() { wc -l < "$WORK/watch.out"; }
seen_after 0 some > /dev/null
: > "$WORK/offer-ms"; : > "$WORK/withdraw-ms"
for i in $(seq "$ROUNDS"); do
  n=$(wait_lines); t0=$(now); echo resign >&7
  t1=$(seen_after "$n" none) && echo $(( (t1 - t0) / 1000000 )) >> "$WORK/withdraw-ms"
  n=$(wait_lines); t0=$(now); echo again >&7
  t1=$(seen_after "$n" some) && echo $(( (t1 - t0) / 1000000 )) >> "$WORK/offer-ms"
done
# Killed while current: withdrawn with its process.
n=$(wait_lines); t0=$(now); kill -9 "$PROBE_PID"
t1=$(seen_after "$n" none) && echo "killed_withdrawn_ms=$(( (t1 - t0) / 1000000 ))" || echo "killed_withdrawn_ms=never"
exec 7>&-

# Seed 002: A's contacts list is current (the Contacts sample, 2000 contacts); B continues it:
# `nearby continue` launches B's Contacts, which asks for continuation streams and receives the
# whole list archived; A's app is told it was continued and streams it. B's app finds the
# `nearby` helper on its PATH.
mkfifo "$WORK/contacts.in"
(cd "$WORK" && DI_BUNDLE_IDENTIFIER=com.example.contacts DOCUMENT_INTERCHANGE_ROOT="$WORK/A" bg_at h1 "${AS_USER[@]}" "$WORK/A/Apps/Contacts.app/bin/contacts" publish 2000) \
  < "$WORK/contacts.in" > "$WORK/contacts-a.out" 2> "$WORK/contacts-a.err" &
pids+=($!)
exec 8>"$WORK/contacts.in"
wait_for "$WORK/contacts-a.out" 'current'
lab exec h2 "${AS_USER[@]}" PATH="$(dirname "$NEARBY"):$PATH" "$NEARBY" continue h1 --type com.example.contacts.list-contacts --root "$WORK/B" \
  --interface eth0 --timeout 10 --json > "$WORK/continue.out" 2> "$WORK/continue.err" && st=0 || st=$?
echo "continue_status=$st"
echo "continue_event=$(grep '"continued"' "$WORK/continue.out" | head -1)"
B_LOG="$WORK/B/Containers/com.example.contacts/Library/launch.log" A_LOG="$WORK/A/Containers/com.example.contacts/Library/launch.log"
wait_for "$B_LOG" 'Contacts: received\|Contacts: no streams\|ended with an error' 600 || true
wait_for "$A_LOG" 'Contacts: streamed' 200 || true
echo "b_received=$(grep -o 'received [0-9]* contacts ([0-9]* bytes), the first [A-Za-z0-9 ]*' "$B_LOG" 2>/dev/null | head -1)"
echo "b_problem=$(grep -e 'no streams' -e 'ended with an error' -e 'did not unarchive' "$B_LOG" 2>/dev/null | head -1)"
echo "a_told=$(grep -c 'was continued on another device' "$A_LOG" 2>/dev/null || true)"
echo "a_streamed=$(grep -o 'streamed [0-9]* contacts ([0-9]* bytes); the other device answered [a-z ]*' "$A_LOG" 2>/dev/null | head -1)"
exec 8>&-

# C, not paired with A, asks for A's activities by address and A's fingerprint.
FP_A=$(lab exec h1 "${AS_USER[@]}" "$NEARBY" identity --root "$WORK/A" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fingerprint"])')
lab exec h3 "${AS_USER[@]}" "$NEARBY" activities "$(lab addr h1):53500" --fingerprint "$FP_A" --root "$WORK/C" --json > "$WORK/c.out" 2>&1 && st=0 || st=$?
echo "unpaired_status=$st"
grep -q 'not paired there' "$WORK/c.out" && echo "unpaired_refused=yes" || echo "unpaired_refused=no"
grep -q 'com.example.notes.editing' "$WORK/c.out" && echo "unpaired_saw_offer=yes" || echo "unpaired_saw_offer=no"

# SIGTERM, not SIGINT: a background job of a script starts with SIGINT ignored.
sleep 0.5
kill -TERM "$CAPTURE"
for _ in $(seq 100); do kill -0 "$CAPTURE" 2>/dev/null || break; sleep 0.05; done
kill -9 "$CAPTURE" 2>/dev/null || true
echo "capture_packets=$(tcpdump -r "$WORK/capture.pcap" -n 2>/dev/null | wc -l)"
echo "capture_to_receiver=$(tcpdump -r "$WORK/capture.pcap" -n 'tcp port 53500' 2>/dev/null | wc -l)"
# The activity's type, title and a userInfo string, anywhere in any packet (headers and payloads).
echo "capture_markers=$(tcpdump -r "$WORK/capture.pcap" -n -A 2>/dev/null | grep -c -e 'com.example.notes.editing' -e 'Ada Lovelace' -e 'Contacts' || true)"

python3 - "$WORK" "$ROUNDS" <<'PY'
import sys
work, rounds = sys.argv[1], int(sys.argv[2])
for name in ("offer", "withdraw"):
    ms = sorted(int(x) for x in open(f"{work}/{name}-ms").read().split())
    print(f"{name}_seen={len(ms)}")
    if ms:
        print(f"{name}_p50_ms={ms[len(ms) // 2]}")
        print(f"{name}_p90_ms={ms[min(len(ms) - 1, int(len(ms) * 0.9))]}")
PY
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
