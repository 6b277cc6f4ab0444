import OrderedCollections
import PropertyLists

/// How each Foundation class of ``ArchivedValue`` is written: the fields its `encodeWithCoder:`
/// writes on macOS, in the order it writes them (which fixes the numbering of the objects they
/// refer to, and, with the hash order, the bytes of a binary archive).
extension KeyedArchiver {
    /// The index of the object for `value`, encoded now (strings and numbers: the one stored
    /// for that value, if any).
    func reference(to value: ArchivedValue) throws(KeyedArchiveError) -> Int {
        switch value {
        case .null: return 0
        case .string(let s): return uniqueString(s)
        case .integer(let i): return uniqueNumber(.integer(i))
        case .unsignedInteger(let u): return uniqueNumber(.unsignedInteger(u))
        case .real(let r): return uniqueNumber(.real(r))
        case .bool(let b): return uniqueNumber(.bool(b))
        case .data(let d): return append(.data(d))
        case .mutableString(let s):
            return try encodeObject(of: .mutableString, identity: nil) { $0.set(.string(s), forKey: "NS.string") }
        case .mutableData(let d):
            return try encodeObject(of: .mutableData, identity: nil) { $0.set(.data(d), forKey: "NS.data") }
        case .date(let d):
            return try encodeObject(of: .date, identity: nil) { $0.set(.real(d.secondsSinceReferenceDate), forKey: "NS.time") }
        case .array(let items, _), .set(let items, _):
            return try encodeObject(of: value.archiveClass, identity: nil) { archiver throws(KeyedArchiveError) in
                archiver.set(.array(try archiver.references(to: items)), forKey: "NS.objects")
            }
        case .orderedSet(let items, _):
            return try encodeObject(of: value.archiveClass, identity: nil) { archiver throws(KeyedArchiveError) in
                for (i, item) in items.enumerated() {
                    archiver.set(.uid(UInt64(try archiver.reference(to: item))), forKey: "NS.object.\(i)")
                }
            }
        case .dictionary(let entries, _):
            return try encodeObject(of: value.archiveClass, identity: nil) { archiver throws(KeyedArchiveError) in
                // All keys first, then all values, as NSDictionary's encodeWithCoder: does.
                let keys = try archiver.references(to: entries.map(\.key))
                let values = try archiver.references(to: entries.map(\.value))
                archiver.set(.array(keys), forKey: "NS.keys")
                archiver.set(.array(values), forKey: "NS.objects")
            }
        case .url(let url):
            return try encodeObject(of: .url, identity: nil) { archiver throws(KeyedArchiveError) in
                let base = try url.base.map { base throws(KeyedArchiveError) in try archiver.reference(to: .url(base)) } ?? 0
                archiver.set(.uid(UInt64(base)), forKey: "NS.base")
                archiver.set(.uid(UInt64(archiver.uniqueString(url.relative))), forKey: "NS.relative")
            }
        case .uuid(let uuid):
            return try encodeObject(of: .uuid, identity: nil) { $0.set(.data(uuid.bytes), forKey: "NS.uuidbytes") }
        case .value(let content):
            return try encodeObject(of: .value, identity: nil) { archiver in archiver.encodeSpecial(content) }
        case .nsNull:
            return try encodeObject(of: .null, identity: nil) { _ in }
        case .object(let object):
            return try encodeObject(of: object.archiveClass, identity: nil) { archiver throws(KeyedArchiveError) in
                for (key, field) in object.fields { archiver.set(try archiver.encode(field), forKey: key) }
            }
        }
    }

    /// A field of an ``ArchivedObject`` as stored, the objects it refers to encoded in order.
    private func encode(_ field: ArchivedObject.Field) throws(KeyedArchiveError) -> PropertyList {
        switch field {
        case .inline(let plist): return plist
        case .object(let member): return .uid(UInt64(try reference(to: member)))
        case .objects(let members): return .array(try references(to: members))
        case .array(let elements):
            var out: [PropertyList] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try encode(element)) }
            return .array(out)
        case .dictionary(let entries):
            var out = OrderedDictionary<String, PropertyList>(minimumCapacity: entries.count)
            for (key, element) in entries { out[key] = try encode(element) }
            return .dictionary(out)
        }
    }

    /// References to each of `values`, encoded in order.
    private func references(to values: [ArchivedValue]) throws(KeyedArchiveError) -> [PropertyList] {
        var out: [PropertyList] = []
        out.reserveCapacity(values.count)
        for value in values { out.append(.uid(UInt64(try reference(to: value)))) }
        return out
    }

    /// The fields of an `NSValue` holding a structure, in the order `NSConcreteValue` writes
    /// them: `NS.special` first; a range's length before its location.
    private func encodeSpecial(_ content: ArchivedNSValue) {
        set(.integer(Int64(content.special)), forKey: "NS.special")
        switch content {
        case .point(let x, let y):
            set(.uid(UInt64(uniqueString(GeometryText.pair(x, y)))), forKey: "NS.pointval")
        case .size(let width, let height):
            set(.uid(UInt64(uniqueString(GeometryText.pair(width, height)))), forKey: "NS.sizeval")
        case .rect(let x, let y, let width, let height):
            set(.uid(UInt64(uniqueString(GeometryText.rect(x, y, width, height)))), forKey: "NS.rectval")
        case .range(let location, let length):
            set(.uid(UInt64(uniqueNumber(Self.number(length)))), forKey: "NS.rangeval.length")
            set(.uid(UInt64(uniqueNumber(Self.number(location)))), forKey: "NS.rangeval.location")
        case .affineTransform(let a, let b, let c, let d, let tx, let ty):
            for (key, v) in [("a", a), ("b", b), ("c", c), ("d", d), ("tx", tx), ("ty", ty)] {
                set(.real(v), forKey: "NS.atval." + key)
            }
        case .edgeInsets(let top, let left, let bottom, let right, _):
            for (key, v) in [("top", top), ("left", left), ("bottom", bottom), ("right", right)] {
                set(.real(v), forKey: "NS.edgeval." + key)
            }
        case .offset(let h, let v):
            set(.real(h), forKey: "NS.offset.h")
            set(.real(v), forKey: "NS.offset.v")
        case .directionalEdgeInsets(let top, let leading, let bottom, let trailing):
            for (key, v) in [("top", top), ("leading", leading), ("bottom", bottom), ("trailing", trailing)] {
                set(.real(v), forKey: "NS.dirEdgeVal." + key)
            }
        }
    }

    /// An unsigned count as the number object CF stores it as.
    private static func number(_ value: UInt64) -> PropertyList {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
    }
}
