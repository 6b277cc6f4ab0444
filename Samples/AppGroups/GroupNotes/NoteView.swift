import AppGroups
import SharedDefaults
import Synchronization
import SystemCalls
import ToolSupport

/// What a member sees of the note: the file in the group container and the shared defaults.
struct NoteView: Sendable {
    let member: AppGroupMember
    let container: GroupContainer
    let shared: SharedDefaults

    func show() {
        let text = (try? FileSystem.read(container.path + "/note.txt")).map { String(decoding: $0, as: UTF8.self) } ?? "(no note)"
        let title = shared.string(forKey: "NoteTitle") ?? "(untitled)"
        Output.line("\(member.bundleIdentifier) sees: \(title) — \(text) [edits: \(shared.integer(forKey: "EditCount"))]")
    }
}

/// How many changes the watcher has shown (its observer runs on a thread of its own).
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
