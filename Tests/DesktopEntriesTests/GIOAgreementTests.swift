import Foundation
import Testing
@testable import DesktopEntries

/// The same XDG trees through GIO and through us: the apps for each type in GIO's order, and
/// GIO's default, must be the same (GIO reads update-desktop-database's mimeinfo.cache, we read
/// the desktop files themselves).
@Suite(.serialized) struct GIOAgreementTests {
    func compare(_ tree: DesktopFixtures.Tree, _ label: String) throws {
        let types = try DesktopFixtures.corpusTypes()
        let gio = try tree.gio(types)
        try #require(DesktopFixtures.gioPeer != nil, "gcc and libglib2.0-dev are needed for the GIO peer")
        let apps = tree.apps()
        var compared = 0
        for type in types {
            guard let expected = gio[type] else { Issue.record("GIO gave nothing for \(type)"); continue }
            let ours = apps.applications(for: type).map(\.app.id)
            #expect(ours == expected.all, "\(label): \(type): all-for-type")
            #expect(Set(expected.all).isSubset(of: Set(ours)), "\(label): \(type): every app GIO lists")
            #expect((apps.gioDefault(for: type)?.app.id ?? "(none)") == expected.default, "\(label): \(type): default")
            compared += 1
        }
        #expect(compared == types.count)
    }

    /// GLib's fixtures as they are: no mimeapps.list; subfolder IDs (kde4-okular.desktop), the
    /// home folder's eog.desktop replacing /usr's, NoDisplay helpers, an invalid file, an entry
    /// whose program does not exist.
    @Test func corpusTreeAsIs() throws {
        try compare(try DesktopFixtures.tree(), "as is")
    }

    /// With mimeapps.list in every location: defaults (one naming an app that is not installed),
    /// added and removed associations, a desktop-specific file (whose associations GIO ignores),
    /// the deprecated data-folder mimeapps.list and defaults.list, a removal in a less important
    /// file that an addition in a more important one overrides.
    @Test func withMimeAppsLists() throws {
        var tree = try DesktopFixtures.tree()
        tree.desktops = ["GNOME", "Unity"]
        try tree.write("""
            [Default Applications]
            image/png=missing.desktop;eog.desktop;
            text/plain=kde4-kate.desktop
            [Added Associations]
            text/plain=cheese.desktop;
            image/png=gedit.desktop;
            [Removed Associations]
            application/pdf=evince-previewer.desktop;
            text/plain=gedit.desktop;
            """, to: "config/mimeapps.list")
        try tree.write("""
            [Default Applications]
            application/pdf=kde4-okular.desktop;
            [Added Associations]
            application/pdf=gedit.desktop;
            """, to: "config/gnome-mimeapps.list")
        try tree.write("""
            [Default Applications]
            text/html=kde4-konqbrowser.desktop
            [Removed Associations]
            text/plain=cheese.desktop;
            image/png=eog.desktop;
            """, to: "etc/mimeapps.list")
        try tree.write("""
            [Default Applications]
            audio/x-vorbis+ogg=totem.desktop
            [Added Associations]
            application/x-gzip=gedit.desktop;
            """, to: "usr/applications/mimeapps.list")
        try tree.write("""
            [Default Applications]
            video/mp4=totem.desktop
            """, to: "usr/applications/defaults.list")
        try compare(tree, "mimeapps")
    }

    /// Hidden entries, TryExec, a Hidden entry in the home folder that deletes /usr's, an entry
    /// whose Exec program is missing, OnlyShowIn (GIO lists it anyway), a broken file.
    @Test func hiddenTryExecAndBrokenEntries() throws {
        let tree = try DesktopFixtures.tree()
        try tree.write("[Desktop Entry]\nType=Application\nName=Gone\nHidden=true\nExec=true\nMimeType=image/png;\n", to: "home/applications/gedit.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=Try\nTryExec=no-such-program-here\nExec=true\nMimeType=image/png;\n", to: "usr/applications/try.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=Missing\nExec=/no/such/program %f\nMimeType=image/png;\n", to: "usr/applications/aaa-missing.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=KDE only\nOnlyShowIn=KDE;\nExec=true\nMimeType=image/png;\n", to: "usr/applications/kdeonly.desktop")
        try tree.write("junk\n[Desktop Entry]\nType=Application\nExec=true\nMimeType=image/png;\n", to: "usr/applications/broken.desktop")
        try tree.write("\u{FEFF}[Desktop Entry]\nType=Application\nExec=true\nMimeType=image/png;\n", to: "usr/applications/bom.desktop")
        try tree.write("[Desktop Entry]\nType=Link\nURL=https://example.com\nMimeType=image/png;\n", to: "usr/applications/link.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=Sub\nExec=true\nMimeType=image/png;\n", to: "usr/applications/sub/dir/deep.desktop")
        try compare(tree, "hidden")
        let apps = tree.apps()
        let png = apps.applications(for: "image/png").map(\.app.id)
        #expect(png.contains("sub-dir-deep.desktop"))
        #expect(!png.contains("gedit.desktop") && !png.contains("try.desktop") && !png.contains("aaa-missing.desktop") && !png.contains("broken.desktop"))
        #expect(png.contains("kdeonly.desktop"))
        #expect(apps.whyNotAvailable("try.desktop").contains("TryExec=no-such-program-here"))
        #expect(apps.whyNotAvailable("gedit.desktop").contains("Hidden=true"))
        #expect(apps.whyNotAvailable("broken.desktop").contains("broken.desktop:1"))
    }

    /// The default GIO picks with no mimeapps.list is the first app of update-desktop-database's
    /// order: for PDFs the hidden previewer. Ours is none (nothing was configured), and the
    /// ranking (Handlers) never puts the hidden helper first.
    @Test func hiddenHelperIsGIOsDefaultButNotOurs() throws {
        let apps = try DesktopFixtures.tree().apps()
        #expect(apps.gioDefault(for: "application/pdf")?.app.id == "evince-previewer.desktop")
        #expect(apps.gioDefault(for: "application/pdf")?.app.entry?.noDisplay == true)
        #expect(apps.userDefault(for: "application/pdf") == nil)
    }
}
