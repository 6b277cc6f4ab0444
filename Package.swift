// swift-tools-version: 6.0
import PackageDescription

// plutil is linked fully statically (Swift runtime, libxml2, ICU, glibc): a plist tool is started
// once per file by scripts and CI, and loading the shared ICU alone costs about 1 ms of a 2.6 ms
// start. lld's --no-warnings silences glibc's notes that getaddrinfo/dlopen in a static binary
// need the same glibc at run time: libxml2's network code is never called (XML_PARSE_NONET).
let staticExecutable: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-use-ld=lld", "-Xlinker", "--no-warnings",
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

let package = Package(
    name: "DocumentInterchange",
    products: [
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "KeyedArchives", targets: ["KeyedArchives"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "Handlers", targets: ["Handlers"]),
        .library(name: "FileCoordination", targets: ["FileCoordination"]),
        // Darwin notifications, and the MMWormhole messenger over them in its own module (it
        // brings keyed archives and file coordination, which a notify(3) user need not load).
        .library(name: "Notifications", targets: ["Notifications", "Wormhole"]),
        .executable(name: "plutil", targets: ["plutil"]),
        .executable(name: "uti", targets: ["uti"]),
        .executable(name: "openin", targets: ["openin"]),
        .executable(name: "inboxd", targets: ["inboxd"]),
        .executable(name: "notifyutil", targets: ["notifyutil"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "PropertyLists",
            dependencies: [
                "CLibXML2",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
        ),
        .target(
            name: "UniformTypes",
            dependencies: ["PropertyLists", "SystemCalls", "CLibXML2", .product(name: "OrderedCollections", package: "swift-collections")],
        ),
        .target(
            name: "KeyedArchives",
            dependencies: ["PropertyLists", .product(name: "OrderedCollections", package: "swift-collections")],
        ),
        // Apple's UniformTypeIdentifiers API over UniformTypes, answering from the device's registry.
        .target(
            name: "UniformTypeIdentifiers",
            dependencies: ["AppRegistry", "UniformTypes", "SystemCalls", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "CSystemShims"),
        // Every system call the libraries make, typed (swift-system's style); faults can be forced
        // per call in debug builds, which is what the tests run.
        .target(
            name: "SystemCalls",
            dependencies: ["CSystemShims", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: [.define("ENABLE_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The app model (what an Info.plist says), the apps and containers of a device root, its
        // compiled registry, and the linter that checks Info.plists the way the model reads them.
        .target(
            name: "AppRegistry",
            dependencies: ["UniformTypes", "PropertyLists", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections")],
        ),
        .target(
            name: "Handlers",
            dependencies: ["AppRegistry", "UniformTypes", "PropertyLists", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "SystemPackage", package: "swift-system")],
        ),
        .target(
            name: "Receiver",
            dependencies: ["AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "SystemCalls", "CSQLite", "CCrypto",
                           .product(name: "Logging", package: "swift-log")],
        ),
        // Darwin's notify(3) between processes: a shared table, atomic posts, wake datagrams.
        .target(
            name: "Notifications",
            dependencies: ["SystemCalls", .product(name: "Atomics", package: "swift-atomics")]
        ),
        // NSFileCoordinator and NSFilePresenter between processes, and atomic writes.
        .target(
            name: "FileCoordination",
            dependencies: ["SystemCalls"]
        ),
        // MMWormhole: archived messages in a group container, a Darwin notification per identifier.
        .target(
            name: "Wormhole",
            dependencies: ["Notifications", "FileCoordination", "KeyedArchives", "PropertyLists", "SystemCalls"]
        ),
        .target(
            name: "ToolSupport",
            dependencies: ["SystemCalls", "PropertyLists", .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "uti",
            dependencies: ["SystemCalls", "AppRegistry", "UniformTypes", "PropertyLists", "ToolSupport"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "openin",
            dependencies: ["AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "inboxd",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "Logging", package: "swift-log")],
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
            dependencies: ["PropertyLists"],
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
            name: "HandlerBenchmarks",
            dependencies: ["AppRegistry", "Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/HandlerBenchmarks"
        ),
        .executableTarget(
            name: "ReceiverBenchmarks",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/ReceiverBenchmarks"
        ),
        // The other process in the coordination and notification tests (writers, presenters,
        // observers, processes to kill or stop).
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
        .testTarget(
            name: "NotificationsTests",
            dependencies: ["Notifications", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "FileCoordinationTests",
            dependencies: ["FileCoordination", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "WormholeTests",
            dependencies: ["Wormhole", "Notifications", "KeyedArchives", "SystemCalls", "TestHelpers"]
        ),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: ["PropertyLists", "TestHelpers"]
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
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["AppRegistry", "UniformTypeIdentifiers", "TestHelpers"]
        ),
        .testTarget(
            name: "ReceiverTests",
            dependencies: ["AppRegistry", "Receiver", "Handlers", "UniformTypes", "TestHelpers", "SystemCalls"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HandlersTests",
            dependencies: ["AppRegistry", "Handlers", "UniformTypes", "PropertyLists", "TestHelpers", "SystemCalls"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
