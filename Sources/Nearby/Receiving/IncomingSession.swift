import AppRegistry
import Crypto
import NIOCore
import PropertyLists
import SystemCalls
import UniformTypes

/// One sender's session on the receiver, after the handshake let its certificate in: the ask,
/// the answer, then each item's upload, checked and delivered. Strictly in order: a message out
/// of turn, a token that is not this session's, or a byte beyond an item's declared size ends
/// the session at once (the excess is never written).
struct IncomingSession {
    let configuration: ReceiverConfiguration
    let peer: Fingerprint
    let paired: PairedDevice?
    let prompt: (@Sendable (IncomingAsk) async -> Bool)?
    let events: @Sendable (ReceiverEvent) -> Void
    let claims: TransferClaims
    let askLimits: AskLimits
    let channel: any Channel

    /// What was accepted.
    struct Accepted {
        var senderName: String
        var senderApp: String
        var items: [ItemOffer]
        var names: [String]
        var destinations: [Destination]
        var spool: Spool
        var token: [UInt8]
        var held: [Int64]
        /// When the session must be over (``ReceiverConfiguration/minimumRate``).
        var deadline: Double

        /// Throws once the session has run past its deadline.
        func checkDeadline() throws(NearbyError) {
            guard Clock.monotonic() > deadline else { return }
            throw .timedOut("the session ran past its time (slower than the receiver's minimum rate): closed")
        }
    }

    func run(_ inbound: inout some FrameSource,
             _ outbound: NIOAsyncChannelOutboundWriter<Frame>) async throws {
        guard let first = try await inbound.next() else { return }
        guard first.kind == .message, case .ask(let senderName, let senderApp, let targetApp, let transfer, let items) = try Self.message(first) else {
            throw NearbyError.protocolViolation("the first message is not an ask")
        }
        let registry = try? RegistryStore.forQuery(root: configuration.root)
        let chooser = Destination.chooser(root: configuration.root, registry: registry)
        let names = items.map { ItemName.safe($0.name) }
        let destinations = zip(items, names).map { item, name in
            Destination.choose(type: item.type, name: name, targetApp: targetApp, chooser: chooser, downloads: configuration.downloads)
        }
        let ask = IncomingAsk(senderName: senderName, senderApp: senderApp, fingerprint: peer, pairedName: paired?.name,
                              items: items.indices.map { (names[$0], items[$0].type, items[$0].size, destinations[$0].label) })
        // The app the sender named must be the one that takes them: sent elsewhere without a
        // word, the person looked for the items in the wrong app.
        if let targetApp, let why = Destination.refusal(of: targetApp, for: items.map(\.type), names: names, destinations: destinations, registry: registry) {
            events(.asked(ask, accepted: false, reason: why))
            let answer = SessionMessage.answer(accepted: false, reason: why, token: [], held: []).frame
            try await uncancelled { try await outbound.write(answer) }
            return
        }
        if let refusal = try await refusal(ask, items: items, destinations: destinations, outbound: outbound) {
            events(.asked(ask, accepted: false, reason: refusal.description))
            // Said even when the receiver is stopping: the sender learns it was declined.
            let answer = SessionMessage.answer(accepted: false, reason: refusal.publicReason, token: [], held: []).frame
            try await uncancelled { try await outbound.write(answer) }
            return
        }
        let spool = Spool(base: NearbyFolder(root: configuration.root).spool, sender: peer, transfer: transfer)
        let claim = try await claims.claim(spool, for: channel)
        defer { withExtendedLifetime(claim) {} }
        var held: [Int64] = []
        let annotation = Self.annotation(senderName: senderName, peer: peer, paired: paired)
        for (index, item) in items.enumerated() {
            held.append(try settle(index, item: item, spool: spool, destination: destinations[index], senderApp: senderApp, annotation: annotation))
        }
        // The total timeout: the grace plus what is left to send at the slowest rate allowed.
        let remaining = zip(items, held).reduce(Int64(0)) { $0 &+ max(0, $1.0.size - $1.1) }
        let deadline = Clock.monotonic() + configuration.sessionGrace + Double(remaining) / Double(max(1, configuration.minimumRate))
        var token = [UInt8](repeating: 0, count: 16)
        for i in token.indices { token[i] = UInt8.random(in: 0...255) }
        events(.asked(ask, accepted: true, reason: nil))
        try await outbound.write(SessionMessage.answer(accepted: true, reason: nil, token: token, held: held).frame)
        var accepted = Accepted(senderName: senderName, senderApp: senderApp, items: items, names: names, destinations: destinations,
                                spool: spool, token: token, held: held, deadline: deadline)
        while let frame = try await inbound.next() {
            try accepted.checkDeadline()
            guard frame.kind == .message, case .upload(let token, let index, let offset) = try Self.message(frame) else {
                throw NearbyError.protocolViolation("expected an upload")
            }
            guard token == accepted.token else { throw NearbyError.protocolViolation("an upload with a token that is not this session's") }
            guard index < items.count else { throw NearbyError.protocolViolation("an upload of item \(index) of \(items.count)") }
            guard offset == accepted.held[index], offset < items[index].size || items[index].size == 0 else {
                throw NearbyError.protocolViolation("item \(index) uploaded from \(offset), but \(accepted.held[index]) bytes are held")
            }
            if spool.isDelivered(index) {
                // An empty item delivered before: told again, never delivered twice.
                try await outbound.write(SessionMessage.delivered(item: index, destination: destinations[index].label).frame)
                continue
            }
            let path = try await receive(index, from: offset, accepted: accepted, annotation: annotation, inbound: &inbound)
            accepted.held[index] = items[index].size
            events(.delivered(name: names[index], destination: destinations[index].label, path: path, bytes: items[index].size, resumedFrom: offset))
            try await outbound.write(SessionMessage.delivered(item: index, destination: destinations[index].label).frame)
        }
    }

