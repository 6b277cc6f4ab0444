#!/usr/bin/env bash
# Nearby between real processes on three hosts in network namespaces (../shared/nearby/lab.sh):
# pairing by comparing digits (found by name), a send into an app's Inbox, a stranger refused, kill -9 of the sender and
# of the receiver in the middle of a rate-limited transfer followed by a retry, and the fence
# that counts packets addressed outside the lab. Prints key=value lines for NearbyLabTests.
#   lab-session.sh NEARBY LAB_SH WORK     (WORK holds device roots A, B, C made by the test)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3
export LAB=${LAB:-dtn} LAB_NET=${LAB_NET:-10.214.0}
# No system bus: discovery through avahi-daemon would otherwise reach a daemon on the machine's
# own bus (the lab's namespaces share its file system) and announce on the machine's network; the
# lab's nearby uses its built-in responder, as the fence expects.
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/nearby-lab/system_bus_socket
lab() { bash "$LABSH" "$@"; }
at() { local h=$1; shift; lab exec "$h" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid (kill -9 reaches it).
bg_at() { exec bash "$LABSH" exec "$@"; }
H2=$(lab addr h2)
source "$(dirname "$0")/lab-user.sh"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; lab down >/dev/null 2>&1 || true; }
trap cleanup EXIT
lab up >/dev/null
lab fence reset >/dev/null
# Waits (bounded) until FILE holds a line containing TEXT.
wait_for() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2; return 1; }
json_field() { python3 -c 'import json,sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if sys.argv[2] in d: print(d[sys.argv[2]]); break' "$1" "$2"; }

# Pairing by comparing digits, as two people do: h2 waits (findable by its name meanwhile), h1
# pairs with "h2" by name (no address given); each side's six digits are read from its --json
# output and, when they are the same, confirmed on both through standard input.
mkfifo "$WORK/a.in" "$WORK/b.in"
bg_at h2 "${AS_USER[@]}" "$NEARBY" pair --wait --root "$WORK/B" --name h2 --port 53401 --interface eth0 --json < "$WORK/b.in" > "$WORK/wait.out" 2>&1 &
WAITER=$!; pids+=($WAITER)
exec 7>"$WORK/b.in"
wait_for "$WORK/wait.out" '"waiting"'
# Meanwhile anyone sees a device waiting to pair, by its name.
at h3 "${AS_USER[@]}" "$NEARBY" list --root "$WORK/C" --interface eth0 --json > "$WORK/list-waiting.out"
echo "h3_sees_waiting=$(python3 -c 'import json,sys
print(",".join(d["name"] + "@" + d["inReach"] for d in json.load(open(sys.argv[1])) if d.get("waitingToPair")))' "$WORK/list-waiting.out")"
bg_at h1 "${AS_USER[@]}" "$NEARBY" pair h2 --root "$WORK/A" --name h1 --interface eth0 --json < "$WORK/a.in" > "$WORK/pair.out" 2>&1 &
PAIRER=$!; pids+=($PAIRER)
exec 8>"$WORK/a.in"
wait_for "$WORK/pair.out" '"compare"'
wait_for "$WORK/wait.out" '"compare"'
DIGITS_A=$(json_field "$WORK/pair.out" digits) DIGITS_B=$(json_field "$WORK/wait.out" digits)
echo "digits_h1=$DIGITS_A"
echo "digits_h2=$DIGITS_B"
if [ -n "$DIGITS_A" ] && [ "$DIGITS_A" = "$DIGITS_B" ]; then echo y >&7; echo y >&8; else echo n >&7; echo n >&8; fi
exec 7>&- 8>&-
wait "$PAIRER" && echo "pair_status=0" || echo "pair_status=$?"
wait "$WAITER" && echo "show_status=0" || echo "show_status=$?"

start_receiver() {
  local before; before=$(grep -c '"listening"' "$WORK/recv.out" 2>/dev/null || true)
  # Not the port paired at (53400): the senders find this one by discovery (DNS-SD, the pair's tag).
  bg_at h2 "${AS_USER[@]}" "$NEARBY" receive --root "$WORK/B" --mode paired --port 53500 --json --no-launch --downloads "$WORK/B/Downloads" >> "$WORK/recv.out" 2>&1 &
  RECEIVER=$!; pids+=($RECEIVER)
  # This start's "listening" (the file keeps the earlier ones).
  for _ in $(seq 200); do [ "$(grep -c '"listening"' "$WORK/recv.out")" -gt "${before:-0}" ] && return 0; sleep 0.05; done
  echo "the receiver did not start" >&2; cat "$WORK/recv.out" >&2; return 1
}
: > "$WORK/recv.out"
start_receiver
# Who runs it: the test user, not root.
echo "receiver_uid=$(stat -c %u "/proc/$RECEIVER")"

