import UniformTypes

/// The UTI of a file LocalSend offers: its MIME type through the type engine when a declared
/// type has it; else its name's extension (LocalSend apps send `application/octet-stream` for
/// what they do not know); else `public.data`.
enum LocalSendTypes {
    static func identifier(mimeType: String, name: String, registry: TypeRegistry?) -> String {
        guard let registry else { return "public.data" }
        let mime = mimeType.split(separator: ";").first.map { String($0).trimmingSpaces.lowercased() } ?? ""
        if !mime.isEmpty, mime != "application/octet-stream", let type = UTType(mimeType: mime, in: registry), !type.isDynamic {
            return type.identifier
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex,
           let type = UTType(filenameExtension: String(name[name.index(after: dot)...]), in: registry), !type.isDynamic {
            return type.identifier
        }
        return "public.data"
    }
}

extension String {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
