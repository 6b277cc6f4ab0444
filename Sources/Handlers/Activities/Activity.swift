import AppRegistry
import UniformTypes
import SystemCalls

/// Something besides an app that can take the documents: a built-in action or an app's share
/// extension. Built-ins appear only when they can work on this machine.
public struct Activity: Sendable, Hashable {
    /// What performs it.
    public enum Kind: Sendable, Hashable {
        /// Copies the documents into a folder the user names (`--destination`).
        case copyToFolder
        /// Saves the documents into the sender's working storage (its container's `Documents/`).
        case saveToSender(String)
        /// Prints with `lp`.
        case print
        /// Copies the one document to the clipboard with `wl-copy` or `xclip`.
        case copyToClipboard(program: ClipboardProgram)
        /// Delivers to the app that declares the share extension, with the activity in the request.
        case shareExtension(bundleIdentifier: String)
        /// Sends to a paired nearby device with `nearby send` (docs/nearby.md).
        case sendToNearbyDevice(String)
    }

    /// The activity type, for `--activity` and `--exclude`.
    public var activityType: String
    /// The name shown.
    public var name: String
    /// What performs it.
    public var kind: Kind
    /// Why it is offered.
    public var reason: String

    /// The built-in activity types.
    public static let copyToFolderType = "copy-to-folder", saveToSenderType = "save-to-sender", printType = "print",
                      copyToClipboardType = "copy-to-clipboard"

    /// Every built-in activity type, whether or not it can work here.
    public static let builtInTypes = [copyToFolderType, saveToSenderType, printType, copyToClipboardType]

    /// The activity type of sending to the paired device `name` (AirDrop's row).
    public static func nearbyType(_ name: String) -> String { "nearby:" + name }

    /// The built-ins that can work here for `count` documents sent by `sender` (a registered app or not).
    /// - Parameter nearbyDevices: the paired devices; each is a row, first (as AirDrop is first in
    ///   iOS's sheet), when the `nearby` tool is installed.
    public static func builtIns(documentCount count: Int, sender: String, senderIsRegistered: Bool, nearbyDevices: [String] = []) -> [Activity] {
        var result: [Activity] = []
        if !nearbyDevices.isEmpty, Environment.findCompanionTool("nearby") != nil {
            for device in nearbyDevices {
                result.append(Activity(activityType: nearbyType(device), name: "Send to \(device) (nearby)", kind: .sendToNearbyDevice(device),
                                       reason: "a paired device; nearby is installed"))
            }
        }
        result.append(Activity(activityType: copyToFolderType, name: "Copy to Folder", kind: .copyToFolder,
                               reason: "always available; asks for the folder (openin --destination names it)"))
        if senderIsRegistered {
            result.append(Activity(activityType: saveToSenderType, name: "Save to \(sender)", kind: .saveToSender(sender),
                                   reason: "the sender \(sender) is a registered app"))
        }
        if Environment.findExecutable("lp") != nil {
            result.append(Activity(activityType: printType, name: "Print", kind: .print, reason: "lp is installed"))
        }
        if count == 1 {
            // The display is checked first: without one, no clipboard program is looked for.
            if Environment.value("WAYLAND_DISPLAY") != nil, Environment.findExecutable("wl-copy") != nil {
                result.append(Activity(activityType: copyToClipboardType, name: "Copy", kind: .copyToClipboard(program: .wlCopy),
                                       reason: "wl-copy is installed and a Wayland display is set"))
            } else if Environment.value("DISPLAY") != nil, Environment.findExecutable("xclip") != nil {
                result.append(Activity(activityType: copyToClipboardType, name: "Copy", kind: .copyToClipboard(program: .xclip),
                                       reason: "xclip is installed and an X display is set"))
            }
        }
        return result
    }
}
