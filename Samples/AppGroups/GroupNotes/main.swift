// The Group Notes sample: an app and its widget extension sharing a note through the App Group
// group.com.example.notes (Samples/AppGroups/README.md). Each process says which bundle it is;
// the library reads that bundle's entitlements and gives the group's container and shared
// defaults only to members.
//
//   group-notes ROOT BUNDLE write TEXT   the app: the note into the group container (note.txt)
//                                        and its title and time into the shared defaults
//   group-notes ROOT BUNDLE show         the widget: the note as the group holds it now
//   group-notes ROOT BUNDLE watch N      the widget: print the note each time it changes, N times
//
// A sample, not a tool: its three words are read by position.
import AppGroups
import AppRegistry
import PropertyLists
import SharedDefaults
import SystemCalls
import ToolSupport

let group = "group.com.example.notes"
let words = Array(CommandLine.arguments.dropFirst())
guard words.count >= 3 else {
    Output.line("usage: group-notes ROOT BUNDLE write TEXT | show | watch N")
    CurrentProcess.exit(2)
}
let root = DeviceRoot(path: words[0])

do {
    let member = try AppGroupMember(bundle: words[1])
    let container = try GroupContainer(for: group, member: member, on: root)
    let shared = try SharedDefaults(suiteName: group, member: member, on: root)
    let view = NoteView(member: member, container: container, shared: shared)
    switch words[2] {
    case "write":
        let text = words.dropFirst(3).joined(separator: " ")
        try AtomicFile.write(Array(text.utf8), to: container.path + "/note.txt", permissions: 0o600)
        shared.set(String(text.prefix { $0 != "\n" }.prefix(40)), forKey: "NoteTitle")
        try shared.modify { values in
            [("EditCount", .integer((values["EditCount"].flatMap { if case .integer(let n) = $0 { n } else { nil } } ?? 0) + 1))]
        }
        // Durable before the app says it saved.
        guard shared.synchronize() else { throw shared.lastError ?? .group(.noDeviceRoot(root.path)) }
        Output.line("\(member.bundleIdentifier) saved the note in \(container.path)")
    case "show":
        view.show()
    case "watch":
        let wanted = words.count > 3 ? Int(words[3]) ?? 1 : 1
        let seen = Counter()
        let observation = try shared.observe { change in
            guard change.keys.contains("NoteTitle") || change.keys.contains("EditCount") else { return }
            view.show()
            seen.increment()
        }
        Output.line("\(member.bundleIdentifier) is watching \(group)")
        while seen.value < wanted { Clock.sleep(0.01) }
        observation.cancel()
    default:
        Output.line("unknown command \(words[2])")
        CurrentProcess.exit(2)
    }
} catch let error as AppGroupError {
    Output.line("group-notes: \(error)")
    CurrentProcess.exit(1)
} catch {
    Output.line("group-notes: \(error)")
    CurrentProcess.exit(1)
}
