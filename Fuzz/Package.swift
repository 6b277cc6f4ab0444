// swift-tools-version: 6.0
// libFuzzer targets for the property-list readers. A separate package so that the main build
// never links them (libFuzzer supplies `main`). How to run: docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "Fuzz",
    dependencies: [.package(path: "..")],
    targets: ["FuzzXML", "FuzzBinary", "FuzzOpenStep"].map { name in
        .executableTarget(
            name: name,
            dependencies: [.product(name: "PropertyLists", package: "main")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    },
    swiftLanguageModes: [.v6]
)
