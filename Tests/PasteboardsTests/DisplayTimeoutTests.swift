import Foundation
import Testing
import TestHelpers

/// A display that accepts the connection and then says nothing (an X server in its reset, a
/// stuck compositor, a TCP display whose host went away): libxcb and libwayland-client would wait
/// for it without end. `pasteboardd` gives up after `--timeout` with a message naming the display.
/// The silent displays are real listening sockets that never answer.
@Suite struct DisplayTimeoutTests {
    /// A listening socket that never accepts: the kernel completes the connection into its
    /// backlog, and no byte ever comes back.
    final class SilentListener {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }

        /// An X display on TCP: display N listens on port 6000 + N. The first free N from 40.
        static func x11() throws -> (SilentListener, display: String) {
            for number in 40..<100 {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard fd >= 0 else { break }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(6000 + number).bigEndian
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                if bound == 0 && listen(fd, 8) == 0 { return (SilentListener(descriptor: fd), "127.0.0.1:\(number)") }
                close(fd)
            }
            throw POSIXError(.EADDRINUSE)
        }

        /// A Wayland display: a Unix socket at `path` (WAYLAND_DISPLAY may be an absolute path).
        static func wayland(at path: String) throws -> SilentListener {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)) + [0])
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
            return SilentListener(descriptor: fd)
        }
    }

    /// Runs `pasteboardd run --timeout SECONDS` against a silent display: it exits 1 with
    /// `message`, after the time and not long after (a loaded machine may be slow to start it).
    static func expectGivenUp(_ backend: String, _ display: String, timeout: Double, message: String) throws {
        let root = try Fixture.root()
        let start = Date()
        let run = try TestSupport.run(Fixture.pasteboardd, ["run", "--root", root.path, "--backend", backend, "--display", display, "--timeout", "\(timeout)"])
        let seconds = Date().timeIntervalSince(start)
        #expect(run.status == 1)
        #expect(run.stderr == "pasteboardd: \(message)\n")
        #expect(seconds >= timeout && seconds < 30, "\(seconds) s")
    }

    @Test func anXDisplayThatNeverAnswersIsGivenUpAfterTheTimeout() throws {
        let (listener, display) = try SilentListener.x11()
        try Self.expectGivenUp("x11", display, timeout: 0.5, message: "the X display \(display) did not answer within 500 ms")
        withExtendedLifetime(listener) {}
    }

    @Test func aWaylandDisplayThatNeverAnswersIsGivenUpAfterTheTimeout() throws {
        let path = try TestSupport.temporaryDirectory().appendingPathComponent("wayland-silent").path
        let listener = try SilentListener.wayland(at: path)
        try Self.expectGivenUp("wayland", path, timeout: 1, message: "the Wayland display \(path) did not answer within 1 s")
        withExtendedLifetime(listener) {}
    }

    @Test func aTimeoutThatIsNotAPositiveNumberIsAUsageError() throws {
        let root = try Fixture.root()
        for bad in ["0", "-1", "soon", "nan"] {
            let run = try TestSupport.run(Fixture.pasteboardd, ["run", "--root", root.path, "--backend", "x11", "--display", ":99", "--timeout", bad])
            #expect(run.status == 2, "\(bad): \(run.stderr)")
            #expect(run.stderr.contains("--timeout takes a positive number (SECONDS), not '\(bad)'"), "\(run.stderr)")
        }
    }
}
