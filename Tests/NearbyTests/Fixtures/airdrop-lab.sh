#!/usr/bin/env bash
# nearby's AirDrop protocol against OpenDrop 0.13 (PyPI, in a venv the fixture makes) between
# network namespaces (../shared/nearby/lab.sh, whose awdl0 is a link-local-only IPv6 link as AWDL
# is): `opendrop find` finds our receiver (timed, FINDS runs), OpenDrop sends ROUNDS distinct files
# into it, our sender sends ROUNDS distinct files to an OpenDrop receiver (half found by name,
# half by address), then 100 MB each way and OpenDrop to itself (the yardstick, same run).
# Prints key=value lines for AirDropLabTests.
#   airdrop-lab.sh NEARBY LAB_SH WORK VENV [ROUNDS] [FINDS]   (WORK holds device roots A and B;
#   FIND_SECONDS, default 30: how long each `opendrop find` may take to list our receiver)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 VENV=$4 ROUNDS=${5:-20} FINDS=${6:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dad} LAB_NET=${LAB_NET:-10.222.0}
source "$HERE/peer-lab-common.sh"
source "$HERE/lab-user.sh"

bash "$HERE/opendrop-venv.sh" "$VENV" >&2
OPENDROP=$VENV/bin/opendrop

lab up >/dev/null
lab fence reset >/dev/null

# Our receiver in h2 (everyone-mode, AirDrop on awdl0; no person: --auto-accept; the peer's 20
# sends in a row from one address are more than the 5 asks a minute a stranger gets by default).
bg_at h2 "${AS_USER[@]}" "$NEARBY" receive --root "$WORK/B" --mode everyone --auto-accept --asks-per-minute 100 --localsend off --airdrop awdl0 --name h2 --port 53500 \
  --interface eth0 --json --no-launch --downloads "$WORK/B/Downloads" > "$WORK/recv.out" 2>&1 &
RECEIVER=$!; pids+=($RECEIVER)
wait_for "$WORK/recv.out" '"airdrop"'
# OpenDrop's receiver in h3, writing into its working folder.
mkdir -p "$WORK/od3/in" "$WORK/od1"
(cd "$WORK/od3/in" && HOME=$WORK/od3 bg_at h3 "$OPENDROP" receive -i awdl0 -n "Peer Mac") > "$WORK/od3.out" 2>&1 &
pids+=($!)
wait_for "$WORK/od3.out" 'Starting HTTPS server' 400

# opendrop find, timed from its start to the line that names our receiver (it asks Discover first),
# and ended by SIGINT (its only way out) once it has also listed OpenDrop's receiver (which
# `opendrop send -r "Peer Mac"` below needs in find's cache), or after FIND_SECONDS.
: > "$WORK/find-ms"
for i in $(seq "$FINDS"); do
  start=$(now) listed=no
  (cd "$WORK/od1" && HOME=$WORK/od1 exec timeout -s INT "${FIND_SECONDS:-30}" bash "$LABSH" exec h1 "$OPENDROP" find -i awdl0) > "$WORK/find.out" 2>&1 &
  finder=$!
  while kill -0 "$finder" 2>/dev/null; do
    if [ $listed = no ] && grep -q 'name h2' "$WORK/find.out"; then
      echo $(( ($(now) - start) / 1000000 )) >> "$WORK/find-ms"
      listed=yes
    fi
    if [ $listed = yes ] && grep -q 'name Peer Mac' "$WORK/find.out"; then
      kill -INT "$finder"  # timeout passes it on to find
      break
    fi
    sleep 0.01
  done
  wait "$finder" || true
done

# OpenDrop to us: ROUNDS distinct files, each judged by what arrived.
mkdir -p "$WORK/out"
for i in $(seq "$ROUNDS"); do
  f="$WORK/out/from-opendrop-$i.txt"
  { echo "from opendrop $i"; head -c $((i * 991)) /dev/urandom | base64; } > "$f"
  (cd "$WORK/od1" && HOME=$WORK/od1 lab exec h1 "$OPENDROP" send -r h2 -f "$f" -i awdl0) > "$WORK/od-send-$i.out" 2>&1 || true
done

