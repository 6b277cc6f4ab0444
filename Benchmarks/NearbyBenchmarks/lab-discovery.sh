#!/usr/bin/env bash
# NearbyBenchmarks' discovery section in network namespaces (../shared/nearby/lab.sh). h1 and h2
# are paired; each trial starts the receiver on h1 (paired mode, DNS-SD on eth0) and, at the same
# instant, `nearby list --timeout 5 --json` on h2, which ends as soon as it has seen every paired
# device. The time is from spawning the receiver to list's exit (both processes' start-up
# included); found means list's JSON shows h1 in reach. Then:
#   TRIALS trials on the clean link                      (discovery_ms=…, found=…)
#   TRIALS trials with 20 % of every packet either host
#   sends dropped (lab.sh loss h1|h2 200, nftables)       (loss_ms=…, loss_found=…)
#   multicast DNS dropped on both hosts (nftables: 224.0.0.251 and ff02::fb, in and out): list
#   sees nothing, and `nearby send --to HOST:PORT` still delivers into the app's Inbox.
#   lab-discovery.sh NEARBY LAB_SH WORK TRIALS
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 TRIALS=$4
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
lab clear h1; lab clear h2
H1=$(lab addr h1)
fresh_roots "$WORK"
bg_at h1 "$NEARBY" pair --show-code --root "$WORK/A" --name h1 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h2 "$NEARBY" pair h1 --code "$CODE" --to "$H1:53401" --root "$WORK/B" --name h2 --json > /dev/null
seconds() { date +%s.%N; }

# One trial: prints "MS FOUND".
trial() {
  local start end found
  start=$(seconds)
  bg_at h1 "$NEARBY" receive --root "$WORK/A" --mode paired --port 53400 --interface eth0 --no-launch --json > "$WORK/recv.out" 2>&1 & local receiver=$!
  at h2 "$NEARBY" list --root "$WORK/B" --timeout 5 --interface eth0 --json > "$WORK/list.out" 2>&1 || true
  end=$(seconds)
  kill -INT "$receiver" 2>/dev/null || true; wait "$receiver" 2>/dev/null || true
  grep -q "\"inReach\":\"$H1:53400\"" "$WORK/list.out" && found=1 || found=0
  echo "$(python3 -c "print(round(($end - $start) * 1000, 1))") $found"
}
for _ in $(seq "$TRIALS"); do read -r ms found < <(trial); echo "discovery_ms=$ms"; echo "found=$found"; done
lab loss h1 200; lab loss h2 200
for _ in $(seq "$TRIALS"); do read -r ms found < <(trial); echo "loss_ms=$ms"; echo "loss_found=$found"; done
lab clear h1; lab clear h2

# Multicast DNS dropped both ways on both hosts: discovery finds nothing; an address still works.
for h in h1 h2; do
  ip netns exec "$LAB-$h" nft -f - <<NFT
table inet nomdns {
  chain in { type filter hook input priority -5; policy accept; ip daddr 224.0.0.251 counter drop; ip6 daddr ff02::fb counter drop; }
  chain out { type filter hook output priority -5; policy accept; ip daddr 224.0.0.251 counter drop; ip6 daddr ff02::fb counter drop; }
}
NFT
done
read -r ms found < <(trial)
echo "nomdns_list_found=$found"
echo "nomdns_dropped_packets=$(for h in h1 h2; do ip netns exec "$LAB-$h" nft list table inet nomdns; done | sed -n 's/.*packets \([0-9]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
bg_at h1 "$NEARBY" receive --root "$WORK/A" --mode paired --port 53400 --interface eth0 --no-launch --json > "$WORK/recv.out" 2>&1 & RECEIVER=$!; pids+=($RECEIVER)
for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
printf 'sent with multicast DNS dropped\n' > "$WORK/nomdns.txt"
set +e
at h2 "$NEARBY" send "$WORK/nomdns.txt" --to "$H1:53400" --app com.example.notes --root "$WORK/B" --interface eth0 --json > "$WORK/nomdns-send.out" 2>&1
echo "nomdns_send_status=$?"
set -e
kill -INT "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true
cmp -s "$WORK/nomdns.txt" "$WORK/A/Containers/com.example.notes/Documents/Inbox/nomdns.txt" && echo "nomdns_intact=1" || echo "nomdns_intact=0"
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