    /// Why the ask is refused, or `nil` to accept it (``AskPolicy``); while a person decides, the
    /// sender is told so every few seconds.
    func refusal(_ ask: IncomingAsk, items: [ItemOffer], destinations: [Destination],
                 outbound: NIOAsyncChannelOutboundWriter<Frame>) async throws -> AskRefusal? {
        let policy = AskPolicy(configuration: configuration, prompt: prompt, askLimits: askLimits)
        // Counted by certificate and by address (AskLimits says why).
        let keys = ["fp:" + peer.hex] + (channel.remoteAddress?.ipAddress.map { ["ip:" + $0] } ?? [])
        let channel = self.channel
        return try await policy.refusal(ask, sizes: items.map(\.size), names: items.map(\.name), destinations: destinations,
                                        trusted: paired != nil, keys: keys, stillAsking: {
            try await outbound.write(SessionMessage.asking.frame)
        }, senderGone: { await closed(channel) })
    }

    /// How much of item `index` is held, finishing a delivery a crash interrupted: a delivered
    /// item counts whole; a complete file not yet marked is marked if its app holds it, else
    /// delivered now.
    func settle(_ index: Int, item: ItemOffer, spool: Spool, destination: Destination, senderApp: String,
                annotation: PropertyList) throws(NearbyError) -> Int64 {
        if spool.isDelivered(index) { return item.size }
        // Moved into the download folder, or partly (still under the mover's hidden name), the
        // marker not yet written.
        if case .downloads(let folder) = destination, let moved = spool.interruptedMove(index, into: folder) {
            var path = ""
            if case .found(let found) = moved {
                path = found
                if Self.isHiddenName(found) {
                    // Back into the spool under its own name, and delivered as if nothing happened.
                    do { try FileSystem.rename(found, to: spool.completePath(index, name: ItemName.safe(item.name))) } catch { throw .system(error) }
                    path = try destination.deliver(spool.completePath(index, name: ItemName.safe(item.name)), type: item.type,
                                                   root: configuration.root, senderApp: senderApp, annotation: annotation,
                                                   launch: configuration.launchApps)
                }
            }
            try spool.markDelivered(index, destination: destination.label, path: path)
            return item.size
        }
        // Moved into the app already (delivery moves the file), the marker not yet written.
        if let path = try destination.priorDelivery(of: spool.completePath(index, name: ItemName.safe(item.name)), root: configuration.root) {
            try spool.markDelivered(index, destination: destination.label, path: path)
            return item.size
        }
        // Moved into the app's tmp/ to be staged, the open request not yet written: back into the
        // spool, and delivered below as if nothing happened.
        if case .app(let app) = destination, let container = try? AppContainer(bundleIdentifier: app.bundleIdentifier, on: configuration.root),
           case .found(let staged)? = spool.interruptedMove(index, into: container.temporary) {
            do { try FileSystem.rename(staged, to: spool.completePath(index, name: ItemName.safe(item.name))) } catch { throw .system(error) }
        }
        if let waiting = spool.waitingFile(index) {
            if let prior = try destination.priorDelivery(of: waiting, root: configuration.root) {
                try spool.markDelivered(index, destination: destination.label, path: prior)
            } else {
                _ = try spool.deliver(index, file: waiting, type: item.type, to: destination, root: configuration.root,
                                      senderApp: senderApp, annotation: annotation, launch: configuration.launchApps)
            }
            return item.size
        }
        return try spool.held(index, size: item.size)
    }

