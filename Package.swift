// swift-tools-version: 6.0
import PackageDescription

// plutil is linked fully statically (Swift runtime, libxml2, ICU, glibc): a plist tool is started
// once per file by scripts and CI, and loading the shared ICU alone costs about 1 ms of a 2.6 ms
// start. lld's --no-warnings silences glibc's notes that getaddrinfo/dlopen in a static binary
// need the same glibc at run time: libxml2's network code is never called (XML_PARSE_NONET).
//
// The linker lays out first, together, the functions one `openin` query runs from its start to its
// exit and the caches they fill (Support/link/startup.order, written by scripts/startup-order): a
// start then faults fewer pages of the binary in. `openin --list --json` at 400 desktop files:
// 240 -> 193 page faults, 2.26 -> 2.16 ms (medians of 300 alternating starts, in both orders, the
// binaries settled in the page cache). Every tool takes that order: they share the runtime's and
// the libraries' start-up code, and --no-warnings covers the functions a tool lacks.
let staticExecutable: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-use-ld=lld", "-Xlinker", "--no-warnings",
                  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Support/link/startup.order",
                  "-Xlinker", "-lxml2", "-Xlinker", "-licuuc", "-Xlinker", "-licudata",
                  "-Xlinker", "-lz", "-Xlinker", "-llzma", "-Xlinker", "-lstdc++", "-Xlinker", "-lm"]),
]

// Generic types used with concrete arguments get their metadata emitted at compile time instead of
// built by the runtime on first use (which demangles type names and scans conformance tables): a
// query process creates dozens of such types, and this cut `openin --list` by 0.2 ms of 1.9 ms CPU.
// Only the tools get it: it is an unsafe flag, and SwiftPM refuses a package whose library
// products carry one as a versioned dependency. Measured without it in the libraries (hyperfine,
// 300 runs): `openin --list` 1.2 ms either way, `uti conforms` 1.0 vs 0.9 ms, within the noise.
let prespecialize: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-prespecialize-generic-metadata"])]

