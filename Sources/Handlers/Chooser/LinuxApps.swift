import AppRegistry
import DesktopEntries
import PropertyLists
import UniformTypes

/// The Linux desktop applications (``DesktopApps``: `.desktop` files and `mimeapps.list`) as apps
/// the chooser ranks beside registered bundles.
///
/// Each desktop app becomes an ``AppBundle`` whose bundle identifier is its desktop-file ID
/// (`org.gnome.Evince.desktop`) and whose claims are the MIME types it is associated with for the
/// documents (its `MimeType=` and `[Added Associations]`, less `[Removed Associations]`), each
/// named by the type the registry gives that MIME type. So the documented order applies to both
/// kinds of app. Two desktop-specific rules on top:
/// - a catch-all claim (`application/octet-stream`, or `text/plain` reached from a more specific
///   type: a generic editor) ranks Alternate, and so does a hidden helper;
/// - in ``Mode/recommended``, hidden helpers (`NoDisplay=true`, or not shown on this desktop)
///   come after every other app unless the user made one the default: they never win by
///   sorting first. ``Mode/gio`` orders the desktop apps as GIO does and puts GIO's default first.
public struct LinuxApps: Sendable {
    /// How the desktop apps are ordered and the default chosen.
    public enum Mode: String, Sendable, Hashable {
        /// Ours: the chooser's order; defaults only from `[Default Applications]`.
        case recommended
        /// GIO's: `g_app_info_get_default_for_type` first, then `g_app_info_get_all_for_type`'s order.
        case gio
    }

    /// The installed apps and associations.
    public let apps: DesktopApps
    /// The mode.
    public var mode: Mode

    /// The apps of this process's XDG folders.
    public init(apps: DesktopApps = DesktopApps(), mode: Mode = .recommended) {
        self.apps = apps
        self.mode = mode
    }

    /// One document as the desktop side sees it.
    public struct DocumentMatch: Sendable {
        /// The document's MIME type (its type's preferred one).
        public var mimeType: String
        /// The associated apps by desktop-file ID, and how each is associated.
        public var associations: [String: DesktopApps.Association]
        /// GIO's order of the associated apps (`g_app_info_get_all_for_type`).
        public var gioOrder: [String]
        /// Apps found through the registry's conformance only (GIO does not list them), by ID.
        public var throughTypes: [String: (claimed: String, type: String)]
        /// Removed associations that took effect, by ID.
        public var removed: [String: DesktopApps.Provenance]
        /// Our default.
        public var userDefault: DesktopApps.DefaultChoice?
        /// GIO's default.
        public var gioDefault: DesktopApps.DefaultChoice?
    }

    /// What the chooser gets for some documents.
    public struct Selection: Sendable {
        /// The desktop apps as bundles.
        public var bundles: [AppBundle]
        /// Type identifier → desktop-file ID: the defaults to rank first.
        public var defaults: [String: String]
        /// Per document.
        public var documents: [DocumentMatch]
        /// The desktop apps by ID.
        public var byID: [String: DesktopApp]
    }

    /// The MIME type GIO would look up for a document of `type`: its preferred MIME type, else
    /// the nearest supertype's, else `application/octet-stream`.
    public static func mimeType(of type: UTType) -> String {
        if let mime = type.preferredMIMEType { return mime }
        var frontier = type.parents
        while !frontier.isEmpty {
            for parent in frontier { if let mime = parent.preferredMIMEType { return mime } }
            frontier = frontier.flatMap(\.parents)
        }
        return "application/octet-stream"
    }

    /// Whether a claim of `claimed` for a document of `documentMIME` is a catch-all.
    public static func isCatchAll(claimed: String, documentMIME: String) -> Bool {
        claimed == "application/octet-stream" || (claimed == "text/plain" && documentMIME != "text/plain")
    }

    /// Whether `app` is a hidden helper here: `NoDisplay=true`, or not shown on the current desktop.
    public func isHiddenHelper(_ app: DesktopApp) -> Bool {
        guard let entry = app.entry else { return false }
        return entry.noDisplay || !entry.isShown(in: apps.locations.currentDesktops)
    }