    /// Takes item `index`'s bytes from `offset`, checks its SHA-256, delivers it; returns where it went.
    func receive(_ index: Int, from offset: Int64, accepted: Accepted, annotation: PropertyList,
                 inbound: inout some FrameSource) async throws -> String {
        let item = accepted.items[index]
        var writer = try ItemWriter(spool: accepted.spool, index: index, size: item.size, from: offset)
        while !writer.isFull {
            guard let frame = try await inbound.next() else {
                throw NearbyError.connection("the sender stopped after \(writer.position) of \(item.size) bytes of item \(index)")
            }
            try accepted.checkDeadline()
            guard frame.kind == .data else { throw NearbyError.protocolViolation("a message in the middle of item \(index)'s bytes") }
            try frame.payload.withUnsafeReadableBytes { bytes throws(NearbyError) in try writer.append(bytes) }
        }
        guard let end = try await inbound.next(), end.kind == .message, case .uploaded(let declaredItem, let declared) = try Self.message(end),
              declaredItem == index else {
            throw NearbyError.protocolViolation("item \(index)'s bytes were not followed by its SHA-256")
        }
        let complete = try writer.complete(name: accepted.names[index], expected: declared)
        return try accepted.spool.deliver(index, file: complete, type: item.type, to: accepted.destinations[index], root: configuration.root,
                                          senderApp: accepted.senderApp, annotation: annotation, launch: configuration.launchApps)
    }

    /// The value handed to the app with each item: who sent it, from which device.
    static func annotation(senderName: String, peer: Fingerprint, paired: PairedDevice?) -> PropertyList {
        var nearby: [String: PropertyList] = ["SenderName": .string(senderName), "Fingerprint": .string(peer.hex)]
        if let paired { nearby["PairedDevice"] = .string(paired.name) }
        return .dictionary(["Nearby": .dictionary(.init(uniqueKeysWithValues: nearby.sorted { $0.key < $1.key }))])
    }

    /// Whether `path` names a hidden file (the mover's temporary name).
    static func isHiddenName(_ path: String) -> Bool {
        path.split(separator: "/").last?.hasPrefix(".") ?? false
    }

    static func message(_ frame: Frame) throws(NearbyError) -> SessionMessage {
        try SessionMessage.decode(Array(frame.payload.readableBytesView))
    }
}
