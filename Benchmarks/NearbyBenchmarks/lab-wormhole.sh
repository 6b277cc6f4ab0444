#!/usr/bin/env bash
# NearbyBenchmarks' magic-wormhole section in network namespaces (../shared/nearby/lab.sh): the
# same file h1 → h2 over the unlimited veth (no tbf), `nearby send` and then `wormhole send` →
# `wormhole receive`, ROUNDS times in turn. wormhole runs offline: its mailbox server and transit
# relay run on h3, and the clients are pointed at them; the code is passed with --code, so nothing
# is typed. Prints key=value lines: nearby MB/s (the whole sending process, paired, into the app's
# Inbox, as in lab-throughput.sh), wormhole MB/s (from spawning the sender, with the receiver
# already waiting as nearby's is, until both processes have exited), whether wormhole's transit
# was direct (not through the relay), and whether each copy is byte-identical.
#   lab-wormhole.sh NEARBY LAB_SH WORK SIZE_MIB ROUNDS
# The peers come from PyPI into a virtual environment under /var/tmp (made once, reused while the
# pins below are unchanged), so a fresh machine can run this with network access to PyPI once.
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 SIZE=$4 ROUNDS=$5
# The versions docs/nearby.md's figure was measured with (../shared/nearby/README.md: these run offline).
PINS="magic-wormhole==0.24.0 magic-wormhole-mailbox-server==0.8.0 magic-wormhole-transit-relay==0.5.0"
VENV=${WORMHOLE_VENV:-/var/tmp/nearby-bench-wormhole}
if [ "$(cat "$VENV/pins" 2>/dev/null)" != "$PINS" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  # shellcheck disable=SC2086 # one word per pin
  "$VENV/bin/pip" install -q $PINS >&2
  echo "$PINS" > "$VENV/pins"
fi
# requests/treq ignore verify=False when these are set (they are on this machine); the peers
# talk plain ws:// and tcp: inside the lab anyway, so they need no CA bundle.
unset REQUESTS_CA_BUNDLE CURL_CA_BUNDLE
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
lab clear h1
H2=$(lab addr h2) H3=$(lab addr h3)
fresh_roots "$WORK"
bg_at h2 "$NEARBY" pair --show-code --root "$WORK/B" --name h2 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h1 "$NEARBY" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --json > /dev/null
head -c $((SIZE << 20)) /dev/urandom > "$WORK/big.txt"
# Written back before anything is timed: 1 GiB of dirty pages went to disk during the first
# round otherwise, under both programs alike.
sync "$WORK/big.txt"
# wormhole's servers on h3, each in a folder of its own (they keep SQLite files in the working folder).
mkdir -p "$WORK/mailbox" "$WORK/relay" "$WORK/wh-in"
(cd "$WORK/mailbox" && bg_at h3 "$VENV/bin/twist" wormhole-mailbox --port=tcp:4000) > "$WORK/mailbox.out" 2>&1 & pids+=($!)
(cd "$WORK/relay" && bg_at h3 "$VENV/bin/twist" transitrelay --port=tcp:4001) > "$WORK/relay.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do
  at h3 ss -Hltn 'sport = :4000' | grep -q . && at h3 ss -Hltn 'sport = :4001' | grep -q . && break; sleep 0.1
done
WH=("$VENV/bin/wormhole" --relay-url "ws://$H3:4000/v1" --transit-helper "tcp:$H3:4001")
seconds() { date +%s.%N; }
# Both fresh device roots compile their type registries first (ready_roots), as on a device in
# use, and wormhole makes one small transfer too (its first processes and its servers' first
# session), so that every round is counted and neither side's first round carries a start-up.
ready_roots "$NEARBY" "$WORK" "$H2"
head -c 1000 /dev/urandom > "$WORK/ready.txt"
bg_at h2 "${WH[@]}" receive --accept-file --hide-progress -o "$WORK/wh-in/ready.txt" 0-nearby-bench > /dev/null 2>&1 & WRECV=$!
sleep 1
at h1 "${WH[@]}" send --hide-progress --no-qr --code 0-nearby-bench "$WORK/ready.txt" > /dev/null 2>&1 || true
wait "$WRECV" || true
rm -f "$WORK/ready.txt" "$WORK/wh-in/ready.txt"
for round in $(seq "$ROUNDS"); do
  # nearby, as lab-throughput.sh times it, without the tbf.
  rm -rf "$WORK/B/Containers" "$WORK/B/Nearby/Spool" "$WORK/recv.out"
  bg_at h2 "$NEARBY" receive --root "$WORK/B" --mode paired --port 53400 --no-discovery --no-launch --json > "$WORK/recv.out" 2>&1 & RECEIVER=$!
  for _ in $(seq 200); do grep -q '"listening"' "$WORK/recv.out" 2>/dev/null && break; sleep 0.05; done
  start=$(seconds)
  at h1 "$NEARBY" send "$WORK/big.txt" --to "$H2:53400" --app com.example.notes --root "$WORK/A" --no-discovery --json > "$WORK/send.out"
  end=$(seconds)
  kill -INT "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true
  cmp -s "$WORK/big.txt" "$WORK/B/Containers/com.example.notes/Documents/Inbox/big.txt" && echo "nearby_intact=1" || echo "nearby_intact=0"
  echo "nearby_MBps=$(python3 -c "print(($SIZE << 20) / 1e6 / ($end - $start))")"
  # wormhole: the receiver waits on the code first (as nearby's receiver listens first).
  rm -f "$WORK/wh-in/big.txt"
  whcode="$((round + 1))-nearby-bench"
  bg_at h2 "${WH[@]}" receive --accept-file --hide-progress -o "$WORK/wh-in/big.txt" "$whcode" > "$WORK/wh-recv.out" 2>&1 & WRECV=$!
  sleep 1
  start=$(seconds)
  at h1 "${WH[@]}" send --hide-progress --no-qr --code "$whcode" "$WORK/big.txt" > "$WORK/wh-send.out" 2>&1 || true
  wait "$WRECV" || true
  end=$(seconds)
  cmp -s "$WORK/big.txt" "$WORK/wh-in/big.txt" && echo "wormhole_intact=1" || echo "wormhole_intact=0"
  # "Sending (<-10.x.y.z:port)" for a direct connection, "(<-relay:tcp:…)" through the relay.
  path=$(grep -o '(<-[^)]*)' "$WORK/wh-send.out" | head -1 || true)
  echo "wormhole_path=${path:-none}"
  case "$path" in "(<-relay"*|"") echo "wormhole_direct=0";; *) echo "wormhole_direct=1";; esac
  echo "wormhole_MBps=$(python3 -c "print(($SIZE << 20) / 1e6 / ($end - $start))")"
done
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
