import CDesktopClipboard
import SystemCalls

/// The desktop clipboard (the CLIPBOARD selection) of an X11 or Wayland display, through the C
/// layer `CDesktopClipboard`.
public final class DesktopClipboard {
    /// Which protocol.
    public enum Backend: String, Sendable, CaseIterable {
        /// X11 (libxcb, XFixes).
        case x11
        /// Wayland with wlr-data-control (sway and other wlroots compositors).
        case wayland
    }

    /// What the display reported.
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Another program took the clipboard.
        public static let foreignSelection = Events(rawValue: Int32(DC_EVENT_FOREIGN_SELECTION))
        /// The clipboard has no owner any more.
        public static let selectionEmpty = Events(rawValue: Int32(DC_EVENT_SELECTION_EMPTY))
        /// The display connection is gone.
        public static let disconnected = Events(rawValue: Int32(DC_EVENT_DISCONNECTED))
    }

    let handle: OpaquePointer
    /// The protocol in use.
    public let backend: Backend
    /// A descriptor to wait on: readable when the display sent something.
    let descriptor: OwnedDescriptor

    /// How long ``init(backend:display:timeout:)`` waits by default for a display to answer.
    /// A display answers within milliseconds; one that accepted the connection and then says
    /// nothing (an X server in its reset, a stuck compositor, a TCP display whose host is gone)
    /// would otherwise hold the caller for good: neither libxcb nor libwayland-client bounds it.
    public static let defaultTimeout: Duration = .seconds(10)

    /// Connects to `display` (nil: the environment's) with `backend`, waiting at most `timeout`
    /// for the display to answer.
    /// - Throws: ``DesktopClipboardError`` with the reason (no display, no data-control, no
    ///   answer in time).
    public init(backend: Backend, display: String? = nil, timeout: Duration = DesktopClipboard.defaultTimeout) throws(DesktopClipboardError) {
        var message = [CChar](repeating: 0, count: 256)
        let (seconds, attoseconds) = timeout.components
        // Clamped before it is multiplied: the C layer counts milliseconds in 32 bits (24 days).
        let milliseconds = Int32(clamping: max(1, min(seconds, 2_000_000) * 1000 + attoseconds / 1_000_000_000_000_000))
        let kind = backend == .x11 ? DC_BACKEND_X11 : DC_BACKEND_WAYLAND
        let opened: OpaquePointer? = message.withUnsafeMutableBufferPointer { buffer in
            dc_open(kind, display, milliseconds, buffer.baseAddress, buffer.count)
        }
        guard let opened else {
            throw DesktopClipboardError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        do { descriptor = try OwnedDescriptor.duplicate(borrowing: dc_fd(opened)) } catch {
            dc_close(opened)
            throw DesktopClipboardError(message: error.description)
        }
        handle = opened
        self.backend = backend
    }

    /// The backend the environment calls for: Wayland when `WAYLAND_DISPLAY` is set, else X11
    /// when `DISPLAY` is; `nil` when neither is.
    public static func environmentBackend() -> Backend? {
        if let wayland = Environment.value("WAYLAND_DISPLAY"), !wayland.isEmpty { return .wayland }
        if let x = Environment.value("DISPLAY"), !x.isEmpty { return .x11 }
        return nil
    }

    deinit { dc_close(handle) }

    /// Sends what is queued and handles events already read: `nil` when the display is gone,
    /// `true` when events wait for ``dispatch()``.
    func flush() -> Bool? {
        let status = dc_flush(handle)
        return status < 0 ? nil : status > 0
    }

    /// Handles what the display sent, serving pastes of what was published.
    func dispatch() -> Events { Events(rawValue: dc_dispatch(handle)) }

    /// Takes the clipboard with `offers` (type name and bytes, copied); `false` when refused.
    func publish(_ offers: [(type: String, bytes: UnsafeRawBufferPointer)]) -> Bool {
        // The names as one buffer of NUL-terminated strings, pointed into.
        var storage: [CChar] = []
        var starts: [Int] = []
        for offer in offers {
            starts.append(storage.count)
            storage += offer.type.utf8CString
        }
        let data: [UnsafePointer<UInt8>?] = offers.map { $0.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) }
        let lengths = offers.map(\.bytes.count)
        return storage.withUnsafeBufferPointer { buffer in
            let names: [UnsafePointer<CChar>?] = starts.map { buffer.baseAddress! + $0 }
            return dc_publish(handle, names, data, lengths, offers.count) == 0
        }
    }

    /// Gives the clipboard up if we own it.
    func release() { dc_release(handle) }

    /// Whether we own the clipboard.
    var owns: Bool { dc_owns(handle) != 0 }

    /// How many pastes of published data were served.
    public var served: UInt64 { dc_served(handle) }

    /// The types the clipboard's (foreign) owner offers; `nil` when there is none or it did not answer.
    func foreignTypes(timeoutMilliseconds: Int32 = 2000) -> [String]? {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count = 0
        guard dc_foreign_types(handle, &list, &count, timeoutMilliseconds) == 0, let list else { return nil }
        defer { dc_free(list) }
        return (0..<count).compactMap { index in
            guard let name = list[index] else { return nil }
            defer { dc_free(name) }
            return String(cString: name)
        }
    }

    /// Why a fetch failed.
    enum FetchFailure: Error {
        /// More than the limit.
        case tooLarge
        /// Refused, timed out, or the owner went away.
        case failed
    }

    /// Reads `type` from the clipboard's owner: at most `limit` bytes, within `timeout` of silence.
    func fetch(_ type: String, limit: Int, timeoutMilliseconds: Int32 = 5000) -> Result<[UInt8], FetchFailure> {
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = dc_fetch(handle, type, &data, &length, limit, timeoutMilliseconds)
        if status == -2 { return .failure(.tooLarge) }
        guard status == 0, let data else { return .failure(.failed) }
        defer { dc_free(data) }
        return .success(Array(UnsafeBufferPointer(start: data, count: length)))
    }
}

/// The desktop clipboard could not be opened: why, in one sentence.
public struct DesktopClipboardError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public var message: String
    public var description: String { message }
}
