import Dispatch
import Foundation
import Notifications
import Synchronization

// Core Foundation's Darwin notify center, the form most Swift code uses for notifications
// between an app and its extensions: names only (object and user info are dropped, as on
// Darwin), callbacks on the main queue. Linux's Foundation declares these functions but does not
// ship them, and its `CFString` is not a Swift class, so the types are declared here.

/// Core Foundation's string: Foundation's `NSString` (`"name" as CFString` works).
public typealias CFString = NSString
/// Core Foundation's dictionary.
public typealias CFDictionary = NSDictionary

/// A notification center: here only the Darwin one.
public final class CFNotificationCenter: @unchecked Sendable {
    /// Registrations by observer and name: the engine's tokens.
    let registrations = Mutex<[Key: NotificationToken]>([:])
    struct Key: Hashable {
        var observer: UInt
        var name: String
    }

    static let darwin = CFNotificationCenter()
}

/// A notification's name.
public struct CFNotificationName: RawRepresentable, Hashable, @unchecked Sendable {
    /// The name.
    public var rawValue: CFString
    /// A name.
    public init(rawValue: CFString) { self.rawValue = rawValue }
    /// A name.
    public init(_ rawValue: CFString) { self.rawValue = rawValue }
}

/// What happens to notifications while an app is suspended (Darwin's center delivers at once).
public enum CFNotificationSuspensionBehavior: Int, Sendable {
    /// Dropped.
    case drop = 1
    /// Coalesced into one.
    case coalesce = 2
    /// Held until the app resumes.
    case hold = 3
    /// Delivered at once.
    case deliverImmediately = 4
}

/// A callback: the center, the observer as registered, the name, the object and the user info
/// (the last two always `nil` for the Darwin center).
public typealias CFNotificationCallback = (CFNotificationCenter?, UnsafeMutableRawPointer?, CFNotificationName?, UnsafeRawPointer?, CFDictionary?) -> Void

/// The Darwin notify center, shared by every process of the user.
public func CFNotificationCenterGetDarwinNotifyCenter() -> CFNotificationCenter! { CFNotificationCenter.darwin }

/// Calls `callBack` on the main queue each time `name` is posted, until removed.
public func CFNotificationCenterAddObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ callBack: CFNotificationCallback!,
                                            _ name: CFString!, _ object: UnsafeRawPointer!, _ suspensionBehavior: CFNotificationSuspensionBehavior) {
    guard let center, let callBack, let name else { return }
    let text = name as String
    let key = CFNotificationCenter.Key(observer: UInt(bitPattern: observer), name: text)
    // The callback is not Sendable (Core Foundation's is a C function pointer); it is only
    // ever called on the main queue.
    nonisolated(unsafe) let call = callBack
    let observerBits = UInt(bitPattern: observer)
    guard let token = try? NotifyCenter.shared.register(text, handler: { _ in
        DispatchQueue.main.async {
            call(center, UnsafeMutableRawPointer(bitPattern: observerBits), CFNotificationName(text as CFString), nil, nil)
        }
    }) else { return }
    let replaced = center.registrations.withLock { table in
        defer { table[key] = token }
        return table[key]
    }
    if let replaced { try? NotifyCenter.shared.cancel(replaced) }
}

/// Stops `observer` being called for `name`.
public func CFNotificationCenterRemoveObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ name: CFNotificationName!,
                                               _ object: UnsafeRawPointer!) {
    guard let center, let name else { return }
    let key = CFNotificationCenter.Key(observer: UInt(bitPattern: observer), name: name.rawValue as String)
    if let token = center.registrations.withLock({ $0.removeValue(forKey: key) }) { try? NotifyCenter.shared.cancel(token) }
}

/// Stops `observer` being called for any name.
public func CFNotificationCenterRemoveEveryObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!) {
    guard let center else { return }
    let bits = UInt(bitPattern: observer)
    let tokens = center.registrations.withLock { table in
        let mine = table.filter { $0.key.observer == bits }
        for key in mine.keys { table[key] = nil }
        return Array(mine.values)
    }
    for token in tokens { try? NotifyCenter.shared.cancel(token) }
}

/// Posts `name` to every process of the user (object and user info are not carried, as on Darwin).
public func CFNotificationCenterPostNotification(_ center: CFNotificationCenter!, _ name: CFNotificationName!, _ object: UnsafeRawPointer!,
                                                 _ userInfo: CFDictionary!, _ deliverImmediately: Bool) {
    guard center != nil, let name else { return }
    try? NotifyCenter.shared.post(name.rawValue as String)
}
