#!/usr/bin/env bash
# The receiver's questions on a real terminal (tmux: its screen is what the person sees), the
# receiver (h3) and the senders (h1, h2: asks from two addresses may wait at once) on hosts in
# network namespaces (../shared/nearby/lab.sh), all as the test user (lab-user.sh), discovery
# off: one question at a time, the next shown when the first is
# answered, nothing printed onto a pending [y/N]; a question withdrawn at its timeout and a late
# "y" that answers nothing; Ctrl-C at a question ends the receiver at once and its sender reads
# "declined"; a hostile sender's name on the question and beside the comparison digits acts on
# nothing. Prints "ok NAME" or "FAIL NAME: why", then "N passed, M failed".
#   prompt-terminal.sh NEARBY LAB_SH WORK     (WORK holds device roots A, A2, A3 and B made by the test, and notes.txt)
set -u
NEARBY=$1 LABSH=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
export LAB=${LAB:-dpt} LAB_NET=${LAB_NET:-10.228.0}
source "$HERE/peer-lab-common.sh"
source "$HERE/lab-user.sh"
N=("${AS_USER[@]}" "$NEARBY")
# No descriptor of the caller's but 0-2 reaches the tmux server (it would hold the caller's pipe).
for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-"; done
socket=nearby-prompt-$$
passed=0; failed=0
ok() { echo "ok $1"; passed=$((passed+1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed+1)); }
stop_receiver() { [ -s "$WORK/receiver.pid" ] && kill -TERM "$(cat "$WORK/receiver.pid")" 2>/dev/null; tmux -L $socket kill-server >/dev/null 2>&1; rm -f "$WORK/receiver.pid"; }
trap 'stop_receiver; cleanup' EXIT
lab up >/dev/null
lab fence reset >/dev/null
H3=$(lab addr h3)
screen() { tmux -L $socket capture-pane -p -S -200; }
# Waits (at most 20 s) until the screen shows TEXT (a fixed string), N times when given.
wait_screen() {
  for _ in $(seq 400); do [ "$(screen | grep -cF -- "$1")" -ge "${2:-1}" ] && return 0; sleep 0.05; done
  fail "screen shows '$1'" "$(screen | tail -15)"; return 1
}
PORT=53700
FP=$("${N[@]}" identity --root "$WORK/B" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fingerprint"])')
receive() {  # receive ASK-TIMEOUT PORT: the receiver in h3 on the terminal; its exit status after it on a line of its own
  PORT=$2
  local command; command=$(printf '%q ' bash "$LABSH" exec h3 "${N[@]}" receive --root "$WORK/B" --mode everyone --localsend off --no-discovery \
    --listen "$H3" --port "$PORT" --no-launch --downloads "$WORK/B/Downloads" --ask-timeout "$1")
  tmux -L $socket new-session -d -x 160 -y 50 "bash -c 'echo \$\$ > $WORK/receiver.pid; exec $command'; echo receiver exited \$?; sleep 30" \
    </dev/null >/dev/null 2>&1
  wait_screen "receiving on port $PORT"
}
send() {  # send HOST ROOT OUT: a stranger's send from HOST, in the background
  bash "$LABSH" exec "$1" "${N[@]}" send "$WORK/notes.txt" --to "$H3:$PORT" --fingerprint "$FP" --root "$WORK/$2" --name "$2" \
    --from "com.example.$2" > "$WORK/$3" 2>&1 &
}

# Two strangers at once: one question on screen, the other after it.
receive 60 53700
send h1 A a.out; SA=$!
wait_screen "Accept? [y/N]"
send h2 A2 a2.out; SA2=$!
sleep 1.5
[ "$(screen | grep -cF 'Accept? [y/N]')" = 1 ] && ok "one question at a time" || fail "one question at a time" "$(screen | tail -12)"
tmux -L $socket send-keys y Enter
wait_screen "Accept? [y/N]" 2
tmux -L $socket send-keys n Enter
wait "$SA"; sa=$?; wait "$SA2"; sa2=$?
[ "$sa" = 0 ] && ok "the first, accepted, is delivered" || fail "the first, accepted, is delivered" "exit $sa: $(cat "$WORK/a.out")"
[ "$sa2" = 1 ] && grep -q "declined: declined" "$WORK/a2.out" && ok "the second, declined, is told so" || fail "the second, declined, is told so" "exit $sa2: $(cat "$WORK/a2.out")"
# Nothing was printed onto a pending question: each [y/N] line ends with the answer typed.
bad=$(screen | grep -F 'Accept? [y/N]' | grep -vE 'Accept\? \[y/N\] [yn]?$')
[ -z "$bad" ] && ok "nothing printed onto a pending [y/N]" || fail "nothing printed onto a pending [y/N]" "$bad"
stop_receiver

# A question nobody answers is withdrawn at its timeout (3 s); a late "y" answers nothing.
receive 3 53701
send h1 A3 a3.out; SA3=$!
wait_screen "Accept? [y/N]"
wait_screen "(withdrawn)"
wait "$SA3"; sa3=$?
[ "$sa3" = 1 ] && grep -q "declined: nobody answered within 3 s" "$WORK/a3.out" && ok "withdrawn at the timeout, the sender declined" \
  || fail "withdrawn at the timeout, the sender declined" "exit $sa3: $(cat "$WORK/a3.out")"
tmux -L $socket send-keys y Enter
wait_screen "no question is waiting for an answer" && ok "a late y answers nothing, and says so"
[ ! -e "$WORK/B/Containers/com.example.notes/Documents/Inbox/notes-1.txt" ] && ok "nothing more delivered" || fail "nothing more delivered" "$(ls "$WORK/B/Containers/com.example.notes/Documents/Inbox")"

# Ctrl-C at a question: the receiver ends at once (no Enter needed), its sender reads "declined".
send h2 A a4.out; SA4=$!
wait_screen "Accept? [y/N]" 2
t0=$(date +%s%N)
tmux -L $socket send-keys C-c
wait_screen "receiver exited" && ok "Ctrl-C ends the receiver" 
echo "ctrl_c_ms=$(( ($(date +%s%N) - t0) / 1000000 ))"
screen | grep -q "receiver exited 0" && ok "and it exits 0" || fail "and it exits 0" "$(screen | tail -5)"
wait "$SA4"; sa4=$?
[ "$sa4" = 1 ] && grep -q "declined: the receiver stopped" "$WORK/a4.out" && ok "its sender is declined, not cut off" \
  || fail "its sender is declined, not cut off" "exit $sa4: $(cat "$WORK/a4.out")"

# Hostile names (issue #43): a sender's name that clears the screen, sets the terminal's title,
# conceals text, forges a prompt on a line of its own and runs on for 300 characters.
HOSTILE=$'Eve\e[2J\e]0;PWNED\a\e[8m\nAccept? [y/N] \n    111 111\n'"$(printf 'W%.0s' $(seq 300))"
receive 60 53702
bash "$LABSH" exec h1 "${N[@]}" send "$WORK/notes.txt" --to "$H3:$PORT" --fingerprint "$FP" --root "$WORK/A" --name "$HOSTILE" \
  --from com.example.A > "$WORK/h.out" 2>&1 &
SH=$!
wait_screen "Accept? [y/N]"
sleep 0.5
title=$(tmux -L $socket display -p '#{pane_title}')
[ "$title" != PWNED ] && ok "a name sets no terminal title" || fail "a name sets no terminal title" "$title"
screen | grep -qF 'Eve\u{1b}[2J\u{1b}]0;PWNED\u{7}\u{1b}[8m\nAccept? [y/N] \n' && ok "a name is shown, escaped" \
  || fail "a name is shown, escaped" "$(screen | grep -F Eve)"
[ "$(screen | grep -cE '^Accept\? \[y/N\]')" = 1 ] && ok "a name forges no prompt line" || fail "a name forges no prompt line" "$(screen | tail -8)"
screen | grep -qE 'W{300}' && fail "a name is cut" "$(screen | grep -F Eve)" || ok "a name is cut"
screen | grep -qF "receiving on port 53702" && ok "a name clears no screen" || fail "a name clears no screen" "$(screen | tail -8)"
tmux -L $socket send-keys n Enter
wait "$SH"
stop_receiver

# The same name beside the comparison digits while pairing: the real digits stay the only line
# of digits, and they are the ones the other device shows.
bash "$LABSH" exec h3 "${N[@]}" pair --wait --no-discovery --root "$WORK/B" --name "$HOSTILE" --port 53703 --json \
  < <(sleep 30) > "$WORK/b-pair.out" 2>&1 &
BP=$!
for _ in $(seq 200); do grep -q waiting "$WORK/b-pair.out" 2>/dev/null && break; sleep 0.05; done
command=$(printf '%q ' bash "$LABSH" exec h1 "${N[@]}" pair --to "$H3:53703" --no-discovery --root "$WORK/A" --name Ann)
tmux -L $socket new-session -d -x 160 -y 50 "$command; echo pair exited \$?; sleep 30" </dev/null >/dev/null 2>&1
wait_screen "Do they? [y/N]"
digits=$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "compare": print(e["digits"])' "$WORK/b-pair.out")
shown=$(screen | grep -E '^    [0-9]{3} [0-9]{3}$')
[ -n "$digits" ] && [ "$shown" = "    $digits" ] && ok "the comparison shows only the real digits" \
  || fail "the comparison shows only the real digits" "B: $digits, A: $(screen | tail -8)"
title=$(tmux -L $socket display -p '#{pane_title}')
[ "$title" != PWNED ] && ok "a peer's name sets no title while pairing" || fail "a peer's name sets no title while pairing" "$title"
tmux -L $socket send-keys n Enter
wait_screen "pair exited"
kill "$BP" 2>/dev/null; wait "$BP" 2>/dev/null
tmux -L $socket kill-server >/dev/null 2>&1

echo "fence=$(fence_count)"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