# Us to OpenDrop: ROUNDS distinct files, by name and by address.
: > "$WORK/send-statuses"
H3=$(lab addr h3 awdl)
for i in $(seq "$ROUNDS"); do
  f="$WORK/out/to-opendrop-$i.txt"
  { echo "to opendrop $i"; head -c $((i * 997)) /dev/urandom | base64; } > "$f"
  if [ $((i % 2)) = 1 ]; then to="Peer Mac"; else to="[$H3]:8771"; fi
  lab exec h1 "${AS_USER[@]}" "$NEARBY" send "$f" --airdrop awdl0 --to "$to" --root "$WORK/A" --name h1 --json > "$WORK/send-$i.out" 2>&1 && st=0 || st=$?
  echo "$i $st" >> "$WORK/send-statuses"
done

# 100 MB: OpenDrop to us, OpenDrop to itself, us to OpenDrop (whole processes, wall time).
head -c 100000000 /dev/urandom > "$WORK/big.bin"
t0=$(now); (cd "$WORK/od1" && HOME=$WORK/od1 lab exec h1 "$OPENDROP" send -r h2 -f "$WORK/big.bin" -i awdl0) > "$WORK/big-od-ours.out" 2>&1 || true; t1=$(now)
echo "big_opendrop_to_ours_ms=$(( (t1 - t0) / 1000000 ))"
t0=$(now); (cd "$WORK/od1" && HOME=$WORK/od1 lab exec h1 "$OPENDROP" send -r "Peer Mac" -f "$WORK/big.bin" -i awdl0) > "$WORK/big-od-od.out" 2>&1 || true; t1=$(now)
echo "big_opendrop_to_itself_ms=$(( (t1 - t0) / 1000000 ))"
cmp -s "$WORK/big.bin" "$WORK/od3/in/big.bin" && echo "big_opendrop_to_itself_intact=yes" || echo "big_opendrop_to_itself_intact=no"
rm -f "$WORK/od3/in/big.bin"
t0=$(now); lab exec h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/big.bin" --airdrop awdl0 --to "[$H3]:8771" --root "$WORK/A" --name h1 --json > "$WORK/big-ours-od.out" 2>&1 && st=0 || st=$?; t1=$(now)
echo "big_ours_to_opendrop_ms=$(( (t1 - t0) / 1000000 ))"
echo "big_ours_to_opendrop_status=$st"
cmp -s "$WORK/big.bin" "$WORK/od3/in/big.bin" && echo "big_ours_to_opendrop_intact=yes" || echo "big_ours_to_opendrop_intact=no"

kill -TERM $RECEIVER 2>/dev/null || true
wait $RECEIVER 2>/dev/null && echo "receiver_status=0" || echo "receiver_status=$?"

python3 - "$WORK" "$ROUNDS" <<'PY'
import filecmp, glob, json, os, sys
work, rounds = sys.argv[1], int(sys.argv[2])
finds = sorted(int(x) for x in open(f"{work}/find-ms").read().split())
print(f"finds_listed={len(finds)}")
if finds:
    print(f"find_p50_ms={finds[len(finds) // 2]}")
    print(f"find_p90_ms={finds[min(len(finds) - 1, int(len(finds) * 0.9))]}")
# What OpenDrop sent us: in the Notes app's Inbox (plain text), byte-identical.
inbox = f"{work}/B/Containers/com.example.notes/Documents/Inbox"
arrived = sum(1 for i in range(1, rounds + 1)
              if os.path.exists(f"{inbox}/from-opendrop-{i}.txt") and filecmp.cmp(f"{inbox}/from-opendrop-{i}.txt", f"{work}/out/from-opendrop-{i}.txt", shallow=False))
print(f"received_intact={arrived}")
statuses = dict(line.split() for line in open(f"{work}/send-statuses"))
sent = match = 0
for i in range(1, rounds + 1):
    there = f"{work}/od3/in/to-opendrop-{i}.txt"
    intact = os.path.exists(there) and filecmp.cmp(there, f"{work}/out/to-opendrop-{i}.txt", shallow=False)
    sent += intact
    match += (statuses.get(str(i)) == "0") == intact
print(f"sent_intact={sent}")
print(f"send_status_matches={match}")
# OpenDrop calls random bytes public.content, which no sample app takes: the download folder.
big = f"{work}/B/Downloads/big.bin"
print("big_opendrop_to_ours_intact=" + ("yes" if os.path.exists(big) and filecmp.cmp(big, f"{work}/big.bin", shallow=False) else "no"))
events = [json.loads(l) for l in open(f"{work}/recv.out") if l.startswith("{")]
print(f"receiver_delivered={sum(1 for e in events if e['event'] == 'delivered')}")
print(f"receiver_failed={sum(1 for e in events if e['event'] == 'failed')}")
PY
echo "fence=$(fence_count)"
