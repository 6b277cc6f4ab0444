/// Who may send to this device: AirDrop's "Receiving Off", "Contacts Only" and "Everyone for 10
/// Minutes", with paired devices standing for contacts.
public enum ReceiveMode: String, Sendable, CaseIterable {
    /// Nothing is received; the receiver does not listen.
    case off
    /// Only paired devices: any other certificate is refused in the TLS handshake, before any
    /// request (an unpaired sender gets nothing, not even a prompt).
    case paired
    /// Paired devices as above; any other device may ask, and the user is asked (or, with
    /// auto-accept, it is accepted). Ends by itself (``ReceiverConfiguration/everyoneMinutes``).
    case everyone
}
