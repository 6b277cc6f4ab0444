# bash completion for notifyutil, generated from its declaration (notifyutil --generate-completion bash)
_notifyutil() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -z) return ;;
        -signal) return ;;
        -p) return ;;
        -w) return ;;
        -#) return ;;
        -g) return ;;
        -s) return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-q -v -z -M -R -port -file -check -plain -signal -dispatch -p -w -# -g -s --help -h --version" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _notifyutil notifyutil
