#!/usr/bin/env bash
# NearbyBenchmarks' resume section in network namespaces (../shared/nearby/lab.sh): COUNT
# interruptions, each of a fresh SIZE_MIB send h1 → h2 over a rate-limited link (tbf RATE on h1, so
# that a send lasts a few seconds), each at a random moment and of a random kind:
#   kill-sender    kill -9 of the sending process
#   kill-receiver  kill -9 of the receiving process, which is then started again
#   link-down      `ip link set eth0 down` on h1 for 0.5–3 s
#   nft-drop       nftables on h2 dropping everything to and from h1 for 0.5–3 s
# The moment: a random fraction of the item already in the receiver's spool (0–100 %), or, one
# time in fifty, the instant the spool's partial file goes away (the item complete: verification
# and delivery). Each interruption is followed by the same send again until it is delivered (at
# most 10 tries), unless the first send delivered it: a link fault may leave it alive, and a kill
# may come just after the receiver confirmed the delivery.
# Then checked for each item: delivered exactly once into the app's Inbox (and once only later:
# a late second copy is caught by the final scan), byte-identical (SHA-256), nothing partial ever
# visible in the Inbox (looked at the instant of each interruption), and the accounting of the
# first retry: it resumes from what the receiver held after the fault settled (`held` in its
# "answered" event equals its "done" event's bytesResumed, bytesSent is the rest), so the bytes it
# sends again beyond that remainder (excess = held after the fault − held in the answer) are at
# most one data frame (256 KiB).
# Prints one key=value line per interruption and a summary; reproducible with SEED. To aim at one
# case, KINDS narrows the kinds and MOMENT_MIN the moments (permille; 1000: the item complete).
#   lab-resume.sh NEARBY LAB_SH WORK SIZE_MIB RATE COUNT [SEED]
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3 SIZE=$4 RATE=$5 COUNT=$6 SEED=${7:-$$}
RANDOM=$SEED
BYTES=$((SIZE << 20))
CHUNK=$((256 << 10))
source "$(dirname "${BASH_SOURCE[0]}")/lab-common.sh"
lab rate h1 "$RATE"
H1=$(lab addr h1) H2=$(lab addr h2)
fresh_roots "$WORK"
bg_at h2 "$NEARBY" pair --show-code --root "$WORK/B" --name h2 --port 53401 --json > "$WORK/show.out" 2>&1 & pids+=($!)
for _ in $(seq 200); do grep -q '"code"' "$WORK/show.out" 2>/dev/null && break; sleep 0.05; done
CODE=$(sed -n 's/.*"code":"\([0-9]*\)".*/\1/p' "$WORK/show.out")
at h1 "$NEARBY" pair h2 --code "$CODE" --to "$H2:53401" --root "$WORK/A" --json > /dev/null
INBOX=$WORK/B/Containers/com.example.notes/Documents/Inbox
REQUESTS=$WORK/B/Containers/com.example.notes/Library/OpenRequests
SPOOL=$WORK/B/Nearby/Spool
mkdir -p "$WORK/src" "$WORK/checked" "$WORK/log"
head -c "$BYTES" /dev/urandom > "$WORK/base.bin"

start_receiver() {
  local before; before=$(grep -c '"listening"' "$WORK/recv.out" 2>/dev/null || true)
  bg_at h2 "$NEARBY" receive --root "$WORK/B" --mode paired --port 53500 --no-discovery --no-launch --json >> "$WORK/recv.out" 2>&1 &
  RECEIVER=$!; pids+=($RECEIVER)
  for _ in $(seq 200); do [ "$(grep -c '"listening"' "$WORK/recv.out")" -gt "${before:-0}" ] && return 0; sleep 0.05; done
  echo "the receiver did not start" >&2; return 1
}
: > "$WORK/recv.out"
start_receiver
# This item's partial file: the one written since its send began (a partial file an earlier item
# left behind, which would be a bug, must not stand for it).
partial() { find "$SPOOL" -name .partial -newer "$WORK/mark" -printf '%s\n' 2>/dev/null | head -1 || true; }
# The partial file's size once it has stopped growing (the fault has taken effect); the whole
# size when the item is complete (no partial file any more).
settled() {
  local a b; a=$(partial)
  for _ in $(seq 25); do sleep 0.2; b=$(partial); [ "$a" = "$b" ] && break; a=$b; done
  echo "${a:-$BYTES}"
}
# Files in the Inbox that are not the whole size: a partial item made visible.
partial_visible() { find "$INBOX" -maxdepth 1 -type f ! -size "${BYTES}c" 2>/dev/null | wc -l; }
send_args() { echo "$NEARBY send $WORK/src/item-$1.txt --to $H2:53500 --app com.example.notes --root $WORK/A --no-discovery --json"; }
# From one attempt's JSON lines: "held bytesSent bytesResumed delivered" (- where absent).
accounting() { python3 - "$1" <<'PY'
import json, sys
held = sent = resumed = "-"; delivered = 0
for line in open(sys.argv[1], errors="replace"):
    try: d = json.loads(line)
    except ValueError: continue
    if d.get("event") == "answered": held = d["held"][0]
    if d.get("event") == "done": sent, resumed, delivered = d["bytesSent"], d["bytesResumed"], d["delivered"]
print(held, sent, resumed, delivered)
PY
}
cut_host() { # KIND SECONDS: a link fault that ends by itself
  if [ "$1" = link-down ]; then
    ip -n "$LAB-h1" link set eth0 down; sleep "$2"; ip -n "$LAB-h1" link set eth0 up
    # Taking the link down dropped the routes lab.sh added; the tbf stays but is set again.
    ip -n "$LAB-h1" route replace 224.0.0.0/4 dev eth0; ip -n "$LAB-h1" route replace default via "$LAB_NET.254" dev eth0
    lab rate h1 "$RATE"
  else
    ip netns exec "$LAB-h2" nft -f - <<NFT
table inet cut {
  chain in { type filter hook input priority -5; policy accept; ip saddr $H1 drop; }
  chain out { type filter hook output priority -5; policy accept; ip daddr $H1 drop; }
}
NFT
    sleep "$2"; ip netns exec "$LAB-h2" nft delete table inet cut
  fi
}

