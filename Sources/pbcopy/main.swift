// `pbcopy`: a thin shell over the Pasteboards library (docs/pasteboards.md).
import AppRegistry
import Pasteboards
import SystemCalls
import ToolSupport
import UniformTypes

ToolMain.run(pbcopySpec, options: PbcopyOption.self, verbs: NoVerbs.self) { command in
    if !command.operands.isEmpty {
        Output.error("pbcopy: reads standard input and takes no operands, not '\(command.operands.joined(separator: " "))'")
        return 2
    }
    let store = PasteboardStore(root: DeviceRoot.resolve(explicit: command[.root]))
    let name = PasteboardName(command[.pboard] ?? "general")
    let input: [UInt8]
    do { input = try OwnedDescriptor.duplicate(borrowing: 0).readAll() } catch {
        Output.error("pbcopy: cannot read standard input: \(error)")
        return 1
    }
    var options = PasteboardWriteOptions(localOnly: command.flag(.localOnly))
    if let seconds = command[.expires].flatMap(Double.init) { options.expirationDate = store.clock.now() + seconds }
    let item: PasteboardItem
    if let type = command[.type] {
        item = PasteboardItem(representations: [PasteboardRepresentation(type: type, data: input)])
    } else {
        let type = PasteboardText.copyType(of: input)
        let bytes = type == PasteboardType.utf8PlainText ? PasteboardText.Encoding.fromEnvironment().toUTF8(input) : input
        item = PasteboardItem(representations: [PasteboardRepresentation(type: type, data: bytes)])
    }
    do {
        guard let board = try store.pasteboard(named: name, create: true) else { throw PasteboardError.notFound(name) }
        let count = try board.setItems([item], options: options)
        if command.flag(.changeCount) { Output.line(String(count)) }
    } catch {
        Output.error("pbcopy: \(error)")
        return 1
    }
    return 0
}
