// An app that makes an activity current, for InterchangeKitTests' Handoff tests, started with the
// launcher's environment (DI_BUNDLE_IDENTIFIER, DOCUMENT_INTERCHANGE_ROOT):
//   handoff-probe TYPE [BYTES]   an activity of TYPE with a contact list and BYTES of data in its
//                                userInfo becomes current; prints "current" or "refused: WHY";
//                                then reads commands, one per line: resign, invalidate, again
//                                (becomeCurrent), and exits at the end of its input.
import Foundation
import InterchangeKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: handoff-probe TYPE [BYTES]\n".utf8))
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
