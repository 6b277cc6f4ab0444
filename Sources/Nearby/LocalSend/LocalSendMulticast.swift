import NIOCore
import NIOPosix
import Synchronization
import SystemCalls

/// LocalSend's discovery over UDP multicast: the receiver announces itself on the group (LocalSend's
/// 224.0.0.167:53317) when it starts, and answers each other device's announcement with `POST
/// /api/localsend/v2/register` to that device's server (falling back to a multicast reply when
/// that fails), at most once a second per address.
final class LocalSendMulticast: Sendable {
    let receiver: LocalSendReceiver
    let channel: NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>
    /// The IPv4 interfaces joined (name and address), announced on one after the other.
    let interfaces: [(name: String, address: NIOCore.SocketAddress)]
    let group: NIOCore.SocketAddress
    /// When each address was last answered.
    let answered = Mutex<[String: Double]>([:])

    /// The largest announcement read.
    static let maximumMessage = 8 << 10
    /// Seconds between two answers to one address.
    static let answerInterval: Double = 1

    /// Binds the multicast port and joins the group on the receiver's interfaces (every IPv4
    /// interface that takes multicast, loopback aside, when it names none).
    init(receiver: LocalSendReceiver) async throws {
        self.receiver = receiver
        let settings = receiver.settings
        do {
            group = try NIOCore.SocketAddress(ipAddress: settings.group, port: settings.multicastPort)
            channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: "0.0.0.0", port: settings.multicastPort) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>(wrappingChannelSynchronously: channel)
                    }
                }
            let wanted = receiver.configuration.interfaces
            let devices = try System.enumerateDevices().filter { device in
                guard case .v4? = device.address, device.multicastSupported, device.name != "lo" else { return false }
                return wanted.map { $0.contains(device.name) } ?? true
            }
            guard let multicast = channel.channel as? MulticastChannel else { throw NearbyError.connection("no multicast on this socket") }
            var joined: [(String, NIOCore.SocketAddress)] = []
            for device in devices where !joined.contains(where: { $0.0 == device.name }) {
                try await multicast.joinGroup(group, device: device).get()
                if let address = device.address { joined.append((device.name, address)) }
            }
            interfaces = joined
        } catch let error as NearbyError { throw error } catch {
            throw NearbyError.connection("LocalSend multicast \(settings.group):\(settings.multicastPort): \(Connection.describe(error))")
        }
    }

    /// Seconds after the first announcement that it is sent again: a datagram lost, or a peer
    /// too busy to take it, would otherwise leave us unfound (a loaded test run once found the
    /// peer by its alias in 9 of 10 sends with a single announcement).
    static let reannouncements = [0.5, 2.0]

    /// Announces (again after each of ``reannouncements``), then answers announcements until cancelled.
    func run() async throws {
        try await channel.executeThenClose { inbound, outbound in
            await send(receiver.device(announce: true), to: outbound)
            let again = Task {
                var waited = 0.0
                for delay in Self.reannouncements {
                    guard (try? await Task.sleep(for: .seconds(delay - waited))) != nil else { return }
                    waited = delay
                    await send(receiver.device(announce: true), to: outbound)
                }
            }
            defer { again.cancel() }
            for try await envelope in inbound {
                guard envelope.data.readableBytes <= Self.maximumMessage, let host = envelope.remoteAddress.ipAddress,
                      let device = try? LocalSendDevice.decode(envelope.data.readableBytesView),
                      device.fingerprint != receiver.fingerprint else { continue }
                receiver.heard(device, host)
                guard device.announce == true else { continue }
                let now = Clock.monotonic()
                let due = answered.withLock { answered in
                    if answered.count > 256 { answered = answered.filter { now - $0.value < Self.answerInterval } }
                    guard now - (answered[host] ?? -.infinity) >= Self.answerInterval else { return false }
                    answered[host] = now
                    return true
                }
                guard due else { continue }
                // Answered off the read loop: a slow or absent server there must not hold up others.
                Task {
                    if await !register(with: device, at: host) { await send(receiver.device(announce: false), to: outbound) }
                }
            }
        }
    }

    /// Posts our description to the announcing device's `register`; whether it took it.
    func register(with device: LocalSendDevice, at host: String) async -> Bool {
        guard let port = device.port else { return false }
        var client = HTTPClient(identity: receiver.identity)
        client.timeout = 2
        return await LocalSendRegister.post(receiver.device(), to: host, port: port, secure: device.protocol != "http", client: client) != nil
    }

    /// Sends `device` to the group, once on each interface joined. An interface it cannot be sent
    /// on is reported and the others still get it: a receiver that cannot announce is still
    /// found by a sender's announcement (which it answers) and by LocalSend's subnet sweep, so it
    /// keeps receiving (it once closed every listener when an isolated LAN without a default
    /// route made the send fail with ENETUNREACH).
    func send(_ device: LocalSendDevice, to outbound: NIOAsyncChannelOutboundWriter<AddressedEnvelope<ByteBuffer>>) async {
        let payload = ByteBuffer(bytes: device.json)
        for interface in interfaces {
            do { try await send(payload, on: interface, to: outbound) } catch {
                receiver.events(.warning("LocalSend's announcement on \(interface.name) was not sent: \(Connection.describe(error))"))
            }
        }
    }

    /// Sends `payload` to the group on `interface`.
    func send(_ payload: ByteBuffer, on interface: (name: String, address: NIOCore.SocketAddress),
              to outbound: NIOAsyncChannelOutboundWriter<AddressedEnvelope<ByteBuffer>>) async throws {
        guard case .v4(let address) = interface.address else { return }
        // IP_MULTICAST_IF (at IPPROTO_IP: `.socketOption` would be SOL_SOCKET, where the same
        // number is SO_SNDBUFFORCE) reads an in_addr from the option's first 4 bytes (Linux,
        // ip(7)): the interface's address, already in network order, in the low bytes of NIO's Int.
        try await channel.channel.setOption(.ipOption(.ip_multicast_if), value: Int(address.address.sin_addr.s_addr)).get()
        try await outbound.write(AddressedEnvelope(remoteAddress: group, data: payload))
    }
}
