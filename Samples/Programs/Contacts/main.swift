// The contacts manager of seed 002 ("Working with iOS 8 Handoff Part 2: Using Continuation
// Streams"), as a real program on InterchangeKit, with Apple's names as the seed uses them.
//
//   contacts publish [COUNT]   device A: the contacts list is shown; its activity
//                              (com.example.contacts.list-contacts, userInfo totalContacts, with
//                              continuation streams) is current until standard input ends. When
//                              another device continues it, the delegate is told; when that
//                              device asks for streams, the whole list goes down the output stream,
//                              archived with NSKeyedArchiver, written as the seed writes it: 1024
//                              bytes on each HasSpaceAvailable event of the main run loop.
//   contacts                   device B, started by `nearby continue` (its DILaunchCommand):
//                              continues the activity, asks for the streams, reads the archive on
//                              HasBytesAvailable events until EndEncountered, unarchives the
//                              contacts and answers.
// What each side did goes to the app's Library/launch.log (a launched app has no terminal).
// Started by hand, it knows who it is from its bundle (ROOT/Apps/Contacts.app/bin/contacts), as
// an iOS app's Bundle.main does; the launcher's variables, when set, name the app and the root.
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

/// Appends a line to `Library/launch.log` in the app's container: on the device root the
/// launcher named, else the one the app's bundle is installed on (run by hand as
/// `ROOT/Apps/Contacts.app/bin/contacts`).
func log(_ line: String) {
    let apps = URL(fileURLWithPath: Bundle.app.bundlePath).deletingLastPathComponent()
    let installed = apps.lastPathComponent == "Apps" ? apps.deletingLastPathComponent().path : nil
    let root = ProcessInfo.processInfo.environment["DOCUMENT_INTERCHANGE_ROOT"] ?? installed ?? "."
    let folder = root + "/Containers/com.example.contacts/Library"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/launch.log"
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.seekToEndOfFile()
    handle.write(Data((line + "\n").utf8))
    try? handle.close()
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
            // As the seed does: the output stream in the main run loop, written 1024 bytes at a
            // time on each HasSpaceAvailable; the answer read as it arrives.
            streaming = Streaming(data: data, count: contacts.count, input: inputStream, output: outputStream)
        } catch {
            log("Contacts: archiving failed: \(error)")
        }
    }

    /// The stream pair being served, kept alive while its events come.
    var streaming: Streaming?
}

/// Device A's side of one stream pair, driven by stream events on the main run loop.
final class Streaming: NSObject, StreamDelegate, @unchecked Sendable {
    let dataToStream: Data
    let count: Int
    let inputStream: InputStream
    let outputStream: OutputStream
    var byteIndex = 0
    var reply = Data()

    init(data: Data, count: Int, input: InputStream, output: OutputStream) {
        dataToStream = data
        self.count = count
        inputStream = input
        outputStream = output
        super.init()
        for stream in [input, output] as [Stream] {
            stream.delegate = self
            stream.schedule(in: .main, forMode: .default)
            stream.open()
        }
    }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        if aStream === outputStream, eventCode == .hasSpaceAvailable, byteIndex < dataToStream.count {
            let len = min(1024, dataToStream.count - byteIndex)
            let written = dataToStream.withUnsafeBytes { outputStream.write($0.baseAddress!.assumingMemoryBound(to: UInt8.self) + byteIndex, maxLength: len) }
            if written > 0 { byteIndex += written }
            if byteIndex == dataToStream.count {
                outputStream.close()
                outputStream.remove(from: .main, forMode: .default)
            }
        }
        if aStream === inputStream, eventCode == .hasBytesAvailable {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = inputStream.read(&buffer, maxLength: buffer.count)
            if n > 0 { reply.append(buffer, count: n) }
        }
        if aStream === inputStream, eventCode == .endEncountered || eventCode == .errorOccurred {
            inputStream.close()
            inputStream.remove(from: .main, forMode: .default)
            let answer = eventCode == .endEncountered ? String(decoding: reply, as: UTF8.self) : "with an error"
            log("Contacts: streamed \(count) contacts (\(byteIndex) bytes); the other device answered \(answer)")
        }
    }
}

