import Handoff
import NIOCore

/// The receiver's side of a paired device continuing one of this device's activities: it tells
/// the offering app (``SessionMessage/continued(_:)``), or connects the continuing app's streams
/// to it (``SessionMessage/openStreams(_:)``).
/// The activity must still be offered, by that process, made current at that time, and for
/// streams it must support them. Made only for a paired device, as ``ActivityWatch`` is.
struct ActivityRelay {
    let root: String
    /// The paired device continuing.
    let paired: PairedDevice
    /// Seconds between a stream's heartbeats (``StreamRelay/heartbeat``).
    var heartbeat = StreamRelay.heartbeat

    /// The live offer a request names, or why there is none.
    func offer(_ identity: ActivityOffer.Identity) -> Result<ActivityOffer, NearbyError> {
        guard let offer = CurrentActivities(root: root).live().first(where: {
            $0.identity == identity
        }) else { return .failure(.declined("\(identity.bundleIdentifier) no longer offers that activity")) }
        return .success(offer)
    }

    /// Tells the offering app that its activity was continued, then acknowledges.
    func continued(_ identity: ActivityOffer.Identity, _ outbound: NIOAsyncChannelOutboundWriter<Frame>) async throws {
        switch offer(identity) {
        case .failure(let error): try await outbound.write(SessionMessage.refused("\(error)").frame)
        case .success:
            do {
                let channel = try ContinuationEndpoint.connect(board: CurrentActivities(root: root), processIdentifier: identity.processIdentifier,
                                                             sending: .continued(madeCurrent: identity.madeCurrent))
                channel.close()
                try await outbound.write(SessionMessage.acknowledged.frame)
            } catch {
                try await outbound.write(SessionMessage.refused("\(error)").frame)
            }
        }
    }

    /// Connects the streams to the offering app, acknowledges, and relays until both directions
    /// finished (``StreamRelay``).
    func openStreams(_ identity: ActivityOffer.Identity, _ inbound: inout some FrameSource,
                     _ outbound: NIOAsyncChannelOutboundWriter<Frame>, remoteChannel: any Channel) async throws {
        let offer: ActivityOffer
        switch self.offer(identity) {
        case .failure(let error):
            try await outbound.write(SessionMessage.refused("\(error)").frame)
            return
        case .success(let found): offer = found
        }
        guard offer.supportsContinuationStreams else {
            try await outbound.write(SessionMessage.refused("\(offer.activityType) does not support continuation streams").frame)
            return
        }
        let descriptor: CInt
        do {
            let channel = try ContinuationEndpoint.connect(board: CurrentActivities(root: root), processIdentifier: identity.processIdentifier,
                                                             sending: .streams(madeCurrent: identity.madeCurrent))
            descriptor = try channel.handOffDescriptor()
        } catch {
            try await outbound.write(SessionMessage.refused("\(error)").frame)
            return
        }
        let local = try await StreamRelay.local(descriptor)
        try await outbound.write(SessionMessage.acknowledged.frame)
        try await StreamRelay.run(.offering, remote: &inbound, remoteOutbound: outbound, remoteChannel: remoteChannel, local: local, heartbeat: heartbeat)
    }
}
