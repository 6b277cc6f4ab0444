/// What a tool's verb could not do: the message as the tool prints it (after its name) and the
/// exit status (2 unless the tool says otherwise).
package struct ToolFailure: Error, Sendable, CustomStringConvertible {
    /// The message, without the tool's name.
    package var message: String
    /// The exit status.
    package var status: Int32

    /// A failure with `message`, exiting with `status`.
    package init(message: String, status: Int32 = 2) {
        self.message = message
        self.status = status
    }

    /// The message.
    package var description: String { message }
}
