#!/usr/bin/env bash
# MulticastDNS between real processes on hosts in network namespaces (../shared/nearby/lab.sh),
# against python-zeroconf 0.154 and, when installed, avahi-daemon. Prints key=value lines for
# MulticastDNSLabTests; the probes' and peers' JSON lines stay in WORK.
#   mdns-lab.sh PROBE LAB_SH WORK VENV     (VENV: where python-zeroconf is, made when missing)
# A: our responder in h1, python-zeroconf browsing in h2: found, resolved, updated (a new TXT
#    record, re-announced), removed after goodbye.
# B: python-zeroconf publishing in h2, our browser in h1: found, resolved, removed after goodbye.
# C: our browser in h2 running, our responder starting in h1, 10 times: how long until it is
#    found, and until the goodbye is reported (RFC 6762 §10.1 keeps a goodbye's record 1 s);
#    then a responder running and our browser starting, 10 times: how long until it is found.
# D: python-zeroconf and our responder on the same host h1: both found from h2 and from h1 by
#    both browsers; python-zeroconf still answers after ours stopped.
# E: a responder and a browser started and stopped 30 times in one process: no descriptor or
#    thread left.
# F: avahi-daemon publishing from a static service file in h3, found by our browser in h1.
set -euo pipefail
PROBE=$1 LABSH=$2 WORK=$3 VENV=$4
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dmt} LAB_NET=${LAB_NET:-10.216.0}
lab() { bash "$LABSH" "$@"; }
at() { local h=$1; shift; lab exec "$h" "$@"; }
# In the background: exec'd down to the program itself, so $! is its pid (SIGTERM reaches it).
bg_at() { exec bash "$LABSH" exec "$@"; }
facts() { python3 "$HERE/lab-facts.py" "$@"; }
now() { date +%s.%N; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  lab down >/dev/null 2>&1 || true
}
trap cleanup EXIT
# Waits (bounded: TRIES × 50 ms) until FILE holds a line containing TEXT; 1 (and a note) if not.
wait_for() {
  for _ in $(seq "${3:-100}"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "timeout waiting for $2 in $1" >&2; cat "$1" >&2 2>/dev/null || true; return 1
}
stop() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# python-zeroconf in its own venv, made on first use (a fresh clone has none).
if ! "$VENV/bin/python" -c 'import sys, zeroconf; sys.exit(zeroconf.__version__ != "0.154.0")' 2>/dev/null; then
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install -q zeroconf==0.154.0 >&2
fi
PY=$VENV/bin/python
T=_di-nearby._tcp

lab up >/dev/null
lab fence reset >/dev/null
H1=$(lab addr h1) H2=$(lab addr h2)
echo "h1=$H1"

# A: our responder, python-zeroconf's browser.
bg_at h2 "$PY" "$HERE/zc-browse.py" $T 8 "$H2" > "$WORK/a-zc.out" 2>&1 & ZB=$!; pids+=($ZB)
wait_for "$WORK/a-zc.out" '"browsing"' || true
bg_at h1 "$PROBE" publish --interface eth0 --type $T --name "Alice's Mac" --port 53400 --host-label di-h1 \
  --txt v=1 --txt fp=3fa2 --update-after 1.5 --update-txt v=2 --update-txt fp=3fa2 --duration 1.5 > "$WORK/a-ours.out" 2>&1 & R=$!; pids+=($R)
wait_for "$WORK/a-zc.out" '"added"' || true
for f in server port txt addresses; do echo "a_zc_$f=$(facts field "$WORK/a-zc.out" added "Alice's Mac" $f)"; done
wait_for "$WORK/a-zc.out" '"updated"' || true
echo "a_zc_updated_txt=$(facts field "$WORK/a-zc.out" updated "Alice's Mac" txt)"
wait "$R" || true
wait_for "$WORK/a-zc.out" '"removed"' 60 || true
echo "a_zc_removed=$(facts field "$WORK/a-zc.out" removed - name)"
stop "$ZB"

# B: python-zeroconf's responder, our browser.
bg_at h1 "$PROBE" browse --interface eth0 --type $T --duration 10 > "$WORK/b-ours.out" 2>&1 & B=$!; pids+=($B)
wait_for "$WORK/b-ours.out" '"browsing"' || true
bg_at h2 "$PY" "$HERE/zc-register.py" $T "Bob zc" 53401 zc-h2 "$H2" 2.5 v=2 flag > "$WORK/b-zc.out" 2>&1 & Z=$!; pids+=($Z)
wait_for "$WORK/b-ours.out" '"added"' || true
for f in host port txt addresses interface; do echo "b_ours_$f=$(facts field "$WORK/b-ours.out" added "Bob zc" $f)"; done
wait "$Z" || true
wait_for "$WORK/b-ours.out" '"removed"' 60 || true
echo "b_ours_removed=$(facts field "$WORK/b-ours.out" removed - name)"
stop "$B"

# C: found how soon after our responder starts, across hosts; removed how soon after it stops.
found=() spawned=() removed=()
for i in $(seq 10); do
  out="$WORK/c-browse-$i.out" pub="$WORK/c-publish-$i.out"
  bg_at h2 "$PROBE" browse --interface eth0 --type $T --duration 10 > "$out" 2>&1 & B=$!; pids+=($B)
  wait_for "$out" '"browsing"' || true
  spawn=$(now)
  at h1 "$PROBE" publish --interface eth0 --type $T --name "Run $i" --port 53400 --host-label di-h1 --duration 1 > "$pub" 2>&1 || true
  wait_for "$out" '"removed"' 60 || true
  stop "$B"
  since=$(facts field "$pub" started - since) added=$(facts time "$out" added)
  stopped=$(facts time "$pub" stopped) gone=$(facts time "$out" removed)
  if [ "$added" != none ] && [ "$since" != none ]; then
    found+=("$(python3 -c "print($added - $since)")") spawned+=("$(python3 -c "print($added - $spawn)")")
  fi
  if [ "$gone" != none ] && [ "$stopped" != none ]; then removed+=("$(python3 -c "print($gone - $stopped)")"); fi
done
echo "c_found_runs=${#found[@]}"
echo "c_removed_runs=${#removed[@]}"
echo "c_found_p90_ms=$(facts p90 "${found[@]}")"
echo "c_found_max_ms=$(facts max "${found[@]}")"
echo "c_found_from_spawn_p90_ms=$(facts p90 "${spawned[@]}")"
echo "c_removed_p90_ms=$(facts p90 "${removed[@]}")"
# And a browser started while the responder runs: its first question is answered after the
# 20–120 ms a shared record waits (RFC 6762 §6). Each run starts more than a second after the
# last multicast of the record (the second announcement, the previous run's answer): a record
# multicast less than a second before is not multicast again (§6), and the answer would wait for
# the browser's second question, a second later.
bg_at h1 "$PROBE" publish --interface eth0 --type $T --name "Standing" --port 53400 --host-label di-h1 --duration 60 \
  > "$WORK/c-standing.out" 2>&1 & R=$!; pids+=($R)
wait_for "$WORK/c-standing.out" '"started"' || true
sleep 2.1
existing=()
for i in $(seq 10); do
  out="$WORK/c-existing-$i.out"
  bg_at h2 "$PROBE" browse --interface eth0 --type $T --duration 10 > "$out" 2>&1 & B=$!; pids+=($B)
  wait_for "$out" '"added"' || true
  stop "$B"
  browsing=$(facts time "$out" browsing) added=$(facts time "$out" added)
  if [ "$added" != none ] && [ "$browsing" != none ]; then existing+=("$(python3 -c "print($added - $browsing)")"); fi
  sleep 1.1
done
stop "$R"
echo "c_existing_runs=${#existing[@]}"
echo "c_existing_p90_ms=$(facts p90 "${existing[@]}")"
echo "c_existing_max_ms=$(facts max "${existing[@]}")"

# D: python-zeroconf and our responder on one host.
bg_at h1 "$PY" "$HERE/zc-register.py" $T "Dana zc" 53402 zc-h1 "$H1" 60 v=3 > "$WORK/d-zc.out" 2>&1 & Z=$!; pids+=($Z)
wait_for "$WORK/d-zc.out" '"registered"' || true
bg_at h1 "$PROBE" publish --interface eth0 --type $T --name "Dana ours" --port 53403 --host-label di-h1 --duration 60 \
  > "$WORK/d-ours.out" 2>&1 & R=$!; pids+=($R)
wait_for "$WORK/d-ours.out" '"started"' || true
sleep 1.2
# Browsed 5 s each (only who is found counts here): under CI's load python-zeroconf's answers
# came later than a 1.5 s window (a fresh-clone run saw "Dana ours" alone).
at h2 "$PROBE" lookup --interface eth0 --type $T --timeout 5 > "$WORK/d-lookup-h2.out" 2>&1 || true
at h1 "$PROBE" lookup --interface eth0 --type $T --timeout 5 > "$WORK/d-lookup-h1.out" 2>&1 || true
at h2 "$PY" "$HERE/zc-browse.py" $T 5 "$H2" > "$WORK/d-zc-h2.out" 2>&1 || true
at h1 "$PY" "$HERE/zc-browse.py" $T 5 "$H1" > "$WORK/d-zc-h1.out" 2>&1 || true
echo "d_ours_from_h2=$(facts names "$WORK/d-lookup-h2.out")"
echo "d_ours_from_h1=$(facts names "$WORK/d-lookup-h1.out")"
echo "d_zc_from_h2=$(facts added "$WORK/d-zc-h2.out")"
echo "d_zc_from_h1=$(facts added "$WORK/d-zc-h1.out")"
stop "$R"
sleep 1.2
at h2 "$PROBE" lookup --interface eth0 --type $T --timeout 5 > "$WORK/d-after-h2.out" 2>&1 || true
echo "d_after_ours_stopped=$(facts names "$WORK/d-after-h2.out")"
stop "$Z"

# E: start and stop, many times.
at h3 "$PROBE" churn --interface eth0 --type $T --times 30 > "$WORK/e.out" 2>&1 || true
for f in times fds_before fds_after threads_before threads_after; do echo "e_$f=$(facts field "$WORK/e.out" churned - $f)"; done

# F: avahi-daemon (Debian's), when installed: its own configuration, a static service file in its
# own services folder and its own /run/avahi-daemon, mounted in h3's mount namespace only.
if command -v avahi-daemon >/dev/null && [ -d /etc/avahi/services ]; then
  mkdir -p "$WORK/avahi/services"
  cat > "$WORK/avahi/avahi-daemon.conf" <<CONF
[server]
host-name=avahi-h3
use-ipv4=yes
use-ipv6=yes
allow-interfaces=eth0
enable-dbus=no
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
CONF
  cat > "$WORK/avahi/services/erin.service" <<'SERVICE'
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<service-group>
  <name>Erin avahi</name>
  <service>
    <type>_di-nearby._tcp</type>
    <port>53404</port>
    <txt-record>v=5</txt-record>
  </service>
</service-group>
SERVICE
  bg_at h3 sh -c 'mount --bind "$1/services" /etc/avahi/services && mount -t tmpfs tmpfs /run/avahi-daemon 2>/dev/null ||
    { mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon; }; exec avahi-daemon --file "$1/avahi-daemon.conf" --no-drop-root --no-chroot --no-rlimits' \
    sh "$WORK/avahi" > "$WORK/f-avahi.out" 2>&1 & A=$!; pids+=($A)
  wait_for "$WORK/f-avahi.out" 'Server startup complete' 1200 || true
  at h1 "$PROBE" lookup --interface eth0 --type $T --timeout 1.5 > "$WORK/f-lookup.out" 2>&1 || true
  echo "f_ours_found=$(facts names "$WORK/f-lookup.out")"
  echo "f_avahi_service=$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    for s in d.get("services", []):
        if s["name"] == "Erin avahi": print(json.dumps({k: s[k] for k in ("host", "port", "txt", "addresses")}, sort_keys=True, separators=(",", ":")))' "$WORK/f-lookup.out")"
  stop "$A"
else
  echo "f_ours_found=skipped"
fi

echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
