#!/usr/bin/env bash
# An attacker in the lab (issue #43): h3 receives in everyone-mode (our protocol, LocalSend over
# HTTPS with a PIN, AirDrop's protocol on awdl0), h1 is a device paired with it, h2 is the attacker
# (attacker.py). Every nearby process runs as the unprivileged test user (lab-user.sh), the
# attacker as root (it is not ours). The attacker
#   - sits in the middle of a LocalSend and an AirDrop send (the first connection relayed to h3,
#     the later ones answered by its own TLS server): no PIN and no file byte may reach it, and
#     the send must fail naming the changed certificate;
#   - guesses PINs: at most 3 may be weighed, and the right PIN right after is refused;
#   - floods: FLOOD connections to each of h3's ports and GUESSES PIN guesses, while h1 sends a
#     64 MiB file to h3 (paired) back to back: each send's time against its quiet time, h3's
#     peak RSS, and nothing written for the flood.
# Prints key=value lines (one a line) for AttackLabTests and NearbyBenchmarks --flood.
#   attack-lab.sh NEARBY LAB_SH WORK     (WORK holds device roots A and B made by the test, and
#                                          notes.txt; big.bin, 64 MiB, is made when missing)
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dat} LAB_NET=${LAB_NET:-10.231.0}
FLOOD=${FLOOD:-1000} GUESSES=${GUESSES:-10000} RATE=${RATE:-1gbit} QUIET_ROUNDS=${QUIET_ROUNDS:-3}
source "$HERE/peer-lab-common.sh"
source "$HERE/lab-user.sh"
at() { local h=$1; shift; lab exec "$h" "$@"; }
N=("${AS_USER[@]}" "$NEARBY")
ATTACKER=(python3 "$HERE/attacker.py")
[ -f "$WORK/big.bin" ] || head -c $((64 << 20)) /dev/urandom > "$WORK/big.bin"
lab up >/dev/null
lab fence reset >/dev/null
H2=$(lab addr h2) H3=$(lab addr h3) H3_AWDL=$(lab addr h3 awdl)
for h in h1 h2 h3; do lab rate "$h" "$RATE"; done
ms_since() { echo $(( ($(now) - $1) / 1000000 )); }
# The receiver's peak RSS so far, in KiB, as rss_STEP=.
rss() { echo "rss_$1=$(awk '/VmHWM/ {print $2}' "/proc/$RECEIVER/status")"; }
# Waits (at most 10 s) until HOST listens on TCP PORT.
wait_port() { for _ in $(seq 200); do lab exec "$1" ss -Hltn "sport = :$2" | grep -q . && return 0; sleep 0.05; done; echo "nothing listens on $1:$2" >&2; return 1; }

# Pairing A (h1) with B (h3), by code.
bg_at h3 "${N[@]}" pair --show-code --root "$WORK/B" --name b --port 53401 --no-discovery --json > "$WORK/show.out" 2>&1 &
SHOW=$!; pids+=($SHOW)
wait_for "$WORK/show.out" '"code"'
at h1 "${N[@]}" pair b --code "$(json_field "$WORK/show.out" code)" --to "$H3:53401" --root "$WORK/A" --name a --no-discovery --json \
  > "$WORK/pair.out" 2>&1
wait "$SHOW" 2>/dev/null || true

# A device in use has compiled its type registry: one small send to a receiver started for it, so
# that the compile (about 40 MiB at its peak, once per change of the apps) is not in the figures.
bg_at h3 "${N[@]}" receive --root "$WORK/B" --mode paired --no-discovery --port 53400 --no-launch --downloads "$WORK/B/Downloads" --json \
  > "$WORK/ready.out" 2>&1 &
READY=$!; pids+=($READY)
wait_for "$WORK/ready.out" '"listening"'
at h1 "${N[@]}" send "$WORK/notes.txt" --to b --root "$WORK/A" --no-discovery --json > "$WORK/ready-send.out" 2>&1
kill -INT "$READY"; wait "$READY" 2>/dev/null || true
rm -rf "$WORK/B/Downloads" "$WORK/B/Nearby/Spool" "$WORK/B/Containers"

# B's receiver: everyone-mode, auto-accept (so that every ask the limits let in is taken), our
# protocol on 53400, LocalSend over HTTPS with PIN 4711 on 53317, AirDrop on awdl0.
bg_at h3 "${N[@]}" receive --root "$WORK/B" --mode everyone --minutes 30 --auto-accept --no-discovery --port 53400 \
  --localsend https --localsend-pin 4711 --airdrop awdl0 --airdrop-port 8771 --no-launch --downloads "$WORK/B/Downloads" --json \
  > "$WORK/recv.out" 2>&1 &
RECEIVER=$!; pids+=($RECEIVER)
wait_for "$WORK/recv.out" '"protocol":"airdrop"'
wait_for "$WORK/recv.out" '"protocol":"localsend"'
rss started

# The impostor's certificate: a key and a self-signed certificate of its own.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=impostor \
  -keyout "$WORK/impostor.key" -out "$WORK/impostor.crt" >/dev/null 2>&1

