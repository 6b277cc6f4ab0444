/// A datagram between a coordinating process and a process with presenters. Little-endian:
/// kind (1 byte), flags (1), 6 bytes padding, presenter id (8), request id (8), three lengths
/// (4 each: first path, second path, reply socket name or error text), padding (4), then the
/// bytes. Paths are at most 4096 bytes each, so a message fits one datagram.
struct PresenterMessage: Sendable, Hashable {
    enum Kind: UInt8, Sendable {
        /// Before an access: save or accommodate a deletion, then relinquish; answer with a reply.
        case prepare = 1
        /// After an access: run the block the presenter gave when it relinquished.
        case reacquire = 2
        /// The item changed.
        case changed = 3
        /// The item (or a folder above it) moved from the first path to the second.
        case moved = 4
        /// An item inside the presented folder changed (first path).
        case subitemChanged = 5
        /// An item inside the presented folder moved (first path to second).
        case subitemMoved = 6
        /// The answer to ``prepare``: flags bit 0 set on failure, text the error.
        case reply = 7
    }

    /// What ``Kind/prepare`` asks for.
    struct Preparation: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let save = Preparation(rawValue: 1 << 0)
        static let accommodateDeletion = Preparation(rawValue: 1 << 1)
        static let relinquishToReader = Preparation(rawValue: 1 << 2)
        static let relinquishToWriter = Preparation(rawValue: 1 << 3)
    }

    var kind: Kind
    var flags: UInt8 = 0
    var presenter: UInt64 = 0
    var request: UInt64 = 0
    var first: [UInt8] = []
    var second: [UInt8] = []
    var third: [UInt8] = []

    static let headerSize = 40

    var encoded: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.headerSize)
        bytes[0] = kind.rawValue
        bytes[1] = flags
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: presenter.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: request.littleEndian, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: UInt32(first.count).littleEndian, toByteOffset: 24, as: UInt32.self)
            raw.storeBytes(of: UInt32(second.count).littleEndian, toByteOffset: 28, as: UInt32.self)
            raw.storeBytes(of: UInt32(third.count).littleEndian, toByteOffset: 32, as: UInt32.self)
        }
        return bytes + first + second + third
    }

    /// A message from `bytes`; `nil` for anything malformed (a datagram from a stranger).
    init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.headerSize, let kind = Kind(rawValue: bytes[0]) else { return nil }
        let lengths = (24...32).filter { ($0 - 24) % 4 == 0 }.map { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
        guard lengths.allSatisfy({ $0 <= 1 << 16 }), Self.headerSize + lengths.reduce(0, +) == bytes.count else { return nil }
        self.kind = kind
        flags = bytes[1]
        presenter = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        request = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        var offset = Self.headerSize
        first = Array(bytes[offset..<(offset + lengths[0])]); offset += lengths[0]
        second = Array(bytes[offset..<(offset + lengths[1])]); offset += lengths[1]
        third = Array(bytes[offset..<(offset + lengths[2])])
    }

    init(kind: Kind, flags: UInt8 = 0, presenter: UInt64 = 0, request: UInt64 = 0, first: [UInt8] = [], second: [UInt8] = [], third: [UInt8] = []) {
        self.kind = kind
        self.flags = flags
        self.presenter = presenter
        self.request = request
        self.first = first
        self.second = second
        self.third = third
    }
}
