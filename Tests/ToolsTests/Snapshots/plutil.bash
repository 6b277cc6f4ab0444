# bash completion for plutil, generated from its declaration (plutil --generate-completion bash)
_plutil() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -o) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -e) return ;;
        -expect) return ;;
        -convert) COMPREPLY=($(compgen -W "xml1 binary1 json" -- "$cur")); return ;;
        -create) COMPREPLY=($(compgen -W "xml1 binary1 json" -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " -lint -p -convert -insert -replace -remove -extract -type -create -help " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-unarchive -s -o -e -r -append -expect -n --help -h --version${verb:+ }${verb:- -lint -p -convert -insert -replace -remove -extract -type -create -help}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "-unarchive -s -o -e -r -append -expect -n --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "-lint -p -convert -insert -replace -remove -extract -type -create -help" ]]; then
        COMPREPLY=($(compgen -W "-lint -p -convert -insert -replace -remove -extract -type -create -help" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _plutil plutil
