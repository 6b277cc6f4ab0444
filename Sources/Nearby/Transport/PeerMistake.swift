/// An error that describes only the bytes a peer sent (a broken archive, a bad header): its text
/// may go back to that peer as it is.
protocol PeerMistake: Error, CustomStringConvertible {}
