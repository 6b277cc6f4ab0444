import PropertyLists

/// One line of `nearby send --json` as the activity that runs it reads it: progress and the
/// reason of a failure (the tool's events are its interface here: Nearby sits above this library).
enum NearbyEvent: Equatable {
    /// `{"event":"progress","item":N,"bytes":B,"total":T}`
    case progress(item: Int, bytes: Int64, total: Int64)
    /// `{"event":"error","message":M}`
    case error(String)
    /// Any other event.
    case other

    /// The event on `line`; `nil` when the line is not a JSON object with an `event`.
    init?(_ line: String) {
        var options = PropertyListReadOptions()
        options.readsJSON = true
        guard case .dictionary(let event)? = try? PropertyListReader.read(Array(line.utf8), options: options).value,
              case .string(let kind)? = event["event"] else { return nil }
        switch (kind, event["item"], event["bytes"], event["total"], event["message"]) {
        case ("progress", .integer(let item)?, .integer(let bytes)?, .integer(let total)?, _): self = .progress(item: Int(item), bytes: bytes, total: total)
        case ("error", _, _, _, .string(let message)?): self = .error(message)
        default: self = .other
        }
    }
}
