#!/usr/bin/env bash
# Continuation streams against nearby's own transfer rate, on the same link in the same run
# (network namespaces, ../shared/nearby/lab.sh; tbf at RATE on both hosts' eth0, so each
# direction has RATE). A (h1) and B (h2) pair with a code; A's receiver runs in paired mode, and
# A's app (handoff-probe --serve-streams) offers an activity with continuation streams. Each round:
# `nearby send` SIZE MiB from B to A (whole process), then B continues A's activity
# (`nearby continue --no-launch`, then handoff-probe --continue as the launched app would be) and
# the two apps stream SIZE MiB each way at once through `nearby streams` and A's receiver.
# Prints key=value lines.
#   PROBE=handoff-probe lab-streams.sh NEARBY LAB_SH WORK SIZE_MIB RATE ROUNDS   (RATE: e.g. 1gbit, or none)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 SIZE=$4 RATE=$5 ROUNDS=$6
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
H1=$(lab addr h1)
[ "$RATE" = none ] || { lab rate h1 "$RATE"; lab rate h2 "$RATE"; }
fresh_roots "$WORK"
bytes=$((SIZE << 20))
bg_at h1 "$NEARBY" pair --show-code --root "$WORK/A" --name h1 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h2 "$NEARBY" pair h1 --code "$CODE" --to "$H1:53401" --root "$WORK/B" --name h2 --json > /dev/null
head -c "$bytes" /dev/urandom > "$WORK/big.txt"
bg_at h1 "$NEARBY" receive --root "$WORK/A" --mode paired --port 53401 --no-discovery --no-launch --json > "$WORK/recv.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
rm -f "$WORK/serve.in"; mkfifo "$WORK/serve.in"
(DI_BUNDLE_IDENTIFIER=com.example.notes DOCUMENT_INTERCHANGE_ROOT="$WORK/A" bg_at h1 "$PROBE" --serve-streams com.example.notes.editing "$bytes") \
  < "$WORK/serve.in" > "$WORK/serve.out" 2> "$WORK/serve.err" & pids+=($!)
exec 7>"$WORK/serve.in"
for _ in $(seq 200); do grep -q 'current' "$WORK/serve.out" 2>/dev/null && break; sleep 0.05; done
seconds() { date +%s.%N; }
for round in $(seq "$ROUNDS"); do
  rm -rf "$WORK/A/Containers/com.example.notes/Documents"
  start=$(seconds)
  at h2 "$NEARBY" send "$WORK/big.txt" --to "$H1:53401" --app com.example.notes --root "$WORK/B" --no-discovery --json > "$WORK/send.out"
  end=$(seconds)
  cmp -s "$WORK/big.txt" "$WORK/A/Containers/com.example.notes/Documents/Inbox/big.txt" && echo "nearby_intact=1" || echo "nearby_intact=0"
  echo "nearby_MBps=$(python3 -c "print($bytes / 1e6 / ($end - $start))")"
  rm -rf "$WORK/A/Containers/com.example.notes/Documents"
  at h2 "$NEARBY" continue "$H1:53401" --root "$WORK/B" --no-discovery --no-launch --json > "$WORK/continue.out"
  request=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["request"])' "$WORK/continue.out")
  start=$(seconds)
  at h2 env PATH="$(dirname "$NEARBY"):$PATH" DI_BUNDLE_IDENTIFIER=com.example.notes DOCUMENT_INTERCHANGE_ROOT="$WORK/B" \
    DI_OPEN_REQUEST="$request" "$PROBE" --continue "$bytes" > "$WORK/continue-probe.out" 2> "$WORK/continue-probe.err" || true
  end=$(seconds)
  line=$(grep -e '^continued' -e '^failed' "$WORK/continue-probe.out" | tail -1)
  echo "stream_line=$line"
  # What each side moved (both must be SIZE MiB each way), the streaming time and the whole process.
  sent=$(sed -n 's/.*sent=\([0-9]*\).*/\1/p' <<< "$line"); received=$(sed -n 's/.*received=\([0-9]*\).*/\1/p' <<< "$line")
  streamed=$(sed -n 's/.*seconds=\([0-9.e-]*\).*/\1/p' <<< "$line")
  [ "$sent" = "$bytes" ] && [ "$received" = "$bytes" ] && echo "stream_intact=1" || echo "stream_intact=0"
  echo "stream_MBps=$(python3 -c "print($bytes / 1e6 / ${streamed:-1e9})")"
  echo "stream_process_MBps=$(python3 -c "print($bytes / 1e6 / ($end - $start))")"
  for _ in $(seq 100); do [ "$(grep -c '^served' "$WORK/serve.out")" -ge "$round" ] && break; sleep 0.1; done
  echo "served_line=$(grep '^served' "$WORK/serve.out" | tail -1)"
done
exec 7>&-
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
