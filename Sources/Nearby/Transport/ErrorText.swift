/// Any error of a nearby operation as one sentence a person can act on: ``NearbyError``'s own,
/// and the transport's (NIO's, BoringSSL's, the system's) in words rather than their names. The
/// one rule for the tool's messages and the receiver's events.
public enum ErrorText {
    /// `error` as a sentence.
    public static func of(_ error: any Error) -> String { Connection.describe(error) }
}