/// Device B: continues the activity, asks for the streams, unarchives what comes.
@MainActor
final class AppDelegate: UIApplicationDelegate {
    let received = Receiving()

    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                     restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool {
        guard userActivity.activityType == activityType else { return false }
        let total = userActivity.userInfo?["totalContacts"] as? Int
        log("Contacts: continuing \(userActivity.title ?? "") with \(total.map(String.init) ?? "no") contacts announced")
        let received = self.received
        guard userActivity.supportsContinuationStreams else { received.finish(); return true }
        userActivity.getContinuationStreams { inputStream, outputStream, error in
            guard let inputStream, let outputStream else {
                log("Contacts: no streams: \(error.map { "\($0.localizedDescription)" } ?? "no reason")")
                return received.finish()
            }
            // As the seed does: the input stream in the main run loop, read on HasBytesAvailable.
            received.start(inputStream, outputStream)
        }
        return true
    }
}

/// Device B's side of the stream pair, driven by stream events on the main run loop.
final class Receiving: NSObject, StreamDelegate, @unchecked Sendable {
    var inputStream: InputStream?
    var outputStream: OutputStream?
    var receivedData = Data()
    let lock = NSLock()
    var isDone = false
    var done: Bool { lock.withLock { isDone } }

    func finish() { lock.withLock { isDone = true } }

    /// Called on the completion handler's thread, as in the seed: the events come on the main run loop.
    func start(_ input: InputStream, _ output: OutputStream) {
        inputStream = input
        outputStream = output
        input.delegate = self
        input.schedule(in: .main, forMode: .default)
        input.open()
    }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        guard let inputStream, aStream === inputStream else { return }
        if eventCode == .hasBytesAvailable {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = inputStream.read(&buffer, maxLength: buffer.count)
            if n > 0 { receivedData.append(buffer, count: n) }
        }
        if eventCode == .errorOccurred {
            log("Contacts: the stream ended with an error: \(inputStream.streamError.map { "\($0.localizedDescription)" } ?? "")")
            inputStream.close()
            outputStream?.close()
            finish()
        }
        if eventCode == .endEncountered {
            inputStream.close()
            inputStream.remove(from: .main, forMode: .default)
            do {
                let list = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, Contact.self], from: receivedData) as? [Contact] ?? []
                log("Contacts: received \(list.count) contacts (\(receivedData.count) bytes), the first \(list.first.map { "\($0.firstname) \($0.lastname)" } ?? "none")")
                if let outputStream {
                    outputStream.open()
                    let thanks = Array("thanks".utf8)
                    _ = outputStream.write(thanks, maxLength: thanks.count)
                    outputStream.close()
                }
            } catch {
                log("Contacts: the archive did not unarchive: \(error)")
                outputStream?.close()
            }
            finish()
        }
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
    // The main run loop runs (the streams' events come through it) until standard input ends.
    final class InputEnd: @unchecked Sendable { let lock = NSLock(); var ended = false }
    let input = InputEnd()
    Thread {
        while readLine() != nil {}
        input.lock.withLock { input.ended = true }
    }.start()
    while !input.lock.withLock({ input.ended }) { _ = RunLoop.main.run(mode: .default, before: Date() + 0.1) }
    list.userActivity.invalidate()
    exit(0)
}
let delegate = AppDelegate()
UIApplicationMain(delegate)
// Started for an activity: the main run loop runs until its streams are done (bounded).
let deadline = Date() + 120
while !delegate.received.done && Date() < deadline { _ = RunLoop.main.run(mode: .default, before: Date() + 0.1) }
exit(delegate.received.done ? 0 : 1)
