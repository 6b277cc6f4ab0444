#!/usr/bin/env bash
# NearbyBenchmarks' person section in network namespaces (../shared/nearby/lab.sh), every nearby
# process as the unprivileged user (lab-common.sh): h2's receiver runs before the two devices pair
# (by code), as a person's systemd unit does; then, whole processes, back to back:
#   1. ROUNDS pairs of a 10.5 MB send to h2 by name and the same by address, alternating which
#      goes first, with the receiver on its default port 53400 (where pairing notes it) and again
#      on 53500 (announced only: the first send by name must find it by discovery)
#   2. BIG_ROUNDS of iperf3 and 1 GiB to h2 by name over a tbf 1 Gbit/s link, in turn
#   3. 200 items into an app the receiver starts for each, then the receiver's zombie children
#   4. everyone-mode for --minutes 1: from start to the process's exit
# Prints key=value lines.
#   lab-person.sh NEARBY LAB_SH WORK ROUNDS BIG_ROUNDS MINUTES(0|1)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 ROUNDS=$4 BIG_ROUNDS=$5 MINUTES=$6
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
H2=$(lab addr h2)
fresh_roots "$WORK"
# The Person Viewer's program in its bundle, as scripts/install-samples puts it there (needs
# swift build -c release --product PersonViewer).
mkdir -p "$WORK/B/Apps/PersonViewer.app/bin"
ln -sf "$(dirname "$NEARBY_BIN")/PersonViewer" "$WORK/B/Apps/PersonViewer.app/bin/person-viewer"
give "$WORK/B/Apps"
seconds() { date +%s.%N; }
ms() { python3 -c "print(round(1000 * ($2 - $1), 1))" "$@"; }
head -c 10500000 /dev/urandom > "$WORK/medium.bin"
head -c $((1024 << 20)) /dev/urandom > "$WORK/big.bin"
sync "$WORK/medium.bin" "$WORK/big.bin"

receiver() {  # receiver PORT: h2's paired-mode receiver, announcing on eth0; sets RECEIVER
  rm -f "$WORK/recv.out"
  bg_at h2 "$NEARBY" receive --root "$WORK/B" --mode paired --port "$1" --interface eth0 --json > "$WORK/recv.out" 2>&1 & RECEIVER=$!
  pids+=($RECEIVER)
  for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
}
stop_receiver() { kill -INT "$RECEIVER" 2>/dev/null || true; wait "$RECEIVER" 2>/dev/null || true; }
clear_inboxes() { rm -rf "$WORK/B/Containers/com.example.files/Documents/Inbox/"* "$WORK/B/Downloads" 2>/dev/null || true; }

# The receiver first, then the pairing (by code, as people pair).
receiver 53400
echo "receiver_uid=$(stat -c %u "/proc/$RECEIVER")"
bg_at h2 "$NEARBY" pair --show-code --root "$WORK/B" --name h2 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h1 "$NEARBY" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --json > /dev/null
FP=$(at h2 "$NEARBY" identity --root "$WORK/B" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fingerprint"])')

for PORT in 53400 53500; do
  if [ "$PORT" != 53400 ]; then stop_receiver; receiver "$PORT"; fi
  for round in $(seq "$ROUNDS"); do
    clear_inboxes
    order="name address"; [ $((round % 2)) = 0 ] && order="address name"
    for how in $order; do
      if [ "$how" = name ]; then to=h2; else to="$H2:$PORT"; fi
      start=$(seconds)
      at h1 "$NEARBY" send "$WORK/medium.bin" --to "$to" --root "$WORK/A" --interface eth0 --json > "$WORK/send.out" 2>&1 \
        && status=0 || status=$?
      end=$(seconds)
      echo "port${PORT}_by_${how}_ms=$(ms "$start" "$end")"
      echo "port${PORT}_by_${how}_status=$status"
    done
  done
done

# 1 GiB by name over 1 Gbit/s, against iperf3 over the same link, in turn.
lab rate h1 1gbit
bg_at h2 iperf3 -s -p 5201 > /dev/null 2>&1 & pids+=($!)
sleep 0.3
for round in $(seq "$BIG_ROUNDS"); do
  mbps=$(at h1 iperf3 -c "$H2" -p 5201 -t 8 -J | python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/8e6)')
  echo "iperf3_MBps=$mbps"
  clear_inboxes
  start=$(seconds)
  at h1 "$NEARBY" send "$WORK/big.bin" --to h2 --root "$WORK/A" --interface eth0 --json > "$WORK/big.out" 2>&1 && status=0 || status=$?
  end=$(seconds)
  echo "big_status=$status"
  echo "big_MBps=$(python3 -c "print((1024 << 20) / 1e6 / ($end - $start))")"
  cmp -s "$WORK/big.bin" "$(ls "$WORK"/B/Containers/*/Documents/Inbox/big*.bin "$WORK"/B/Downloads/big*.bin 2>/dev/null | head -1)" \
    && echo "big_intact=1" || echo "big_intact=0"
done
lab clear h1

# 200 items into the Person Viewer, which the receiver starts for each.
mkdir -p "$WORK/people"
for i in $(seq 200); do cp "$WORK/B/Documents/file.person" "$WORK/people/p$i.person"; done
give "$WORK/people"
at h1 "$NEARBY" send "$WORK"/people/*.person --to h2 --app com.example.person-viewer --root "$WORK/A" --interface eth0 --json \
  > "$WORK/people.out" 2>&1 && status=0 || status=$?
echo "people_status=$status"
echo "people_delivered=$(grep -c '"event":"delivered"' "$WORK/people.out" || true)"
sleep 2
echo "zombies=$(ps -o stat= --ppid "$RECEIVER" | grep -c '^Z' || true)"
stop_receiver

# Everyone-mode's minutes: from the start to the process's exit.
if [ "$MINUTES" = 1 ]; then
  start=$(seconds)
  at h2 timeout 120 "$NEARBY" receive --root "$WORK/B" --mode everyone --minutes 1 --interface eth0 --json --no-launch > "$WORK/minutes.out" 2>&1 \
    && status=0 || status=$?
  end=$(seconds)
  echo "minutes_status=$status"
  echo "minutes_over_ms=$(python3 -c "print(round(1000 * ($end - $start) - 60000, 1))")"
fi
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
