import AppGroups
import AppRegistry
import Foundation
import PropertyLists
import Testing
import TestHelpers

@Suite struct AppGroupsTests {
    static let group = "group.com.example.notes"

    /// A device root with an app bundle whose entitlements list `groups`.
    func device(groups: [String]) throws -> (root: DeviceRoot, bundle: String) {
        let root = try TestSupport.temporaryDirectory().path
        let bundle = root + "/Apps/Notes.app"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let info: PropertyList = .dictionary(["CFBundleIdentifier": .string("com.example.notes")])
        try Data(try XMLPropertyListWriter().write(info)).write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
        let entitlements: PropertyList = .dictionary([Entitlements.applicationGroupsKey: .array(groups.map(PropertyList.string))])
        try Data(try XMLPropertyListWriter().write(entitlements)).write(to: URL(fileURLWithPath: bundle + "/Notes.entitlements"))
        return (DeviceRoot(path: root), bundle)
    }

    @Test func memberGetsAPrivateContainerCreatedOnFirstUse() throws {
        let (root, bundle) = try device(groups: [Self.group])
        let member = try AppGroupMember(bundle: bundle)
        #expect(member.bundleIdentifier == "com.example.notes")
        #expect(member.groups == [Self.group])
        #expect(!FileManager.default.fileExists(atPath: root.groupsDirectory + "/" + Self.group))
        let container = try GroupContainer(for: Self.group, member: member, on: root)
        #expect(container.path == root.path + "/Groups/" + Self.group)
        let attributes = try FileManager.default.attributesOfItem(atPath: container.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: container.preferences, isDirectory: &isFolder) && isFolder.boolValue)
        // A second call gives the same container and keeps what is in it.
        try Data("note".utf8).write(to: URL(fileURLWithPath: container.path + "/note.txt"))
        let again = try GroupContainer(for: Self.group, member: member, on: root)
        #expect(try String(contentsOfFile: again.path + "/note.txt", encoding: .utf8) == "note")
    }

    @Test func nonMemberIsRefusedByName() throws {
        let (root, bundle) = try device(groups: ["group.com.example.other"])
        let member = try AppGroupMember(bundle: bundle)
        #expect(throws: AppGroupError.self) { try GroupContainer(for: Self.group, member: member, on: root) }
        do {
            _ = try GroupContainer(for: Self.group, member: member, on: root)
        } catch {
            guard case .notAMember(let app, let group, let groups, let file) = error else { Issue.record("\(error)"); return }
            #expect(app == "com.example.notes" && group == Self.group && groups == ["group.com.example.other"])
            #expect(file?.hasSuffix("Notes.entitlements") == true)
            #expect(error.description.contains("is not a member of group.com.example.notes"))
        }
        #expect(!FileManager.default.fileExists(atPath: root.groupsDirectory + "/" + Self.group), "a refusal creates nothing")
    }

    @Test func appWithoutEntitlementsIsInNoGroup() throws {
        let (root, bundle) = try device(groups: [])
        try FileManager.default.removeItem(atPath: bundle + "/Notes.entitlements")
        let member = try AppGroupMember(bundle: bundle)
        #expect(member.groups.isEmpty && member.entitlementsFile == nil)
        #expect(throws: AppGroupError.self) { try GroupContainer(for: Self.group, member: member, on: root) }
    }

    @Test func invalidIdentifiersAreRefused() throws {
        for bad in ["com.example.notes", "group.", "group.a/b", "group.a..b", "group.$(TEAM)"] {
            let (root, bundle) = try device(groups: [bad])
            let member = try AppGroupMember(bundle: bundle)
            do {
                _ = try GroupContainer(for: bad, member: member, on: root)
                Issue.record("\(bad) was accepted")
            } catch {
                guard case .invalidIdentifier(let value, _) = error else { Issue.record("\(bad): \(error)"); continue }
                #expect(value == bad)
            }
        }
        // The team's own prefix is accepted, as on macOS.
        let team = Entitlements(.dictionary([Entitlements.applicationGroupsKey: .array([.string("ABCDE12345.com.example")]),
                                             Entitlements.teamIdentifierKey: .string("ABCDE12345")]))
        let (root, _) = try device(groups: [])
        let member = AppGroupMember(bundleIdentifier: "com.example.mac", entitlements: team)
        #expect(throws: Never.self) { try GroupContainer(for: "ABCDE12345.com.example", member: member, on: root) }
    }

    @Test func openContainerIsTightenedAndALinkRefused() throws {
        let (root, bundle) = try device(groups: [Self.group, "group.com.example.link"])
        let member = try AppGroupMember(bundle: bundle)
        let open = root.groupsDirectory + "/" + Self.group
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        _ = try GroupContainer(for: Self.group, member: member, on: root)
        #expect((try FileManager.default.attributesOfItem(atPath: open)[.posixPermissions] as? Int) == 0o700)
        let elsewhere = try TestSupport.temporaryDirectory().path
        try FileManager.default.createSymbolicLink(atPath: root.groupsDirectory + "/group.com.example.link", withDestinationPath: elsewhere)
        do {
            _ = try GroupContainer(for: "group.com.example.link", member: member, on: root)
            Issue.record("a link was accepted as a container")
        } catch {
            guard case .unsafeContainer(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("symbolic link"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing was created through the link")
    }

    @Test func missingDeviceRootIsAnErrorNotCreated() throws {
        let gone = try TestSupport.temporaryDirectory().path + "/absent"
        let member = AppGroupMember(bundleIdentifier: "com.example.notes",
                                    entitlements: Entitlements(.dictionary([Entitlements.applicationGroupsKey: .array([.string(Self.group)])])))
        #expect(throws: AppGroupError.noDeviceRoot(gone)) { try GroupContainer(for: Self.group, member: member, on: DeviceRoot(path: gone)) }
        #expect(!FileManager.default.fileExists(atPath: gone))
    }

    @Test func sampleAppAndItsExtensionShareTheGroup() throws {
        let samples = TestSupport.packageRoot.appendingPathComponent("Samples/AppGroups/Apps/GroupNotes.app").path
        let app = try AppGroupMember(bundle: samples)
        let widget = try AppGroupMember(bundle: samples + "/PlugIns/NoteWidget.appex")
        #expect(app.bundleIdentifier != widget.bundleIdentifier)
        #expect(app.groups == widget.groups && app.groups == [Self.group])
        let registered = try AppBundle(try #require(RegisteredApp(name: "GroupNotes.app", path: samples)))
        #expect(AppGroupMember(app: registered) == app, "the app model and a bundle folder agree on membership")
    }
}
