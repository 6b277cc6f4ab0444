#!/usr/bin/env bash
# One round of NearbyBenchmarks in network namespaces (../shared/nearby/lab.sh): iperf3 and then
# nearby over the same link (h1 → h2, tbf on h1's eth0 at RATE, or unlimited), ROUNDS times in
# turn. Prints key=value lines: iperf3 MB/s, nearby MB/s (whole sending process, from spawn to
# exit: hashing, TLS, the receiver's delivery into the app's Inbox), the receiver's peak RSS.
#   lab-throughput.sh NEARBY LAB_SH WORK SIZE_MIB RATE ROUNDS    (RATE: e.g. 1gbit, or none)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 SIZE=$4 RATE=$5 ROUNDS=$6
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
H2=$(lab addr h2)
[ "$RATE" = none ] || lab rate h1 "$RATE"
fresh_roots "$WORK"
# Paired by code, as users pair.
bg_at h2 "$NEARBY" pair --show-code --root "$WORK/B" --name h2 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h1 "$NEARBY" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --json > /dev/null
head -c $((SIZE << 20)) /dev/urandom > "$WORK/big.txt"
# As in lab-wormhole.sh: the source written back, and both roots' type registries compiled by a
# small send first (the round that compiled the receiving root's peaked at 72-75 MiB, the others
# at 41-43 MiB), so that each round measures the transfer alone.
sync "$WORK/big.txt"
ready_roots "$NEARBY" "$WORK" "$H2"
bg_at h2 iperf3 -s -p 5201 > /dev/null 2>&1 & pids+=($!)
sleep 0.3
seconds() { date +%s.%N; }
for round in $(seq "$ROUNDS"); do
  # iperf3: 8 s of TCP, what the receiver got.
  mbps=$(at h1 iperf3 -c "$H2" -p 5201 -t 8 -J | python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/8e6)')
  echo "iperf3_MBps=$mbps"
  # nearby: the receiver under GNU time (its peak RSS), the send timed as a whole process.
  rm -rf "$WORK/B/Containers" "$WORK/B/Nearby/Spool" "$WORK/recv.out"
  bg_at h2 /usr/bin/time -f "peak_rss_kib=%M" -o "$WORK/rss.out" "$NEARBY" receive --root "$WORK/B" --mode paired --port 53400 \
    --no-discovery --no-launch --json > "$WORK/recv.out" 2>&1 & RECEIVER=$!
  for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
  start=$(seconds)
  at h1 "$NEARBY" send "$WORK/big.txt" --to "$H2:53400" --app com.example.notes --root "$WORK/A" --no-discovery --json > "$WORK/send.out"
  end=$(seconds)
  # SIGINT to nearby itself: GNU time ignores it while its child runs.
  pkill -INT -P "$RECEIVER" || true; wait "$RECEIVER" 2>/dev/null || true
  cmp -s "$WORK/big.txt" "$WORK/B/Containers/com.example.notes/Documents/Inbox/big.txt" && echo "intact=1" || echo "intact=0"
  echo "nearby_MBps=$(python3 -c "print(($SIZE << 20) / 1e6 / ($end - $start))")"
  cat "$WORK/rss.out"
done
# Asks: ASKS sends of a one-byte file, each a whole nearby send (TLS handshake, ask, answer,
# upload, delivery): an upper bound on ask → accepted.
if [ "${ASKS:-0}" -gt 0 ]; then
  lab clear h1
  printf x > "$WORK/one.txt"
  bg_at h2 "$NEARBY" receive --root "$WORK/B" --mode paired --port 53400 --no-discovery --no-launch --json > "$WORK/recv.out" 2>&1 & RECEIVER=$!
  for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
  for i in $(seq "$ASKS"); do
    start=$(seconds)
    at h1 "$NEARBY" send "$WORK/one.txt" --to "$H2:53400" --root "$WORK/A" --no-discovery > /dev/null
    end=$(seconds)
    echo "ask_ms=$(python3 -c "print(($end - $start) * 1000)")"
  done
  kill -INT "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true
fi
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
