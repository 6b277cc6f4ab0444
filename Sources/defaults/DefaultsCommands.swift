import AppRegistry
import OrderedCollections
import PropertyLists
import SharedDefaults
import Spelling
import SystemCalls
import ToolSupport

/// What a verb could not do: Apple's message, and the exit status.
struct Failure: Error {
    var message: String
    var status: Int32 = 1
}

/// The verbs of `defaults`, each a few library calls.
struct DefaultsCommands {
    let command: DefaultsCommand
    let root: DeviceRoot
    var operands: [String] { command.operands }

    func run() throws(Failure) -> Int32 {
        if root.origin == .explicit && !root.exists { throw Failure(message: "defaults: \(root.absence)", status: 2) }
        switch command.verb ?? .read {
        case .read: try readVerb()
        case .readType:
            let value = try value(operands[1], in: operands[0])
            Output.line("Type is " + DefaultsDescription.typeName(value))
        case .write: try writeVerb()
        case .delete: try delete()
        case .rename: try renameVerb()
        case .domains: Output.line(DefaultsDomain.all(on: root).joined(separator: ", "))
        case .find: try find(operands[0])
        case .export: try export()
        case .import: try importDomain()
        }
        return 0
    }

    // MARK: Reading

    func readVerb() throws(Failure) {
        if operands.isEmpty {
            var all: OrderedDictionary<String, PropertyList> = [:]
            for domain in DefaultsDomain.all(on: root) { all[domain] = .dictionary(try existing(domain).persistentDomain()) }
            Output.line(DefaultsDescription.describe(.dictionary(all)))
        } else if operands.count == 1 {
            Output.line(DefaultsDescription.describe(.dictionary(try existing(operands[0]).persistentDomain())))
        } else {
            Output.line(DefaultsDescription.describeAlone(try value(operands[1], in: operands[0])))
        }
    }

    func find(_ word: String) throws(Failure) {
        let needle = word.lowercased()
        var found = false
        for domain in DefaultsDomain.all(on: root) {
            let values = try existing(domain).persistentDomain()
            let matching = domain.lowercased().contains(needle) ? values : values.filter { key, value in
                key.lowercased().contains(needle) || DefaultsDescription.describe(value).lowercased().contains(needle)
            }
            guard !matching.isEmpty else { continue }
            found = true
            Output.line("Found \(matching.count) keys in domain '\(domain)': " + DefaultsDescription.describe(.dictionary(matching)))
        }
        if !found { Output.line("Couldn't find '\(word)' anywhere") }
    }

