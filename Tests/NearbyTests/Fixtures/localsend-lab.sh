#!/usr/bin/env bash
# nearby's LocalSend receiver against a real LocalSend peer (PyPI localsend 0.1.2, driven by
# localsend_peer.py) on hosts in network namespaces (../shared/nearby/lab.sh): the peer finds
# our receiver by multicast (our POST /register answers its announcement), sends ROUNDS times into
# the app that takes plain text, then 100 MB to us and 100 MB to another copy of itself (the
# yardstick, same run), and times our register answers. Prints key=value lines for LocalSendLabTests.
# Then the other way: our sender to the peer's receiver, ROUNDS distinct files found by alias (half)
# and by address (half), each send's exit status against what arrived; one found by alias with
# multicast dropped (the /24 sweep); and 100 MB by address.
#   localsend-lab.sh NEARBY LAB_SH WORK VENV [ROUNDS]   (WORK holds device roots A and B made by the test)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 VENV=$4 ROUNDS=${5:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dls} LAB_NET=${LAB_NET:-10.220.0}
source "$HERE/peer-lab-common.sh"
source "$HERE/lab-user.sh"

bash "$HERE/localsend-venv.sh" "$VENV" >&2
PY=$VENV/bin/python

lab up >/dev/null
lab fence reset >/dev/null

# Our receiver in h2: everyone-mode, accepting without a person (the prompt has its own tests);
# the peer's 20 sends in a row from one address are more than the 5 asks a minute a stranger gets
# by default.
bg_at h2 "${AS_USER[@]}" "$NEARBY" receive --root "$WORK/B" --mode everyone --auto-accept --asks-per-minute 100 --name h2 --port 53500 --interface eth0 --json --no-launch \
  --downloads "$WORK/B/Downloads" > "$WORK/recv.out" 2>&1 &
RECEIVER=$!; pids+=($RECEIVER)
wait_for "$WORK/recv.out" '"localsend"'

# The yardstick: the peer's own receiver in h3.
mkdir -p "$WORK/peer3"
HOME=$WORK/peer3 PEER_ALIAS="Peer Desk" bg_at h3 "$PY" "$HERE/localsend_peer.py" receive "$WORK/peer3/in" > "$WORK/peer3.out" 2>&1 &
PEER3=$!; pids+=($PEER3)
wait_for "$WORK/peer3.out" '"listening"' 400

head -c 100000000 /dev/urandom > "$WORK/big.bin"
mkdir -p "$WORK/peer1"
HOME=$WORK/peer1 PINGS=10 lab exec h1 "$PY" "$HERE/localsend_peer.py" send h2 "$ROUNDS" "$WORK/notes.txt" > "$WORK/peer1.out" 2>&1 || true
# 100 MB to us (by alias) and to the peer's own receiver (by address: the yardstick, not what is
# tested; its own discovery between two copies of itself was seen to fail under load: its
# multicast task ends at the first register that times out), alternating BIG_ROUNDS times (the
# machine is noisy: the benchmark compares medians). SENDER_CPU pins the sending peer to one CPU
# for both, which takes its own threads' wake-ups across CPUs out of the comparison.
PIN=()
[ -n "${SENDER_CPU:-}" ] && PIN=(taskset -c "$SENDER_CPU")
for r in $(seq "${BIG_ROUNDS:-1}"); do
  rm -f "$WORK/B/Containers/com.example.files/Documents/Inbox/big"*.bin
  HOME=$WORK/peer1 PINGS=0 lab exec h1 "${PIN[@]}" "$PY" "$HERE/localsend_peer.py" send h2 1 "$WORK/big.bin" > "$WORK/big-ours-$r.out" 2>&1 || true
  for _ in 1 2; do
    rm -f "$WORK/peer3/in/big"*.bin
    HOME=$WORK/peer1 PINGS=0 lab exec h1 "${PIN[@]}" "$PY" "$HERE/localsend_peer.py" send "@$(lab addr h3):53317" 1 "$WORK/big.bin" > "$WORK/big-peer-$r.out" 2>&1 || true
    grep -q '"ok": true' "$WORK/big-peer-$r.out" && break
    cp "$WORK/big-peer-$r.out" "$WORK/big-peer-failed.out"
  done
done

# Our sender to the peer's receiver in h3, started afresh: the peer's multicast task ends for good
# at the first register that fails (seen when the sending copy of it exits), and then nobody
# finds it by its alias.
kill -9 "$PEER3" 2>/dev/null || true
sleep 0.3
HOME=$WORK/peer3 PEER_ALIAS="Peer Desk" bg_at h3 "$PY" "$HERE/localsend_peer.py" receive "$WORK/peer3/in" > "$WORK/peer3b.out" 2>&1 &
pids+=($!)
wait_for "$WORK/peer3b.out" '"listening"' 400
mkdir -p "$WORK/out"
: > "$WORK/send-statuses"
H3=$(lab addr h3)
for i in $(seq "$ROUNDS"); do
  f="$WORK/out/note-$i.txt"
  { echo "note $i"; head -c $((i * 997)) /dev/urandom | base64; } > "$f"
  if [ $((i % 2)) = 1 ]; then to="Peer Desk"; else to="$H3"; fi
  lab exec h1 "${AS_USER[@]}" "$NEARBY" send "$f" --localsend --to "$to" --root "$WORK/A" --name h1 --interface eth0 --json > "$WORK/send-$i.out" 2>&1 && st=0 || st=$?
  echo "$i $st" >> "$WORK/send-statuses"
