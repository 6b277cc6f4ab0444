/// Shell completion scripts (bash, zsh, fish) made from the tool's declaration: verbs, options,
/// choices, and file or folder names where an option or operand takes one.
package enum Completions {
    /// The shells a script can be made for.
    package static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, or `nil` for another shell.
    package static func script(_ spec: ToolSpec, shell: String) -> String? {
        switch shell {
        case "bash": bash(spec)
        case "zsh": zsh(spec)
        case "fish": fish(spec)
        default: nil
        }
    }

    static func function(_ spec: ToolSpec) -> String { "_" + spec.name.replacing("-", with: "_") }

    /// Whether an option of the tool takes an app's bundle identifier (the scripts then carry a
    /// function that lists the registered apps).
    static func takesApps(_ spec: ToolSpec) -> Bool {
        (spec.allOptions + ToolSpec.standardOptions).contains { $0.value == .bundleIdentifier }
    }

    static func bash(_ spec: ToolSpec) -> String {
        let options = spec.allOptions + ToolSpec.standardOptions
        let names = options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
        var valueCases = ""
        for option in options {
            guard let kind = option.value else { continue }
            let pattern = ([option.name] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
            switch kind {
            case .choice(let words): valueCases += "        \(pattern)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            case .directory: valueCases += "        \(pattern)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
            case .file: valueCases += "        \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            case .bundleIdentifier: valueCases += "        \(pattern)) COMPREPLY=($(compgen -W \"$(\(function(spec))_apps)\" -- \"$cur\")); return ;;\n"
            default: valueCases += "        \(pattern)) return ;;\n"
            }
        }
        // A verb's first argument with choices (`plutil -convert FORMAT`).
        for verb in spec.verbs {
            guard let first = verb.arguments.first, case .choice(let words) = first.kind else { continue }
            valueCases += "        \(([verb.name] + verb.aliases).joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
        }
        let verbs = spec.verbs.map(\.name).joined(separator: " ")
        // Only for a tool with an option that takes an app.
        let appsFunction = Self.takesApps(spec) ? """
        # The bundle identifiers of the apps registered on the device root (--root, else
        # $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
        \(function(spec))_apps() {
            local root="" i app
            for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
            root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
            for app in "$root"/Apps/*; do
                [[ -d "$app" ]] && app="$app/Info.plist"
                plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
            done
        }
        """ : ""
        // Verbs spelt as options (plutil's -convert) are offered with the options before a verb.
        let dashedVerbs = spec.verbs.map(\.name).filter { $0.hasPrefix("-") }.joined(separator: " ")
        var subverbCases = ""
        for verb in spec.verbs where !verb.subverbs.isEmpty {
            subverbCases += "            \(verb.name)) COMPREPLY=($(compgen -W \"\(verb.subverbs.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
        }
        return """
        # bash completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion bash)
        \(function(spec))() {
            local cur prev verb i
            cur="${COMP_WORDS[COMP_CWORD]}"
            prev="${COMP_WORDS[COMP_CWORD-1]}"
            case "$prev" in
        \(valueCases)    esac
            verb=""
            for ((i = 1; i < COMP_CWORD; i++)); do
                case " \(verbs) " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
            done
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "\(names.joined(separator: " "))${verb:+ }${verb:-\(dashedVerbs.isEmpty ? "" : " " + dashedVerbs)}" -- "$cur"))
                [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "\(names.joined(separator: " "))" -- "$cur"))
                return
            fi
            if [[ -n "$verb" && "$prev" == "$verb" ]]; then
                case "$verb" in
        \(subverbCases)        esac
            fi
            if [[ -z "$verb" && -n "\(verbs)" ]]; then
                COMPREPLY=($(compgen -W "\(verbs)" -- "$cur"))
                \(spec.operands == nil ? "" : "COMPREPLY+=($(compgen -f -- \"$cur\"))")
                return
            fi
            COMPREPLY=($(compgen -f -- "$cur"))
        }
        \(appsFunction)
        complete -o filenames -F \(function(spec)) \(spec.name)

        """
    }

    static func zsh(_ spec: ToolSpec) -> String {
        func escaped(_ text: String) -> String {
            text.replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]").replacing(":", with: "\\:")
        }
        func argument(_ option: OptionSpec) -> String {
            var action = ""
            if let kind = option.value {
                switch kind {
                case .choice(let words): action = ":\(escaped(kind.placeholder)):(\(words.joined(separator: " ")))"
                case .directory: action = ":directory:_files -/"
                case .file: action = ":file:_files"
                case .bundleIdentifier: action = ":\(escaped(kind.placeholder)):\(function(spec))_apps"
                default: action = ":\(escaped(option.placeholder ?? kind.placeholder)): "
                }
            }
            let body = "[\(escaped(option.help))]\(action)'"
            let star = option.repeatable ? "*" : ""
            if let short = option.short { return "    '(\(short) \(option.name))'\(star.isEmpty ? "" : "'*'"){\(short),\(option.name)}'\(body)" }
            return "    '\(star)\(option.name)\(body)"
        }
        let options = (spec.allOptions + ToolSpec.standardOptions).map(argument)
        let verbs = spec.verbs.map { "        '\($0.name):\(escaped($0.summary))'" }
        let appsFunction = Self.takesApps(spec) ? """
        # The bundle identifiers of the apps registered on the device root (--root, else
        # $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
        \(function(spec))_apps() {
            local root="" i app
            i=${words[(I)--root]}
            (( i > 0 )) && root=${words[i+1]}
            root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
            local -a apps
            for app in "$root"/Apps/*(N); do
                [[ -d "$app" ]] && app="$app/Info.plist"
                apps+=("$(plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null)")
            done
            compadd -- ${apps:#}
        }
        """ : ""
        let withSubverbs = spec.verbs.filter { !$0.subverbs.isEmpty }
        let tail = spec.verbs.isEmpty ? "'*:file:_files'" : withSubverbs.isEmpty ? "'1: :->verb' '*:file:_files'" : "'1: :->verb' '2: :->subverb' '*:file:_files'"
        var verbState = spec.verbs.isEmpty ? "" : "[[ $state == verb ]] && _describe -t verbs 'verb' verbs" + (spec.operands == nil ? "" : " && _files")
        if !withSubverbs.isEmpty {
            // The verb's first operand from its subverbs (`openin default set|get|unset|list`).
            verbState += "\n    if [[ $state == subverb ]]; then\n        case ${line[1]} in\n"
            for verb in withSubverbs { verbState += "            \(verb.name)) compadd -- \(verb.subverbs.joined(separator: " ")) ;;\n" }
            verbState += "            *) _files ;;\n        esac\n    fi"
        }
        return """
        #compdef \(spec.name)
        # zsh completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion zsh)
        \(function(spec))() {
            local -a verbs
            verbs=(
        \(verbs.joined(separator: "\n"))
            )
            local state
            _arguments -s \\
        \(options.joined(separator: " \\\n")) \\
                \(tail)
            \(verbState)
        }
        \(appsFunction)
        \(function(spec)) "$@"

        """
    }

    static func fish(_ spec: ToolSpec) -> String {
        func quoted(_ s: String) -> String { "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }
        var out = "# fish completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion fish)\n"
        let verbNames = spec.verbs.map(\.name).joined(separator: " ")
        if !spec.verbs.isEmpty {
            for verb in spec.verbs {
                out += "complete -c \(spec.name) -f -n '__fish_use_subcommand' -a \(verb.name) -d \(quoted(verb.summary))\n"
            }
        }
        func line(_ option: OptionSpec, condition: String?) -> String {
            var parts = ["complete -c \(spec.name)"]
            if let condition { parts.append("-n \(quoted(condition))") }
            if option.name.hasPrefix("--") { parts.append("-l \(option.name.dropFirst(2))") } else { parts.append("-o \(option.name.dropFirst())") }
            if let short = option.short { parts.append("-s \(short.dropFirst())") }
            if let kind = option.value {
                switch kind {
                case .choice(let words): parts.append("-x -a \(quoted(words.joined(separator: " ")))")
                case .file: parts.append("-r -F")
                case .directory: parts.append("-r -x -a '(__fish_complete_directories)'")
                case .bundleIdentifier: parts.append("-x -a '(__\(function(spec))_apps)'")
                default: parts.append("-x")
                }
            }
            parts.append("-d \(quoted(option.help))")
            return parts.joined(separator: " ") + "\n"
        }
        for option in spec.options + ToolSpec.standardOptions { out += line(option, condition: nil) }
        for verb in spec.verbs {
            for option in verb.options { out += line(option, condition: "__fish_seen_subcommand_from \(verb.name)") }
        }
        for verb in spec.verbs where !verb.subverbs.isEmpty {
            let seen = verb.subverbs.joined(separator: " ")
            out += "complete -c \(spec.name) -f -n \(quoted("__fish_seen_subcommand_from \(verb.name); and not __fish_seen_subcommand_from \(seen)")) -a \(quoted(seen))\n"
        }
        if !verbNames.isEmpty && spec.operands == nil { out += "complete -c \(spec.name) -n 'not __fish_use_subcommand' -F\n" }
        if Self.takesApps(spec) {
            // The bundle identifiers of the apps registered on the device root (--root, else
            // $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
            out += """
            function __\(function(spec))_apps
                set -l words (commandline -opc)
                set -l root
                set -l i (contains -i -- --root $words); and set root $words[(math $i + 1)]
                test -n "$root"; or set root $DOCUMENT_INTERCHANGE_ROOT
                test -n "$root"; or begin; set -q XDG_DATA_HOME; and set root $XDG_DATA_HOME/document-interchange; or set root $HOME/.local/share/document-interchange; end
                for app in $root/Apps/*
                    test -d $app; and set app $app/Info.plist
                    plutil -extract CFBundleIdentifier raw -o - $app 2>/dev/null
                end
            end

            """
        }
        return out
    }
}
