/// Shell completion scripts (bash, zsh, fish) made from the tool's declaration: verbs, options,
/// choices, and file or folder names where an option or operand takes one. Before a verb, a script
/// offers the tool's own options and the verbs; after one, the tool's options and that verb's,
/// and the verb's operands as it declares them (``OperandKind``). An option's value is completed
/// as the verb that is given declares it: one name may be a flag for one verb and take a value
/// for another (nearby's `--localsend`).
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

    /// Whether something of the tool takes an app's bundle identifier (the scripts then carry a
    /// function that lists the registered apps).
    static func takesApps(_ spec: ToolSpec) -> Bool { spec.valueKinds.contains(.bundleIdentifier) }

    /// Whether the tool has a `--root` option, whose value the scripts pass on when they ask the
    /// tool for values.
    static func takesRoot(_ spec: ToolSpec) -> Bool { spec.allOptions.contains { $0.name == "--root" } }

    /// The names an option is typed as (`--help`, `-h`).
    static func names(_ options: [OptionSpec]) -> [String] {
        var seen: Set<String> = []
        return options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }.filter { seen.insert($0).inserted }
    }

    /// The verbs, grouped by what their operands complete with (`action(kind)`, or `nothing` for
    /// a verb that takes none), in declaration order: one `case` branch per group.
    static func operandGroups(_ spec: ToolSpec, nothing: String, _ action: (ValueKind) -> String) -> [(verbs: [String], action: String)] {
        var groups: [(verbs: [String], action: String)] = []
        for verb in spec.verbs {
            let text: String
            switch verb.operandKind {
            case .nothing: text = nothing
            case .values(let kind): text = action(kind)
            }
            if let i = groups.firstIndex(where: { $0.action == text }) { groups[i].verbs.append(verb.name) } else { groups.append(([verb.name], text)) }
        }
        return groups
    }

    static func bash(_ spec: ToolSpec) -> String {
        let fn = function(spec)
        let global = spec.options + ToolSpec.standardOptions
        // What completes a value of `kind`: a statement that fills COMPREPLY, or "" for nothing.
        func reply(_ kind: ValueKind) -> String {
            switch kind {
            case .choice(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
            case .directory: "COMPREPLY=($(compgen -d -- \"$cur\"))"
            case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .bundleIdentifier: "COMPREPLY=($(compgen -W \"$(\(fn)_apps)\" -- \"$cur\"))"
            case .completed(_, let source): "\(fn)_values \(source)"
            case .text, .integer, .number, .typedValue: ""
            }
        }
        // `case "$prev"` branches: the value of each option that takes one.
        func valueCases(_ options: [OptionSpec], indent: String) -> String {
            options.compactMap { option -> String? in
                guard let kind = option.value else { return nil }
                let pattern = ([option.name] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
                let action = reply(kind)
                return indent + "\(pattern)) " + (action.isEmpty ? "" : action + "; ") + "return ;;\n"
            }.joined()
        }
        let verbs = spec.verbs.map(\.name).joined(separator: " ")
        var body = ""
        if !spec.verbs.isEmpty {
            body += """
                verb=""
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case " \(verbs) " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
                done

            """
        }
        // The verb's own options first: one name may take a value for one verb and none for another.
        let verbValues = spec.verbs.compactMap { verb -> String? in
            let cases = valueCases(verb.options, indent: "                ")
            return cases.isEmpty ? nil : "        \(verb.name))\n            case \"$prev\" in\n\(cases)            esac\n            ;;\n"
        }
        if !verbValues.isEmpty { body += "    case \"$verb\" in\n" + verbValues.joined() + "    esac\n" }
        var globalValues = valueCases(global, indent: "        ")
        // A verb's first argument with choices (`plutil -convert FORMAT`).
        for verb in spec.verbs {
            guard let first = verb.arguments.first, case .choice = first.kind else { continue }
            globalValues += "        \(([verb.name] + verb.aliases).joined(separator: "|"))) \(reply(first.kind)); return ;;\n"
        }
        if !globalValues.isEmpty { body += "    case \"$prev\" in\n" + globalValues + "    esac\n" }
        // Options: before a verb the tool's own, and verbs spelt as options (plutil's -convert);
        // after it the tool's own and the verb's.
        let globalNames = names(global).joined(separator: " ")
        if spec.verbs.isEmpty {
            body += "    if [[ \"$cur\" == -* ]]; then\n        COMPREPLY=($(compgen -W \"\(globalNames)\" -- \"$cur\"))\n        return\n    fi\n"
        } else {
            let dashed = spec.verbs.map(\.name).filter { $0.hasPrefix("-") }
            body += "    if [[ \"$cur\" == -* ]]; then\n        case \"$verb\" in\n"
            body += "            \"\") COMPREPLY=($(compgen -W \"\(([globalNames] + dashed).joined(separator: " "))\" -- \"$cur\")) ;;\n"
            for verb in spec.verbs where !verb.options.isEmpty {
                body += "            \(verb.name)) COMPREPLY=($(compgen -W \"\(names(spec.options + verb.options + ToolSpec.standardOptions).joined(separator: " "))\" -- \"$cur\")) ;;\n"
            }
            body += "            *) COMPREPLY=($(compgen -W \"\(globalNames)\" -- \"$cur\")) ;;\n        esac\n        return\n    fi\n"
            let withSubverbs = spec.verbs.filter { !$0.subverbs.isEmpty }
            if !withSubverbs.isEmpty {
                body += "    if [[ -n \"$verb\" && \"$prev\" == \"$verb\" ]]; then\n        case \"$verb\" in\n"
                for verb in withSubverbs {
                    body += "            \(verb.name)) COMPREPLY=($(compgen -W \"\(verb.subverbs.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                }
                body += "        esac\n    fi\n"
            }
            body += "    if [[ -z \"$verb\" ]]; then\n        COMPREPLY=($(compgen -W \"\(verbs)\" -- \"$cur\"))\n"
            if spec.operands != nil { body += "        COMPREPLY+=($(compgen -f -- \"$cur\"))\n" }
            body += "        return\n    fi\n"
        }
        // The operands, as the verb declares them (files when there is no verb).
        let files = reply(.file)
        let groups = operandGroups(spec, nothing: "COMPREPLY=()") { reply($0).isEmpty ? "COMPREPLY=()" : reply($0) }.filter { $0.action != files }
        if groups.isEmpty {
            body += "    \(files)\n"
        } else {
            body += "    case \"$verb\" in\n"
            for group in groups { body += "        \(group.verbs.joined(separator: "|"))) \(group.action) ;;\n" }
            body += "        *) \(files) ;;\n    esac\n"
        }
        // Only for a tool with an option that takes an app.
        let appsFunction = Self.takesApps(spec) ? """
        # The bundle identifiers of the apps registered on the device root (--root, else
        # $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
        \(fn)_apps() {
            local root="" i app
            for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
            root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
            for app in "$root"/Apps/*; do
                [[ -d "$app" ]] && app="$app/Info.plist"
                plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
            done
        }

        """ : ""
        // Only for a tool that lists values itself (nearby's paired devices); the root as the
        // command line names it, passed on.
        let rootLines = takesRoot(spec) ? """
                for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
                [[ "$root" == "~/"* ]] && root="$HOME/${root#"~/"}"
                [[ -n "$root" ]] && ask+=(--root "$root")

            """ : ""
        let valuesFunction = spec.completedSources.isEmpty ? "" : """
        # The values \(spec.name) lists for a source (\(spec.name) --complete-values SOURCE [--root ROOT], the
        # device root named on the command line), one a line: a value with spaces stays one word.
        # The word being completed is compared without its opening quote and backslashes.
        \(fn)_values() {
            local root="" i value word="${cur#[\\"\\']}"
            local -a ask=(--complete-values "$1")
            word="${word//\\\\/}"
        \(rootLines)    COMPREPLY=()
            while IFS= read -r value; do
                [[ "$value" == "$word"* ]] && COMPREPLY+=("$value")
            done < <(\(spec.name) "${ask[@]}" 2>/dev/null)
        }

        """
        return """
        # bash completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion bash)
        \(fn)() {
            local cur prev verb i
            cur="${COMP_WORDS[COMP_CWORD]}"
            prev="${COMP_WORDS[COMP_CWORD-1]}"
        \(body)}
        \(appsFunction)\(valuesFunction)complete -o filenames -F \(fn) \(spec.name)

        """
    }

    static func zsh(_ spec: ToolSpec) -> String {
        let fn = function(spec)
        func escaped(_ text: String) -> String {
            text.replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]").replacing(":", with: "\\:")
        }
        // `:MESSAGE:ACTION` for a value of `kind` shown as `placeholder`.
        func value(_ kind: ValueKind, _ placeholder: String) -> String {
            switch kind {
            case .choice(let words): ":\(escaped(placeholder)):(\(words.joined(separator: " ")))"
            case .directory: ":directory:_files -/"
            case .file: ":file:_files"
            case .bundleIdentifier: ":\(escaped(placeholder)):\(fn)_apps"
            case .completed(_, let source): ":\(escaped(placeholder)):\(fn)_values \(source)"
            case .text, .integer, .number, .typedValue: ":\(escaped(placeholder)): "
            }
        }
        func argument(_ option: OptionSpec) -> String {
            var action = ""
            if let kind = option.value {
                switch kind {
                case .choice, .bundleIdentifier: action = value(kind, kind.placeholder)
                default: action = value(kind, option.placeholder ?? kind.placeholder)
                }
            }
            let body = "[\(escaped(option.help))]\(action)'"
            let star = option.repeatable ? "*" : ""
            if let short = option.short { return "    '(\(short) \(option.name))'\(star.isEmpty ? "" : "'*'"){\(short),\(option.name)}'\(body)" }
            return "    '\(star)\(option.name)\(body)"
        }
        let global = (spec.options + ToolSpec.standardOptions).map(argument)
        // Completes what stands after `verb`, when $words holds only the verb and its words.
        func verbArguments(_ verb: VerbSpec) -> String {
            var positions: [String] = []
            var typed = false
            for argument in verb.arguments {
                // A typed value is one or two words, some starting with a dash: the positions
                // after it are not known, so its words and the rest complete as files, as before.
                if argument.kind.isTyped { typed = true; break }
                positions.append("'\(positions.count + 1)\(value(argument.kind, argument.name))'")
            }
            if typed {
                positions.append("'*:file:_files'")
            } else {
                if !verb.subverbs.isEmpty { positions.append("'\(positions.count + 1):subverb:(\(verb.subverbs.joined(separator: " ")))'") }
                if case .values(let kind) = verb.operandKind {
                    let placeholder = kind == .file ? "file" : kind.placeholder
                    positions.append("'*\(value(kind, placeholder))'")
                }
            }
            let options = (spec.options + verb.options + ToolSpec.standardOptions).map { "                    " + argument($0) }
            let lines = options + (positions.isEmpty ? [] : ["                        " + positions.joined(separator: " ")])
            return "\(verb.name))\n                    _arguments -s \\\n" + lines.joined(separator: " \\\n")
        }
        // After the verb, the verb's branch parses every word (`(-)`: the outer _arguments takes
        // no more options, which it would otherwise read as its own and lose the verb's place).
        // The whole command line, for the helpers: _arguments narrows $words to the verb's words.
        let helpers = Self.takesApps(spec) || !spec.completedSources.isEmpty
        let wordsLine = helpers ? "\n    local -a \(fn)_words\n    \(fn)_words=(\"${words[@]}\")" : ""
        let body: String
        if spec.verbs.isEmpty {
            body = """
                _arguments -s \\
            \(global.joined(separator: " \\\n")) \\
                    '*:file:_files'
            """
        } else {
            let verbs = spec.verbs.map { "        '\($0.name):\(escaped($0.summary))'" }
            let branches = spec.verbs.map { "                " + verbArguments($0) + " ;;\n" }.joined()
            let other = (spec.options + ToolSpec.standardOptions).map { "                    " + argument($0) } + ["                        '*:file:_files'"]
            body = """
                local -a verbs
                verbs=(
            \(verbs.joined(separator: "\n"))
                )\(wordsLine)
                local curcontext="$curcontext" state line
                _arguments -s -C \\
            \(global.joined(separator: " \\\n")) \\
                    '(-)1: :->verb' '(-)*:: :->args'
                case $state in
                    verb) _describe -t verbs 'verb' verbs\(spec.operands == nil ? "" : " && _files") ;;
                    args)
                        case ${words[1]} in
            \(branches)                *)
                                _arguments -s \\
            \(other.joined(separator: " \\\n")) ;;
                        esac
                        ;;
                esac
            """
        }
        // A tool without verbs keeps $words whole.
        let wordsArray = helpers && !spec.verbs.isEmpty ? "\(fn)_words" : "words"
        let appsFunction = Self.takesApps(spec) ? """
        # The bundle identifiers of the apps registered on the device root (--root, else
        # $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
        \(fn)_apps() {
            local root="" i app
            i=${\(wordsArray)[(I)--root]}
            (( i > 0 )) && root=${\(wordsArray)[i+1]}
            root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
            local -a apps
            for app in "$root"/Apps/*(N); do
                [[ -d "$app" ]] && app="$app/Info.plist"
                apps+=("$(plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null)")
            done
            compadd -- ${apps:#}
        }

        """ : ""
        let rootLines = takesRoot(spec) ? """
                i=${\(wordsArray)[(I)--root]}
                (( i > 0 )) && root=${\(wordsArray)[i+1]}
                [[ $root == '~/'* ]] && root=$HOME/${root#'~/'}
                [[ -n $root ]] && ask+=(--root "$root")

            """ : ""
        let valuesFunction = spec.completedSources.isEmpty ? "" : """
        # The values \(spec.name) lists for a source (\(spec.name) --complete-values SOURCE [--root ROOT], the
        # device root named on the command line), one a line. The source is the last argument:
        # _arguments puts its compadd options (group, explanation) before it, passed on to compadd.
        \(fn)_values() {
            local root="" i
            local -a ask values
            ask=(--complete-values "${@[-1]}")
        \(rootLines)    values=("${(@f)$(\(spec.name) "${ask[@]}" 2>/dev/null)}")
            compadd "${@[1,-2]}" -- ${values:#}
        }

        """
        return """
        #compdef \(spec.name)
        # zsh completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion zsh)
        \(fn)() {
        \(body)
        }
        \(appsFunction)\(valuesFunction)\(fn) "$@"

        """
    }

    static func fish(_ spec: ToolSpec) -> String {
        let fn = function(spec)
        func quoted(_ s: String) -> String { "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }
        var out = "# fish completion for \(spec.name), generated from its declaration (\(spec.name) --generate-completion fish)\n"
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
                case .bundleIdentifier: parts.append("-x -a '(__\(fn)_apps)'")
                case .completed(_, let source): parts.append("-x -a '(__\(fn)_values \(source))'")
                case .text, .integer, .number, .typedValue: parts.append("-x")
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
        // The operands, as each verb declares them: fish offers files unless told not to.
        let groups = operandGroups(spec, nothing: "-f") { kind in
            switch kind {
            case .file: ""
            case .choice(let words): "-f -a \(quoted(words.joined(separator: " ")))"
            case .directory: "-f -a '(__fish_complete_directories)'"
            case .bundleIdentifier: "-f -a '(__\(fn)_apps)'"
            case .completed(_, let source): "-f -a '(__\(fn)_values \(source))'"
            case .text, .integer, .number, .typedValue: "-f"
            }
        }
        for group in groups where !group.action.isEmpty {
            out += "complete -c \(spec.name) -n \(quoted("__fish_seen_subcommand_from " + group.verbs.joined(separator: " "))) \(group.action)\n"
        }
        // Files after a verb that takes them, even where a subverb's line said no files.
        let fileVerbs = spec.verbs.filter { $0.operandKind == .values(.file) && $0.subverbs.isEmpty }.map(\.name)
        if !fileVerbs.isEmpty && spec.operands == nil {
            out += "complete -c \(spec.name) -n \(quoted("__fish_seen_subcommand_from " + fileVerbs.joined(separator: " "))) -F\n"
        }
        if Self.takesApps(spec) {
            // The bundle identifiers of the apps registered on the device root (--root, else
            // $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
            out += """
            function __\(fn)_apps
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
        if !spec.completedSources.isEmpty {
            // The values the tool lists for a source, for the device root named on the command line.
            let root = takesRoot(spec) ? """
                    set -l words (commandline -opc)
                    set -l i (contains -i -- --root $words); and set -a ask --root (string replace -r '^~/' "$HOME/" -- $words[(math $i + 1)])

                """ : ""
            out += """
            function __\(fn)_values
                set -l ask --complete-values $argv[1]
            \(root)    \(spec.name) $ask 2>/dev/null
            end

            """
        }
        return out
    }
}
