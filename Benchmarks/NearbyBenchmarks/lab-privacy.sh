#!/usr/bin/env bash
# The privacy capture of issue #26: "a capture (tshark) of two rotation periods in paired mode
# holds no host name, certificate fingerprint or other value that stays the same". In network
# namespaces (../shared/nearby/lab.sh; needs root): h1 and h2 pair by code, then both run
# `nearby receive --mode paired` with discovery on eth0 while tshark captures everything on the
# lab's bridge; every 45 to 105 s one host runs `nearby list` or `nearby send --to NAME` (h3, never
# paired, lists too), so browsing, resolving and TLS connections are in the capture as well as the
# announcements. Hosts run under distinctive host names (dpv-alpha-host...) and device names, so
# that a search for them means something. Capture starts a few seconds after an epoch boundary
# (DiscoveryTag: floor(unix time / 900)) and ends 90 s after the EPOCHS-th boundary after it; then
# lab-privacy.py searches every frame's bytes for the secrets and lists every value seen in more
# than one epoch, and prints the verdict.
#   lab-privacy.sh NEARBY LAB_SH WORK [EPOCHS]    (EPOCHS: boundaries to capture, default 2)
# Env (to try the script out): NO_WAIT=1 starts at once instead of after the next boundary,
#      DURATION=S captures S seconds instead, GAP=S sets the shortest pause between steps (45).
# Keeps WORK/capture.pcap, WORK/secrets.json, WORK/activity.log and the analysis (WORK/report.txt).
# Exit status: the analysis's (0 PASS, 1 FAIL), or 2 when the lab run itself failed.
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 EPOCHS=${4:-2}
export LAB=${LAB:-dpv} LAB_NET=${LAB_NET:-10.221.0}
# Off the machine's system bus: an avahi-daemon there would announce the lab's receivers outside.
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/nearby-lab/system_bus_socket
EPOCH_LENGTH=900   # DiscoveryTag.epochLength
GAP=${GAP:-45}
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE=$(cd "$HERE/../.." && pwd)
lab() { bash "$LABSH" "$@"; }
# Runs CMD in HOST under host name NAME (a UTS namespace inside the one lab.sh makes).
at() { local h=$1 name=$2; shift 2; lab exec "$h" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$name" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid.
bg_at() { exec bash "$LABSH" exec "$1" unshare --uts sh -c 'hostname "$0"; exec "$@"' "${@:2}"; }
declare -A HOST=([h1]=dpv-alpha-host [h2]=dpv-beta-host [h3]=dpv-gamma-host)
declare -A ROOT=([h1]=A [h2]=B [h3]=C)
NAME1="Alpha Laptop" NAME2="Beta Desktop"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  lab down >/dev/null 2>&1 || true
}
trap cleanup EXIT
for tool in tshark python3 unshare; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 2; }; done
lab up >/dev/null
lab fence reset >/dev/null
H2=$(lab addr h2)
mkdir -p "$WORK"
for h in h1 h2 h3; do
  d="$WORK/${ROOT[$h]}"
  rm -rf "$d"; cp -r "$PACKAGE/Samples" "$d"
  rm -rf "$d/Nearby" "$d/Containers" "$d/Preferences" "$d/Pasteboards" "$d/registry.bin"
  ln -s "$PACKAGE/UTIs" "$d/UTIs"   # the type catalog a delivery looks up
done
wait_for() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2; exit 2; }

# Pairing by code, as users pair: h2 shows it, h1 types it and calls h2 by its own name.
bg_at h2 "${HOST[h2]}" "$NEARBY" pair --show-code --root "$WORK/B" --name "$NAME2" --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
wait_for "$WORK/show.out" '"code"'
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h1 "${HOST[h1]}" "$NEARBY" pair "$NAME2" --code "$CODE" --to "$H2:53401" --root "$WORK/A" --name "$NAME1" --json > "$WORK/pair.out" 2>&1 \
  || { echo "pairing failed" >&2; cat "$WORK/pair.out" "$WORK/show.out" >&2; exit 2; }
wait "${pids[-1]}" || { echo "show-code failed" >&2; cat "$WORK/show.out" >&2; exit 2; }

# h3 never pairs; its identity is made now so that it is among the secrets too.
at h3 "${HOST[h3]}" "$NEARBY" identity --root "$WORK/C" > /dev/null
# What must not appear: written before the capture, from the roots themselves.
python3 - "$WORK" "${HOST[h1]}" "${HOST[h2]}" "${HOST[h3]}" "$NAME1" "$NAME2" > "$WORK/secrets.json" <<'PY'
import hashlib, json, plistlib, subprocess, sys
work, hosts, names = sys.argv[1], sys.argv[2:5], sys.argv[5:7]
devices, keys = [], set()
for role, root, host, name in (("h1", "A", hosts[0], names[0]), ("h2", "B", hosts[1], names[1]), ("h3", "C", hosts[2], None)):
    try:
        cert = open(f"{work}/{root}/Nearby/identity-cert.der", "rb").read()
    except FileNotFoundError:
        continue
    key = subprocess.run(["openssl", "x509", "-inform", "der", "-noout", "-pubkey"], input=cert, capture_output=True).stdout
    spki = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True).stdout
    devices.append({"role": role, "host_name": host, "device_name": name, "fingerprint": hashlib.sha256(cert).hexdigest(),
                    "certificate": cert.hex(), "public_key": spki[-65:].hex()})
    try:
        for d in plistlib.load(open(f"{work}/{root}/Nearby/Paired.plist", "rb"))["Devices"]:
            keys.add(d["DiscoveryKey"].hex())
    except FileNotFoundError:
        pass
