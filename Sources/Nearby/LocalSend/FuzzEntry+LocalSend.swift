extension FuzzEntry {
    /// LocalSend's readers of network bytes, chosen by the first byte: 0 a device (announcement,
    /// `register`, `info`), 1 a `prepare-upload` body, 2 its reply, 3 a request target. What
    /// decodes must hold its promises (a prepare-upload's bounds and keys) and come back equal
    /// after encoding and decoding again; a target's parameters must come back from their escaped
    /// form.
    public static func localSend(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let bytes = input.dropFirst()
        switch selector % 4 {
        case 0:
            guard let device = try? LocalSendDevice.decode(bytes) else { return }
            let again = try? LocalSendDevice.decode(device.json)
            precondition(again == device, "a LocalSend device changed in a round trip: \(device) became \(String(describing: again))")
        case 1:
            guard let request = try? LocalSendPrepareUpload.decode(bytes) else { return }
            precondition(!request.files.isEmpty && request.files.count <= SessionMessage.maximumItems, "prepare-upload let \(request.files.count) files through")
            for (key, file) in request.files {
                precondition(key == file.id && file.size >= 0, "prepare-upload let a bad file through: \(key) \(file)")
                precondition(file.sha256.map { LocalSendPrepareUpload.digest($0) != nil } ?? true, "a bad sha256 went through")
                // A name from the network becomes one safe path component.
                let safe = ItemName.safe(file.fileName)
                precondition(ItemName.isSafe(safe) && ItemName.safe(safe) == safe, "an unsafe name: \(safe.debugDescription)")
            }
            let again = try? LocalSendPrepareUpload.decode(LocalSendJSON.encode(request))
            precondition(again == request, "a prepare-upload changed in a round trip")
        case 2:
            guard let reply = try? LocalSendJSON.decode(LocalSendPrepared.self, from: bytes, what: "a reply") else { return }
            let again = try? LocalSendJSON.decode(LocalSendPrepared.self, from: LocalSendJSON.encode(reply), what: "a reply")
            precondition(again == reply, "a prepare-upload reply changed in a round trip")
        default:
            guard let target = LocalSendQuery(String(decoding: bytes, as: UTF8.self)) else { return }
            precondition(target.parameters.count <= LocalSendQuery.maximumParameters, "too many parameters went through")
            let rebuilt = LocalSendQuery.escape(target.path).replacingSlashes + HTTPClient.query(target.parameters.map { ($0.name, $0.value) })
            let again = LocalSendQuery(rebuilt)
            precondition(again == target, "a request target changed when escaped again: \(target) became \(String(describing: again))")
        }
    }

    /// Valid LocalSend inputs for ``localSend(_:)``, by path (`localsend/…`).
    public static var localSendSeeds: [(name: String, bytes: [UInt8])] {
        let device = LocalSendDevice(alias: "Nice Orange", deviceModel: "Samsung", deviceType: "mobile", fingerprint: String(repeating: "AB", count: 32),
                                     port: 53317, protocol: "https", download: false, announce: true)
        let request = LocalSendPrepareUpload(info: device, files: [
            "a": .init(id: "a", fileName: "photo é.png", size: 324_242, fileType: "image/png", sha256: String(repeating: "0f", count: 32)),
            "b": .init(id: "b", fileName: "../notes.txt", size: 0, fileType: "text/plain", preview: "data"),
        ])
        return [
            ("localsend/device", [0] + device.json),
            ("localsend/device-nulls", [0] + Array(#"{"alias":"x","version":"2.0","deviceModel":null,"deviceType":null,"fingerprint":"f"}"#.utf8)),
            ("localsend/prepare-upload", [1] + LocalSendJSON.encode(request)),
            ("localsend/prepared", [2] + LocalSendJSON.encode(LocalSendPrepared(sessionId: "s", files: ["a": "t1", "b": "t2"]))),
            ("localsend/target", [3] + Array("/api/localsend/v2/upload?sessionId=s%20id&fileId=a&token=t+1".utf8)),
        ]
    }
}

extension String {
    /// With `%2F` back to `/`: a path is escaped whole by ``LocalSendQuery/escape(_:)``.
    fileprivate var replacingSlashes: String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: "%2F") {
            out += rest[..<range.lowerBound] + "/"
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
