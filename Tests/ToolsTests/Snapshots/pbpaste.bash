# bash completion for pbpaste, generated from its declaration (pbpaste --generate-completion bash)
_pbpaste() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -pboard) return ;;
        -Prefer) COMPREPLY=($(compgen -W "txt rtf ps" -- "$cur")); return ;;
        --type) return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-pboard -Prefer --type --types --change-count --root --help -h --version" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _pbpaste pbpaste
