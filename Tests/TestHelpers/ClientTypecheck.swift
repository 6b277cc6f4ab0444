import Foundation

/// Client code type-checked by the real compiler (`swiftc -typecheck`) against the modules this
/// test run was built with: what an app importing a product sees, and what it does not.
public enum ClientTypecheck {
    /// The compiler's status and messages for `source`, as one file of a client program, in
    /// `languageMode` (`"5"`, `"6"`; `nil`: the compiler's default, Swift 5).
    public static func run(_ source: String, languageMode: String? = nil) throws -> (status: Int32, errors: String) {
        let folder = try TestSupport.temporaryDirectory()
        let file = folder.appendingPathComponent("client.swift")
        try Data(source.utf8).write(to: file)
        let products = TestSupport.productsDirectory
        let fm = FileManager.default
        // The C modules the Swift modules were built against: SwiftPM's generated module maps
        // and the packages' own, as the build found them.
        var includes = [products.appendingPathComponent("Modules").path]
        // The dependencies' C modules (swift-system's CSystem, swift-atomics' shims, …).
        let checkouts = TestSupport.packageRoot.appendingPathComponent(".build/checkouts")
        for package in (try? fm.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sourcesFolder = checkouts.appendingPathComponent(package + "/Sources").path
            for target in (try? fm.contentsOfDirectory(atPath: sourcesFolder)) ?? [] {
                let include = sourcesFolder + "/" + target + "/include"
                if fm.fileExists(atPath: include + "/module.modulemap") { includes.append(include) }
            }
        }
        for folder in (try? fm.contentsOfDirectory(atPath: products.path)) ?? [] where folder.hasSuffix(".build") {
            let path = products.appendingPathComponent(folder).path
            if fm.fileExists(atPath: path + "/module.modulemap") { includes.append(path) }
        }
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources").path
        for target in (try? fm.contentsOfDirectory(atPath: sources)) ?? [] where target.hasPrefix("C") {
            for path in [sources + "/" + target, sources + "/" + target + "/include"] where fm.fileExists(atPath: path + "/module.modulemap") {
                includes.append(path)
            }
        }
        // The system headers those C modules include (libxml2, D-Bus), where pkg-config says.
        let cflags = try TestSupport.run("/usr/bin/env", ["pkg-config", "--cflags-only-I", "libxml-2.0", "dbus-1"]).out
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let mode = languageMode.map { ["-swift-version", $0] } ?? []
        let run = try TestSupport.run("/usr/bin/env", ["swiftc", "-typecheck"] + mode + cflags.flatMap { ["-Xcc", $0] }
                                      + includes.flatMap { ["-I", $0] } + [file.path])
        return (run.status, run.stderr)
    }

}
