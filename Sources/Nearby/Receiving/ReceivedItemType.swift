import UniformTypes

/// The UTI of an item a foreign protocol offers (LocalSend, AirDrop's), one rule for both: its
/// MIME type through the type engine when a declared type has it; else its name's extension
/// (LocalSend apps send `application/octet-stream` for what they do not know; AirDrop's Ask gives
/// a UTI instead, which its receiver weighs against this); else `public.data`.
enum ReceivedItemType {
    static func identifier(mimeType: String? = nil, name: String, registry: TypeRegistry?) -> String {
        guard let registry else { return "public.data" }
        let mime = mimeType?.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
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

extension Substring {
    /// Without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