done
# A network that drops multicast (h1 neither sends nor hears it): the peer is found by its alias
# only through the sweep of eth0's /24 (LocalSend's legacy discovery), which starts after 1 s.
lab exec h1 nft -f - <<'NFT'
table inet nomulticast {
  chain output { type filter hook output priority 0; ip daddr 224.0.0.0/4 counter drop; }
  chain input { type filter hook input priority 0; ip daddr 224.0.0.0/4 counter drop; }
}
NFT
f="$WORK/out/swept.txt"
{ echo "found by the sweep"; head -c 5000 /dev/urandom | base64; } > "$f"
T0=$(date +%s.%N)
lab exec h1 "${AS_USER[@]}" "$NEARBY" send "$f" --localsend --to "Peer Desk" --root "$WORK/A" --name h1 --interface eth0 --json > "$WORK/send-swept.out" 2>&1 && st=0 || st=$?
T1=$(date +%s.%N)
echo "swept_status=$st"
echo "swept_seconds=$(python3 -c "print(round($T1 - $T0, 3))")"
cmp -s "$f" "$WORK/peer3/in/swept.txt" && echo "swept_intact=yes" || echo "swept_intact=no"
# The announcements it made were dropped (so the sweep, not multicast, found the peer).
echo "swept_multicast_dropped=$(lab exec h1 nft list chain inet nomulticast output | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')"
lab exec h1 nft delete table inet nomulticast

rm -f "$WORK/peer3/in/big"*.bin  # the yardstick's copy: only ours may be checked below
T0=$(date +%s.%N)
lab exec h1 "${AS_USER[@]}" "$NEARBY" send "$WORK/big.bin" --localsend --to "$H3" --root "$WORK/A" --name h1 --json > "$WORK/send-big.out" 2>&1 && st=0 || st=$?
T1=$(date +%s.%N)
echo "send_big_status=$st"
echo "send_big_seconds=$(python3 -c "print(round($T1 - $T0, 3))")"
cmp -s "$WORK/big.bin" "$WORK/peer3/in/big.bin" && echo "send_big_intact=yes" || echo "send_big_intact=no"
python3 - "$WORK" "$ROUNDS" <<'PY'
import filecmp, os, sys
work, rounds = sys.argv[1], int(sys.argv[2])
statuses = dict(line.split() for line in open(f"{work}/send-statuses"))
arrived = match = 0
for i in range(1, rounds + 1):
    there = os.path.join(work, "peer3/in", f"note-{i}.txt")
    intact = os.path.exists(there) and filecmp.cmp(there, os.path.join(work, "out", f"note-{i}.txt"), shallow=False)
    arrived += intact
    match += (statuses.get(str(i)) == "0") == intact
print(f"send_arrived={arrived}")
print(f"send_status_matches={match}")
print(f"send_by_alias_ok={sum(1 for i in range(1, rounds + 1, 2) if statuses.get(str(i)) == '0')}")
PY

kill -TERM $RECEIVER 2>/dev/null || true
wait $RECEIVER 2>/dev/null && echo "receiver_status=0" || echo "receiver_status=$?"

"$PY" - "$WORK" "${BIG_ROUNDS:-1}" <<'PY'
import json, sys, statistics
work, rounds = sys.argv[1], int(sys.argv[2])
def events(name):
    out = []
    for line in open(f"{work}/{name}"):
        try: out.append(json.loads(line))
        except ValueError: pass
    return out
peer = events("peer1.out")
found = [e for e in peer if e["event"] == "found"]
print("found=" + ("yes" if found else "no"))
if found:
    print(f"found_ms={found[0]['ms']}")
    print(f"found_protocol={found[0]['protocol']}")
    print(f"found_fingerprint={found[0]['fingerprint']}")
sent = [e for e in peer if e["event"] == "sent"]
print(f"sent_rounds={len(sent)}")
print(f"sent_ok={sum(1 for e in sent if e['ok'])}")
regs = [e["ms"] for e in peer if e["event"] == "register"]
answered = sorted(r for r in regs if r is not None)
print(f"register_answered={len(answered)}/{len(regs)}")
if answered:
    print(f"register_p50_ms={answered[len(answered) // 2]}")
    print(f"register_p90_ms={answered[min(len(answered) - 1, int(len(answered) * 0.9))]}")
for name in ("big-ours", "big-peer"):
    key = name.replace('-', '_')
    times = []
    for r in range(1, rounds + 1):
        s = [e for e in events(f"{name}-{r}.out") if e["event"] == "sent"]
        if s and s[0]["ok"]:
            times.append(s[0]["seconds"])
        else:
            print(f"{key}_error={(s[0].get('error') if s else [e for e in events(f'{name}-{r}.out')][-1:])}")
    # The median of the rounds, and all of them; "failed" when any failed.
    print(f"{key}_seconds={statistics.median(times) if len(times) == rounds else 'failed'}")
    print(f"{key}_all={','.join(str(t) for t in times)}")
recv = events("recv.out")
print(f"receiver_asked={sum(1 for e in recv if e['event'] == 'asked' and e['accepted'])}")
print(f"receiver_delivered={sum(1 for e in recv if e['event'] == 'delivered')}")
print(f"receiver_failed={sum(1 for e in recv if e['event'] == 'failed')}")
PY
echo "fence=$(fence_count)"
