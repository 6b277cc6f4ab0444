/// The desktop's clipboard program Copy hands a document to: each forks a child that serves the
/// clipboard until another program takes it (``ActivityPerformer``).
public enum ClipboardProgram: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// wl-clipboard's `wl-copy`, for a Wayland display (`WAYLAND_DISPLAY`).
    case wlCopy = "wl-copy"
    /// `xclip`, for an X display (`DISPLAY`).
    case xclip

    /// Its command line for data of `mimeType` on standard input.
    public func command(mimeType: String) -> [String] {
        switch self {
        case .wlCopy: ["wl-copy", "--type", mimeType]
        case .xclip: ["xclip", "-selection", "clipboard", "-t", mimeType, "-i"]
        }
    }

    /// The program's name.
    public var description: String { rawValue }
}
