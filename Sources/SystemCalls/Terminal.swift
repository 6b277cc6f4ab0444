#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The controlling terminal of an interactive tool in raw mode (no echo, no line buffering and,
/// unless asked, no signals from keys), put back as it was by ``restore()`` or deinit.
package final class RawTerminal {
    private var saved = termios()
    private let descriptor: Int32

    /// Switches `descriptor` (standard input) to raw mode. The corresponding C functions are
    /// `tcgetattr` and `tcsetattr`.
    package init(descriptor: Int32 = 0, keepSignals: Bool = false) throws(SystemCallError) {
        self.descriptor = descriptor
        _ = try invoke(.terminal) { tcgetattr(descriptor, &saved) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | (keepSignals ? 0 : ISIG))
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = try invoke(.terminal) { tcsetattr(descriptor, TCSANOW, &raw) }
    }

    /// Puts the terminal back as it was.
    package func restore() { _ = tcsetattr(descriptor, TCSANOW, &saved) }

    deinit { restore() }

    /// One byte of input, waiting at most `milliseconds` (`nil`: as long as it takes); `nil` at
    /// the end of input or when the time ran out. The corresponding C functions are `poll` and `read`.
    package func readByte(timeout milliseconds: Int32? = nil) -> UInt8? {
        var fds = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&fds, 1, milliseconds ?? -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let n = read(descriptor, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            return n == 1 ? byte : nil
        }
    }

    /// The number of rows of the terminal on `descriptor`, if it says. The corresponding C call
    /// is `ioctl(TIOCGWINSZ)`.
    package static func rows(of descriptor: Int32 = 1) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The number of columns of the terminal on `descriptor`, if it says. The corresponding C
    /// call is `ioctl(TIOCGWINSZ)`.
    package static func columns(of descriptor: Int32 = 1) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
