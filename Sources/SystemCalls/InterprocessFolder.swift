/// The folder where one user's processes keep the tables they share in memory (notifications,
/// file coordination): `$DOCUMENT_INTERCHANGE_NOTIFY_DIR`, else
/// `$XDG_RUNTIME_DIR/document-interchange` (a memory file system that lives as long as the
/// user's session), else `/tmp/document-interchange-UID`.
package enum InterprocessFolder {
    /// The default folder for this process's user.
    package static func defaultPath() -> String {
        if let explicit = Environment.value("DOCUMENT_INTERCHANGE_NOTIFY_DIR"), !explicit.isEmpty { return explicit }
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime + "/document-interchange" }
        return "/tmp/document-interchange-\(ProcessSignals.userID)"
    }

    /// Creates `path` (mode 0700) when missing, and refuses a folder another user owns (made in
    /// /tmp before us, it would let them into our shared memory).
    package static func prepare(_ path: String) throws(SystemCallError) {
        try FileSystem.makeDirectories(path, permissions: 0o700)
        guard FileSystem.status(path)?.owner == ProcessSignals.userID else {
            throw SystemCallError(.open, path: path, errno: .permissionDenied)
        }
    }
}
