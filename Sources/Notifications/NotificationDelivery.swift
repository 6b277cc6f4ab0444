import Atomics
import ProcessTables
import Synchronization
import SystemCalls

// The delivery thread: it holds this process's record in the table (its robust mutex, which
// tells other processes that the process lives), receives wake datagrams and fires the
// registrations whose names were posted.
extension NotifyCenter {
    // MARK: Delivery

    func startDelivery() throws(NotificationError) {
        let table = try table()
        try deliveryStart.run { () throws(NotificationError) in
            do throws(SystemCallError) {
                try BackgroundThread.startAndWait { [self] ready in self.deliveryLoop(table, ready: ready) }
            } catch {
                throw .system(error)
            }
            if let failure = state.withLock({ $0.startFailure }) { throw failure }
        }
    }

    func deliveryLoop(_ table: NotificationTable, ready: @Sendable () -> Void) {
        let mailbox: DatagramSocket
        do {
            let identity = try table.locked(timeout: lockTimeout) { () throws(NotificationError) -> (Int, UInt32) in
                let identity = try table.claimProcessRecord()
                do throws(SystemCallError) { _ = try table.records.mutex(identity.0).lock(timeout: 0.1) } catch { throw .system(error) }
                return identity
            }
            do throws(SystemCallError) { mailbox = try DatagramSocket(name: table.records.mailboxName(process: identity.0, generation: identity.1)) } catch { throw NotificationError.system(error) }
            state.withLock { state in
                state.identity = identity
                state.mailbox = mailbox
            }
        } catch {
            state.withLock { $0.startFailure = error as? NotificationError ?? .system(SystemCallError(.thread, errno: .ioError)) }
            ready()
            return
        }
        ready()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        while true {
            _ = try? Poll.readable([mailbox.descriptor], timeout: nil)
            var slots: [Int] = []
            var rescan = false
            var local = false
            while let received = try? mailbox.receive(into: buffer) {
                // Only this user's processes post here; a slot number is checked before use.
                guard received.count >= 4, received.senderUser == ProcessSignals.userID else { continue }
                let value = buffer.load(as: UInt32.self)
                guard value >= UInt32.max - 1 || Int(value) < NotificationTable.slotCount else { continue }
                if value == UInt32.max { rescan = true } else if value == UInt32.max - 1 { local = true } else if !slots.contains(Int(value)) { slots.append(Int(value)) }
            }
            if let process = state.withLock({ $0.identity?.process }),
               table.records.word(.overflow, of: process).exchange(0, ordering: .sequentiallyConsistent) == 1 {
                rescan = true
            }
            if rescan {
                slots = state.withLock { Array($0.wakeCount.keys) }
                local = true
            }
            deliver(slots: slots, local: local)
        }
    }

    /// Re-arms this process's holder word in each slot, then fires the registrations whose
    /// name was posted since they were last told.
    func deliver(slots: [Int], local: Bool) {
        guard let table = opened.withLock({ $0 }) ?? (try? table()) else { return }
        let identity = state.withLock { $0.identity }
        var counters: [Int: UInt64] = [:]
        for slot in slots {
            if let identity {
                let mine = UInt64(identity.generation) << 32 | UInt64(identity.process + 1) << 16
                for index in 0..<NotificationTable.holdersPerName {
                    let word = table.holder(slot, index).load(ordering: .sequentiallyConsistent)
                    if word & ~0xFFFF == mine && word & 2 == 2 {
                        // Armed before reading the counter: a post after this point wakes us again.
                        _ = table.holder(slot, index).loadThenBitwiseOr(with: 1, ordering: .sequentiallyConsistent)
                        break
                    }
                }
            }
            counters[slot] = table.counter(slot).load(ordering: .sequentiallyConsistent)
        }
        let actions = state.withLock { state -> [(NotificationToken, Registration.Kind)] in
            var fire: [(NotificationToken, Registration.Kind)] = []
            for (number, registration) in state.registrations where registration.kind.wantsWakes && registration.suspended == 0 {
                let current: UInt64
                if let slot = registration.slot {
                    guard let value = counters[slot] else { continue }
                    current = value
                } else if local, let name = registration.localName {
                    current = state.localCounters[name, default: 0]
                } else {
                    continue
                }
                guard current != registration.lastSeen else { continue }
                state.registrations[number]!.lastSeen = current
                fire.append((NotificationToken(rawValue: number), registration.kind))
            }
            return fire.sorted { $0.0.rawValue < $1.0.rawValue }
        }
        for (token, kind) in actions {
            switch kind {
            case .handler(let handler): handler(token)
            case .fileDescriptor(let descriptor):
                if let pipe = state.withLock({ $0.pipes[descriptor] }) {
                    let bigEndian = UInt32(bitPattern: token.rawValue).bigEndian
                    _ = try? withUnsafeBytes(of: bigEndian) { try pipe.write.writeAll($0) }
                }
            case .sendSignal(let signal): try? ProcessSignals.send(signal, to: CurrentProcess.id)
            case .check: break
            }
        }
    }
}