    /// The desktop apps for documents of `types` (every installed app with `everyApp`, so that
    /// the ones that cannot take them can be explained).
    public func select(types: [UTType], registry: TypeRegistry, everyApp: Bool = false) -> Selection {
        var documents: [DocumentMatch] = []
        var byID: [String: DesktopApp] = [:]
        for type in types {
            let mime = Self.mimeType(of: type)
            let (associations, removed) = apps.associations(for: mime)
            var match = DocumentMatch(mimeType: mime, associations: [:], gioOrder: [], throughTypes: [:], removed: removed,
                                      userDefault: apps.userDefault(for: mime), gioDefault: apps.gioDefault(for: mime))
            for association in associations {
                match.associations[association.app.id] = association
                match.gioOrder.append(association.app.id)
                byID[association.app.id] = association.app
            }
            // Apps whose MIME types name a supertype of the document's type in the registry (which
            // knows relations the MIME database does not, and the reverse).
            // A MIME type with the same canonical name (an alias: `application/x-pdf`) has the
            // same associations: each canonical type is looked up once.
            var looked: Set<String> = [apps.canonicalMIMEType(mime)]
            for supertype in [type] + type.supertypes.sorted(by: { $0.identifier < $1.identifier }) {
                for other in supertype.tags(of: .mimeType) where other != mime {
                    guard looked.insert(apps.canonicalMIMEType(other)).inserted else { continue }
                    for id in apps.associatedIDs(for: other) where match.associations[id] == nil && match.throughTypes[id] == nil && removed[id] == nil {
                        guard let app = byID[id] ?? apps.app(id) else { continue }
                        match.throughTypes[id] = (other, supertype.identifier)
                        byID[id] = app
                    }
                }
            }
            documents.append(match)
        }
        if everyApp { for app in apps.allApps() where byID[app.id] == nil { byID[app.id] = app } }
        var bundles: [AppBundle] = []
        for id in byID.keys.sorted() {
            bundles.append(bundle(for: byID[id]!, documents: documents, types: types, registry: registry))
        }
        var defaults: [String: String] = [:]
        for (type, match) in zip(types, documents) {
            // Only a `[Default Applications]` line makes a default that the ranking puts first and
            // calls the user's; GIO's first association by order is put first by ``arrange``.
            guard let choice = mode == .gio ? match.gioDefault : match.userDefault, case .defaultEntry = choice.provenance else { continue }
            if byID[choice.app.id] == nil {
                byID[choice.app.id] = choice.app
                bundles.append(bundle(for: choice.app, documents: documents, types: types, registry: registry))
            }
            let named = UTType(mimeType: choice.mimeType, in: registry)
            let key = named.map { type.conforms(to: $0) } == true ? named!.identifier : type.identifier
            defaults[key] = choice.app.id
        }
        return Selection(bundles: bundles, defaults: defaults, documents: documents, byID: byID)
    }

    /// `app` as a bundle with one claim per MIME type it is associated with for these documents
    /// (and, for apps that take none of them, its own `MimeType=` claims, to explain why not).
    func bundle(for app: DesktopApp, documents: [DocumentMatch], types: [UTType], registry: TypeRegistry) -> AppBundle {
        var bundle = AppBundle(plist: .dictionary([:]), path: app.path, infoPlistPath: "", fallbackIdentifier: app.id)
        bundle.name = app.name
        let hidden = isHiddenHelper(app)
        var claims: [DocumentTypeClaim] = []
        func add(_ claim: DocumentTypeClaim) { if !claims.contains(claim) { claims.append(claim) } }
        for (match, type) in zip(documents, types) {
            var claimed: String?
            var source = ""
            var aliasOnly = false
            if let association = match.associations[app.id] {
                claimed = association.mimeType
                source = Self.quoted(association)
                // An app's own line that names the type only by an alias: GIO lists it after the
                // apps that name the type itself, and so do we (rank Alternate).
                aliasOnly = Self.isAliasOnly(association)
            } else if let through = match.throughTypes[app.id] {
                claimed = through.claimed
                source = "MimeType=\(through.claimed)"
            } else if let choice = mode == .gio ? match.gioDefault : match.userDefault, choice.app.id == app.id {
                // The default names an app that does not claim the type: it still opens it (GIO too).
                claimed = choice.mimeType
                source = choice.provenance.description
            }
            guard let claimed else { continue }
            let named = UTType(mimeType: claimed, in: registry)
            // GIO's MIME parents that the registry does not know: the claim names the document's
            // own type, so the app stays eligible (the explanation says how it really matched).
            let contentType = named.map { type.conforms(to: $0) } == true ? named!.identifier : type.identifier
            let catchAll = Self.isCatchAll(claimed: claimed, documentMIME: match.mimeType)
            add(DocumentTypeClaim(name: source, role: .editor, rank: hidden || catchAll || aliasOnly ? .alternate : .default,
                                  contentTypes: [contentType], mimeTypes: [claimed]))
        }
        if claims.isEmpty, let entry = app.entry {
            for mime in entry.mimeTypes where DesktopEntry.isValidMIMEType(mime) {
                let named = UTType(mimeType: mime, in: registry)
                add(DocumentTypeClaim(name: "MimeType=", role: .editor, rank: .default, contentTypes: [named?.identifier ?? mime], mimeTypes: [mime]))
            }
        }
        bundle.claims = claims
        bundle.opensDocumentsInPlace = true
        return bundle
    }