# A device in the middle on h2: its impostor (a TLS server of its own on IMPOSTOR_PORT) and a
# relay on PORT that passes the first connection to REAL:PORT and the later ones to the impostor;
# then h1's send CMD... through it. Prints the send's status, whether it named the changed
# certificate, and what reached the impostor.
#   middle TAG IMPOSTOR_PORT PORT REAL CMD...
middle() {
  local tag=$1 impostor=$2 port=$3 real=$4; shift 4
  bg_at h2 "${ATTACKER[@]}" impostor "$impostor" "$WORK/impostor.crt" "$WORK/impostor.key" "$WORK/impostor-$tag.json" \
    > "$WORK/impostor-$tag.out" 2>&1 &
  pids+=($!)
  bg_at h2 "${ATTACKER[@]}" relay "$port" "$real" "$port" "$impostor" > "$WORK/relay-$tag.out" 2>&1 &
  pids+=($!)
  wait_port h2 "$impostor"; wait_port h2 "$port"
  local st=0
  at h1 "${N[@]}" "$@" > "$WORK/mitm-$tag.out" 2>&1 || st=$?
  echo "mitm_${tag}_status=$st"
  echo "mitm_${tag}_says=$(grep -c 'another device may be in the middle' "$WORK/mitm-$tag.out" || true)"
  python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print("mitm_%s_requests=%d\nmitm_%s_pins=%d\nmitm_%s_body_bytes=%d" % (sys.argv[2], d["requests"], sys.argv[2], len(d["pins"]), sys.argv[2], d["body_bytes"]))' \
    "$WORK/impostor-$tag.json" "$tag"
}

# 1. LocalSend: the first connection (info) reaches h3, the later ones the impostor.
middle localsend 9443 53317 "$H3" send "$WORK/notes.txt" --localsend --localsend-pin 4711 --to "$H2:53317" --root "$WORK/A" --name a --no-discovery
rss after_localsend_middle
# 2. AirDrop, sent by address: the Ask reaches h3, the Upload the impostor.
middle airdrop 9444 8771 "$H3_AWDL%awdl0" send "$WORK/notes.txt" --airdrop eth0 --to "$H2:8771" --root "$WORK/A" --name a
echo "airdrop_stance_shown=$(grep -c 'AirDrop checks no certificate' "$WORK/mitm-airdrop.out" || true)"
rss after_airdrop_middle
# 3. PIN guesses from h2: 3 weighed, then 429, the right PIN included.
at h2 "${ATTACKER[@]}" guess "$H3" 53317 20 4711 > "$WORK/guess.out"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print("guess_401=%d\nguess_429=%d\nguess_right_status=%d" % (d["statuses"].get("401", 0), d["statuses"].get("429", 0), d["right_pin_status"]))' \
  "$WORK/guess.out"

# 4. The flood. First the paired send alone, QUIET_ROUNDS times; then FLOOD connections to each
# of our and LocalSend's ports and GUESSES PIN guesses from h2 (its address is refused since step
# 3: each guess is answered 429 before its body is read), with the same send back to back until
# the flood ends. The peak RSS is read before the flood and after it.
# Each copy delivered is counted and removed (a flood lasts many sends: 64 MiB each would pile up).
delivered=0
send_big() {
  local st=0
  at h1 "${N[@]}" send "$WORK/big.bin" --to b --root "$WORK/A" --no-discovery --json > "$WORK/big-$1.out" 2>&1 || st=$?
  delivered=$((delivered + $(find "$WORK/B/Downloads" -maxdepth 1 -name 'big*.bin' | wc -l)))
  find "$WORK/B/Downloads" -maxdepth 1 -name 'big*.bin' -delete
  return $st
}
rss after_guesses
send_big warm
rss after_first_send
for i in $(seq "$QUIET_ROUNDS"); do
  t0=$(now); send_big "quiet-$i"; echo "quiet_ms=$(ms_since "$t0")"
done
echo "quiet_peak_rss_kb=$(awk '/VmHWM/ {print $2}' "/proc/$RECEIVER/status")"
flood_started=$(now)
at h2 "${ATTACKER[@]}" flood "$H3" 53400 "$FLOOD" > "$WORK/flood-ours.out" &
F1=$!
at h2 "${ATTACKER[@]}" flood "$H3" 53317 "$FLOOD" > "$WORK/flood-ls.out" &
F2=$!
at h2 "${ATTACKER[@]}" guess "$H3" 53317 "$GUESSES" 4711 > "$WORK/flood-guess.out" &
F3=$!
sleep 0.3
round=0
while kill -0 $F1 2>/dev/null || kill -0 $F2 2>/dev/null || kill -0 $F3 2>/dev/null; do
  round=$((round + 1))
  t0=$(now)
  set +e; send_big "flood-$round"; st=$?; set -e
  echo "flood_ms=$(ms_since "$t0")"; echo "flood_status=$st"
done
wait $F1 $F2 $F3
echo "flood_seconds=$(( ($(now) - flood_started) / 1000000000 ))"
echo "flood_ours=$(cat "$WORK/flood-ours.out")"
echo "flood_localsend=$(cat "$WORK/flood-ls.out")"
echo "flood_guesses=$(cat "$WORK/flood-guess.out")"
echo "receiver_peak_rss_kb=$(awk '/VmHWM/ {print $2}' "/proc/$RECEIVER/status")"
echo "receiver_uid=$(stat -c %u "/proc/$RECEIVER")"
# What was written: the paired device's copies (counted and removed as they came), nothing else in
# B's download folder; no transfer of anyone else's in the spool.
echo "delivered=$delivered"; echo "sends=$((QUIET_ROUNDS + 1 + round))"
echo "downloads_other=$(find "$WORK/B/Downloads" -type f | wc -l)"
A_FP=$("${N[@]}" identity --root "$WORK/A" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fingerprint"])')
echo "spool_transfers=$(find "$WORK/B/Nearby/Spool" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)"
echo "spool_foreign=$(find "$WORK/B/Nearby/Spool" -mindepth 1 -maxdepth 1 -type d ! -name "${A_FP:0:16}-*" 2>/dev/null | wc -l)"
echo "guesser_asks=$(grep -c '"sender":"guesser"' "$WORK/recv.out" || true)"
echo "fence=$(fence_count)"
