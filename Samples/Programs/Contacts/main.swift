// The contacts manager of seed 002 ("Working with iOS 8 Handoff Part 2: Using Continuation
// Streams"), as a real program on InterchangeKit, with Apple's names as the seed uses them.
//
//   contacts publish [COUNT]   device A: the contacts list is shown; its activity
//                              (com.example.contacts.list-contacts, userInfo totalContacts, with
//                              continuation streams) is current until standard input ends. When
//                              another device continues it, the delegate is told; when that
//                              device asks for streams, the whole list goes down the output stream,
//                              archived with NSKeyedArchiver as the seed archives it.
//   contacts                   device B, started by `nearby continue` (its DILaunchCommand):
//                              continues the activity, asks for the streams, reads the archive to
//                              its end and unarchives the contacts.
// What each side did goes to the app's Library/launch.log (a launched app has no terminal).
import Foundation
import InterchangeKit

/// One contact, NSCoding as in the seed (NSSecureCoding, which Foundation now asks for).
final class Contact: NSObject, NSSecureCoding {
    static let supportsSecureCoding = true
    let firstname: String
    let lastname: String
    let phone: String

    init(firstname: String, lastname: String, phone: String) {
        self.firstname = firstname
        self.lastname = lastname
        self.phone = phone
    }

    func encode(with coder: NSCoder) {
        coder.encode(firstname as NSString, forKey: "firstname")
        coder.encode(lastname as NSString, forKey: "lastname")
        coder.encode(phone as NSString, forKey: "phone")
    }

    init?(coder: NSCoder) {
        guard let first = coder.decodeObject(of: NSString.self, forKey: "firstname"),
              let last = coder.decodeObject(of: NSString.self, forKey: "lastname"),
              let phone = coder.decodeObject(of: NSString.self, forKey: "phone") else { return nil }
        firstname = first as String
        lastname = last as String
        self.phone = phone as String
    }
}

let activityType = "com.example.contacts.list-contacts"

/// Appends a line to `Library/launch.log` in the app's container.
func log(_ line: String) {
    let root = ProcessInfo.processInfo.environment["DOCUMENT_INTERCHANGE_ROOT"] ?? "."
    let folder = root + "/Containers/com.example.contacts/Library"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/launch.log"
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.seekToEndOfFile()
    handle.write(Data((line + "\n").utf8))
    try? handle.close()
}

/// Reads `stream` to its end; `nil` when it ended with an error.
func readAll(_ stream: InputStream) -> Data? {
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = stream.read(&buffer, maxLength: buffer.count)
        if n > 0 { data.append(buffer, count: n); continue }
        return n == 0 ? data : nil
    }
}

/// Device A's list: the seed's few contacts, or `count` made-up ones for a larger archive.
func contacts(_ count: Int?) -> [Contact] {
    guard let count else {
        return [Contact(firstname: "Ada", lastname: "Lovelace", phone: "+44 20 7946 0000"),
                Contact(firstname: "Alan", lastname: "Turing", phone: "+44 20 7946 0001"),
                Contact(firstname: "Grace", lastname: "Hopper", phone: "+1 202 555 0100")]
    }
    return (0..<count).map { Contact(firstname: "First\($0)", lastname: "Last\($0)", phone: "+1 202 555 \(String(format: "%04d", $0 % 10_000))") }
}

/// Device A: the list's activity and its delegate.
final class ContactsList: NSObject, NSUserActivityDelegate, @unchecked Sendable {
    let contacts: [Contact]
    let userActivity: NSUserActivity

    init(_ contacts: [Contact]) {
        self.contacts = contacts
        userActivity = NSUserActivity(activityType: activityType)
        super.init()
        userActivity.title = "List Contacts"
        userActivity.supportsContinuationStreams = true
        userActivity.delegate = self
        userActivity.needsSave = true
        userActivity.becomeCurrent()
    }

    func userActivityWillSave(_ userActivity: NSUserActivity) {
        userActivity.addUserInfoEntries(from: ["totalContacts": contacts.count])
    }

    func userActivityWasContinued(_ userActivity: NSUserActivity) {
        log("Contacts: \(userActivity.activityType) was continued on another device")
    }

    func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream) {
        do {
            let data = try NSKeyedArchiver.archivedData(withRootObject: contacts as NSArray, requiringSecureCoding: true)
            outputStream.open()
            var sent = 0
            while sent < data.count {
                let n = data.withUnsafeBytes { outputStream.write($0.baseAddress!.assumingMemoryBound(to: UInt8.self) + sent, maxLength: data.count - sent) }
                guard n > 0 else { break }
                sent += n
            }
            outputStream.close()
            // The other side's reply: its end, once it has read everything.
            let reply = readAll(inputStream)
            log("Contacts: streamed \(contacts.count) contacts (\(sent) bytes); the other device answered \(reply.map { String(decoding: $0, as: UTF8.self) } ?? "with an error")")
        } catch {
            log("Contacts: archiving failed: \(error)")
        }
    }
}

/// Device B: continues the activity, asks for the streams, unarchives what comes.
@MainActor
final class AppDelegate: UIApplicationDelegate {
    let done = DispatchSemaphore(value: 0)

    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                     restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool {
        guard userActivity.activityType == activityType else { return false }
        let total = userActivity.userInfo?["totalContacts"] as? Int
        log("Contacts: continuing \(userActivity.title ?? "") with \(total.map(String.init) ?? "no") contacts announced")
        guard userActivity.supportsContinuationStreams else { done.signal(); return true }
        let done = self.done
        userActivity.getContinuationStreams { inputStream, outputStream, error in
            defer { done.signal() }
            guard let inputStream, let outputStream else {
                log("Contacts: no streams: \(error.map { "\($0.localizedDescription)" } ?? "no reason")")
                return
            }
            guard let data = readAll(inputStream) else {
                log("Contacts: the stream ended with an error: \(inputStream.streamError.map { "\($0.localizedDescription)" } ?? "")")
                return
            }
            do {
                let list = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, Contact.self], from: data) as? [Contact] ?? []
                log("Contacts: received \(list.count) contacts (\(data.count) bytes), the first \(list.first.map { "\($0.firstname) \($0.lastname)" } ?? "none")")
                outputStream.open()
                let thanks = Array("thanks".utf8)
                _ = outputStream.write(thanks, maxLength: thanks.count)
                outputStream.close()
            } catch {
                log("Contacts: the archive did not unarchive: \(error)")
            }
        }
        return true
    }
}

let arguments = CommandLine.arguments
if arguments.count > 1 && arguments[1] == "publish" {
    let list = ContactsList(contacts(arguments.count > 2 ? Int(arguments[2]) : nil))
    guard list.userActivity.isCurrent else {
        FileHandle.standardError.write(Data("contacts: the list's activity is not current: \(list.userActivity.lastError.map { "\($0)" } ?? "")\n".utf8))
        exit(1)
    }
    // Unbuffered: whoever started it waits for this line.
    FileHandle.standardOutput.write(Data("current\n".utf8))
    while readLine() != nil {}
    list.userActivity.invalidate()
    exit(0)
}
let delegate = AppDelegate()
UIApplicationMain(delegate)
// Started for an activity: wait for its streams (bounded), then end.
exit(delegate.done.wait(timeout: .now() + 120) == .success ? 0 : 1)
