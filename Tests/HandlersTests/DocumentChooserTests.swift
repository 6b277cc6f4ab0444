import AppRegistry
import DesktopEntries
import Foundation
import Handlers
import TestHelpers
import Testing
import UniformTypes

/// The one chooser as a library (``DocumentChooser``), on a copy of the sample device root and a
/// desktop-application folder of our own: rows carry their handler as a value, a named app or
/// activity that is not offered says why as a value, and performing a row delivers into an
/// Inbox or starts the real desktop program.
@Suite struct DocumentChooserTests {
    /// A sample device, its registry, and XDG folders with one desktop application, `copier.desktop`,
    /// which claims text/plain and copies the document it is given to `copied.txt`.
    struct Device {
        var root: DeviceRoot
        var registry: TypeRegistry
        var folder: URL
        var linux: LinuxApps
        var copied: URL { folder.appendingPathComponent("copied.txt") }

        init() throws {
            let device = try TestSupport.sampleDevice()
            root = DeviceRoot(path: device.path)
            registry = try RegistryStore.forQuery(root: root)
            folder = try TestSupport.temporaryDirectory()
            let applications = folder.appendingPathComponent("usr/applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/usr/mime", withDestinationPath: "/usr/share/mime")
            for dir in ["home", "config", "cache"] { try FileManager.default.createDirectory(at: folder.appendingPathComponent(dir), withIntermediateDirectories: true) }
            try Data("""
                [Desktop Entry]
                Type=Application
                Name=Copier
                Exec=/bin/cp %f \(folder.path)/copied.txt
                MimeType=text/plain;

                """.utf8).write(to: applications.appendingPathComponent("copier.desktop"))
            let locations = DesktopLocations(configHome: folder.path + "/config", configDirs: [], dataHome: folder.path + "/home",
                                             dataDirs: [folder.path + "/usr"], currentDesktops: ["GNOME"])
            linux = LinuxApps(apps: DesktopApps(locations: locations, cacheDirectory: folder.path + "/cache"))
        }

        func chooser(apps: DocumentChooser.Apps = .relevant, desktop: Bool = false, exclude: Set<String> = []) throws -> DocumentChooser {
            try DocumentChooser(root: root, registry: registry,
                                configuration: .init(sourceApplication: "org.example.tests", exclude: exclude, apps: apps, desktopApps: desktop ? linux : nil))
        }

        func document(_ name: String) -> String { root.path + "/Documents/" + name }
    }

    @Test func rowsCarryTheirHandlerAndWhyNotAsValues() throws {
        let device = try Device()
        let choices = try device.chooser(apps: .every).choices(for: [device.document("file.person")])
        #expect(choices.sheet.documents.map(\.type.identifier) == ["com.example.person"])
        // The apps in the documented order, each a bundle; then the activities.
        let apps = choices.rows.prefix { if case .bundle = $0.handler { true } else { false } }
        #expect(apps.map(\.identifier) == ["com.example.person-editor", "com.example.person-viewer", "com.example.files"])
        #expect(choices.rows.dropFirst(apps.count).allSatisfy { if case .activity = $0.handler { true } else { false } })
        #expect(choices.rows.contains { $0.identifier == "copy-to-folder" })
        #expect(apps.first?.reason.contains("com.example.person") == true)

        // Why a named app or activity is not a row: values, with whether the documents are refused.
        guard case .failure(let refused) = choices.row(forApp: "com.example.notes"), case .cannotTake(let app, _, let reason) = refused else {
            Issue.record("com.example.notes should be refused"); return
        }
        #expect(app == "com.example.notes" && refused.refusesDocuments && reason.contains("com.example.person"))
        guard case .failure(.noSuchApp(_, _, let suggestion)) = choices.row(forApp: "com.example.person-veiwer") else {
            Issue.record("a mistyped app should be unknown"); return
        }
        #expect(suggestion == "com.example.person-viewer")
        guard case .failure(.noSuchActivity(_, let near)) = choices.row(forActivity: "copy-to-fodler") else {
            Issue.record("a mistyped activity should be unknown"); return
        }
        #expect(near == "copy-to-folder")
        // Excluded by the front end: said so, not "no such app".
        let excluded = try device.chooser(apps: .every, exclude: ["com.example.files"]).choices(for: [device.document("file.person")])
        guard case .failure(.excluded("com.example.files")) = excluded.row(forApp: "com.example.files") else {
            Issue.record("an excluded app should say so"); return
        }
    }

