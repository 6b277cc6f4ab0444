/// The MIME type a type stands for, for `uti for-file --mime`.
public enum MIMEAnswer {
    /// The type's preferred MIME type; for a type without one (a dynamic type, or a declared type
    /// with no MIME tag), the preferred MIME type of the nearest parent that has one, parents in
    /// declared order, breadth first (`public.data` is `application/octet-stream` once the shared
    /// MIME database is imported). `nil` when no supertype has one either.
    public static func mimeType(of type: UTType) -> String? {
        if let own = type.preferredMIMEType { return own }
        var queue = type.parents
        var seen: Set<UTType> = []
        var i = 0
        while i < queue.count, i < 4096 {
            let next = queue[i]
            i += 1
            guard seen.insert(next).inserted else { continue }
            if let mime = next.preferredMIMEType { return mime }
            queue += next.parents
        }
        return nil
    }
}
