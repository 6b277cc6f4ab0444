import AppRegistry
import Handlers
import PropertyLists
import SystemCalls
import UniformTypes

extension AirDropReceiver {
    /// An upload's archive on its way in: gunzipped (when it is gzip), read as cpio, each regular
    /// file the Ask offered written into the spool and delivered at its end; everything else read
    /// past. Entries count against the Ask: a file offered once is taken once.
    final class UploadSink {
        let receiver: AirDropReceiver
        let waiting: Accepted
        let spool: Spool
        let registry: TypeRegistry?
        /// Where each entry goes (``Destination/chooser(root:registry:)``).
        let chooser: DocumentChooser?
        let annotation: PropertyList
        var inflater: GzipInflater?
        var sniffed = false
        var reader: CPIOReader
        var writer: ItemWriter?
        var current: (name: String, type: String, destination: Destination)?
        var index = 0
        /// The Ask's plain files already taken (by their position in the Ask).
        var taken = Set<Int>()

        init(receiver: AirDropReceiver, waiting: Accepted) throws {
            self.receiver = receiver
            self.waiting = waiting
            let configuration = receiver.configuration
            spool = Spool(base: NearbyFolder(root: configuration.root).spool, sender: waiting.sender,
                          transfer: (0..<16).map { _ in UInt8.random(in: 0...255) })
            registry = try? RegistryStore.forQuery(root: configuration.root)
            chooser = Destination.chooser(root: configuration.root, registry: registry)
            annotation = .dictionary(["Nearby": .dictionary(["Protocol": .string("AirDrop"), "SenderName": .string(waiting.ask.senderName)])])
            reader = CPIOReader(maximumEntry: configuration.maximumItemSize)
        }

        /// The body's next bytes.
        func feed(_ bytes: UnsafeRawBufferPointer) throws {
            if !sniffed, !bytes.isEmpty {
                sniffed = true
                // gzip's magic; OpenDrop and Apple's devices compress, a plain archive is read as it is.
                if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
                    // No archive this device could keep inflates past its free space: a few
                    // compressed bytes claiming more (entries not offered, read past) are refused
                    // there, not inflated for as long as the session may last.
                    let folder = NearbyFolder(root: receiver.configuration.root)
                    try folder.create()
                    let free: Int64
                    do { free = try FileSystem.availableBytes(folder.spool) } catch { throw NearbyError.system(error) }
                    inflater = try GzipInflater(limit: max(free, receiver.configuration.spaceMargin))
                }
            }
            if let inflater {
                try inflater.feed(bytes) { try read($0) }
            } else {
                try read(bytes)
            }
        }

        func read(_ bytes: UnsafeRawBufferPointer) throws {
            try reader.feed(bytes) { event in
                switch event {
                case .entry(let name, let mode, let size): try begin(name: name, mode: mode, size: size)
                case .data(let bytes): try writer?.append(bytes)
                case .entryEnd: try end()
                case .trailer: break
                }
            }
        }

        /// An entry begins: a regular file under a name the Ask offered is taken, within bounds.
        func begin(name: String, mode: UInt32, size: Int64) throws {
            writer = nil
            current = nil
            guard mode & 0o170000 == 0o100000, let safe = accept(name) else { return }
            guard index < SessionMessage.maximumItems else { throw NearbyError.protocolViolation("more than \(SessionMessage.maximumItems) files") }
            let configuration = receiver.configuration
            let free: Int64
            do { free = try FileSystem.availableBytes(NearbyFolder(root: configuration.root).spool) } catch { throw NearbyError.system(error) }
            guard free >= 2 * size + configuration.spaceMargin else {
                throw NearbyError.declined("not enough free space for \(safe.name) (\(size) bytes, \(free) free)")
            }
            try NearbyFolder(root: configuration.root).create()
            writer = try ItemWriter(spool: spool, index: index, size: size, from: 0)
            current = (safe.name, safe.type, Destination.choose(type: safe.type, name: safe.name, targetApp: nil, chooser: chooser,
                                                                  downloads: configuration.downloads))
        }

        /// The safe name and type of an archive entry the Ask offered, or `nil`: its first path
        /// component (after any `./` or `/`) must be an offered name, a plain file's whole path,
        /// a folder's the start of it; the item's name is the entry's last component.
        func accept(_ name: String) -> (name: String, type: String)? {
            let components = name.split(separator: "/").filter { $0 != "." }
            guard let first = components.first, let last = components.last, !components.contains("..") else { return nil }
            for (position, file) in waiting.ask.files.enumerated() where String(first) == file.name {
                if file.isDirectory, components.count > 1 {
                    let safe = ItemName.safe(String(last))
                    return (safe, ReceivedItemType.identifier(name: safe, registry: registry))
                }
                if !file.isDirectory, components.count == 1, !taken.contains(position) {
                    taken.insert(position)
                    let safe = ItemName.safe(file.name)
                    return (safe, AirDropReceiver.type(of: file, name: safe, registry: registry))
                }
            }
            return nil
        }

        /// An entry's bytes ended: a taken file is checked, made durable and delivered.
        func end() throws {
            guard let writer, let current else { return }
            self.writer = nil
            self.current = nil
            let configuration = receiver.configuration
            let complete = try writer.complete(name: current.name, expected: nil)
            let path = try spool.deliver(index, file: complete, type: current.type, to: current.destination, root: configuration.root,
                                         senderApp: waiting.ask.bundleID ?? AirDropSettings.unnamedApp, annotation: annotation,
                                         launch: configuration.launchApps)
            receiver.events(.delivered(name: current.name, destination: current.destination.label, path: path, bytes: writer.size, resumedFrom: 0))
            index += 1
        }

        /// The body ended: the archive (and its compression) must have ended too.
        func finish() throws {
            try inflater?.finish()
            try reader.finish()
            try? FileSystem.removeTree(spool.folder)
        }

        /// The upload failed: the file being written goes; delivered ones stay delivered.
        func abandon() {
            writer = nil
            try? FileSystem.removeTree(spool.folder)
        }
    }
}
