// Apple's app API for the interchange channels on Linux: code written for iOS or macOS builds here
// with one added line, `import InterchangeKit`, for what Linux's Foundation lacks:
//
//     let pasteboard = UIPasteboard.withUniqueName()
//     pasteboard.setData(data, forPasteboardType: "com.example.package")
//     if UIApplication.shared.canOpenURL(url) { UIApplication.shared.open(url) }
//     let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")
//     notify_post("com.example.changed")
//
// Each Apple type is a thin shape over the engine that already does the work (Pasteboards,
// AppInterchange, FileCoordination, AppGroups, SharedDefaults, Notifications); none of the
// engine is re-exported, so an app sees Apple's names only. docs/apple-api.md lists every
// symbol offered and how it differs from Apple's.

import AppInterchange
import AppRegistry
import Synchronization

/// The app this process is and its device root, found once as `AppInterchange` finds them
/// (`InterchangeApp.current()`): the launcher's `DI_BUNDLE_IDENTIFIER` and
/// `DOCUMENT_INTERCHANGE_ROOT` when set, else the bundle the program was started from and the
/// device root it is installed on, as Apple finds `Bundle.main` (else the user's device root).
/// Apple code makes no set-up call, so nothing else can tell us.
enum CurrentApp {
    /// The app this process is, or why there is none (a program started by hand from no bundle, say).
    static let launched: Result<InterchangeApp, InterchangeError> = Result { () throws(InterchangeError) in try InterchangeApp.current() }
    /// The app a test makes this process act as (two apps of one device in one test process);
    /// `nil`: the launched one.
    static let actingAs = Mutex<InterchangeApp?>(nil)

    /// The app.
    static var app: Result<InterchangeApp, InterchangeError> {
        if let chosen = actingAs.withLock({ $0 }) { return .success(chosen) }
        return launched
    }

    /// The device root: the app's, else the one this process works on.
    static var root: DeviceRoot { (try? app.get())?.root ?? InterchangeApp.currentRoot() }
}
