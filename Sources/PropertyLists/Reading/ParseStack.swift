/// A stack in raw storage for a reader's open containers. A container that closes takes its
/// children by moving them out: copying a slice of an array and then removing it, as `[T]` does,
/// retains and releases every child once more and ran through `replaceSubrange`'s generic code,
/// 30 M instructions for the 3.8 MB test file.
///
/// The owner calls ``deallocate()`` once, when the parse ends however it ends.
struct ParseStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements it holds.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    var last: Element? { count > 0 ? base[count - 1] : nil }

    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "ParseStack index out of range")
        return base[index]
    }

    mutating func append(_ element: consuming Element) {
        if count == capacity {
            capacity *= 2
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
        }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return (base + count).move()
    }

    /// Moves the elements from `start` to the top out, in order, leaving `start` elements.
    mutating func removeAll(from start: Int) -> ContiguousArray<Element> {
        precondition(start >= 0 && start <= count, "ParseStack start out of range")
        let n = count - start
        let moved = ContiguousArray<Element>(unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        count = start
        return moved
    }

    /// Drops the elements from `start` to the top.
    mutating func discard(from start: Int) {
        precondition(start >= 0 && start <= count, "ParseStack start out of range")
        (base + start).deinitialize(count: count - start)
        count = start
    }

    /// Destroys what is left and frees the storage; the stack must not be used afterwards.
    mutating func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
    }
}

/// A growable byte buffer for element text: appending is a copy, emptying a store. Emptying and
/// appending to a `[UInt8]` cost 13 M instructions over the 80,000 scalars of the 3.8 MB test
/// file (generic `replaceSubrange` and uniqueness checks).
struct TextBuffer {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity = 256
    /// How many bytes it holds; set to 0 to empty it.
    var count = 0

    init() { start = .allocate(capacity: 256) }

    /// The bytes held, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard let source = chunk.baseAddress else { return }
        if count + chunk.count > capacity {
            while count + chunk.count > capacity { capacity *= 2 }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            larger.initialize(from: start, count: count)
            start.deallocate()
            start = larger
        }
        (start + count).initialize(from: source, count: chunk.count)
        count += chunk.count
    }

    /// Frees the storage; the buffer must not be used afterwards.
    func deallocate() { start.deallocate() }
}
