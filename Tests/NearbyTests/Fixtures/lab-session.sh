#!/usr/bin/env bash
# Nearby between real processes on three hosts in network namespaces (../shared/nearby/lab.sh):
# pairing with a code, a send into an app's Inbox, a stranger refused, kill -9 of the sender and
# of the receiver in the middle of a rate-limited transfer followed by a retry, and the fence
# that counts packets addressed outside the lab. Prints key=value lines for NearbyLabTests.
#   lab-session.sh NEARBY LAB_SH WORK     (WORK holds device roots A, B, C made by the test)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3
export LAB=${LAB:-dtn} LAB_NET=${LAB_NET:-10.214.0}
lab() { bash "$LABSH" "$@"; }
at() { local h=$1; shift; lab exec "$h" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid (kill -9 reaches it).
bg_at() { exec bash "$LABSH" exec "$@"; }
H2=$(lab addr h2)
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

# Pairing: h2 shows a code, h1 types it.
bg_at h2 "$NEARBY" pair --show-code --root "$WORK/B" --name h2 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
wait_for "$WORK/show.out" '"code"'
CODE=$(json_field "$WORK/show.out" code)
at h1 "$NEARBY" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --name h1 --json > "$WORK/pair.out" 2>&1
echo "pair_status=$?"
wait "${pids[-1]}" && echo "show_status=0" || echo "show_status=$?"

start_receiver() {
  local before; before=$(grep -c '"listening"' "$WORK/recv.out" 2>/dev/null || true)
  # Not the port paired at (53400): the senders find this one by discovery (DNS-SD, the pair's tag).
  bg_at h2 "$NEARBY" receive --root "$WORK/B" --mode paired --port 53500 --json --no-launch --downloads "$WORK/B/Downloads" >> "$WORK/recv.out" 2>&1 &
  RECEIVER=$!; pids+=($RECEIVER)
  # This start's "listening" (the file keeps the earlier ones).
  for _ in $(seq 200); do [ "$(grep -c '"listening"' "$WORK/recv.out")" -gt "${before:-0}" ] && return 0; sleep 0.05; done
  echo "the receiver did not start" >&2; cat "$WORK/recv.out" >&2; return 1
}
: > "$WORK/recv.out"
start_receiver

# Discovery: h1 (paired) sees h2 in reach at its port, and ends as soon as it has (a 10 s
# timeout it must not wait out); h3 (not paired) recognises nothing.
list_start=$(date +%s%N)
at h1 "$NEARBY" list --root "$WORK/A" --timeout 10 --json > "$WORK/list-h1.out" 2>&1
echo "list_ms=$(( ($(date +%s%N) - list_start) / 1000000 ))"
at h3 "$NEARBY" list --root "$WORK/C" --json > "$WORK/list-h3.out" 2>&1
echo "h1_sees_h2_at=$(grep -o '"inReach":"[^"]*"' "$WORK/list-h1.out" | head -1 | sed 's/.*:"//; s/"//')"
echo "h3_sees=$(cat "$WORK/list-h3.out")"
# A send into the notes app, by the paired name.
set +e
at h1 "$NEARBY" send "$WORK/notes.txt" --to h2 --app com.example.notes --from com.example.mail --root "$WORK/A" --json > "$WORK/send1.out" 2>&1
echo "send_status=$?"
# A stranger (h3 never paired) sending by address with h2's pin: refused in the handshake.
FP=$(at h2 "$NEARBY" identity --root "$WORK/B" --json | json_field /dev/stdin fingerprint)
at h3 "$NEARBY" send "$WORK/notes.txt" --to "$H2:53500" --fingerprint "$FP" --root "$WORK/C" --json > "$WORK/stranger.out" 2>&1
echo "stranger_status=$?"
set -e

# kill -9 of the sender halfway through a rate-limited 48 MiB send, then the same send again.
lab rate h1 80mbit
head -c $((48 << 20)) /dev/urandom > "$WORK/big.txt"
bg_at h1 "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send2.out" 2>&1 & SENDER=$!
for _ in $(seq 400); do
  size=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' 2>/dev/null | head -1)
  [ "${size:-0}" -ge $((12 << 20)) ] && break; sleep 0.05
done
kill -9 "$SENDER"; wait "$SENDER" 2>/dev/null || true
echo "killed_sender_at=$(find "$WORK/B/Nearby/Spool" -name .partial -printf '%s\n' | head -1)"
# kill -9 of the receiver too, a little later in the retried send; then it starts again.
bg_at h1 "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send3.out" 2>&1 & SENDER=$!
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
at h1 "$NEARBY" send "$WORK/big.txt" --to h2 --app com.example.notes --root "$WORK/A" --json > "$WORK/send4.out" 2>&1
echo "resumed_send_status=$?"
set -e
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
