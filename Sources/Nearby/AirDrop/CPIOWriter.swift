/// Writes a cpio archive in the POSIX "odc" format, entry by entry, for AirDrop's `Upload`: each
/// file as a regular file `./NAME` with mode 0644 and no owner, then the trailer (the layout
/// ``CPIOReader`` reads).
struct CPIOWriter {
    private var inode = 0

    /// The header and name of a regular file of `size` bytes called `name` (one component).
    mutating func header(name: String, size: Int64, mtime: Int64 = 0) -> [UInt8] {
        inode += 1
        return Self.header(name: "./" + name, mode: 0o100644, inode: inode, size: size, mtime: mtime)
    }

    /// The trailer that ends the archive.
    static var trailer: [UInt8] { header(name: "TRAILER!!!", mode: 0, inode: 0, size: 0, mtime: 0) }

    static func header(name: String, mode: Int, inode: Int, size: Int64, mtime: Int64) -> [UInt8] {
        func octal(_ value: Int64, _ width: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let nameBytes = Array(name.utf8) + [0]
        let fields = "070707" + octal(0, 6) + octal(Int64(inode & 0o777777), 6) + octal(Int64(mode), 6) + octal(0, 6) + octal(0, 6)
            + octal(1, 6) + octal(0, 6) + octal(mtime, 11) + octal(Int64(nameBytes.count), 6) + octal(size, 11)
        return Array(fields.utf8) + nameBytes
    }
}
