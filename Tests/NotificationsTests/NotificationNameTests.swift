import Notifications
import Testing

@Suite("Notification names")
struct NotificationNameTests {
    @Test("1 to 512 bytes, no NUL byte")
    func lengthAndBytes() throws {
        #expect(throws: NotificationError.self) { try NotificationName.validate("") }
        #expect(throws: NotificationError.self) { try NotificationName.validate("a\u{0}b") }
        #expect(try NotificationName.validate(String(repeating: "n", count: 512)) == .shared)
        do {
            _ = try NotificationName.validate(String(repeating: "n", count: 513))
            Issue.record("a 513-byte name was accepted")
        } catch {
            #expect(error.status == .invalidName)
            #expect(error.description.contains("513 bytes"))
        }
        // Bytes, not characters: 171 three-byte characters are 513 bytes.
        #expect(throws: NotificationError.self) { try NotificationName.validate(String(repeating: "€", count: 171)) }
    }

    @Test("self. names are the process's own")
    func processLocal() throws {
        #expect(try NotificationName.validate("self.changed") == .process)
        #expect(try NotificationName.validate("selfish.changed") == .shared)
    }

    @Test("user.uid.N names belong to user N (or root)")
    func userNames() throws {
        #expect(try NotificationName.validate("user.uid.501.sync", user: 501) == .shared)
        #expect(try NotificationName.validate("user.uid.501.sync", user: 0) == .shared)
        do {
            _ = try NotificationName.validate("user.uid.501.sync", user: 502)
            Issue.record("another user's name was accepted")
        } catch {
            #expect(error == .notAuthorized("user.uid.501.sync", owner: 501))
            #expect(error.status == .notAuthorized)
        }
        #expect(NotificationName.owner(of: "user.uid.42") == 42)
        #expect(NotificationName.owner(of: "com.example") == nil)
    }

    @Test("Status codes keep Apple's numbers")
    func statusNumbers() {
        #expect(NotifyStatus.ok.rawValue == 0)
        #expect(NotifyStatus.invalidName.rawValue == 1)
        #expect(NotifyStatus.notAuthorized.rawValue == 7)
        #expect(NotifyStatus.failed.rawValue == 1_000_000)
        #expect(NotifyStatus.invalidToken.description == "Invalid Token")
    }
}
