// swift-tools-version: 6.0
// libFuzzer targets for the property-list readers and the keyed-archive decoder. A separate package so that the main build
// never links them (libFuzzer supplies `main`). How to run: docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "Fuzz",
    // The symlink gives the parent package a fixed identity whatever the checkout folder is called.
    dependencies: [.package(path: "document-interchange")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "PropertyLists", package: "document-interchange"),
                                                    .product(name: "KeyedArchives", package: "document-interchange")]),
    ] + ["FuzzXML", "FuzzBinary", "FuzzOpenStep", "FuzzJSON", "FuzzKeyedArchive"].map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    },
    swiftLanguageModes: [.v6]
)
