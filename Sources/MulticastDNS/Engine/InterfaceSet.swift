import SystemCalls

/// The interfaces a responder or browser works on, by name and index, chosen when it starts.
struct InterfaceSet: Sendable, Hashable {
    struct Member: Sendable, Hashable {
        var name: String
        var index: UInt32
    }

    var members: [Member]

    /// The interfaces called `names`, or when `names` is `nil` every interface that is up,
    /// multicast-capable and not the loopback.
    init(names: [String]?) throws(MulticastDNSError) {
        let all: [NetworkInterface]
        do { all = try NetworkInterface.all() } catch { throw .system(error) }
        if let names {
            members = []
            for name in names {
                guard let found = all.first(where: { $0.name == name }) else { throw .noSuchInterface(name) }
                if !members.contains(where: { $0.index == found.index }) { members.append(Member(name: found.name, index: found.index)) }
            }
        } else {
            members = all.filter { $0.isUp && $0.supportsMulticast && !$0.isLoopback }.map { Member(name: $0.name, index: $0.index) }
        }
        if members.isEmpty { throw .noInterfaces }
    }

    init(members: [Member]) {
        self.members = members
    }

    func contains(_ index: UInt32) -> Bool { members.contains { $0.index == index } }

    func name(of index: UInt32) -> String { members.first { $0.index == index }?.name ?? "#\(index)" }
}
