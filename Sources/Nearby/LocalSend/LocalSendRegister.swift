/// LocalSend's `register` (protocol v2): our description posted to a device's server, which
/// answers with its own. Both ways of finding each other use it: the answer to an announcement
/// (``LocalSendMulticast``) and the sweep of a network without multicast (``LocalSendSweep``).
enum LocalSendRegister {
    /// Posts `me` to the server at `host`:`port`; the device its reply describes, or `nil` when
    /// there was no reply, it was not 200, or it describes no device. Any certificate is taken:
    /// the sender checks the one it will send to against its `info` (``LocalSendSender``).
    static func post(_ me: LocalSendDevice, to host: String, port: Int, secure: Bool, client: HTTPClient) async -> LocalSendDevice? {
        guard let reply = try? await client.request(.POST, host: host, port: port, secure: secure, path: "/api/localsend/v2/register",
                                                    body: .json(me.json), check: PeerCheck(.anyoneRecorded)),
              reply.status == 200 else { return nil }
        return try? LocalSendDevice.decode(reply.body)
    }
}
