import Synchronization
import SystemCalls

/// Latencies collected by an observer thread.
final class Latencies: Sendable {
    private let store = Mutex<[Double]>([])
    func add(_ value: Double) { store.withLock { $0.append(value) } }
    var count: Int { store.withLock { $0.count } }
    var values: [Double] { store.withLock { $0 } }
}

/// Standard output without buffering: an acknowledgement printed is in the pipe before the next
/// set starts, so a writer killed right after still counts it.
enum FileDescriptorOutput {
    static let standardOutput = OwnedDescriptor(taking: 1)
    static func write(_ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        (try? standardOutput.writeAll(UnsafeRawBufferPointer(bytes))) != nil
    }
}
