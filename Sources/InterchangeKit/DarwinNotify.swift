import Dispatch
import Notifications

// Darwin's notify(3) by its C names, over the Notifications engine (docs/notifications.md): names
// are posted and watched between every process of the user, states are 64-bit, tokens are
// `Int32`, and every call answers a `NOTIFY_STATUS_*` code instead of throwing.

/// The call succeeded.
public let NOTIFY_STATUS_OK: UInt32 = NotifyStatus.ok.rawValue
/// The name is not valid (empty, or a reserved prefix this process may not use).
public let NOTIFY_STATUS_INVALID_NAME: UInt32 = NotifyStatus.invalidName.rawValue
/// The token is not a registration of this process.
public let NOTIFY_STATUS_INVALID_TOKEN: UInt32 = NotifyStatus.invalidToken.rawValue
/// The Mach port is not valid (Mach ports do not exist here).
public let NOTIFY_STATUS_INVALID_PORT: UInt32 = NotifyStatus.invalidPort.rawValue
/// The file descriptor is not valid.
public let NOTIFY_STATUS_INVALID_FILE: UInt32 = NotifyStatus.invalidFile.rawValue
/// The signal is not valid.
public let NOTIFY_STATUS_INVALID_SIGNAL: UInt32 = NotifyStatus.invalidSignal.rawValue
/// The request is not valid.
public let NOTIFY_STATUS_INVALID_REQUEST: UInt32 = NotifyStatus.invalidRequest.rawValue
/// Another user's name.
public let NOTIFY_STATUS_NOT_AUTHORIZED: UInt32 = NotifyStatus.notAuthorized.rawValue
/// A required argument was missing.
public let NOTIFY_STATUS_NULL_INPUT: UInt32 = NotifyStatus.nullInput.rawValue
/// Anything else (the shared table is full or cannot be opened).
public let NOTIFY_STATUS_FAILED: UInt32 = NotifyStatus.failed.rawValue

/// A dispatch registration's handler: given the token.
public typealias notify_handler_t = @Sendable (Int32) -> Void

/// The engine's center: the process's one connection to the user's shared table.
private var center: NotifyCenter { NotifyCenter.shared }

/// The status of an engine call, as C gives it.
private func status(_ body: () throws(NotificationError) -> Void) -> UInt32 {
    do { try body(); return NOTIFY_STATUS_OK } catch { return error.status.rawValue }
}

private func string(_ name: UnsafePointer<CChar>?) -> String? { name.map { String(cString: $0) } }

/// Posts `name` to every process registered for it.
public func notify_post(_ name: UnsafePointer<CChar>?) -> UInt32 {
    guard let name = string(name) else { return NOTIFY_STATUS_NULL_INPUT }
    return status { () throws(NotificationError) in try center.post(name) }
}

/// Registers for `name` to be checked with ``notify_check(_:_:)``; the token goes to `outToken`.
public func notify_register_check(_ name: UnsafePointer<CChar>?, _ outToken: UnsafeMutablePointer<Int32>?) -> UInt32 {
    guard let name = string(name), let outToken else { return NOTIFY_STATUS_NULL_INPUT }
    return status { () throws(NotificationError) in outToken.pointee = try center.registerCheck(name).rawValue }
}

/// Registers for `name` with `handler` run on `queue` at each post; the token goes to `outToken`.
public func notify_register_dispatch(_ name: UnsafePointer<CChar>?, _ outToken: UnsafeMutablePointer<Int32>?, _ queue: DispatchQueue,
                                     _ handler: @escaping notify_handler_t) -> UInt32 {
    guard let name = string(name), let outToken else { return NOTIFY_STATUS_NULL_INPUT }
    return status { () throws(NotificationError) in
        outToken.pointee = try center.register(name) { token in queue.async { handler(token.rawValue) } }.rawValue
    }
}

/// Whether `name` was posted since the last check (1) or not (0), into `check`; the first
/// check after registering answers 1, as on Darwin.
public func notify_check(_ token: Int32, _ check: UnsafeMutablePointer<Int32>?) -> UInt32 {
    guard let check else { return NOTIFY_STATUS_NULL_INPUT }
    return status { () throws(NotificationError) in check.pointee = try center.check(NotificationToken(rawValue: token)) ? 1 : 0 }
}

/// The 64-bit state of the token's name, into `state`.
public func notify_get_state(_ token: Int32, _ state: UnsafeMutablePointer<UInt64>?) -> UInt32 {
    guard let state else { return NOTIFY_STATUS_NULL_INPUT }
    return status { () throws(NotificationError) in state.pointee = try center.state(of: NotificationToken(rawValue: token)) }
}

/// Sets the 64-bit state of the token's name, for every process.
public func notify_set_state(_ token: Int32, _ state: UInt64) -> UInt32 {
    status { () throws(NotificationError) in try center.setState(state, for: NotificationToken(rawValue: token)) }
}

/// Ends the registration.
public func notify_cancel(_ token: Int32) -> UInt32 {
    status { () throws(NotificationError) in try center.cancel(NotificationToken(rawValue: token)) }
}

/// Holds the token's notifications until ``notify_resume(_:)``.
public func notify_suspend(_ token: Int32) -> UInt32 {
    status { () throws(NotificationError) in try center.suspend(NotificationToken(rawValue: token)) }
}

/// Delivers what was held, coalesced.
public func notify_resume(_ token: Int32) -> UInt32 {
    status { () throws(NotificationError) in try center.resume(NotificationToken(rawValue: token)) }
}

/// Whether `token` is a registration of this process.
public func notify_is_valid_token(_ token: Int32) -> Bool { center.isValid(NotificationToken(rawValue: token)) }
