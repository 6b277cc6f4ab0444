// swift-tools-version: 6.0
import PackageDescription

// Executables are linked with the Swift runtime statically: a plist tool is started
// once per file by scripts and CI, so process start-up is part of its speed.
let staticRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"])]

let package = Package(
    name: "DocumentInterchange",
    products: [
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .executable(name: "plutil", targets: ["plutil"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
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
            ]
        ),
        .executableTarget(
            name: "plutil",
            dependencies: [
                "PropertyLists",
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            linkerSettings: staticRuntime
        ),
        .executableTarget(
            name: "PropertyListBenchmarks",
            dependencies: ["PropertyLists"],
            path: "Benchmarks/PropertyListBenchmarks"
        ),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: ["PropertyLists"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
