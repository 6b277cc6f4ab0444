# bash completion for plutil, generated from its declaration (plutil --generate-completion bash)
_plutil() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " -lint -p -convert -insert -replace -remove -extract -type -create -help " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        -extract)
            case "$prev" in
                -expect) return ;;
            esac
            ;;
        -type)
            case "$prev" in
                -expect) return ;;
            esac
            ;;
    esac
    case "$prev" in
        -o) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -e) return ;;
        -convert) COMPREPLY=($(compgen -W "xml1 binary1 json" -- "$cur")); return ;;
        -create) COMPREPLY=($(compgen -W "xml1 binary1 json" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "-unarchive -s -o -e -r --help -h --version -lint -p -convert -insert -replace -remove -extract -type -create -help" -- "$cur")) ;;
            -insert) COMPREPLY=($(compgen -W "-unarchive -s -o -e -r -append --help -h --version" -- "$cur")) ;;
            -extract) COMPREPLY=($(compgen -W "-unarchive -s -o -e -r -expect -n --help -h --version" -- "$cur")) ;;
            -type) COMPREPLY=($(compgen -W "-unarchive -s -o -e -r -expect --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "-unarchive -s -o -e -r --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "-lint -p -convert -insert -replace -remove -extract -type -create -help" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    case "$verb" in
        -help) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _plutil plutil
