import AppRegistry
import Handlers
import Handoff
import Receiver
import SystemCalls
import URLSchemes

/// What went wrong on the app's side of interchange, as a value.
public enum InterchangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The process was not told who it is (`DI_BUNDLE_IDENTIFIER`), was not started from an app
    /// bundle (``MainBundle``) and was given no bundle identifier.
    case unknownIdentity
    /// A named device root that does not exist.
    case noDeviceRoot(String)
    /// A URL, its handler or its delivery.
    case url(URLSchemeError)
    /// The app model, the device or the registry.
    case app(AppRegistryError)
    /// Choosing or delivering documents.
    case handler(HandlerError)
    /// The Inbox receiver.
    case receiver(ReceiverError)
    /// A system call failed.
    case system(SystemCallError)
    /// Listing nearby devices or sending to one (`device`, when it was named) failed, and why.
    case nearby(device: String?, reason: String)
    /// An activity to continue (Handoff) that could not be read or handed over.
    case activity(HandoffError)

    /// One sentence.
    public var description: String {
        switch self {
        case .unknownIdentity: "the app does not know who it is: DI_BUNDLE_IDENTIFIER is not set, it was not started from an app bundle (an X.app folder holding an Info.plist) and no bundle identifier was given"
        case .noDeviceRoot(let path): DeviceRoot.absence(at: path)
        case .url(let error): error.description
        case .app(let error): error.description
        case .handler(let error): error.description
        case .receiver(let error): error.description
        case .system(let error): error.description
        case .nearby(let device, let reason): "nearby\(device.map { " device \($0)" } ?? ""): \(reason)"
        case .activity(let error): error.description
        }
    }
}
