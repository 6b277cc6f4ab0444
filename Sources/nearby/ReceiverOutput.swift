import Foundation
import Nearby
import PropertyLists
import ToolSupport
import SystemCalls

/// What `nearby receive` prints for each event: a line for people, or a JSON object per line.
enum ReceiverOutput {
    static func show(_ event: ReceiverEvent, json: Bool) {
        if json { print(json: value(event)); return }
        // Through the questions: a line printed while one shows goes above it.
        let out = TerminalQuestions.shared
        switch event {
        case .listening(let port): out.print("receiving on port \(port)")
        case .listeningLocalSend(let port, let secure): out.print("receiving from LocalSend on port \(port) (\(secure ? "HTTPS" : "HTTP"))")
        case .listeningAirDrop(let port, let interface): out.print("receiving AirDrop on \(TerminalText.escaped(interface)), port \(port)")
        case .refusedPeer(let fingerprint): out.print("refused a device that is not paired" + (fingerprint.map { " (\($0.hex.prefix(16))…)" } ?? ""))
        case .asked(let ask, let accepted, let reason):
            out.print(TerminalText.escaped("\(ask.pairedName ?? ask.senderName) asks to send \(ask.items.count) item(s): "
                + (accepted ? "accepted" : "declined (\(reason ?? ""))")))
        case .delivered(let name, let destination, let path, let bytes, let resumed):
            out.print(TerminalText.escaped("\(name): \(SizeText.of(bytes)) delivered to \(destination) (\(path))"
                + (resumed > 0 ? ", resumed after \(SizeText.of(resumed))" : "")))
        case .failed(let why): out.print(TerminalText.escaped("nearby: a session failed: \(why)"), error: true)
        case .warning(let what): out.print(TerminalText.escaped("nearby: \(what)"), error: true)
        case .expired: out.print("everyone-mode ended")
        }
    }

    static func value(_ event: ReceiverEvent) -> PropertyList {
        switch event {
        case .listening(let port): .dictionary(["event": .string("listening"), "port": .integer(Int64(port))])
        case .listeningLocalSend(let port, let secure):
            .dictionary(["event": .string("listening"), "protocol": .string("localsend"), "port": .integer(Int64(port)), "secure": .bool(secure)])
        case .listeningAirDrop(let port, let interface):
            .dictionary(["event": .string("listening"), "protocol": .string("airdrop"), "port": .integer(Int64(port)), "interface": .string(interface)])
        case .refusedPeer(let fingerprint): .dictionary(["event": .string("refused"), "fingerprint": .string(fingerprint?.hex ?? "")])
        case .asked(let ask, let accepted, let reason):
            .dictionary(["event": .string("asked"), "sender": .string(ask.senderName), "senderApp": .string(ask.senderApp),
                         "fingerprint": .string(ask.fingerprint.hex), "paired": .bool(ask.pairedName != nil),
                         "items": .integer(Int64(ask.items.count)), "accepted": .bool(accepted), "reason": .string(reason ?? "")])
        case .delivered(let name, let destination, let path, let bytes, let resumed):
            .dictionary(["event": .string("delivered"), "name": .string(name), "destination": .string(destination), "path": .string(path),
                         "bytes": .integer(bytes), "resumedFrom": .integer(resumed)])
        case .failed(let why): .dictionary(["event": .string("failed"), "reason": .string(why)])
        case .warning(let what): .dictionary(["event": .string("warning"), "reason": .string(what)])
        case .expired: .dictionary(["event": .string("expired")])
        }
    }
}

/// Asks the person at the terminal about an unpaired sender, through ``TerminalQuestions``: one
/// question at a time, withdrawn when the receiver stops waiting (its timeout, the sender gone,
/// the receiver stopping). Names from the network are escaped (``TerminalText``).
enum TerminalPrompt {
    @Sendable static func ask(_ ask: IncomingAsk) async -> Bool {
        let who = TerminalText.escaped(ask.senderName)
        let lines = ["\(who) (not paired, \(ask.fingerprint.hex.prefix(16))…) wants to send:"]
            + ask.items.map { item in
                "  " + [item.name, item.type, SizeText.of(item.size), "→ " + item.destination].map(TerminalText.escaped).joined(separator: "  ")
            }
        return await TerminalQuestions.shared.ask(lines, prompt: "Accept? [y/N] ") ?? false
    }
}

/// Numeric comparison's question: the digits, and whether the other screen shows the same.
/// Read from standard input (a terminal, or a script with `--json`); end of input is "no".
enum ComparisonPrompt {
    @Sendable static func ask(_ comparison: Pairing.Comparison, json: Bool) async -> Bool {
        if json {
            print(json: .dictionary(["event": .string("compare"), "digits": .string(comparison.digits), "device": .string(comparison.peerName),
                                     "fingerprint": .string(comparison.peerFingerprint.hex)]))
        } else {
            Output.line(TerminalText.escaped(comparison.peerName) + " (\(comparison.peerFingerprint.hex.prefix(16))…) wants to pair. Both screens must show:")
            Output.line("    \(comparison.digits)")
            Output.text("Do they? [y/N] ")
        }
        // Off the cooperative pool: reading waits for a person.
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            Thread.detachNewThread { continuation.resume(returning: readLine()) }
        }
        return answer?.lowercased().hasPrefix("y") ?? false
    }
}