# Discovery: h1 (paired) sees h2 in reach at its port, and ends as soon as it has (a 10 s
# timeout it must not wait out); h3 (not paired) recognises nothing.
list_start=$(date +%s%N)
at h1 "${AS_USER[@]}" "$NEARBY" list --root "$WORK/A" --timeout 10 --json > "$WORK/list-h1.out" 2>&1
echo "list_ms=$(( ($(date +%s%N) - list_start) / 1000000 ))"
at h3 "${AS_USER[@]}" "$NEARBY" list --root "$WORK/C" --json > "$WORK/list-h3.out" 2>&1
echo "h1_sees_h2_at=$(grep -o '"inReach":"[^"]*"' "$WORK/list-h1.out" | head -1 | sed 's/.*:"//; s/"//')"
echo "h3_sees=$(cat "$WORK/list-h3.out")"
echo "h1_sees_h2_accepts=$(grep -o '"accepts":"[^"]*"' "$WORK/list-h1.out" | head -1 | sed 's/.*:"//; s/"//')"
# A send into the notes app, by the paired name.
set +e
at h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/notes.txt" --to h2 --app com.example.notes --from com.example.mail --root "$WORK/A" --json > "$WORK/send1.out" 2>&1
echo "send_status=$?"
# A stranger (h3 never paired) sending by address with h2's pin: refused in the handshake.
FP=$(at h2 "${AS_USER[@]}" "$NEARBY" identity --root "$WORK/B" --json | json_field /dev/stdin fingerprint)
at h3 "${AS_USER[@]}" "$NEARBY" send "$WORK/notes.txt" --to "$H2:53500" --fingerprint "$FP" --root "$WORK/C" --json > "$WORK/stranger.out" 2>&1
echo "stranger_status=$?"
set -e

# kill -9 of the sender halfway through a rate-limited 48 MiB send, then the same send again.
lab rate h1 80mbit
head -c $((48 << 20)) /dev/urandom > "$WORK/big.txt"
bg_at h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send2.out" 2>&1 & SENDER=$!
for _ in $(seq 400); do
  size=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' 2>/dev/null | head -1)
  [ "${size:-0}" -ge $((12 << 20)) ] && break; sleep 0.05
done
kill -9 "$SENDER"; wait "$SENDER" 2>/dev/null || true
echo "killed_sender_at=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' | head -1)"
# kill -9 of the receiver too, a little later in the retried send; then it starts again.
bg_at h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send3.out" 2>&1 & SENDER=$!
for _ in $(seq 400); do
  size=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' 2>/dev/null | head -1)
  [ "${size:-0}" -ge $((28 << 20)) ] && break; sleep 0.05
done
kill -9 "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true
echo "killed_receiver_at=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' | head -1)"
set +e; wait "$SENDER"; echo "interrupted_send_status=$?"; set -e
start_receiver
lab clear h1
set +e
at h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send4.out" 2>&1
echo "resumed_send_status=$?"
set -e
# Stopped by SIGTERM (as systemd stops it), the receiver withdraws its announcement with goodbyes:
# a browser on h1 (the probe beside nearby) sees the instance removed at once, not when its TTL ends.
bg_at h1 "${AS_USER[@]}" "$(dirname "$NEARBY")/mdns-probe" browse --interface eth0 --duration 30 > "$WORK/browse.out" 2>&1 & BROWSER=$!; pids+=($BROWSER)
for _ in $(seq 200); do grep -q '"added"' "$WORK/browse.out" 2>/dev/null && break; sleep 0.05; done
stopped_at=$(date +%s.%N)
kill -TERM "$RECEIVER"
set +e; wait "$RECEIVER"; echo "receiver_sigterm_status=$?"; set -e
for _ in $(seq 500); do grep -q '"removed"' "$WORK/browse.out" 2>/dev/null && break; sleep 0.02; done
echo "goodbye_seen_ms=$(grep -q '"removed"' "$WORK/browse.out" && python3 -c "import sys,time; print(int((time.time() - float(sys.argv[1])) * 1000))" "$stopped_at" || echo none)"
kill "$BROWSER" 2>/dev/null || true
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
