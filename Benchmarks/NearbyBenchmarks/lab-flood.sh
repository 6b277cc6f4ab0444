#!/usr/bin/env bash
# NearbyBenchmarks' flood section: the test suite's attacker lab (Tests/NearbyTests/Fixtures/
# attack-lab.sh, attacker.py) with QUIET_ROUNDS quiet 64 MiB sends, then the same sends back to
# back while the attacker opens FLOOD connections to each port and makes GUESSES PIN guesses.
# Every nearby process as the unprivileged user. Prints the fixture's key=value lines.
#   lab-flood.sh NEARBY LAB_SH WORK QUIET_ROUNDS FLOOD GUESSES
set -euo pipefail
NEARBY=$1 LABSH=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE=$(cd "$HERE/../.." && pwd)
FLOOD_WORK=$WORK/flood
rm -rf "$FLOOD_WORK"; mkdir -p "$FLOOD_WORK"
for d in A B; do cp -r "$PACKAGE/Samples" "$FLOOD_WORK/$d"; rm -rf "$FLOOD_WORK/$d/Nearby" "$FLOOD_WORK/$d/Containers"; done
rm -rf "$FLOOD_WORK/B/Apps/Files.app"   # public.data goes to the download folder
cp "$PACKAGE/Samples/Documents/notes.txt" "$FLOOD_WORK/"
head -c $((64 << 20)) /dev/urandom > "$FLOOD_WORK/big.bin"
LAB=${LAB:-dfb} LAB_NET=${LAB_NET:-10.232.0} QUIET_ROUNDS=$4 FLOOD=$5 GUESSES=$6 \
  bash "$PACKAGE/Tests/NearbyTests/Fixtures/attack-lab.sh" "$NEARBY" "$LABSH" "$FLOOD_WORK"
rm -rf "$FLOOD_WORK"
