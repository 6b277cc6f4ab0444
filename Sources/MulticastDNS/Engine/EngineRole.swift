/// What runs on an engine's thread: a responder's or a browser's protocol logic. It never touches
/// a socket or a clock: it is told the time, handed messages, and leaves what to send in
/// ``outgoing``, so tests drive it with made-up times and packets.
protocol EngineRole: AnyObject, SendableMetatype {
    /// What the public object asks of it from other threads.
    associatedtype Command: Sendable

    /// The engine started (send the first announcements or queries).
    func start(now: Double)
    /// A command arrived.
    func handle(_ command: Command, now: Double)
    /// A message arrived.
    func receive(_ message: DNSMessage, from source: PacketSource, now: Double)
    /// Time passed: do what is due.
    func advance(now: Double)
    /// The engine stops: say goodbye.
    func finish(now: Double)
    /// When ``advance(now:)`` has something to do next; `nil` for nothing.
    var nextDeadline: Double? { get }
    /// Messages to send, taken by the engine.
    var outgoing: [Outgoing] { get set }
}
