# Sourced by the NearbyBenchmarks lab scripts once they have set LABSH (../shared/nearby/lab.sh):
# the lab's verbs, a background start whose $! is the program itself, a cleanup that kills what
# was started and takes the lab down, and the lab brought up with its fence counter at zero.
# nearby in the lab is kept off the machine's system bus: where an avahi-daemon runs there, a
# receiver in a lab host would otherwise announce through it onto the machine's own network.
export LAB=${LAB:-dnb} LAB_NET=${LAB_NET:-10.217.0}
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/nearby-lab/system_bus_socket
lab() { bash "$LABSH" "$@"; }
at() { local h=$1; shift; lab exec "$h" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid (kill -9 reaches it).
bg_at() { exec bash "$LABSH" exec "$@"; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; lab down >/dev/null 2>&1 || true; }
trap cleanup EXIT
lab up >/dev/null
lab fence reset >/dev/null
# Every nearby process as an unprivileged user, as people run it (the tests' own rule and
# helper): NEARBY becomes a wrapper that starts it as that user, exec'd down to nearby itself
# (its pid is the wrapper's, for kill and GNU time).
source "$(dirname "${BASH_SOURCE[0]}")/../../Tests/NearbyTests/Fixtures/lab-user.sh"
NEARBY_BIN=$NEARBY
if [ "${#AS_USER[@]}" -gt 1 ]; then
  { echo '#!/bin/bash'; printf 'exec'; printf ' %q' "${AS_USER[@]}" "$NEARBY"; echo ' "$@"'; } > "$WORK/nearby-as-user"
  chmod 755 "$WORK/nearby-as-user"
  NEARBY=$WORK/nearby-as-user
fi
# fresh_roots WORK: device roots WORK/A and WORK/B copied from WORK/Samples, unpaired and empty.
fresh_roots() { for d in A B; do rm -rf "$1/$d"; cp -r "$1/Samples" "$1/$d"; rm -rf "$1/$d/Nearby" "$1/$d/Containers"; give "$1/$d"; done; }
# ready_roots NEARBY WORK H2: one small send from WORK/A (on h1) to WORK/B (on h2, port 53400),
# as a device in use has done, so that both fresh roots have compiled their type registries
# before anything is timed: the first send from fresh roots compiled both in its timed window,
# and its 1 GiB ran at 1.4-1.5x wormhole against 2.2x and more after it (2026-11-28).
ready_roots() {
  local nearby=$1 work=$2 h2=$3 r
  head -c 1000 /dev/urandom > "$work/ready.txt"
  bg_at h2 "$nearby" receive --root "$work/B" --mode paired --port 53400 --no-discovery --no-launch --json > "$work/ready.out" 2>&1 & r=$!
  for _ in $(seq 200); do grep -q '"listening"' "$work/ready.out" 2>/dev/null && break; sleep 0.05; done
  at h1 "$nearby" send "$work/ready.txt" --to "$h2:53400" --app com.example.notes --root "$work/A" --no-discovery --json > /dev/null
  kill -INT "$r"; wait "$r" 2>/dev/null || true
  rm -rf "$work/B/Containers" "$work/B/Nearby/Spool" "$work/ready.txt" "$work/ready.out"
}
