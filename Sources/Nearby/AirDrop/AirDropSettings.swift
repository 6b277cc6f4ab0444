/// How the receiver speaks AirDrop's HTTP protocol (as OpenDrop speaks it) beside its own, in
/// everyone-mode only, on one interface: AWDL's part (a link-local IPv6 link) is what the chosen
/// interface stands for.
public struct AirDropSettings: Sendable {
    /// The interface announced on (`_airdrop._tcp` with its link-local IPv6 address).
    public var interface: String
    /// The HTTPS port (OpenDrop's 8771; 0 for any free one, for tests).
    public var port = 8771
    /// `ReceiverModelName`.
    public var model = "nearby"
    /// Whether `_airdrop._tcp` is announced (off: reached by address only, as the tests do on
    /// loopback, which must not announce on the machine's own interfaces).
    public var announces = true

    /// AirDrop on `interface`.
    public init(interface: String) { self.interface = interface }

    /// The sending app given when an Ask names none.
    static let unnamedApp = "com.apple.finder"
}
