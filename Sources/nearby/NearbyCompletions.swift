import AppRegistry
import Nearby
import ToolSupport

/// The values `nearby`'s completion scripts ask it for (`nearby --complete-values SOURCE
/// [--root ROOT]`, ``ToolSupport/CompletionValuesRequest``): what only nearby reads, so that no
/// script parses Paired.plist.
enum NearbyCompletions {
    /// The paired devices' names: `send --to`, and the DEVICE of `pair`, `unpair`, `activities`,
    /// `continue` and `streams`.
    static let pairedDevices = "paired-devices"

    /// The values of `request`'s source. Run at every press of Tab: it reads and never creates
    /// (``PairedDevices/load(from:)`` finds no file on a root that does not exist, and then lists
    /// nothing), and a list it cannot read lists nothing rather than an error in the middle of
    /// the user's command line.
    static func values(_ request: CompletionValuesRequest) -> [String] {
        switch request.source {
        case pairedDevices:
            let folder = NearbyFolder(root: DeviceRoot.resolve(explicit: request.root))
            return ((try? PairedDevices.load(from: folder))?.devices ?? []).map(\.name)
        default:
            return []
        }
    }
}