    func export() throws(Failure) {
        let values = try existing(operands[0]).persistentDomain()
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(.dictionary(values)) } catch { throw Failure(message: "defaults: \(error)") }
        if operands[1] == "-" { Output.text(String(decoding: bytes, as: UTF8.self)); return }
        do { try AtomicFile.write(bytes, to: operands[1]) } catch { throw Failure(message: "defaults: \(error)") }
    }

    // MARK: Writing

    func writeVerb() throws(Failure) {
        let words = Self.wordsAfterVerb("write")
        guard words.count >= 2 else { throw Failure(message: "defaults: write needs a domain and a plist, or a domain, a key and a value", status: 2) }
        let (domain, key) = (words[0], words[1])
        let defaults = try writable(domain)
        if words.count == 2 {
            // `defaults write DOMAIN '{ … }'`: the domain replaced.
            guard case .dictionary(let all)? = try? PropertyList(parsing: Array(key.utf8)) else {
                throw Failure(message: "defaults: the domain plist must be a dictionary ('{ key = value; }'); to write a key, give a value after it", status: 2)
            }
            try attempt { () throws(SharedDefaultsError) in try defaults.setPersistentDomain(all) }
        } else {
            let change: DefaultsWriteValue
            do { change = try DefaultsWriteValue.parse(Array(words.dropFirst(2))) } catch { throw Failure(message: "defaults: \(error)", status: 2) }
            var problem: DefaultsWriteValue.Problem?
            try attempt { () throws(SharedDefaultsError) in
                try defaults.modify { values in
                    do throws(DefaultsWriteValue.Problem) { return [(key, try change.newValue(replacing: values[key], key: key))] } catch {
                        problem = error
                        return []
                    }
                }
            }
            if let problem { throw Failure(message: problem.message) }
        }
        try attempt { () throws(SharedDefaultsError) in try defaults.flush() }
    }

    func delete() throws(Failure) {
        let domain = operands[0]
        guard operands.count == 2 else {
            guard DefaultsDomain.exists(try location(domain)) else { throw Failure(message: "Domain (\(domain)) not found.\nDefaults have not been changed.") }
            let defaults = SharedDefaults(location: try location(domain))
            try attempt { () throws(SharedDefaultsError) in try defaults.removePersistentDomain() }
            return
        }
        let key = operands[1]
        let defaults = try existing(domain, notFound: "Domain (\(domain)) not found.\nDefaults have not been changed.")
        var missing = false
        try attempt { () throws(SharedDefaultsError) in
            try defaults.modify { values in
                missing = values[key] == nil
                return missing ? [] : [(key, nil)]
            }
            try defaults.flush()
        }
        if missing { throw Failure(message: "The domain/default pair of (\(domain), \(key)) does not exist") }
    }

    func renameVerb() throws(Failure) {
        let (domain, old, new) = (operands[0], operands[1], operands[2])
        let defaults = try existing(domain)
        var missing = false
        try attempt { () throws(SharedDefaultsError) in
            try defaults.modify { values in
                guard let value = values[old] else { missing = true; return [] }
                return old == new ? [] : [(new, value), (old, nil)]
            }
            try defaults.flush()
        }
        if missing { throw Failure(message: "Key \(old) does not exist in domain \(domain); leaving defaults unchanged") }
    }

    func importDomain() throws(Failure) {
        let (domain, path) = (operands[0], operands[1])
        let bytes: [UInt8]
        do { bytes = path == "-" ? try OwnedDescriptor(taking: 0).readAll() : try FileSystem.read(path) } catch {
            throw Failure(message: "defaults: \(error)")
        }
        let value: PropertyList
        do { value = try PropertyList(parsing: bytes) } catch { throw Failure(message: "defaults: \(path == "-" ? "standard input" : path): \(error)") }
        guard case .dictionary(let all) = value else { throw Failure(message: "defaults: \(path) holds \(value.typeNameWithArticle), not a dictionary of defaults") }
        let defaults = try writable(domain)
        try attempt { () throws(SharedDefaultsError) in
            try defaults.setPersistentDomain(all)
            try defaults.flush()
        }
    }

    // MARK: Domains

    func location(_ domain: String) throws(Failure) -> DefaultsLocation {
        do { return try DefaultsDomain.location(of: domain, on: root) } catch { throw Failure(message: "defaults: \(error)") }
    }

    /// The defaults of a domain that must exist already (looking never creates one).
    func existing(_ domain: String, notFound: String? = nil) throws(Failure) -> SharedDefaults {
        let location = try location(domain)
        guard DefaultsDomain.exists(location) else { throw Failure(message: notFound ?? "\nDomain \(domain) does not exist\n") }
        return SharedDefaults(location: location)
    }

    /// The value of `key` in `domain`, which must exist.
    func value(_ key: String, in domain: String) throws(Failure) -> PropertyList {
        let defaults = try existing(domain, notFound: "\nThe domain/default pair of (\(domain), \(key)) does not exist\n")
        guard let value = defaults.persistentDomain()[key] else {
            throw Failure(message: "\nThe domain/default pair of (\(domain), \(key)) does not exist\n")
        }
        return value
    }

    /// The defaults of a domain to write, its folder created.
    func writable(_ domain: String) throws(Failure) -> SharedDefaults {
        let location = try location(domain)
        if !command.flag(.newDomain) && !DefaultsDomain.exists(location) {
            let known = DefaultsDomain.known(on: root)
            if !known.contains(domain) {
                let suggestion = Spelling.nearest(to: domain, among: known.sorted()).map { " (did you mean \($0)?)" } ?? ""
                throw Failure(message: "defaults: \(domain) is neither a registered app on \(root.path) nor an App Group one of them is in, and holds no defaults\(suggestion); nothing was written. --new-domain creates it",
                              status: 1)
            }
        }
        do { try DefaultsDomain.prepare(location, domain: domain, on: root) } catch { throw Failure(message: "defaults: \(error)") }
        return SharedDefaults(location: location)
    }

    func attempt(_ body: () throws(SharedDefaultsError) -> Void) throws(Failure) {
        do { try body() } catch { throw Failure(message: "defaults: \(error)") }
    }

    /// The words after `verb` in the order given (`--root` and its value left out): the parsed
    /// command keeps options apart from operands, but a `write` value is read in order
    /// (`-array -int 1 -string a`).
    static func wordsAfterVerb(_ verb: String) -> [String] {
        var words: [String] = []
        var seenVerb = false
        var skipNext = false
        for word in ProcessArguments.afterProgramName() {
            if skipNext { skipNext = false; continue }
            if word == "--root" { skipNext = true; continue }
            if word.hasPrefix("--root=") || word == "--new-domain" { continue }
            if seenVerb { words.append(word) } else if word == verb { seenVerb = true }
        }
        return words
    }
}
