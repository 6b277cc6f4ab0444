import AppInterchange
import Foundation

extension Bundle {
    /// The app's bundle, what `Bundle.main` is on iOS (not Apple's name): the registered bundle of
    /// the app this process is (the one the launcher named, else the one the program was started
    /// from, `ROOT/Apps/X.app/bin/x`), else the bundle it was started from when no device root
    /// lists it, else Foundation's `Bundle.main`. Its `bundleIdentifier`, `bundlePath`,
    /// `infoDictionary` and resources are Foundation's reading of that folder, as on Apple's
    /// platforms.
    ///
    /// Not `main`: Linux's Foundation declares `Bundle.main` itself, found from `/proc/self/exe`,
    /// which for an installed app is the link's target in the build folder (no Info.plist, no
    /// identifier); a second `main` would be ambiguous in every program that imports Foundation.
    public static var app: Bundle {
        if let app = try? CurrentApp.app.get(), let bundle = Bundle(path: app.bundle.path) { return bundle }
        if let started = MainBundle.current, let bundle = Bundle(path: started.bundlePath) { return bundle }
        return .main
    }
}
