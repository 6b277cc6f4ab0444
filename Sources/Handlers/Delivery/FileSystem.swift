import CSystemShims
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calls the handlers need beyond the shared ones (swift-system has no `renameat2`).
extension FileSystem {
    /// Creates `path` and its missing parents, as a ``HandlerError``.
    static func makeFolders(_ path: String) throws(HandlerError) {
        do { try makeDirectories(path) } catch { throw .refused("cannot create \(error.path): \(error.reason)") }
    }

    /// Renames without ever replacing: `false` when `newName` exists. The corresponding call is
    /// `renameat2(…, RENAME_NOREPLACE)`.
    static func renameWithoutReplacing(from oldDirectory: Int32, _ oldName: String, to newDirectory: Int32, _ newName: String) throws(HandlerError) -> Bool {
        if di_rename_noreplace(oldDirectory, oldName, newDirectory, newName) == 0 { return true }
        if errno == EEXIST { return false }
        throw .system("cannot rename \(oldName) to \(newName)", errno)
    }

    /// Whether an executable named `program` is on `PATH` (each folder once).
    static func commandExists(_ program: String) -> Bool {
        // A folder listed twice is looked in twice: cheaper than the Set<Substring> that avoided it,
        // whose first use alone cost the runtime a conformance scan at every `openin` start.
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { dir in access(String(dir) + "/" + program, X_OK) == 0 }
    }
}
