// `pbpaste`: a thin shell over the Pasteboards library (docs/pasteboards.md).
import AppRegistry
import Pasteboards
import SystemCalls
import ToolSupport
import UniformTypes

/// Writes bytes to standard output, straight from the pasteboard's mapped file.
func writeOut(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    try OwnedDescriptor.duplicate(borrowing: 1).writeAll(bytes)
}

ToolMain.run(pbpasteSpec, options: PbpasteOption.self, verbs: NoVerbs.self) { command in
    if !command.operands.isEmpty {
        Output.error("pbpaste: takes no operands, not '\(command.operands.joined(separator: " "))'")
        return 2
    }
    let store = PasteboardStore(root: DeviceRoot.resolve(explicit: command[.root]))
    let name = PasteboardName(command[.pboard] ?? "general")
    do {
        guard let board = try store.pasteboard(named: name, create: false) else { throw PasteboardError.notFound(name) }
        let contents = try board.contents()
        if command.flag(.changeCount) { Output.line(String(contents.changeCount)) }
        if command.flag(.types) {
            for item in 0..<contents.numberOfItems { Output.line(contents.types(inItem: item).joined(separator: "\t")) }
        }
        if command.flag(.changeCount) || command.flag(.types) { return 0 }
        if let type = command[.type] {
            guard let match = contents.firstMatch(for: type) else {
                Output.error("pbpaste: pasteboard '\(name)' has no representation of type \(type)")
                return 1
            }
            try contents.withBytes(item: match.item, representation: match.representation) { try writeOut($0) }
            return 0
        }
        let prefer = command[.Prefer].flatMap(PasteboardText.Preference.init(rawValue:)) ?? .txt
        let encoding = PasteboardText.Encoding.fromEnvironment()
        for type in PasteboardText.pasteOrder(prefer: prefer) {
            guard let match = contents.firstMatch(for: type) else { continue }
            let isText = type == PasteboardType.utf8PlainText || type == PasteboardType.plainText
            try contents.withBytes(item: match.item, representation: match.representation) { bytes in
                if isText, let converted = encoding.fromUTF8(bytes) {
                    try converted.withUnsafeBytes { try writeOut($0) }
                } else {
                    try writeOut(bytes)
                }
            }
            return 0
        }
    } catch {
        Output.error("pbpaste: \(error)")
        return 1
    }
    return 0
}
