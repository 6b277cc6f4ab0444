#!/usr/bin/env bash
# nearby as a person uses it, on three hosts in network namespaces (../shared/nearby/lab.sh), every
# nearby process started as the unprivileged test user (lab-user.sh): a device paired while its
# receiver runs is found at once and reached by name, back to back; a receiver that delivers 200
# items into an app with a launch command keeps no zombie; everyone-mode ends when its minutes
# do; a receiver on a LAN without a default route (nor a multicast route) still receives from
# LocalSend and by its everyone-mode name; a full destination is found when the ask comes; and
# the messages of the mistakes people make. Prints key=value lines for PersonLabTests.
#   person-lab.sh NEARBY LAB_SH WORK     (WORK holds device roots A, B, C made by the test, and
#                                         notes.txt, file.person)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dpl} LAB_NET=${LAB_NET:-10.226.0}
source "$HERE/peer-lab-common.sh"
source "$HERE/lab-user.sh"
at() { local h=$1; shift; lab exec "$h" "$@"; }
N=("${AS_USER[@]}" "$NEARBY")
SMALL=$WORK/small
cleanup_small() { umount "$SMALL" 2>/dev/null || true; }
trap 'cleanup_small; cleanup' EXIT
lab up >/dev/null
lab fence reset >/dev/null
H2=$(lab addr h2) H3=$(lab addr h3)
ms_since() { echo $(( ($(now) - $1) / 1000000 )); }
# Runs CMD with its output in FILE; prints its exit status.
run_to() { local file=$1; shift; "$@" > "$file" 2>&1 && echo 0 || echo $?; }

# 1. Paired while its receiver runs. h2's receiver is up first, on port 53500 (not the 53400 that
# pairing notes as its address), so h1 can reach it only through what it announces.
bg_at h2 "${N[@]}" receive --root "$WORK/B" --mode paired --port 53500 --interface eth0 --json \
  --downloads "$WORK/B/Downloads" > "$WORK/recv2.out" 2>&1 &