all_kinds=(kill-sender kill-receiver link-down nft-drop)
read -ra kinds <<< "${KINDS:-${all_kinds[*]}}"
MOMENT_MIN=${MOMENT_MIN:-0}
declare -A by_kind=()
interrupted=0 transfers=0 delivered=0 duplicates=0 corrupt=0 lost=0 visible=0 bad_accounting=0 max_excess=0 retries=0 finished_first=0
while [ "$interrupted" -lt "$COUNT" ]; do
  transfers=$((transfers + 1)); i=$transfers
  # A distinct item each time: the common random bytes with the item's number over the first 16.
  cp "$WORK/base.bin" "$WORK/src/item-$i.txt"
  printf '%016d' "$i" | dd of="$WORK/src/item-$i.txt" bs=16 count=1 conv=notrunc status=none
  sha=$(sha256sum < "$WORK/src/item-$i.txt" | cut -d' ' -f1)
  kind=${kinds[$((RANDOM % ${#kinds[@]}))]}
  moment=$((MOMENT_MIN + RANDOM % (1020 - MOMENT_MIN)))   # permille of the item; above 1000: when it completes
  down=$(python3 -c "import random; random.seed($SEED * 1000 + $i); print(round(random.uniform(0.5, 3.0), 2))")
  touch "$WORK/mark"; sleep 0.01
  # shellcheck disable=SC2046 # words of the command line
  bg_at h1 $(send_args "$i") > "$WORK/log/$i-0.json" 2>&1 & SENDER=$!
  at_bytes=-1 seen_partial=0
  while kill -0 "$SENDER" 2>/dev/null; do
    p=$(partial)
    [ -n "$p" ] && seen_partial=1
    if [ "$moment" -le 1000 ]; then
      [ -n "$p" ] && [ "$p" -ge $((BYTES / 1000 * moment)) ] && { at_bytes=$p; break; }
    else
      [ "$seen_partial" = 1 ] && [ -z "$p" ] && { at_bytes=$BYTES; break; }
    fi
    sleep 0.01
  done
  if [ "$at_bytes" -lt 0 ]; then
    # The send ended before the moment came: no interruption; the item is checked all the same.
    wait "$SENDER" || true; finished_first=$((finished_first + 1)); kind=none
  else
    interrupted=$((interrupted + 1)); by_kind[$kind]=$(( ${by_kind[$kind]:-0} + 1 ))
    [ "$(partial_visible)" -eq 0 ] || visible=$((visible + 1))
    case $kind in
      # The sender may have finished since the moment was seen (the item completed): then the
      # kill finds nothing, and the item is checked as delivered by its first send.
      kill-sender) kill -9 "$SENDER" 2>/dev/null || true; wait "$SENDER" 2>/dev/null || true;;
      kill-receiver) kill -9 "$RECEIVER" 2>/dev/null || true; wait "$RECEIVER" 2>/dev/null || true;;
      link-down|nft-drop) cut_host "$kind" "$down";;
    esac
  fi
  [ "$kind" = kill-receiver ] && start_receiver
  ok=0 tries=0 first_retry=""
  # The first send ends by itself (killed, or its idle timeout bounds it). It may have lived
  # through the fault, or finished just before it struck (the receiver killed after confirming
  # the delivery): then it is not sent again, since sending a completed send again is a new
  # transfer, rightly delivered again (docs/nearby.md), not a retry.
  wait "$SENDER" 2>/dev/null || true
  read -r _ s0 r0 d0 < <(accounting "$WORK/log/$i-0.json")
  # Delivered by the first send: every byte sent once, none resumed.
  if [ "$d0" = 1 ]; then ok=1; [ $((s0 + r0)) -eq "$BYTES" ] || bad_accounting=$((bad_accounting + 1)); fi
  observed=-
  while [ "$ok" = 0 ] && [ "$tries" -lt 10 ]; do
    # What the receiver holds before the first retry, once the fault has taken effect.
    [ "$tries" = 0 ] && observed=$(settled)
    tries=$((tries + 1)); retries=$((retries + 1))
    # shellcheck disable=SC2046
    at h1 timeout 120 $(send_args "$i") > "$WORK/log/$i-$tries.json" 2>&1 || true
    read -r held sent resumed d < <(accounting "$WORK/log/$i-$tries.json")
    [ -z "$first_retry" ] && first_retry="$held $sent $resumed $d"
    [ "$d" = 1 ] && ok=1 || sleep 0.5
  done
  # The first retry's accounting against what the receiver held once the fault settled.
  excess=0 account=ok
  if [ -n "$first_retry" ]; then
    read -r held sent resumed d <<< "$first_retry"
    if [ "$held" != - ]; then
      excess=$((observed - held)); [ "$excess" -gt "$max_excess" ] && max_excess=$excess
      [ "$excess" -le "$CHUNK" ] || account=excess
      if [ "$d" = 1 ]; then { [ "$resumed" = "$held" ] && [ $((sent + resumed)) -eq "$BYTES" ]; } || account=mismatch; fi
    fi
  fi
  [ "$account" = ok ] || bad_accounting=$((bad_accounting + 1))
  # Exactly one file in the Inbox (the earlier ones were moved aside once checked), this item's, intact.
  mapfile -t got < <(find "$INBOX" -maxdepth 1 -type f -printf '%f\n' 2>/dev/null)
  state=delivered
  if [ "${#got[@]}" -eq 0 ]; then lost=$((lost + 1)); state=lost
  else
    [ "${#got[@]}" -gt 1 ] && { duplicates=$((duplicates + ${#got[@]} - 1)); state=duplicate; }
    if [ "${got[0]}" = "item-$i.txt" ] && [ "$(sha256sum < "$INBOX/item-$i.txt" | cut -d' ' -f1)" = "$sha" ]; then delivered=$((delivered + 1))
    else corrupt=$((corrupt + 1)); state="corrupt(${got[*]})"; fi
    # Kept as a name only: a second copy arriving later would show up in the Inbox again.
    for f in "${got[@]}"; do mv "$INBOX/$f" "$WORK/checked/$i-$f"; : > "$WORK/checked/$i-$f"; done
  fi
  rm -f "$WORK/src/item-$i.txt"
  echo "interruption=$i kind=$kind at=$at_bytes observed=$observed first_retry_held=${held:--} excess=$excess account=$account retries=$tries state=$state"
  unset held
done
sleep 1
# A late copy of any item, and one open request per delivery.
late=$(find "$INBOX" -maxdepth 1 -type f 2>/dev/null | wc -l)
requests=$(find "$REQUESTS" -maxdepth 1 -type f 2>/dev/null | wc -l)
# The markers and the records of moves stay (a week); anything else in an item folder is left over.
echo "summary_left_in_spool=$(find "$SPOOL" -mindepth 3 -maxdepth 3 ! -name .delivered ! -name .moving | wc -l)"
echo "summary_seed=$SEED"
echo "summary_transfers=$transfers"
echo "summary_interrupted=$interrupted"
for k in "${all_kinds[@]}"; do echo "summary_kind_$k=${by_kind[$k]:-0}"; done
echo "summary_finished_before_the_moment=$finished_first"
echo "summary_delivered=$delivered"
echo "summary_duplicates=$((duplicates + late))"
echo "summary_lost=$lost"
echo "summary_corrupt=$corrupt"
echo "summary_partial_visible=$visible"
echo "summary_open_requests=$requests"
echo "summary_retries=$retries"
echo "summary_bad_accounting=$bad_accounting"
echo "summary_max_excess_bytes=$max_excess"
# Kept for a later look when asked (the benchmark removes WORK).
if [ -n "${RESUME_LOGS:-}" ]; then rm -rf "$RESUME_LOGS"; mkdir -p "$RESUME_LOGS"; cp -r "$WORK/log" "$WORK/recv.out" "$RESUME_LOGS/"; find "$SPOOL" > "$RESUME_LOGS/spool.txt"; fi
echo "fence=$(lab fence | sed -n 's/.*escaped_packets=\([0-9?]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')"