    @Test func aBundleRowDeliversIntoItsInbox() throws {
        let device = try Device()
        let chooser = try device.chooser()
        let choices = chooser.choices(for: [device.document("notes.txt")])
        let row = try choices.row(forApp: "com.example.notes").get()
        guard case .bundle = row.handler else { Issue.record("Notes is a registered bundle"); return }
        let outcomes = try chooser.perform(row, of: choices, launch: false)
        guard case .delivered(_, let app, let result) = outcomes.first else { Issue.record("\(outcomes)"); return }
        #expect(app.bundleIdentifier == "com.example.notes")
        #expect(result.documentPath.contains("/Inbox/") && FileManager.default.contents(atPath: result.documentPath) == FileManager.default.contents(atPath: device.document("notes.txt")))
        #expect(FileManager.default.fileExists(atPath: result.requestPath))
    }

    @Test func aDesktopAppIsADesktopRowAndIsStarted() throws {
        let device = try Device()
        let chooser = try device.chooser(desktop: true)
        let choices = chooser.choices(for: [device.document("notes.txt")])
        let row = try choices.row(forApp: "copier.desktop").get()
        guard case .desktop(let app) = row.handler else { Issue.record("copier.desktop is a desktop application"); return }
        #expect(app.path.hasSuffix("/usr/applications/copier.desktop") && row.name == "Copier")
        // Registered apps keep their rows beside it.
        #expect(choices.rows.contains { if case .bundle(let b) = $0.handler { b.bundleIdentifier == "com.example.notes" } else { false } })
        // Without launching, nothing starts.
        guard case .notStarted = try chooser.perform(row, of: choices, launch: false).first else { Issue.record("not started"); return }
        #expect(!FileManager.default.fileExists(atPath: device.copied.path))
        // Started: the real program gets the document's absolute path.
        guard case .started(_, let result) = try chooser.perform(row, of: choices).first, case .spawned(let processes) = result.method else {
            Issue.record("copier should be spawned"); return
        }
        #expect(processes.first?.first == "/bin/cp")
        let deadline = Date().addingTimeInterval(10)
        while FileManager.default.contents(atPath: device.copied.path) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(FileManager.default.contents(atPath: device.copied.path) == FileManager.default.contents(atPath: device.document("notes.txt")))
        // Registered apps only: the desktop app is not offered, and the reason is that no app has that name.
        let registeredOnly = try device.chooser().choices(for: [device.document("notes.txt")])
        guard case .failure(.noSuchApp) = registeredOnly.row(forApp: "copier.desktop") else { Issue.record("no desktop apps asked for"); return }
    }

    @Test func aDefaultIsCheckedAgainstWhatTheAppOpens() throws {
        let device = try Device()
        let chooser = try device.chooser(desktop: true)
        let text = try #require(UTType("public.plain-text", in: device.registry))
        let png = try #require(UTType("public.png", in: device.registry))
        #expect(try chooser.capableApp("copier.desktop", for: text).bundleIdentifier == "copier.desktop")
        #expect(throws: HandlerError.self) { try chooser.capableApp("copier.desktop", for: png) }
        do { _ = try chooser.capableApp("copier.desktop", for: png) } catch {
            #expect("\(error)".contains("copier.desktop cannot open public.png (image/png)"), "\(error)")
        }
        do { _ = try chooser.capableApp("nothing.desktop", for: text) } catch {
            #expect("\(error)".contains("no desktop file nothing.desktop"), "\(error)")
        }
        do { _ = try chooser.capableApp("com.example.person-viewer", for: text) } catch {
            #expect("\(error)".contains("cannot open public.plain-text; it opens com.example.person"), "\(error)")
        }
        #expect(try chooser.capableApp("com.example.notes", for: text).bundleIdentifier == "com.example.notes")
    }
}
