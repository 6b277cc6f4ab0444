import NIOCore
import Synchronization

/// How many connections one listener serves at once: in all, and from one address. Without a
/// cap an everyone-mode server served every connection a flood opened, each a TLS handshake and
/// an idle timer; with one, a connection over a cap is closed as it arrives, before TLS.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections served at once by one listener.
    public var total = 128
    /// Connections served at once from one address: a device opens a few (a send, an activity
    /// watch, continuation streams), a flood many.
    public var perAddress = 16

    /// The defaults.
    public init() {}
}

/// The counts behind ``ConnectionLimits`` for one listener, and the handler that enforces them.
final class ConnectionCaps: Sendable {
    let limits: ConnectionLimits
    let state = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    init(_ limits: ConnectionLimits) { self.limits = limits }

    /// Counts a connection from `address` in, or says it is over a cap.
    func admit(_ address: String) -> Bool {
        state.withLock { state in
            guard state.total < limits.total, state.byAddress[address, default: 0] < limits.perAddress else { return false }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return true
        }
    }

    /// Counts a connection from `address` out.
    func release(_ address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// The handler for a connection just accepted on `channel` (first in its pipeline): it closes
    /// the connection when it becomes active over a cap, and counts it out when it closes.
    func handler(for channel: any Channel) -> Handler {
        let address = channel.remoteAddress?.ipAddress ?? ""
        return Handler(caps: self, address: address, admitted: admit(address))
    }

    /// Enforces the caps for one connection.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        let caps: ConnectionCaps
        let address: String
        var admitted: Bool

        init(caps: ConnectionCaps, address: String, admitted: Bool) {
            self.caps = caps
            self.address = address
            self.admitted = admitted
        }

        func channelActive(context: ChannelHandlerContext) {
            // Over a cap: closed before the TLS handler sees a byte.
            guard admitted else { context.close(promise: nil); return }
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            countOut()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { countOut() }

        private func countOut() {
            if admitted { caps.release(address) }
            admitted = false
        }
    }
}