// The libraries and the C modules they use, lowest first.
let libraryTargets: [Target] = [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "PropertyLists",
            dependencies: ["Hashing", 
                "SystemCalls",
                "CLibXML2",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
        ),
        .target(
            name: "UniformTypes",
            dependencies: ["Hashing", "PropertyLists", "SystemCalls", "CLibXML2", .product(name: "OrderedCollections", package: "swift-collections")],
        ),
        .target(
            name: "KeyedArchives",
            dependencies: ["Hashing", "PropertyLists", "SystemCalls", .product(name: "OrderedCollections", package: "swift-collections")],
        ),
        // Apple's UniformTypeIdentifiers API over UniformTypes, answering from the device's registry.
        .target(
            name: "UniformTypeIdentifiers",
            dependencies: ["AppRegistry", "UniformTypes", "SystemCalls", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "CSystemShims"),
        // Near misses for "did you mean" (the linter and the tools).
        .target(name: "Spelling"),
        // Every system call the libraries make, typed (swift-system's style); faults can be forced
        // per call in debug builds, which is what the tests run.
        // Stable hashes of bytes (FNV-1a) and strings compared by their bytes: names for caches,
        // shared-memory slots and fingerprints. Not system calls, so not in SystemCalls.
        .target(name: "Hashing"),
        .target(
            name: "SystemCalls",
            dependencies: ["Hashing", "CSystemShims", "CMalloc", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: [.define("ENABLE_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // The machine's avahi-daemon over D-Bus, which MulticastDNS publishes and browses through
        // when one runs (so that it never opens udp/5353 beside it). No pkgConfig: avahi-client.pc
        // adds -D_REENTRANT, a flag SwiftPM refuses with a warning on every build; the headers and
        // libraries are in the default paths, and the module map links them.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        .target(name: "CDBusShims"),
        // Linux desktop applications: .desktop files, mimeapps.list, GIO-compatible choice and launching.
        .target(
            name: "DesktopEntries",
            dependencies: ["Hashing", "SystemCalls", "CDBus", "CDBusShims", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // The app model (what an Info.plist says), the apps and containers of a device root, its
        // compiled registry, and the linter that checks Info.plists the way the model reads them.
        .target(
            name: "AppRegistry",
            dependencies: ["Hashing", "UniformTypes", "PropertyLists", "SystemCalls", "Spelling",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "SystemPackage", package: "swift-system")],
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // App Groups: a member's group container (created on first use, mode 0700), membership
        // from the app's entitlements.
        .target(
            name: "AppGroups",
            dependencies: ["AppRegistry", "PropertyLists", "SystemCalls"]
        ),
        // UserDefaults for a suite (an app's or a group's), shared between processes: a journal
        // appended under a lock, merged into the property list; a shared counter for reads.
        .target(
            name: "SharedDefaults",
            dependencies: ["AppGroups", "AppRegistry", "PropertyLists", "SystemCalls", "CZlib",
                           .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .target(
            name: "Handlers",
            dependencies: ["NearbyDevices", "AppRegistry", "UniformTypes", "PropertyLists", "SystemCalls", "DesktopEntries", "Pasteboards", "Spelling", "OpenRequests",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "SystemPackage", package: "swift-system")],
        ),
        // The open request a sender writes into an app's Library/OpenRequests (documents and URLs)
        // and the rule for names that replace nothing: shared by the chooser, URL schemes and the
        // receiver.
        .target(
            name: "OpenRequests",
            dependencies: ["PropertyLists", "SystemCalls", .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // URLs and their schemes: RFC 3986 parsing, x-callback-url, base64url payloads, who handles
        // a scheme (the registry's index, the user's defaults, a documented order), canOpenURL,
        // opening (an open request and the launch command), the desktop's side.
        .target(
            name: "URLSchemes",
            dependencies: ["Hashing", "AppRegistry", "Handlers", "OpenRequests", "DesktopEntries", "UniformTypes", "PropertyLists", "SystemCalls",
                           .product(name: "ExtrasBase64", package: "swift-extras-base64")]
        ),
        // Apple's own app API for every channel, by Apple's names (docs/apple-api.md): UIPasteboard,
        // UIApplication and its delegate, NSFileCoordinator, App Group containers, notify(3) and
        // the Darwin CFNotificationCenter, NSUserActivity. Nothing of the engine is re-exported.
        .target(
            name: "InterchangeKit",
            dependencies: ["AppInterchange", "AppRegistry", "AppGroups", "FileCoordination", "Handoff", "Notifications", "Pasteboards",
                           "PropertyLists", "SystemCalls", "URLSchemes"]
        ),
        // The app's side of interchange, as a library an app links: who it is, the requests that
        // reach it (URLs and documents) and what it can send.
        // Handoff: the activities apps offer (docs/handoff.md).
        .target(
            name: "Handoff",
            dependencies: ["AppRegistry", "OpenRequests", "PropertyLists", "SystemCalls", "UniformTypes", "URLSchemes"]
        ),
        .target(
            name: "AppInterchange",
            dependencies: ["URLSchemes", "Receiver", "Handoff", "AppRegistry", "Handlers", "OpenRequests", "UniformTypes", "PropertyLists", "SystemCalls",
                           "NearbyDevices"]
        ),
        .target(
            name: "Receiver",
            dependencies: ["AppRegistry", "Handlers", "OpenRequests", "UniformTypes", "PropertyLists", "SystemCalls", "CSQLite", "CCrypto",
                           .product(name: "Logging", package: "swift-log")],
        ),
        // The process records shared-memory tables keep (a robust mutex held while the process
        // lives, generation, pid), with their claim, liveness and mailbox names.
        .target(
            name: "ProcessTables",
            dependencies: ["SystemCalls", .product(name: "Atomics", package: "swift-atomics")]
        ),
        // Darwin's notify(3) between processes: a shared table, atomic posts, wake datagrams.
        .target(
            name: "Notifications",
            dependencies: ["Hashing", "ProcessTables", "SystemCalls", .product(name: "Atomics", package: "swift-atomics")]
        ),
        // NSFileCoordinator and NSFilePresenter between processes, and atomic writes.
        .target(
            name: "FileCoordination",
            dependencies: ["Hashing", "ProcessTables", "SystemCalls"]
        ),
        // MMWormhole: archived messages in a group container, a Darwin notification per identifier.
        .target(
            name: "Wormhole",
            dependencies: ["Notifications", "FileCoordination", "KeyedArchives", "PropertyLists", "SystemCalls"]
        ),
        // Pasteboards shared between processes on a device root (docs/pasteboards.md). Not
        // prespecialized: with -prespecialize-generic-metadata, destroying its Mutex recursed
        // without end in Synchronization.Atomic's value witness (Swift 6.3.1, static pbpaste).
        .target(
            name: "Pasteboards",
            dependencies: ["Hashing", "AppRegistry", "UniformTypes", "PropertyLists", "KeyedArchives", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // The desktop clipboard for pasteboardd: X11 (libxcb, XFixes) and Wayland (libwayland-client,
        // wlr-data-control). C because both libraries work through callbacks and variadic calls.
        .target(
            name: "CDesktopClipboard",
            linkerSettings: [.linkedLibrary("xcb"), .linkedLibrary("xcb-xfixes"), .linkedLibrary("wayland-client"),
                             .linkedLibrary("pthread")]
        ),
        .target(
            name: "PasteboardBridge",
            dependencies: ["Pasteboards", "CDesktopClipboard", "SystemCalls", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ToolSupport",
            dependencies: ["Spelling", "SystemCalls", "PropertyLists", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // SPAKE2 (RFC 9382, P-256) over libcrypto: two devices agree on a key from a one-time code.
        .target(name: "PAKE", dependencies: ["CCrypto"]),
        // The paired devices and the nearby state folder: what the chooser reads to offer a device
        // as a row, without linking TLS.
        .target(
            name: "NearbyDevices",
            dependencies: ["AppRegistry", "PropertyLists", "SystemCalls", .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // Sending documents to apps on nearby devices (docs/nearby.md): the device's identity,
        // paired devices, the session over mutual TLS 1.3, the receiver and the sender.
        .target(
            name: "Nearby",
            dependencies: ["NearbyDevices", "MulticastDNS", "AppRegistry", "Handlers", "Handoff", "DesktopEntries", "OpenRequests", "UniformTypes", "PropertyLists", "SystemCalls", "PAKE", "CZlib",
                           .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "NIOTLS", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOSSL", package: "swift-nio-ssl"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "X509", package: "swift-certificates"),
                           .product(name: "SwiftASN1", package: "swift-asn1")]
        ),
        // DNS-SD over Multicast DNS (RFC 6762, RFC 6763): the message codec, sockets on 5353 beside
        // any other responder, a responder and a browser, each on a thread of its own. For the
        // nearby tool's `_di-nearby._tcp`. Through the machine's avahi-daemon (libavahi-client)
        // when one runs; the built-in engine otherwise.
        .target(name: "MulticastDNS", dependencies: ["SystemCalls", "CAvahi"]),
        // Apart from ToolSupport: swift-log brings Swift's concurrency runtime and libdispatch, whose
        // static constructors every query tool would otherwise run (see the module's overview).
        .target(
            name: "LogfmtLogging",
            dependencies: ["ToolSupport", "SystemCalls", "PropertyLists", .product(name: "Logging", package: "swift-log")]
        ),
]

// The command-line tools: thin shells over the libraries.
let toolTargets: [Target] = [
        .executableTarget(
            name: "uti",
            dependencies: ["SystemCalls", "AppRegistry", "UniformTypes", "PropertyLists", "ToolSupport", "URLSchemes"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "openin",
            dependencies: ["Spelling", "DesktopEntries", "AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "inboxd",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "LogfmtLogging", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "openurl",
            dependencies: ["URLSchemes", "AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls", "Spelling"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "defaults",
            dependencies: ["SharedDefaults", "AppGroups", "AppRegistry", "PropertyLists", "ToolSupport", "SystemCalls", "Spelling",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "notifyutil",
            dependencies: ["Notifications", "ToolSupport", "SystemCalls"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "pbcopy",
            dependencies: ["Pasteboards", "AppRegistry", "UniformTypes", "ToolSupport", "SystemCalls"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "pbpaste",
            dependencies: ["Pasteboards", "AppRegistry", "UniformTypes", "ToolSupport", "SystemCalls"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "pasteboardd",
            dependencies: ["PasteboardBridge", "Pasteboards", "AppRegistry", "UniformTypes", "ToolSupport", "LogfmtLogging", "SystemCalls",
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Not static: swift-nio-ssl's BoringSSL and the concurrency runtime, and the tool is
        // long-running (a receiver) or network-bound, so start-up is not what it is measured by.
        .executableTarget(
            name: "nearby",
            dependencies: ["Nearby", "Handoff", "AppRegistry", "Handlers", "UniformTypes", "ToolSupport", "SystemCalls", "PropertyLists"]
        ),
        .executableTarget(
            name: "plutil",
            dependencies: [
                "PropertyLists",
                "KeyedArchives",
                "ToolSupport",
                "CMalloc",
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            linkerSettings: staticExecutable
        ),
]

// Benchmarks, samples, examples, and the programs the tests start.
let supportTargets: [Target] = [
        // The seed's story as real programs on the app-side library (Samples/Apps/Person*.app run them).
        .executableTarget(
            name: "PersonEditor",
            dependencies: ["AppInterchange", "URLSchemes", "AppRegistry", "PropertyLists", "Pasteboards", "KeyedArchives",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Samples/Programs/PersonEditor"
        ),
        .executableTarget(
            name: "PersonViewer",
            dependencies: ["AppInterchange", "URLSchemes", "PropertyLists", "Pasteboards", "KeyedArchives",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Samples/Programs/PersonViewer"
        ),
        // Seed 002's contacts manager on InterchangeKit (Samples/Apps/Contacts.app runs it).
        .executableTarget(
            name: "Contacts",
            dependencies: ["InterchangeKit"],
            path: "Samples/Programs/Contacts"
        ),
        // Runnable clients of the app-side library (Examples/README.md).
        .executableTarget(name: "OpenURLExample", dependencies: ["AppInterchange"], path: "Examples/OpenURL"),
        .executableTarget(name: "ListenExample", dependencies: ["AppInterchange"], path: "Examples/Listen"),
        .target(
            name: "BenchmarkSupport",
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "PropertyListBenchmarks",
            dependencies: ["PropertyLists", "BenchmarkSupport"],
            path: "Benchmarks/PropertyListBenchmarks"
        ),
        .target(
            name: "TestHelpers",
            dependencies: ["PropertyLists", "UniformTypes"],
            path: "Tests/TestHelpers"
        ),
        .executableTarget(
            name: "KeyedArchiveBenchmarks",
            dependencies: ["KeyedArchives", "PropertyLists", "BenchmarkSupport"],
            path: "Benchmarks/KeyedArchiveBenchmarks"
        ),
        .executableTarget(
            name: "TypeBenchmarks",
            dependencies: ["AppRegistry", "UniformTypes", "UniformTypeIdentifiers", "PropertyLists", "BenchmarkSupport"],
            path: "Benchmarks/TypeBenchmarks"
        ),
        .executableTarget(
            name: "StartupBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/StartupBenchmarks"
        ),
        .executableTarget(
            name: "PasteboardBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/PasteboardBenchmarks"
        ),
        .executableTarget(
            name: "HandlerBenchmarks",
            dependencies: ["AppRegistry", "Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/HandlerBenchmarks"
        ),
        .executableTarget(
            name: "URLSchemeBenchmarks",
            dependencies: ["AppRegistry", "URLSchemes", "UniformTypes", "PropertyLists", "BenchmarkSupport"],
            path: "Benchmarks/URLSchemeBenchmarks"
        ),
        // The handler app URLSchemeBenchmarks opens, started or already running.
        .executableTarget(
            name: "URLSchemeBenchmarkHandler",
            dependencies: ["AppInterchange", "AppRegistry", "SystemCalls"],
            path: "Benchmarks/URLSchemeBenchmarkHandler"
        ),
        .executableTarget(
            name: "DesktopBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/DesktopBenchmarks"
        ),
        // nearby against iperf3 on one link in network namespaces (needs root and the nearby tool).
        .executableTarget(
            name: "NearbyBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/NearbyBenchmarks",
            exclude: ["lab-common.sh", "lab-throughput.sh", "lab-wormhole.sh", "lab-discovery.sh", "lab-resume.sh", "lab-privacy.sh", "lab-privacy.py", "lab-streams.sh", "lab-person.sh", "lab-flood.sh"]
        ),
        .executableTarget(
            name: "ReceiverBenchmarks",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/ReceiverBenchmarks"
        ),
        // A process that writes, observes or reads a suite, for the tests and the benchmark that
        // need real processes (writers killed with SIGKILL, observers in another process).
        .executableTarget(
            name: "defaults-probe",
            dependencies: ["SharedDefaults", "AppGroups", "AppRegistry", "PropertyLists", "SystemCalls"],
            path: "Tests/DefaultsProbe"
        ),
        // The Group Notes sample: an app and its widget extension sharing a note through a group.
        .executableTarget(
            name: "group-notes",
            dependencies: ["SharedDefaults", "AppGroups", "AppRegistry", "PropertyLists", "SystemCalls", "ToolSupport"],
            path: "Samples/AppGroups/GroupNotes"
        ),
        .executableTarget(
            name: "GroupDefaultsBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/GroupDefaultsBenchmarks"
        ),
        // The other process in the coordination and notification tests (writers, presenters,
        // observers, processes to kill or stop).
        // App B of seed article 003 (Apple-platform code), started by the launcher in InterchangeKitTests.
        .executableTarget(
            name: "seed-app-b",
            dependencies: ["InterchangeKit"],
            path: "Tests/SeedAppB"
        ),
        // An app that makes an activity current and waits (InterchangeKitTests' Handoff tests kill it).
        .executableTarget(
            name: "handoff-probe",
            dependencies: ["InterchangeKit"],
            path: "Tests/HandoffProbe"
        ),
        // Publishes, browses or starts and stops Multicast DNS in a lab host, for MulticastDNSTests.
        .executableTarget(
            name: "mdns-probe",
            dependencies: ["MulticastDNS", "SystemCalls"],
            path: "Tests/MulticastDNSProbe"
        ),
        .executableTarget(
            name: "coordination-probe",
            dependencies: ["Notifications", "FileCoordination", "Wormhole", "KeyedArchives", "SystemCalls"],
            path: "Tests/CoordinationProbe"
        ),
        .executableTarget(
            name: "CoordinationBenchmarks",
            dependencies: ["Notifications", "FileCoordination", "SystemCalls", "BenchmarkSupport"],
            path: "Benchmarks/CoordinationBenchmarks"
        ),
]

// The tests.
let testTargets: [Target] = [
        .testTarget(
            name: "SharedDefaultsTests",
            dependencies: ["SharedDefaults", "AppGroups", "AppRegistry", "PropertyLists", "SystemCalls", "TestHelpers", "UniformTypes"]
        ),
        .testTarget(
            name: "NotificationsTests",
            dependencies: ["Notifications", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "FileCoordinationTests",
            dependencies: ["FileCoordination", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "ProcessTablesTests",
            dependencies: ["ProcessTables", "SystemCalls", .product(name: "Atomics", package: "swift-atomics")]
        ),
        .testTarget(
            name: "WormholeTests",
            dependencies: ["Wormhole", "Notifications", "KeyedArchives", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: ["PropertyLists", "TestHelpers", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(
            name: "KeyedArchivesTests",
            dependencies: ["KeyedArchives", "PropertyLists", "TestHelpers"]
        ),
        .testTarget(
            name: "UniformTypesTests",
            dependencies: ["AppRegistry", "UniformTypes", "PropertyLists", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        // The app model, the device root, the registry store and Info.plist lint.
        .testTarget(
            name: "AppRegistryTests",
            dependencies: ["AppRegistry", "UniformTypes", "PropertyLists", "TestHelpers"]
        ),
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["AppRegistry", "UniformTypeIdentifiers", "UniformTypes", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ReceiverTests",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "OpenRequests", "UniformTypes", "TestHelpers", "SystemCalls"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ToolsTests",
            dependencies: ["TestHelpers"],
            exclude: ["Snapshots", "Fixtures"]
        ),
        .testTarget(
            name: "URLSchemesTests",
            dependencies: ["URLSchemes", "AppInterchange", "AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "TestHelpers", "SystemCalls"]
        ),
        .testTarget(
            name: "PasteboardsTests",
            dependencies: ["Pasteboards", "AppRegistry", "UniformTypes", "KeyedArchives", "SystemCalls", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DesktopEntriesTests",
            dependencies: ["DesktopEntries", "SystemCalls", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HandlersTests",
            dependencies: ["AppRegistry", "Handlers", "DesktopEntries", "UniformTypes", "PropertyLists", "TestHelpers", "SystemCalls"]
        ),
        // The typed system-call layer, on real processes and files.
        .testTarget(
            name: "SystemCallsTests",
            dependencies: ["SystemCalls"]
        ),
        .testTarget(
            name: "HashingTests",
            dependencies: ["Hashing"]
        ),
        // Apple-platform code (the seed articles' apps), unchanged but for `import InterchangeKit`.
        .testTarget(
            name: "InterchangeKitTests",
            dependencies: ["InterchangeKit", "AppInterchange", "AppRegistry", "Handoff", "PropertyLists", "SystemCalls", "TestHelpers",
                           .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // SPAKE2 against RFC 9382's own test vectors (Fixtures/rfc9382-vectors.txt).
        .testTarget(
            name: "PAKETests",
            dependencies: ["PAKE"],
            exclude: ["Fixtures"]
        ),
        // What every tool shares: the command-line grammar, text as printed.
        .testTarget(
            name: "ToolSupportTests",
            dependencies: ["ToolSupport"]
        ),
        // The openin tool as a user runs it: the sheet on terminals, the desktop dialog, delivery.
        .testTarget(
            name: "NearbyTests",
            dependencies: ["Nearby", "AppInterchange", "AppRegistry", "OpenRequests", "PropertyLists", "TestHelpers", "SystemCalls",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Fixtures"]
        ),
        // The DNS message codec (captures of python-zeroconf and avahi in Fixtures, hostile
        // packets), the responder's and browser's logic, and interop with python-zeroconf and
        // avahi-daemon in network namespaces (Fixtures/mdns-lab.sh).
        .testTarget(
            name: "MulticastDNSTests",
            dependencies: ["MulticastDNS", "SystemCalls", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "OpeninToolTests",
            dependencies: ["AppRegistry", "Handlers", "OpenRequests", "UniformTypes", "PropertyLists", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
]

let package = Package(
    name: "DocumentInterchange",
    products: [
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "KeyedArchives", targets: ["KeyedArchives"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "AppRegistry", targets: ["AppRegistry"]),
        .library(name: "Handlers", targets: ["Handlers"]),
        .library(name: "DesktopEntries", targets: ["DesktopEntries"]),
        .library(name: "Receiver", targets: ["Receiver"]),
        .library(name: "URLSchemes", targets: ["URLSchemes"]),
        .library(name: "AppInterchange", targets: ["AppInterchange"]),
        .library(name: "AppGroups", targets: ["AppGroups"]),
        .library(name: "SharedDefaults", targets: ["SharedDefaults"]),
        .library(name: "FileCoordination", targets: ["FileCoordination"]),
        // Darwin notifications, and the MMWormhole messenger over them in its own module (it
        // brings keyed archives and file coordination, which a notify(3) user need not load).
        .library(name: "Notifications", targets: ["Notifications", "Wormhole"]),
        .library(name: "Pasteboards", targets: ["Pasteboards"]),
        .library(name: "OpenRequests", targets: ["OpenRequests"]),
        .library(name: "InterchangeKit", targets: ["InterchangeKit"]),
        .library(name: "Handoff", targets: ["Handoff"]),
        .library(name: "Nearby", targets: ["Nearby", "NearbyDevices"]),
        // Multicast DNS and DNS-SD on its own, for a browser or responder that is not Nearby (and
        // for the fuzz package's FuzzDNSMessage).
        .library(name: "MulticastDNS", targets: ["MulticastDNS"]),
        .executable(name: "plutil", targets: ["plutil"]),
        .executable(name: "uti", targets: ["uti"]),
        .executable(name: "openin", targets: ["openin"]),
        .executable(name: "inboxd", targets: ["inboxd"]),
        .executable(name: "openurl", targets: ["openurl"]),
        .executable(name: "defaults", targets: ["defaults"]),
        .executable(name: "notifyutil", targets: ["notifyutil"]),
        .executable(name: "pbcopy", targets: ["pbcopy"]),
        .executable(name: "pbpaste", targets: ["pbpaste"]),
        .executable(name: "pasteboardd", targets: ["pasteboardd"]),
        .executable(name: "nearby", targets: ["nearby"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // Nearby sending only: the event loop, TLS 1.3 (BoringSSL), keys and certificates.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Documentation only (swift package generate-documentation): each library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: libraryTargets + toolTargets + supportTargets + testTargets,
    swiftLanguageModes: [.v6]
)
