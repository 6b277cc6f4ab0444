import ToolSupport

/// `notifyutil`'s command line, declared once (parsing, help, man page, completions): macOS's
/// options and commands, run in the order given.
let notifyutilSpec: ToolSpec = {
    var spec = ToolSpec(
        name: "notifyutil",
        summary: "post, wait for, get and set Darwin notifications (notify(3)) between processes",
        discussion: [
            "Commands run in the order given. Registrations made by -w and -# use the type chosen by the last -port, -file, -check, -signal, -dispatch or -plain before them (-port and -dispatch both deliver through a callback here; -check and -plain are polled every 100 ms, as on macOS).",
            "notifyutil exits when every -# registration has seen its count of posts, or at once when there is none; -w waits until interrupted.",
            "The notification table is $DOCUMENT_INTERCHANGE_NOTIFY_DIR/notify.table, else $XDG_RUNTIME_DIR/document-interchange/notify.table: one per user. -M and -R are accepted for compatibility and change nothing (there is no notifyd to multiplex or to restart).",
            "Names: at most 512 bytes; self. names stay inside the process; user.uid.N. names belong to user N. See docs/notifications.md.",
        ],
        options: notifyutilOptions.map(\.option),
        operands: nil,
        examples: [
            ("notifyutil -p com.example.notes.changed", "post a notification"),
            ("notifyutil -1 com.example.notes.changed", "wait for one post, print the key, exit"),
            ("notifyutil -v -w com.example.sync", "report every post with time and state until interrupted"),
            ("notifyutil -s com.example.level 42 -g com.example.level", "set a state and read it back"),
            ("notifyutil -z 0 -p a -p b", "post two names without pausing"),
        ],
        exitStatus: [(0, "done (a command that failed printed KEY: Reason, as on macOS)"), (1, "usage errors")],
        seeAlso: ["docs/notifications.md"])
    spec.usageErrorStatus = 1
    return spec
}()

/// What an option of notifyutil does.
enum NotifyutilCommand: Sendable, Hashable {
    case quiet, verbose, pause, accepted
    /// Later registrations are of this type.
    case registrationType(NotifyutilRun.RegistrationType)
    case post, watch, watchCount, getState, setState
}

/// Each option with what it does: the one declaration of notifyutil's command line.
let notifyutilOptions: [(option: OptionSpec, command: NotifyutilCommand)] = {
    var signal = OptionSpec("-signal", value: .integer(1...64), placeholder: "#", repeatable: true,
                            help: "deliver later registrations as signal # (default 1, SIGHUP)")
    signal.optionalValue = true
    var count = OptionSpec("-#", value: .text("KEY"), repeatable: true, help: "(# is a whole number, e.g. -1) register for KEY and report # notifications")
    count.countForm = true
    var set = OptionSpec("-s", value: .text("KEY"), repeatable: true, help: "set the state value for KEY to VAL (a 64-bit integer)")
    set.trailing = [ArgumentSpec("VAL", .text("VAL"))]
    var post = OptionSpec("-p", value: .text("KEY"), repeatable: true, help: "post a notification for KEY")
    post.mistakenFor = ["--post", "-post"]
    var get = OptionSpec("-g", value: .text("KEY"), repeatable: true, help: "get the state value for KEY")
    get.mistakenFor = ["--get", "-get"]
    set.mistakenFor = ["--set", "-set"]
    var watch = OptionSpec("-w", value: .text("KEY"), repeatable: true, help: "register for KEY and report notifications")
    watch.mistakenFor = ["--watch", "-watch"]
    return [
        (OptionSpec("-q", help: "quiet: print nothing for notifications"), .quiet),
        (OptionSpec("-v", help: "verbose: print the time, key, state and registration type for each notification"), .verbose),
        (OptionSpec("-z", value: .integer(0...3_600_000), placeholder: "MSEC", help: "pause MSEC milliseconds after each post [default 100]"), .pause),
        (OptionSpec("-M", help: "multiplex (accepted; no effect here)"), .accepted),
        (OptionSpec("-R", help: "regenerate registrations (accepted; no effect here)"), .accepted),
        (OptionSpec("-port", repeatable: true, help: "deliver later registrations through a callback (the default)"), .registrationType(.port)),
        (OptionSpec("-file", repeatable: true, help: "deliver later registrations through a file descriptor"), .registrationType(.file)),
        (OptionSpec("-check", repeatable: true, help: "later registrations are checked (notify_check) every 100 ms"), .registrationType(.check)),
        (OptionSpec("-plain", repeatable: true, help: "later registrations are plain, checked every 100 ms"), .registrationType(.plain)),
        (signal, .registrationType(.signal)),
        (OptionSpec("-dispatch", repeatable: true, help: "deliver later registrations through a callback"), .registrationType(.dispatch)),
        (post, .post),
        (watch, .watch),
        (count, .watchCount),
        (get, .getState),
        (set, .setState),
    ]
}()
