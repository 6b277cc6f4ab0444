import ToolSupport

/// One `openin` command line, parsed by hand (as `uti`'s: swift-argument-parser's start-up cost
/// would be most of a `--list` process).
struct OpeninInvocation {
    var documents: [String] = []
    var defaultsVerb: [String]?
    var root: String?
    var list = false
    var json = false
    var explain = false
    var all = false
    var to: String?
    var activity: String?
    var exclude: Set<String> = []
    var from: String?
    var annotation: String?
    var destination: String?
    var launch = true
    var help = false

    struct UsageError: Error { var message: String }

    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> OpeninInvocation {
        var invocation = OpeninInvocation()
        var words = ArgumentWords(arguments)
        func value(_ option: String) throws(UsageError) -> String {
            guard let v = words.value() else { throw UsageError(message: "\(option) needs a value") }
            return v
        }
        var operands: [String] = []
        while let arg = words.next() {
            switch arg {
            case "--root": invocation.root = try value(arg)
            case "--list", "-l": invocation.list = true
            case "--json": invocation.json = true
            case "--explain": invocation.explain = true
            case "--all": invocation.all = true
            case "--to": invocation.to = try value(arg)
            case "--activity": invocation.activity = try value(arg)
            case "--exclude": invocation.exclude.insert(try value(arg))
            case "--from": invocation.from = try value(arg)
            case "--annotation": invocation.annotation = try value(arg)
            case "--destination": invocation.destination = try value(arg)
            case "--no-launch": invocation.launch = false
            case "-h", "--help": invocation.help = true
            case "--": operands += words.remaining()
            default:
                if arg.hasPrefix("-") && arg.count > 1 { throw UsageError(message: "unknown option \(arg)") }
                operands.append(arg)
            }
        }
        if operands.first == "default" {
            invocation.defaultsVerb = Array(operands.dropFirst())
        } else {
            invocation.documents = operands
        }
        if invocation.to != nil && invocation.activity != nil { throw UsageError(message: "--to and --activity exclude each other") }
        if !invocation.help && invocation.defaultsVerb == nil && invocation.documents.isEmpty {
            throw UsageError(message: "name at least one document")
        }
        return invocation
    }

    static let help = """
    openin: which apps and activities can take these documents, in what order and why; and hand
    them over (into the chosen app's Documents/Inbox, with an open request in its Library/).

    Usage:
      openin [options] FILE...                 the sheet: interactive on a terminal, else a list
      openin default set TYPE BUNDLE-ID        the user's default app for a type (and its subtypes)
      openin default get TYPE                  the default that applies to TYPE (or a supertype)
      openin default unset TYPE

    Options:
      --root DIR            the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)
      --list, -l            print the sheet instead of showing it
      --json                the sheet as JSON (bundleIdentifier, name, role, rank, claimedType, distance, reason)
      --explain             why each app is eligible and ranks where it does
      --all                 also the apps that are not eligible, and why
      --to BUNDLE-ID        deliver to that app without asking
      --activity TYPE       perform that activity without asking (copy-to-folder, save-to-sender,
                            print, copy-to-clipboard, or a share extension's identifier)
      --exclude ID          leave out an app or activity type (repeatable)
      --from BUNDLE-ID      the sender (sourceApplication); default org.document-interchange.openin
      --annotation PLIST    a property-list value passed to the app (XML, OpenStep or @FILE)
      --destination DIR     the folder for copy-to-folder
      --no-launch           deliver without starting the app's launch command (DILaunchCommand)

    Keys in the sheet: arrows or j/k to move, PgUp/PgDn to page, a number then Enter to choose,
    Enter to choose the highlighted row, q or Esc to cancel.

    Exit status: 0 delivered or listed, 1 nothing can take the documents or the sheet was
    cancelled, 2 usage errors and failures.

    Examples:
      openin --root Samples Samples/Documents/file.person
      openin --list --explain report.pdf
      openin --to com.example.person-viewer --from com.example.person-editor file.person
      openin --activity copy-to-folder --destination ~/Desktop a.png b.png
      openin default set public.plain-text com.example.notes
    """
}
