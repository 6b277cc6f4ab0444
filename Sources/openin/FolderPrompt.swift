import SystemCalls
import ToolSupport

/// The folder for copy-to-folder: `--destination`, or asked for on a terminal. `~` and `~/…`
/// are expanded as a shell would (a quoted or `--destination=~/x` value is not expanded by the
/// shell); a folder that does not exist is created only when the user says so.
enum FolderPrompt {
    static func destination(given: String?) throws(OpeninCommands.Failure) -> String {
        if let given {
            let folder = PathText.expandingTilde(given)
            guard FileSystem.isDirectory(folder) else {
                throw OpeninCommands.Failure(message: FileSystem.exists(folder) ? "copy-to-folder: \(folder) is not a folder"
                                                                                : "copy-to-folder: there is no folder \(folder) (create it first)")
            }
            return folder
        }
        guard CurrentProcess.isTerminal(0) else { throw OpeninCommands.Failure(message: "copy-to-folder needs --destination DIR") }
        while true {
            Output.text("Copy to folder: ")
            guard let line = readLine(strippingNewline: true) else { throw OpeninCommands.Failure(message: "cancelled", status: 1) }
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { continue }
            let folder = PathText.expandingTilde(trimmed)
            if FileSystem.isDirectory(folder) { return folder }
            if FileSystem.exists(folder) { Output.line("\(folder) is not a folder."); continue }
            Output.text("There is no folder \(folder). Create it? [y/N] ")
            guard let answer = readLine(strippingNewline: true) else { throw OpeninCommands.Failure(message: "cancelled", status: 1) }
            if answer.lowercased().hasPrefix("y") {
                do { try FileSystem.makeDirectories(folder) } catch { throw OpeninCommands.Failure(message: "\(error)") }
                return folder
            }
        }
    }
}