    /// Orders the sheet's apps for the mode: hidden helpers after the others (recommended), or
    /// GIO's default and order first (gio). Registered bundles keep their places relative to
    /// each other.
    public func arrange(_ sheet: inout Sheet, selection: Selection) {
        guard let first = selection.documents.first else { return }
        switch mode {
        case .recommended:
            // Apps that name the type itself, then hidden helpers, then apps that name it only by
            // an alias (`image/pdf`: ImageMagick's `display` for PDFs, which its policy refuses).
            var (shown, helpers, aliasOnly) = ([Sheet.AppEntry](), [Sheet.AppEntry](), [Sheet.AppEntry]())
            for entry in sheet.apps {
                let id = entry.app.bundleIdentifier
                guard let app = selection.byID[id], !entry.candidates.allSatisfy(\.isUserDefault) else { shown.append(entry); continue }
                if selection.documents.allSatisfy({ $0.associations[id].map(Self.isAliasOnly) ?? false }) {
                    aliasOnly.append(entry)
                } else if isHiddenHelper(app) {
                    helpers.append(entry)
                } else {
                    shown.append(entry)
                }
            }
            sheet.apps = shown + helpers + aliasOnly
        case .gio:
            var order = first.gioOrder
            if let id = first.gioDefault?.app.id { order.removeAll { $0 == id }; order.insert(id, at: 0) }
            let rank = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            sheet.apps = sheet.apps.enumerated().sorted { a, b in
                let (ra, rb) = (rank[a.element.app.bundleIdentifier] ?? Int.max, rank[b.element.app.bundleIdentifier] ?? Int.max)
                return ra != rb ? ra < rb : a.offset < b.offset
            }.map(\.element)
        }
    }

    /// Whether the app's own `MimeType=` names the type only by an alias (an added association
    /// by an alias is the user's choice, and counts as naming the type).
    static func isAliasOnly(_ association: DesktopApps.Association) -> Bool {
        guard association.isAliasClaim, case .claimed = association.provenance else { return false }
        return true
    }

    /// The line that associates an app, with the type as the file wrote it:
    /// "FILE:LINE MimeType=image/pdf", "FILE:LINE [Added Associations] image/pdf=".
    static func quoted(_ association: DesktopApps.Association) -> String {
        switch association.provenance {
        case .claimed: "\(association.provenance)\(association.writtenType)"
        case .added, .defaultEntry: "\(association.provenance) \(association.writtenType)="
        }
    }

    /// Why the desktop app `id` is where it is for document `index`: the file it came from, the
    /// line that made it the default, how its claim matched, and its flags.
    public func explanation(for id: String, document index: Int, in selection: Selection) -> [String] {
        guard let app = selection.byID[id], selection.documents.indices.contains(index) else { return [] }
        let match = selection.documents[index]
        var lines = ["from \(app.path) (\(app.folder.origin), desktop-file ID \(app.id))"]
        if let association = match.associations[app.id] {
            let how: String
            let named = association.isAliasClaim ? "\(association.writtenType) (an alias of \(association.mimeType))" : association.mimeType
            switch association.depth {
            case 0: how = "\(named), the document's own MIME type"
            case let d: how = "\(named), \(d) step\(d == 1 ? "" : "s") up the MIME parents of \(match.mimeType)"
            }
            lines.append("associated by \(Self.quoted(association)): \(how)")
            if Self.isAliasOnly(association) {
                lines.append("it names \(association.mimeType) only by its alias \(association.writtenType): listed after the apps that name the type itself (as GIO does), hidden helpers included, ranked Alternate")
            }
        } else if let through = match.throughTypes[app.id] {
            lines.append("its MimeType=\(through.claimed) names \(through.type), a type the document conforms to (GIO does not list it)")
        }
        if let choice = mode == .gio ? match.gioDefault : match.userDefault, choice.app.id == app.id {
            switch choice.provenance {
            case .defaultEntry:
                lines.append("the default by \(choice.provenance) \(choice.mimeType)=\(app.id)")
            default:
                lines.append("GIO's default: no [Default Applications] line names an installed app for \(choice.mimeType), so the first association wins (\(choice.provenance))")
            }
        } else if mode == .recommended, let gio = match.gioDefault, gio.app.id == app.id {
            lines.append("GIO would make it the default (\(gio.provenance)); we do not: no [Default Applications] line chose it")
        }
        if let claimed = match.associations[app.id]?.mimeType ?? match.throughTypes[app.id]?.claimed,
           Self.isCatchAll(claimed: claimed, documentMIME: match.mimeType) {
            lines.append(claimed == "application/octet-stream"
                ? "catch-all: it claims application/octet-stream (any file), ranked Alternate"
                : "catch-all: it claims text/plain, reached from \(match.mimeType) (a generic editor), ranked Alternate")
        }
        if let entry = app.entry {
            if entry.noDisplay { lines.append("hidden helper (NoDisplay=true): listed, ranked after the other apps, never the default by order") }
            if !entry.isShown(in: apps.locations.currentDesktops) {
                let desktops = apps.locations.currentDesktops.joined(separator: ":")
                lines.append("not shown on \(desktops.isEmpty ? "this desktop (XDG_CURRENT_DESKTOP is not set)" : desktops)"
                             + (entry.onlyShowIn.map { " (OnlyShowIn=\($0.joined(separator: ";")))" } ?? "")
                             + (entry.notShowIn.map { " (NotShowIn=\($0.joined(separator: ";")))" } ?? "") + ": ranked after the other apps")
            }
            if let sandbox = app.sandbox { lines.append("sandboxed (\(sandbox)): it gets the document through the document portal, no copy") }
            if let name = DesktopLauncher.busName(of: app) { lines.append("started through D-Bus: \(name) org.freedesktop.Application.Open") }
            if entry.terminal { lines.append("runs in a terminal (Terminal=true)") }
        }
        return lines
    }
}
