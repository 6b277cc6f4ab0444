// An app that makes an activity current, for the Handoff tests and benchmarks, started with the
// launcher's environment (DI_BUNDLE_IDENTIFIER, DOCUMENT_INTERCHANGE_ROOT):
//   handoff-probe TYPE [BYTES]   an activity of TYPE with a contact list and BYTES of data in its
//                                userInfo becomes current; prints "current" or "refused: WHY";
//                                then reads commands, one per line: resign, invalidate, again
//                                (becomeCurrent), and exits at the end of its input.
//   handoff-probe --serve-streams TYPE BYTES
//                                an activity of TYPE that supports continuation streams; each
//                                device that opens streams gets BYTES written to it while what it
//                                writes is read to its end, at once (each way); prints
//                                "served sent=N received=M seconds=S" per stream pair.
//   handoff-probe --continue BYTES
//                                started for an activity (DI_OPEN_REQUEST, as `nearby continue`
//                                leaves it): opens its streams and does the same from this side;
//                                prints "continued sent=N received=M seconds=S" (or "failed: WHY")
//                                and exits 0 when both ways carried BYTES.
import Foundation
import InterchangeKit

let arguments = CommandLine.arguments

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Writes `count` bytes to `output` while `input` is read to its end, each on a thread of its
/// own; what went each way, and the seconds both took.
func exchange(_ input: InputStream, _ output: OutputStream, count: Int) -> (sent: Int, received: Int, seconds: Double) {
    let start = Date()
    let group = DispatchGroup()
    nonisolated(unsafe) var sent = 0, received = 0
    nonisolated(unsafe) let input = input, output = output
    group.enter()
    Thread {
        output.open()
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 18)
        while sent < count {
            let n = output.write(chunk, maxLength: min(chunk.count, count - sent))
            if n <= 0 { break }
            sent += n
        }
        output.close()
        group.leave()
    }.start()
    group.enter()
    Thread {
        input.open()
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            let n = input.read(&buffer, maxLength: buffer.count)
            if n <= 0 { break }
            received += n
        }
        input.close()
        group.leave()
    }.start()
    group.wait()
    return (sent, received, Date().timeIntervalSince(start))
}

if arguments.count >= 4 && arguments[1] == "--serve-streams" {
    final class Server: NSObject, NSUserActivityDelegate, @unchecked Sendable {
        let count: Int
        init(count: Int) { self.count = count }
        func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream) {
            let (sent, received, seconds) = exchange(inputStream, outputStream, count: count)
            say("served sent=\(sent) received=\(received) seconds=\(seconds)")
        }
    }
    let server = Server(count: Int(arguments[3]) ?? 0)
    let activity = NSUserActivity(activityType: arguments[2])
    activity.title = "Streams"
    activity.supportsContinuationStreams = true
    activity.delegate = server
    activity.becomeCurrent()
    say(activity.isCurrent ? "current" : "refused: \(activity.lastError.map { "\($0)" } ?? "not current")")
    while readLine() != nil {}
    activity.invalidate()
    exit(0)
}

if arguments.count >= 3 && arguments[1] == "--continue" {
    @MainActor final class Continuer: UIApplicationDelegate {
        let count: Int
        let done = DispatchSemaphore(value: 0)
        init(count: Int) { self.count = count }
        func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                         restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool {
            let count = self.count, done = self.done
            userActivity.getContinuationStreams { input, output, error in
                defer { done.signal() }
                guard let input, let output else { return say("failed: \(error.map { $0.localizedDescription } ?? "no streams")") }
                let (sent, received, seconds) = exchange(input, output, count: count)
                say("continued sent=\(sent) received=\(received) seconds=\(seconds)")
            }
            return true
        }
    }
    let continuer = Continuer(count: Int(arguments[2]) ?? 0)
    UIApplicationMain(continuer)
    guard continuer.done.wait(timeout: .now() + 600) == .success else {
        say("failed: no activity to continue, or the streams took over 600 s")
        exit(1)
    }
    exit(0)
}

guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: handoff-probe TYPE [BYTES] | --serve-streams TYPE BYTES | --continue BYTES\n".utf8))
    exit(2)
}
let activity = NSUserActivity(activityType: arguments[1])
activity.title = "Contacts"
activity.userInfo = [
    "contacts": [["name": "Ada Lovelace", "phone": "+44 20 7946 0000"], ["name": "Alan Turing", "phone": "+44 20 7946 0001"]],
    "payload": Data(repeating: 7, count: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0),
]
func report() {
    let line = activity.isCurrent ? "current" : "refused: \(activity.lastError.map { "\($0)" } ?? "not current")"
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
activity.becomeCurrent()
report()
while let line = readLine() {
    switch line {
    case "resign": activity.resignCurrent()
    case "invalidate": activity.invalidate()
    case "again": activity.becomeCurrent()
    default: continue
    }
    report()
}
