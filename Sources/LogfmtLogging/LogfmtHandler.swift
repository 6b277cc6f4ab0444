import Logging
import PropertyLists
import SystemCalls
import ToolSupport

/// Writes each log event as one logfmt line on stderr:
/// `time=2026-11-22T19:04:05.123Z level=info msg=moved app=com.example.notes name="a b.txt"`.
///
/// swift-log's own `StreamLogHandler` prints metadata values unquoted, so a file name with a
/// space or `=` (which a hostile sender may choose) would make its lines ambiguous; logfmt quotes
/// such values, and journald, Loki and `grep` read it as it is.
package struct LogfmtHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info

    /// A handler at `level`.
    package init(level: Logger.Level = .info) { logLevel = level }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var line = "time=\(Self.timestamp()) level=\(event.level) msg=\(Self.quoted("\(event.message)"))"
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(Self.quoted("\(value)"))" }
        line += "\n"
        // One write per line: lines from several processes sharing stderr do not interleave.
        Output.errorText(line)
    }

    /// The value as it is when it is a plain word, else in double quotes with `"`, `\` and
    /// control characters escaped.
    static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F }
        if plain { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// UTC, milliseconds, ISO 8601.
    static func timestamp() -> String {
        let now = Clock.system.now()
        let whole = now.rounded(.down)
        let millis = Int((now - whole) * 1000)
        let date = PropertyListDate(secondsSince1970: whole).iso8601   // 2026-11-24T10:00:00Z
        return String(date.dropLast()) + "." + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)Z"
    }
}
