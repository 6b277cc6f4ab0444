/// The default application for a type: GIO's rule and ours (``DesktopApps``).
extension DesktopApps {
    /// A default and how it was chosen.
    public struct DefaultChoice: Sendable, Hashable {
        /// The app.
        public var app: DesktopApp
        /// The type of the chain it is the default for.
        public var mimeType: String
        /// Steps from the asked type to ``mimeType``.
        public var depth: Int
        /// The `[Default Applications]` line, or (GIO only) the association that stood in for one.
        public var provenance: Provenance
    }

    /// GIO's default (`g_app_info_get_default_for_type`): for the type, then each ancestor, the
    /// `[Default Applications]` entries of every folder, then its associations (so, with no
    /// default set, the first app in `update-desktop-database`'s order: often a hidden helper);
    /// the first whose file loads wins, even a `Hidden=true` one.
    public func gioDefault(for mimeType: String) -> DefaultChoice? {
        var blocked: Set<String> = []
        var found: [String: Bool] = [:]
        for (depth, mime) in index.chain(mimeType).enumerated() {
            let rows = index.tweaks(for: mime)
            var results: [DesktopAppIndex.Tweak] = []
            var chosen: Set<String> = []
            for folder in 0..<index.folderCount {
                for row in rows where row.folder == folder && row.kind == .defaults && !chosen.contains(row.id) {
                    results.append(row)
                    chosen.insert(row.id)
                }
            }
            for folder in 0..<index.folderCount {
                for row in rows where row.folder == folder && (row.kind == .added || row.kind == .claimed) {
                    if !isMasked(row) && !blocked.contains(row.id) && !chosen.contains(row.id) {
                        results.append(row)
                        chosen.insert(row.id)
                    }
                }
                for row in rows where row.folder == folder && row.kind == .removed {
                    if !isMasked(row) && !blocked.contains(row.id) && !chosen.contains(row.id) {
                        blocked.insert(row.id)
                    }
                }
            }
            for row in results {
                for record in row.records {
                    let candidate = index.app(record)
                    if loadProblem(candidate, found: &found) == nil {
                        return DefaultChoice(app: candidate, mimeType: mime, depth: depth, provenance: provenance(row))
                    }
                }
            }
        }
        return nil
    }

    /// Our default: the first installed, not hidden app of a `[Default Applications]` line for
    /// the type, else for the nearest ancestor (the mime-apps specification's rule). An app that
    /// merely sorts first is never the default.
    public func userDefault(for mimeType: String) -> DefaultChoice? {
        var found: [String: Bool] = [:]
        for (depth, mime) in index.chain(mimeType).enumerated() {
            let rows = index.tweaks(for: mime)
            for folder in 0..<index.folderCount {
                for row in rows where row.folder == folder && row.kind == .defaults {
                    if let app = app(records: row.records, found: &found) { return DefaultChoice(app: app, mimeType: mime, depth: depth, provenance: provenance(row)) }
                }
            }
        }
        return nil
    }

    /// The `[Default Applications]` entries for exactly `mimeType` (unaliased), installed or not.
    public func defaultEntries(for mimeType: String) -> [(id: String, provenance: Provenance)] {
        index.tweaks(for: index.unalias(mimeType)).filter { $0.kind == .defaults }.map { ($0.id, provenance($0)) }
    }

}
