import Foundation

/// JSON for LocalSend's bodies: Foundation's decoder (LocalSend writes `null` for absent values,
/// which the property-list JSON reader refuses, as Apple's does), over a bounded body.
enum LocalSendJSON {
    /// The largest body read: a `prepare-upload` for ``SessionMessage/maximumItems`` files, each
    /// with a small preview, fits.
    static let maximumBody = 4 << 20

    /// `bytes` decoded as `type`; an error naming `what` and the first problem.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, what: String) throws(NearbyError) -> T {
        guard bytes.count <= maximumBody else { throw .protocolViolation("\(what) of \(bytes.count) bytes (at most \(maximumBody))") }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch let error as DecodingError {
            throw .protocolViolation("\(what) that is not valid: \(describe(error))")
        } catch { throw .protocolViolation("\(what) that is not valid: \(error)") }
    }

    /// `value` as compact JSON.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only our own values are encoded: strings, numbers, booleans, which cannot fail.
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    /// A decoding error in a few words: what, and at which key path.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): \(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
