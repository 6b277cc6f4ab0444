import SystemCalls

/// Whether a query starts the index watcher (``IndexWatcher``, `openin watch`) itself when none
/// runs, set by `DOCUMENT_INTERCHANGE_AUTOWATCH` (`auto`, the default, or `off`).
///
/// Without a watcher every query stats each file its index was built from (about 1 µs a file
/// here: 0.3 ms for 400 desktop files, 2-3.7 ms for 2,650), so on a machine with many
/// applications a watcher that lives on between queries pays for itself; with a few hundred it
/// would be one more resident process to spare a fraction of a millisecond. `auto` starts one,
/// after the query has answered, when the index has ``threshold`` sources or more; the watcher
/// so started exits after ``idleExit`` seconds without a question. A session that runs
/// `openin-watch.service` never needs one started.
public enum WatcherAutostart: String, Sendable, CaseIterable {
    /// Start a watcher when it would pay for itself.
    case auto
    /// Never start one.
    case off

    /// The environment variable.
    public static let variable = "DOCUMENT_INTERCHANGE_AUTOWATCH"
    /// The number of files and folders an index must be built from for a watcher to be started.
    public static let threshold = 1_000
    /// How long a watcher started by a query lives on without a question, in seconds.
    public static let idleExit = 600.0

    /// A value of the variable that is neither `auto` nor `off`.
    public struct Invalid: Error, CustomStringConvertible {
        /// The value found.
        public let value: String
        /// The message, naming the variable and its values.
        public var description: String {
            "\(WatcherAutostart.variable) must be \(WatcherAutostart.allCases.map(\.rawValue).joined(separator: " or ")), not '\(value)'"
        }
    }

    /// The setting of this process's environment (unset or empty: `auto`).
    /// - Throws: ``Invalid``: a typo must not start (or fail to stop) a resident process.
    public static func current() throws(Invalid) -> WatcherAutostart {
        guard let value = Environment.value(variable), !value.isEmpty else { return .auto }
        guard let setting = WatcherAutostart(rawValue: value) else { throw Invalid(value: value) }
        return setting
    }
}