RECEIVER=$!; pids+=($RECEIVER)
wait_for "$WORK/recv2.out" '"listening"'
echo "receiver_uid=$(stat -c %u "/proc/$RECEIVER")"
bg_at h2 "${N[@]}" pair --show-code --root "$WORK/B" --name h2 --port 53401 --interface eth0 --json > "$WORK/show.out" 2>&1 &
SHOW=$!; pids+=($SHOW)
wait_for "$WORK/show.out" '"code"'
CODE=$(json_field "$WORK/show.out" code)
set +e
at h1 "${N[@]}" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --name h1 --json > "$WORK/pair.out" 2>&1
echo "pair_status=$?"
set -e
wait "$SHOW" 2>/dev/null || true
t0=$(now)
at h1 "${N[@]}" list --root "$WORK/A" --interface eth0 --timeout 10 --json > "$WORK/list.out" 2>&1 || true
echo "list_ms=$(ms_since "$t0")"
echo "h1_sees_h2_at=$(grep -o '"inReach":"[^"]*"' "$WORK/list.out" | head -1 | sed 's/.*:"//; s/"//')"
# The same list for a person: columns separated by tabs, not by a literal backslash-t.
at h1 "${N[@]}" list --root "$WORK/A" --interface eth0 --timeout 10 > "$WORK/list.txt" 2>&1 || true
echo "list_tabs=$(grep -c $'\t' "$WORK/list.txt" || true)"
echo "list_literal_tabs=$(grep -c '\\t' "$WORK/list.txt" || true)"
# Sends by name, back to back: the first finds it by discovery and notes the address, the
# others reach it there at once.
for i in 1 2 3; do
  t0=$(now)
  st=$(run_to "$WORK/byname-$i.out" at h1 "${N[@]}" send "$WORK/notes.txt" --to h2 --app com.example.notes --root "$WORK/A" --interface eth0 --json)
  echo "by_name_${i}_status=$st by_name_${i}_ms=$(ms_since "$t0")"
done
echo "noted_address=$(python3 -c 'import plistlib,sys
d = plistlib.load(open(sys.argv[1], "rb"))
print(",".join(x.get("LastAddress", "") for x in d["Devices"]))' "$WORK/A/Nearby/Paired.plist")"

# 2. 200 deliveries into the Person Viewer, which the receiver starts for each (its launch
# command): afterwards the receiver has no zombie child.
mkdir -p "$WORK/people"
for i in $(seq 200); do cp "$WORK/file.person" "$WORK/people/p$i.person"; done
give "$WORK/people"
st=$(run_to "$WORK/people.out" at h1 "${N[@]}" send "$WORK"/people/*.person --to h2 --root "$WORK/A" --interface eth0 --json)
echo "people_status=$st"
echo "people_delivered=$(grep -c '"event":"delivered"' "$WORK/people.out" || true)"
# The viewers exit at once; give the last ones a moment, then count what is left of them.
for _ in $(seq 100); do
  [ "$(ps -o pid= --ppid "$RECEIVER" | grep -c . || true)" -eq 0 ] && break
  [ "$(ps -o stat= --ppid "$RECEIVER" | grep -vc '^Z' || true)" -eq 0 ] && break
  sleep 0.1
done
sleep 0.5
echo "zombies=$(ps -o stat= --ppid "$RECEIVER" | grep -c '^Z' || true)"
echo "viewer_requests=$(ls "$WORK/B/Containers/com.example.person-viewer/Documents/Inbox" 2>/dev/null | grep -c . || true)"
# What status calls unfinished: nothing, every transfer was delivered.
echo "unfinished=$(at h2 "${N[@]}" status --root "$WORK/B" --json | json_field /dev/stdin unfinishedTransfers)"

# 3. The mistakes people make, and what they are told.
set +e
at h1 "${N[@]}" send "$WORK/notes.txt" --root "$WORK/A" > "$WORK/no-to.out" 2>&1; echo "no_to_status=$?"
at h1 "${N[@]}" send "$WORK/notes.txt" --to h2 --app com.example.nope --root "$WORK/A" --interface eth0 > "$WORK/no-app.out" 2>&1; echo "no_app_status=$?"
at h1 "${N[@]}" send "$WORK/notes.txt" --to h2 --app com.example.photos --root "$WORK/A" --interface eth0 > "$WORK/wrong-app.out" 2>&1; echo "wrong_app_status=$?"
at h1 "${N[@]}" status --root "$WORK/AA" > "$WORK/typo.out" 2>&1; echo "typo_status=$?"
at h1 "${N[@]}" identity --root "$WORK/AA" > "$WORK/typo2.out" 2>&1; echo "typo_identity_status=$?"
echo "typo_made=$([ -e "$WORK/AA" ] && echo yes || echo no)"
at h1 "${N[@]}" send "$WORK/notes.txt" --airdrop awdl0 --to Nobody --root "$WORK/A" > "$WORK/airdrop-nobody.out" 2>&1; echo "airdrop_nobody_status=$?"
set -e
kill -TERM "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true

# 4. Everyone-mode ends when its minutes do (0.1: six seconds), and the process with it.
t0=$(now)
st=$(run_to "$WORK/minutes.out" at h3 timeout 30 "${N[@]}" receive --root "$WORK/C" --mode everyone --minutes 0.1 --localsend off --no-discovery \
  --listen "$H3" --port 53600 --json --no-launch --downloads "$WORK/C/Downloads")
echo "minutes_status=$st minutes_ms=$(ms_since "$t0")"
echo "minutes_expired=$(grep -c '"expired"' "$WORK/minutes.out" || true)"

# 5. A LAN without a default route (nor the multicast route the lab gives): h3's everyone-mode
# receiver still announces, answers and receives, from LocalSend and by its everyone-mode name.
ip -n "$LAB-h3" route del default 2>/dev/null || true
ip -n "$LAB-h3" route del 224.0.0.0/4 2>/dev/null || true
bg_at h3 "${N[@]}" receive --root "$WORK/C" --mode everyone --auto-accept --name desk3 --port 53510 --interface eth0 --json --no-launch \
  --downloads "$WORK/C/Downloads" > "$WORK/recv3.out" 2>&1 &
RECEIVER3=$!; pids+=($RECEIVER3)
wait_for "$WORK/recv3.out" '"localsend"'
set +e
at h1 "${N[@]}" send "$WORK/notes.txt" --localsend --to desk3 --root "$WORK/A" --name h1 --interface eth0 --json > "$WORK/ls-isolated.out" 2>&1
echo "isolated_localsend_status=$?"
at h1 "${N[@]}" send "$WORK/notes.txt" --to desk3 --root "$WORK/A" --interface eth0 --json > "$WORK/everyone-name.out" 2>&1
echo "everyone_by_name_status=$?"
at h1 "${N[@]}" send "$WORK/notes.txt" --to "$H3:53317" --root "$WORK/A" > "$WORK/localsend-port.out" 2>&1
echo "localsend_port_status=$?"
set -e
echo "isolated_alive=$(kill -0 "$RECEIVER3" 2>/dev/null && echo yes || echo no)"
echo "isolated_received=$(ls "$WORK/C/Containers/com.example.notes/Documents/Inbox" 2>/dev/null | grep -c . || true)"
kill -TERM "$RECEIVER3"; set +e; wait "$RECEIVER3"; echo "isolated_sigterm_status=$?"; set -e

# 6. A destination without room, found when the ask comes: h2 receives into an empty device
# root whose download folder is a 2 MiB tmpfs; 4 MiB are refused before a byte is sent.
mkdir -p "$SMALL" "$WORK/D"
mount -t tmpfs -o size=2m tmpfs "$SMALL"
give "$SMALL" "$WORK/D"
head -c $((4 << 20)) /dev/urandom > "$WORK/big.bin"
bg_at h2 "${N[@]}" receive --root "$WORK/D" --mode everyone --auto-accept --localsend off --no-discovery --listen "$H2" --port 53520 \
  --json --no-launch --downloads "$SMALL" > "$WORK/recv-small.out" 2>&1 &
SMALLRECV=$!; pids+=($SMALLRECV)
wait_for "$WORK/recv-small.out" '"listening"'
FP=$(at h2 "${N[@]}" identity --root "$WORK/D" --json | json_field /dev/stdin fingerprint)
set +e
at h1 "${N[@]}" send "$WORK/big.bin" --to "$H2:53520" --fingerprint "$FP" --root "$WORK/A" --json > "$WORK/full.out" 2>&1
echo "full_status=$?"
set -e
echo "full_spooled=$(find "$WORK/D/Nearby/Spool" -type f 2>/dev/null | grep -c . || true)"
kill -TERM "$SMALLRECV" 2>/dev/null || true

echo "fence=$(fence_count)"
