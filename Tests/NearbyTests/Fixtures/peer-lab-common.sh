# Sourced by the foreign-peer lab fixtures (localsend-lab.sh, airdrop-lab.sh) after they set LABSH
# and LAB/LAB_NET: the shared preamble.
# No system bus: nearby in the lab's namespaces must not reach a daemon on the machine's own bus.
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/nearby-lab/system_bus_socket
# The Python peers would otherwise verify against the machine's CA bundle (requests and httpx
# honour these even with verify=False).
unset REQUESTS_CA_BUNDLE CURL_CA_BUNDLE SSL_CERT_FILE
lab() { bash "$LABSH" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid.
bg_at() { exec bash "$LABSH" exec "$@"; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; lab down >/dev/null 2>&1 || true; }
trap cleanup EXIT
# Waits (at most $3 × 50 ms, default 10 s) until FILE holds TEXT.
wait_for() { for _ in $(seq "${3:-200}"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2; return 1; }
now() { date +%s%N; }
# Packets any host tried to send outside the lab.
fence_count() { lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}'; }
# The first value of KEY in a file of JSON lines.
json_field() { python3 -c 'import json,sys
for line in open(sys.argv[1]):
    try: d = json.loads(line)
    except ValueError: continue
    if sys.argv[2] in d: print(d[sys.argv[2]]); break' "$1" "$2"; }
