import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an inotify watch reports.
package struct InotifyEvents: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A file open for writing was closed.
    package static let closedAfterWriting = InotifyEvents(rawValue: UInt32(IN_CLOSE_WRITE))
    /// A file was written (each `write`, before it is closed).
    package static let modified = InotifyEvents(rawValue: UInt32(IN_MODIFY))
    /// A name was moved into the folder.
    package static let movedIn = InotifyEvents(rawValue: UInt32(IN_MOVED_TO))
    /// A name was moved out of the folder.
    package static let movedOut = InotifyEvents(rawValue: UInt32(IN_MOVED_FROM))
    /// A name was created (also by `link` and `linkat`).
    package static let created = InotifyEvents(rawValue: UInt32(IN_CREATE))
    /// A name was removed.
    package static let deleted = InotifyEvents(rawValue: UInt32(IN_DELETE))
    /// Metadata changed (mode, links, times).
    package static let attributesChanged = InotifyEvents(rawValue: UInt32(IN_ATTRIB))
    /// The watched folder itself was removed or moved.
    package static let selfDeleted = InotifyEvents(rawValue: UInt32(IN_DELETE_SELF))
    package static let selfMoved = InotifyEvents(rawValue: UInt32(IN_MOVE_SELF))
    /// The watch is gone (its folder removed, or the watch removed).
    package static let ignored = InotifyEvents(rawValue: UInt32(IN_IGNORED))
    /// The kernel's queue overflowed: events were lost.
    package static let overflow = InotifyEvents(rawValue: UInt32(IN_Q_OVERFLOW))
    /// The subject is a folder.
    package static let isFolder = InotifyEvents(rawValue: UInt32(IN_ISDIR))
    /// Only watch `path` if it is a folder.
    package static let onlyFolder = InotifyEvents(rawValue: UInt32(IN_ONLYDIR))
}

/// One inotify event: the watch it came from, what happened, and the name in the folder.
package struct InotifyEvent: Sendable {
    /// The watch, as ``Inotify/watch(_:for:)`` returned it; -1 for an overflow.
    package var watch: Int32
    package var events: InotifyEvents
    package var name: [UInt8]
}

/// An inotify instance: watches on folders and the events they report, read without blocking.
package final class Inotify: Sendable {
    package let descriptor: OwnedDescriptor

    /// A new instance, non-blocking and close-on-exec. The corresponding C function is `inotify_init1`.
    package init() throws(SystemCallError) {
        descriptor = OwnedDescriptor(taking: try invoke(.inotify) { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) })
    }

    /// Watches `path` for `events`; the watch's number. The corresponding C function is `inotify_add_watch`.
    package func watch(_ path: String, for events: InotifyEvents) throws(SystemCallError) -> Int32 {
        try descriptor.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.inotify, path: path) { inotify_add_watch(raw, path, events.rawValue) }
        }
    }

    /// Stops a watch. The corresponding C function is `inotify_rm_watch`.
    package func remove(_ watch: Int32) {
        descriptor.withRaw { _ = inotify_rm_watch($0, watch) }
    }

    /// Every event queued now (none when the queue is empty).
    package func pendingEvents() throws(SystemCallError) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do { n = try descriptor.read(into: buffer) } catch where error.errno == .resourceTemporarilyUnavailable { return events }
            if n <= 0 { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let event = buffer.baseAddress!.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<min(n, offset + header + Int(event.len))])
                events.append(InotifyEvent(watch: event.wd, events: InotifyEvents(rawValue: event.mask),
                                           name: Array(nameBytes.prefix { $0 != 0 })))
                offset += header + Int(event.len)
            }
        }
    }
}
