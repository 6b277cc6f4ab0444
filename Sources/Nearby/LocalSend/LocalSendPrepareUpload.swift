/// The body of LocalSend's `POST /api/localsend/v2/prepare-upload`: who sends, and per file its
/// identifier, name, size, MIME type and (optionally) SHA-256.
public struct LocalSendPrepareUpload: Codable, Sendable, Equatable {
    /// One file offered.
    public struct File: Codable, Sendable, Equatable {
        /// The sender's identifier for the file (echoed in its upload).
        public var id: String
        /// The name as sent: display text only (``ItemName/safe(_:)`` makes the name used).
        public var fileName: String
        /// The declared size in bytes.
        public var size: Int64
        /// A MIME type, the type engine's way to a UTI.
        public var fileType: String
        /// The file's SHA-256 in hex, when the sender gives it: checked before delivery.
        public var sha256: String?
        /// A preview (ignored).
        public var preview: String?

        enum CodingKeys: String, CodingKey { case id, fileName, size, fileType, sha256, preview }

        /// Read with the MIME type made display-safe (``NetworkText``); the name stays as sent
        /// (``ItemName/safe(_:)`` makes it one).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            fileName = try c.decode(String.self, forKey: .fileName)
            size = try c.decode(Int64.self, forKey: .size)
            fileType = NetworkText.identifier(try c.decode(String.self, forKey: .fileType))
            sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
            preview = try c.decodeIfPresent(String.self, forKey: .preview)
        }

        /// A file offer.
        public init(id: String, fileName: String, size: Int64, fileType: String, sha256: String? = nil, preview: String? = nil) {
            self.id = id
            self.fileName = fileName
            self.size = size
            self.fileType = fileType
            self.sha256 = sha256
            self.preview = preview
        }
    }

    /// The sender.
    public var info: LocalSendDevice
    /// The files by identifier.
    public var files: [String: File]

    /// A request.
    public init(info: LocalSendDevice, files: [String: File]) {
        self.info = info
        self.files = files
    }

    /// The longest file identifier taken (LocalSend's are UUIDs).
    static let maximumIdentifier = 128

    /// The request in a JSON body, checked: 1 to ``SessionMessage/maximumItems`` files, each keyed
    /// by its own identifier, sizes not negative, a SHA-256 that is 64 hex digits; an error
    /// naming the first thing wrong.
    public static func decode(_ bytes: some Collection<UInt8>) throws(NearbyError) -> LocalSendPrepareUpload {
        let request = try LocalSendJSON.decode(LocalSendPrepareUpload.self, from: bytes, what: "a prepare-upload body")
        guard !request.files.isEmpty, request.files.count <= SessionMessage.maximumItems else {
            throw .protocolViolation("prepare-upload with \(request.files.count) files (1 to \(SessionMessage.maximumItems))")
        }
        for (key, file) in request.files {
            guard key == file.id, !key.isEmpty, key.utf8.count <= maximumIdentifier else {
                throw .protocolViolation("prepare-upload: file '\(ItemName.safe(key))' has the id '\(ItemName.safe(file.id))'")
            }
            guard file.size >= 0 else { throw .protocolViolation("prepare-upload: file '\(ItemName.safe(key))' has a negative size") }
            if let digest = file.sha256, LocalSendPrepareUpload.digest(digest) == nil {
                throw .protocolViolation("prepare-upload: file '\(ItemName.safe(key))' has a sha256 that is not 64 hex digits")
            }
        }
        return request
    }

    /// The 32 bytes of a hex SHA-256 (either case), or `nil`: read as a certificate fingerprint
    /// is, which is a SHA-256 in hex too.
    static func digest(_ hex: String) -> [UInt8]? {
        guard hex.utf8.count == 64 else { return nil }
        return Fingerprint(hex: hex)?.bytes
    }
}

/// The reply to an accepted `prepare-upload`: the session, and a token per file accepted.
public struct LocalSendPrepared: Codable, Sendable, Equatable {
    /// The session's identifier.
    public var sessionId: String
    /// Per file identifier, the token its upload must carry.
    public var files: [String: String]

    /// A reply.
    public init(sessionId: String, files: [String: String]) {
        self.sessionId = sessionId
        self.files = files
    }
}