# The name each device is known by at its peer (h1 calls h2 by the name given at pairing).
for d in devices:
    if d["role"] == "h2":
        d["name_at_peer"] = names[1]
print(json.dumps({"devices": devices, "discovery_keys": sorted(keys)}, indent=1))
PY

# Start just after a boundary, so that the first epoch is (nearly) whole.
now=$(date +%s)
if [ "${NO_WAIT:-0}" != 1 ]; then
  next=$(( (now / EPOCH_LENGTH + 1) * EPOCH_LENGTH ))
  echo "waiting $((next + 5 - now)) s for the epoch boundary at $(date -u -d @$next +%H:%M:%S)"
  sleep $((next + 5 - now))
fi
start=$(date +%s)
end=$(( (start / EPOCH_LENGTH + EPOCHS) * EPOCH_LENGTH + 90 ))
[ -z "${DURATION:-}" ] || end=$((start + DURATION))
echo "capturing from $(date -u -d @$start +%FT%TZ) to $(date -u -d @$end +%FT%TZ): epochs $((start / EPOCH_LENGTH)) to $((end / EPOCH_LENGTH))"

# The bridge forgets every MAC at once (ageing 0) and so floods every frame to all its ports,
# its own included: one capture on br0 sees unicast TLS between h1 and h2 as well as multicast.
ip -n "$LAB-sw" link set br0 type bridge ageing_time 0
ip netns exec "$LAB-sw" tshark -i br0 -F pcap -w "$WORK/capture.pcap" -q > "$WORK/tshark.out" 2>&1 & TSHARK=$!; pids+=($TSHARK)
wait_for "$WORK/tshark.out" "Capturing on"
sleep 1

: > "$WORK/recv1.out"; : > "$WORK/recv2.out"
bg_at h1 "${HOST[h1]}" "$NEARBY" receive --root "$WORK/A" --mode paired --interface eth0 --json --no-launch \
  --downloads "$WORK/A/Downloads" > "$WORK/recv1.out" 2>&1 & R1=$!; pids+=($R1)
bg_at h2 "${HOST[h2]}" "$NEARBY" receive --root "$WORK/B" --mode paired --interface eth0 --json --no-launch \
  --downloads "$WORK/B/Downloads" > "$WORK/recv2.out" 2>&1 & R2=$!; pids+=($R2)
wait_for "$WORK/recv1.out" '"listening"'
wait_for "$WORK/recv2.out" '"listening"'

# Now and then, from one side or the other: browse, or send a small file by the paired name.
: > "$WORK/activity.log"
step=0
while [ "$(date +%s)" -lt $((end - 20)) ]; do
  sleep $((GAP + RANDOM % (GAP * 4 / 3 + 1)))
  [ "$(date +%s)" -lt $((end - 20)) ] || break
  head -c 4096 /dev/urandom > "$WORK/item-$step.bin"
  case $((step % 5)) in
    0) h=h1; what=(list --root "$WORK/A");;
    1) h=h2; what=(send "$WORK/item-$step.bin" --to "$NAME1" --root "$WORK/B");;
    2) h=h3; what=(list --root "$WORK/C");;
    3) h=h1; what=(send "$WORK/item-$step.bin" --to "$NAME2" --root "$WORK/A");;
    4) h=h2; what=(list --root "$WORK/B");;
  esac
  set +e
  at $h "${HOST[$h]}" "$NEARBY" "${what[@]}" --interface eth0 --json > "$WORK/step-$step.out" 2>&1
  status=$?
  set -e
  echo "$(date -u +%FT%TZ) epoch=$(( $(date +%s) / EPOCH_LENGTH )) $h ${what[0]} status=$status $(tr '\n' ' ' < "$WORK/step-$step.out" | cut -c1-160)" >> "$WORK/activity.log"
  step=$((step + 1))
done
sleep $(( end - $(date +%s) > 0 ? end - $(date +%s) : 0 ))

# Receivers stop as users stop them (their goodbyes are in the capture), then the capture.
kill -TERM "$R1" "$R2"; wait "$R1" "$R2" 2>/dev/null || true
sleep 2
kill -INT "$TSHARK"; wait "$TSHARK" 2>/dev/null || true
fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')
lab down >/dev/null
echo "activity (status 0 = the list or send worked):"
sed 's/^/   /' "$WORK/activity.log"
echo "failed_steps=$(grep -vc 'status=0' "$WORK/activity.log" || true) steps=$(wc -l < "$WORK/activity.log")"
echo "fence=$fence (packets addressed outside the lab; must be 0)"
set +e
python3 "$HERE/lab-privacy.py" "$WORK/capture.pcap" "$WORK/secrets.json" | tee "$WORK/report.txt"
verdict=${PIPESTATUS[0]}
set -e
[ "$fence" = 0 ] || { echo "FAIL: the fence counted $fence packets"; exit 1; }
exit "$verdict"
