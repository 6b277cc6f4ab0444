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
let prespecialize: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-prespecialize-generic-metadata"])]

let package = Package(
    name: "DocumentInterchange",
    products: [
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "KeyedArchives", targets: ["KeyedArchives"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "Handlers", targets: ["Handlers"]),
        .library(name: "DesktopEntries", targets: ["DesktopEntries"]),
        .executable(name: "plutil", targets: ["plutil"]),
        .executable(name: "uti", targets: ["uti"]),
        .executable(name: "openin", targets: ["openin"]),
        .executable(name: "inboxd", targets: ["inboxd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
            swiftSettings: prespecialize
        ),
        .target(
            name: "UniformTypes",
            dependencies: ["PropertyLists", "SystemCalls", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize
        ),
        .target(
            name: "KeyedArchives",
            dependencies: ["PropertyLists", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize
        ),
        // Apple's UniformTypeIdentifiers API over UniformTypes, answering from the device's registry.
        .target(
            name: "UniformTypeIdentifiers",
            dependencies: ["UniformTypes", "SystemCalls", .product(name: "Logging", package: "swift-log")]
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
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "CDBusShims"),
        // Linux desktop applications: .desktop files, mimeapps.list, GIO-compatible choice and launching.
        .target(
            name: "DesktopEntries",
            dependencies: ["SystemCalls", "CDBus", "CDBusShims", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: prespecialize
        ),
        .target(
            name: "Handlers",
            dependencies: ["UniformTypes", "PropertyLists", "SystemCalls", "DesktopEntries",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: prespecialize
        ),
        .target(
            name: "Receiver",
            dependencies: ["Handlers", "UniformTypes", "PropertyLists", "SystemCalls", "CSQLite", "CCrypto",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: prespecialize
        ),
        .target(
            name: "ToolSupport",
            dependencies: ["SystemCalls", "PropertyLists", .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "uti",
            dependencies: ["UniformTypes", "PropertyLists", "ToolSupport"],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "openin",
            dependencies: ["Handlers", "DesktopEntries", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: prespecialize,
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "inboxd",
            dependencies: ["Receiver", "Handlers", "UniformTypes", "PropertyLists", "ToolSupport", "SystemCalls",
                           .product(name: "OrderedCollections", package: "swift-collections"),
                           .product(name: "Logging", package: "swift-log")],
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
            dependencies: ["UniformTypes", "UniformTypeIdentifiers", "PropertyLists", "BenchmarkSupport"],
            path: "Benchmarks/TypeBenchmarks"
        ),
        .executableTarget(
            name: "HandlerBenchmarks",
            dependencies: ["Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/HandlerBenchmarks"
        ),
        .executableTarget(
            name: "DesktopBenchmarks",
            dependencies: ["BenchmarkSupport"],
            path: "Benchmarks/DesktopBenchmarks"
        ),
        .executableTarget(
            name: "ReceiverBenchmarks",
            dependencies: ["Receiver", "Handlers", "UniformTypes", "BenchmarkSupport"],
            path: "Benchmarks/ReceiverBenchmarks"
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
            dependencies: ["UniformTypes", "PropertyLists", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["UniformTypeIdentifiers", "TestHelpers"]
        ),
        .testTarget(
            name: "ReceiverTests",
            dependencies: ["Receiver", "Handlers", "UniformTypes", "TestHelpers", "SystemCalls"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DesktopEntriesTests",
            dependencies: ["DesktopEntries", "SystemCalls", "TestHelpers"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HandlersTests",
            dependencies: ["Handlers", "UniformTypes", "PropertyLists", "TestHelpers", "SystemCalls"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
