# bash completion for pbcopy, generated from its declaration (pbcopy --generate-completion bash)
_pbcopy() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -pboard) return ;;
        --type) return ;;
        --expires) return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-pboard --type --expires --local-only --change-count --root --help -h --version" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _pbcopy pbcopy
