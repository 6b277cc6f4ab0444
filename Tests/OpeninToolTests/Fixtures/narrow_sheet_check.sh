#!/usr/bin/env bash
# openin's sheet on a real terminal emulator of 40x7 (tmux: its screen is what a person sees):
#   narrow_sheet_check.sh OPENIN DEVICE-ROOT
# Every line is cut to the width, never wrapped; the document line, the highlighted row and the
# footer stay on screen while paging; a newline or an escape sequence in the document's name is
# shown escaped on its one line. Prints "ok NAME" or "FAIL NAME: why", then "N passed, M failed".
set -u
openin=$1; root=$2
# No descriptor of the caller's but 0-2 reaches the tmux server (it would hold the caller's pipe).
for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-"; done
socket=openin-sheet-$$
passed=0; failed=0
ok() { echo "ok $1"; passed=$((passed+1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed+1)); }
trap 'tmux -L $socket kill-server >/dev/null 2>&1' EXIT
doc="$root/Documents/evil"$'\n'"name"$'\e'"[31m.person"
cp "$root/Documents/file.person" "$doc"
DOC=$doc tmux -L $socket new-session -d -x 40 -y 7 "'$openin' --root '$root' --no-launch \"\$DOC\"; sleep 2" </dev/null >/dev/null 2>&1
screen() { tmux -L $socket capture-pane -p; }
settle() { for i in $(seq 100); do screen | grep -q '^\[page' && break; sleep 0.05; done; sleep 0.3; }
check_screen() {
  local label=$1 s; s=$(screen)
  local lines; lines=$(printf '%s\n' "$s" | grep -c .)
  [ "$lines" -le 7 ] && ok "$label: fits 7 rows" || fail "$label: fits 7 rows" "$lines lines: $s"
  local long="" line
  while IFS= read -r line; do [ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)" -gt 40 ] && long=$line; done <<< "$s"
  [ -z "$long" ] && ok "$label: no line over 40 columns" || fail "$label: no line over 40 columns" "$long"
  printf '%s\n' "$s" | head -1 | grep -q "^${root:0:20}.*…$" && ok "$label: the document line, cut" || fail "$label: the document line, cut" "$(printf '%s\n' "$s" | head -1)"
  printf '%s\n' "$s" | grep -q '^  > ' && ok "$label: the highlighted row" || fail "$label: the highlighted row" "$s"
  printf '%s\n' "$s" | grep . | tail -1 | grep -q '^\[page' && ok "$label: the footer" || fail "$label: the footer" "$s"
}
settle; check_screen "first page"
tmux -L $socket send-keys NPage; settle; check_screen "second page"
tmux -L $socket send-keys Down Down Down Down; settle; check_screen "rows down"
# Wide enough, the name is one line with its newline and escape shown escaped.
tmux -L $socket resize-window -x 200 -y 7; tmux -L $socket send-keys PPage; settle
screen | head -1 | grep -qF 'evil\nname\u{1b}[31m.person: com.example.person' && ok "the name escaped on one line" || fail "the name escaped on one line" "$(screen | head -2)"
# The header gave the escape sequence as text: nothing on screen turned red.
tmux -L $socket capture-pane -p -e | grep -q $'\e\\[31m' && fail "no raw escape reached the terminal" "red text on screen" || ok "no raw escape reached the terminal"
tmux -L $socket send-keys q
echo "$passed passed, $failed failed"
[ $failed = 0 ]
