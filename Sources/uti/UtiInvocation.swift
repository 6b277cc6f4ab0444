import ToolSupport
import UniformTypes

/// One `uti` command line, parsed.
///
/// Parsed by hand rather than with swift-argument-parser: that library loads FoundationEssentials,
/// and a `uti conforms` process built with it took 4.3 ms against 0.8 ms for a C hello-world here,
/// while the target is twice the C figure. Options may stand before or after the verb.
struct UtiInvocation {
    var verb = ""
    var operands: [String] = []
    var root: String?
    var json = false
    var quiet = false
    var all = false
    var explain = false
    var conformingTo: String?
    var lookup: Lookup?
    var definitions: [String: String] = [:]
    var format = "dot"
    /// `for-file --mime`: print MIME types instead of identifiers.
    var mimeOutput = false
    /// `for-file --by name|content|both`.
    var evidence: FileTypeDetector.Evidence = .nameAndContent

    enum Lookup { case `extension`(String), mime(String), file(String) }

    struct UsageError: Error { var message: String }

    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> UtiInvocation {
        var invocation = UtiInvocation()
        var words = ArgumentWords(arguments)
        func value(_ option: String) throws(UsageError) -> String {
            guard let v = words.value() else { throw UsageError(message: "\(option) needs a value") }
            return v
        }
        while let arg = words.next() {
            switch arg {
            case "--root": invocation.root = try value(arg)
            case "--json": invocation.json = true
            case "-q", "--quiet": invocation.quiet = true
            case "--all": invocation.all = true
            case "--explain": invocation.explain = true
            case "--conforming-to": invocation.conformingTo = try value(arg)
            case "--format": invocation.format = try value(arg)
            case "--define", "-D":
                let definition = try value(arg)
                guard let eq = definition.firstIndex(of: "=") else { throw UsageError(message: "--define takes NAME=VALUE") }
                invocation.definitions[String(definition[..<eq])] = String(definition[definition.index(after: eq)...])
            case "--extension": invocation.lookup = .extension(try value(arg))
            // After `for-file`, `--mime` is a flag (print MIME types); elsewhere it names a MIME type.
            case "--mime" where invocation.verb == "for-file": invocation.mimeOutput = true
            case "--mime": invocation.lookup = .mime(try value(arg))
            case "--by":
                let by = try value(arg)
                guard let evidence = FileTypeDetector.Evidence(rawValue: by) else { throw UsageError(message: "--by takes name, content or both") }
                invocation.evidence = evidence
            case "--file": invocation.lookup = .file(try value(arg))
            case "-h", "--help", "help": invocation.verb = "help"
            case "--": invocation.operands += words.remaining()
            default:
                if arg.hasPrefix("-") && arg.count > 1 { throw UsageError(message: "unknown option \(arg)") }
                if invocation.verb.isEmpty { invocation.verb = arg } else { invocation.operands.append(arg) }
            }
        }
        if invocation.verb.isEmpty { invocation.verb = "help" }
        return invocation
    }
}

let usage = """
    uti: Uniform Type Identifiers on Linux, with Apple's semantics.

    Usage: uti VERB [OPTIONS] [ARGUMENTS]

    Queries:
      conforms A B                 exit 0 when A conforms to B, 1 when not, 2 on error; prints true/false (-q: nothing)
      info ID | --extension EXT | --mime TYPE | --file PATH
                                   identifier, description, declared/dynamic/public, parents, supertypes, tags, source
      for-extension EXT… [--conforming-to T] [--all]
                                   the type for each extension, one per line (a dynamic type when none is declared)
      for-mime TYPE… [--conforming-to T] [--all]
      for-file PATH… [--mime] [--by name|content|both] [--explain]
                                   the type of each file as GIO judges it, from the shared MIME database's
                                   globs and magic: by name, by content, or both (default); --mime prints
                                   the MIME type instead
      tree ID                      the supertypes of ID as a tree
      subtypes ID                  every known type that conforms to ID
      graph [ID…] [--format dot|svg]
                                   the conformance graph of the IDs and their supertypes (of every type when none)
                                   for Graphviz; svg runs Graphviz's dot, when installed
      completions bash|zsh|fish    a shell completion script
    Checking:
      lint PLIST… [--define NAME=VALUE]…
                                   check Info.plists: FILE:LINE:COLUMN: error|warning: message [key path]; exit 1 on errors
    Registry:
      register BUNDLE|INFO.PLIST…  register apps on the device root (a link in ROOT/Apps), then rebuild
      unregister NAME…             remove registrations
      rebuild                      rebuild the compiled registry and report problems in the sources
      dump                         every type with its declaration, then the registry's diagnostics

    Options (before or after the verb):
      --root DIR     the device root (default: $DOCUMENT_INTERCHANGE_ROOT, else $XDG_DATA_HOME/document-interchange)
      --json         JSON output with Apple's names (identifier, conformsTo, tags, preferredFilenameExtension, …)
      -q             conforms: print nothing, answer by exit status only

    Examples:
      uti conforms public.png public.data
      uti info --extension yaml --json
      uti for-extension md srt --conforming-to public.text
      uti --root Samples/Device register path/to/PersonEditor.app

    """
