# zsh_complete.zsh SITE_FUNCTIONS BIN LINE: what zsh's own completion system offers for LINE<Tab>,
# one candidate a line. An interactive zsh runs in a pseudo-terminal (zsh/zpty) with the installed
# completion functions on fpath and compinit loaded, as a user's shell has them; compadd is wrapped
# so that every candidate a completion function adds is printed between markers, whatever the
# display would have done with it.
zmodload zsh/zpty || exit 77
zpty shell zsh -f -i
zpty -w shell "PROMPT='>'; fpath=($1 \$fpath); PATH=$2:\$PATH; autoload -U compinit; compinit -u -D; bindkey '^I' complete-word"
zpty -w shell 'compadd () { if [[ $1 = -O || $1 = -A || $1 = -D ]]; then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -O hits "$@"; print -rl -- "@@${^hits[@]}@@"; }'
zpty -w -n shell "$3"$'\t'
# Read until a candidate has come and the shell has been quiet for half a second (a loaded
# machine may take a while to load compinit), or 15 seconds have passed.
output=""
quiet=0
deadline=$((SECONDS + 15))
while (( SECONDS < deadline )); do
  if zpty -r -t shell line; then
    output+=$line
    quiet=0
  else
    sleep 0.05
    (( quiet++ ))
    [[ $output =~ '@@[^@$]+@@' ]] && (( quiet >= 10 )) && break
  fi
done
zpty -d shell
# The echo of the wrapper's own definition carries the marker pattern too: only complete words count.
print -r -- "$output" | grep -o '@@[^@$]*@@' | sed 's/^@@//; s/@@$//' | sort -u
