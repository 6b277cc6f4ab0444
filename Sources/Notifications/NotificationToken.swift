/// A registration, as notify(3)'s `int` token: valid in the process that registered, until
/// ``NotifyCenter/cancel(_:)``.
public struct NotificationToken: RawRepresentable, Sendable, Hashable {
    /// The number notify(3) would return.
    public var rawValue: Int32
    /// A token from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }
}
