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
# fresh_roots WORK: device roots WORK/A and WORK/B copied from WORK/Samples, unpaired and empty.
fresh_roots() { for d in A B; do rm -rf "$1/$d"; cp -r "$1/Samples" "$1/$d"; rm -rf "$1/$d/Nearby" "$1/$d/Containers"; done; }
