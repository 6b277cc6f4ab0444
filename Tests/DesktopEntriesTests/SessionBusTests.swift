import Foundation
import Testing
import TestHelpers
@testable import DesktopEntries

/// A private session bus (dbus-daemon) for one test, with a service folder, stopped at the end.
final class PrivateBus {
    let process = Process()
    let address: String
    let services: String

    init(directory: String) throws {
        services = directory + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let config = directory + "/bus.conf"
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:dir=\(directory)</listen><servicedir>\(services)</servicedir>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
            """.utf8).write(to: URL(fileURLWithPath: config))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=" + config, "--print-address=1", "--nofork"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // SIGKILL: a dbus-daemon started from the test process does not see SIGTERM (the runner's
    // threads block it, and the child inherits the mask).
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// DBusActivatable apps started by the bus through org.freedesktop.Application, and sandboxed
/// apps given documents through the document portal, on a real dbus-daemon.
@Suite(.serialized) struct SessionBusTests {
    static func build(_ name: String) throws -> String? {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let built = try DesktopFixtures.run(["/bin/sh", "-c", "gcc -O1 -o '\(binary)' '\(DesktopFixtures.fixtures.path)/\(name).c' $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)"])
        return built.status == 0 ? binary : nil
    }

    static func waitFor(_ path: String, containing text: String? = nil) -> String {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let content = try? String(contentsOfFile: path, encoding: .utf8), !content.isEmpty, text.map(content.contains) ?? true { return content }
            usleep(20_000)
        }
        return ""
    }

    /// The bus starts the app from its .service file; the app receives the same Open call
    /// (the documents' file:// URIs) from us as from GIO.
    @Test func dbusActivatableAppIsOpenedThroughTheBus() throws {
        let service = try #require(try Self.build("app_service"), "gcc and libglib2.0-dev are needed")
        let peer = try #require(DesktopFixtures.gioPeer)
        let dir = try TestHelpersShim.temporary()
        let bus = try PrivateBus(directory: dir)
        #expect(bus.address.hasPrefix("unix:"))
        let record = dir + "/opened"
        try Data("[D-BUS Service]\nName=org.example.Viewer\nExec=\(service) org.example.Viewer /org/example/Viewer \(record)\n".utf8)
            .write(to: URL(fileURLWithPath: bus.services + "/org.example.Viewer.service"))
        let desktop = dir + "/org.example.Viewer.desktop"
        try Data("[Desktop Entry]\nType=Application\nName=Viewer\nExec=/bin/false %U\nDBusActivatable=true\n".utf8).write(to: URL(fileURLWithPath: desktop))
        let document = dir + "/a report #1.pdf"
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: document))
        let app = try LaunchTests.app(desktop)
        #expect(DesktopLauncher.busName(of: app) == "org.example.Viewer")
        #expect(DesktopLauncher.objectPath(of: "org.example.my-app") == "/org/example/my_app")

        let result = try DesktopLauncher(busAddress: bus.address).launch(app, documents: [document])
        #expect(result.method == .activated(busName: "org.example.Viewer", objectPath: "/org/example/Viewer", uris: [FileURI.from(path: document)]))
        let ours = Self.waitFor(record)
        #expect(ours == "Open \(FileURI.from(path: document))\n")
        try FileManager.default.removeItem(atPath: record)
        // GIO, same bus, same file: the same call. The first instance answers and then exits;
        // until its name is gone the call could reach it on its way out, so wait for that.
        #expect(eventually {
            let owner = try? DesktopFixtures.run(["/usr/bin/gdbus", "call", "--address", bus.address, "--dest", "org.freedesktop.DBus",
                                                  "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                                                  "org.example.Viewer"])
            return owner?.out.contains("false") == true
        }, "the first instance left the bus")
        _ = try DesktopFixtures.run([peer, "launch", desktop, document], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin", "HOME": dir])
        #expect(Self.waitFor(record) == ours)
        #expect(ours.contains("a%20report%20%231.pdf"))

        // Without a bus, GIO and we start Exec= instead; here it is /bin/false, which starts fine.
        let fallback = try DesktopLauncher(busAddress: nil).launch(app, documents: [document])
        #expect(fallback.method == .spawned([["/bin/false", document]]))
        // A bus that has no such service: the activation error is reported, with its D-Bus name.
        try Data("[Desktop Entry]\nType=Application\nExec=true\nDBusActivatable=true\n".utf8).write(to: URL(fileURLWithPath: dir + "/org.example.Nothing.desktop"))
        #expect {
            try DesktopLauncher(busAddress: bus.address).launch(try LaunchTests.app(dir + "/org.example.Nothing.desktop"), documents: [document])
        } throws: { error in
            "\(error)".contains("org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    /// A Flatpak app gets the document through the portal: the portal receives an O_PATH
    /// descriptor for the original (no copy), grants read and write to the app's ID only, and the
    /// app is started with the path inside the portal's mount.
    @Test func sandboxedAppReceivesAPortalPath() throws {
        let portal = try #require(try Self.build("portal_service"), "gcc and libglib2.0-dev are needed")
        let dir = try TestHelpersShim.temporary()
        let bus = try PrivateBus(directory: dir)
        let record = dir + "/portal"
        let service = Process()
        service.executableURL = URL(fileURLWithPath: portal)
        service.arguments = ["/run/user/1000/doc", record]
        service.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        try service.run()
        defer { kill(service.processIdentifier, SIGKILL); service.waitUntilExit() }
        #expect(Self.waitFor(record, containing: "ready").contains("ready"))
        let document = dir + "/holiday photo.png"
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: document))
        let desktop = dir + "/org.example.Sandboxed.desktop"
        try Data("[Desktop Entry]\nType=Application\nName=Sandboxed\nExec=\(LaunchTests.recorder) %f\nX-Flatpak=org.example.Sandboxed\n".utf8)
            .write(to: URL(fileURLWithPath: desktop))
        let app = try LaunchTests.app(desktop)
        #expect(app.sandbox == .flatpak(appID: "org.example.Sandboxed"))
        setenv("RECORD_DIR", dir, 1)
        let result = try DesktopLauncher(busAddress: bus.address).launch(app, documents: [document])
        #expect(result.documents == ["/run/user/1000/doc/d1/holiday photo.png"])
        #expect(result.portalGrants.map(\.original) == [document])
        #expect(result.method == .spawned([[LaunchTests.recorder, "/run/user/1000/doc/d1/holiday photo.png"]]))
        let calls = Self.waitFor(record, containing: "AddFull")
        #expect(calls.contains("AddFull org.example.Sandboxed 5 read write -> \(document)"))
        // No portal on the bus: the launch fails and says so; nothing is started with a path the app cannot open.
        kill(service.processIdentifier, SIGKILL); service.waitUntilExit()
        #expect { try DesktopLauncher(busAddress: bus.address).launch(app, documents: [document]) } throws: { error in
            "\(error)".contains("document portal could not export")
        }
        // And without a bus at all.
        #expect(throws: DesktopLauncher.Failure.self) { try DesktopLauncher(busAddress: nil).launch(app, documents: [document]) }
    }
}
