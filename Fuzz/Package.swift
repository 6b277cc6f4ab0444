// swift-tools-version: 6.0
// libFuzzer targets for the property-list readers, the keyed-archive decoder, Nearby's readers of
// network bytes and the Multicast DNS message reader. A separate package so that the main build
// never links them (libFuzzer supplies `main`). How to run: docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "Fuzz",
    // The symlink gives the parent package a fixed identity whatever the checkout folder is called.
    dependencies: [.package(path: "document-interchange")],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver",
                                                    .product(name: "PropertyLists", package: "document-interchange"),
                                                    .product(name: "KeyedArchives", package: "document-interchange")]),
    ] + ["FuzzXML", "FuzzBinary", "FuzzOpenStep", "FuzzJSON", "FuzzKeyedArchive"].map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    } + ["FuzzFrames", "FuzzSessionMessage", "FuzzPairingMessage", "FuzzLocalSend", "FuzzAirDrop", "NearbySeeds"].map { name in
        // Nearby's readers of network bytes, through its Fuzzing SPI; NearbySeeds writes their seeds.
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "Nearby", package: "document-interchange")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    } + [
        // Multicast DNS messages as a browser or responder reads them off the network.
        .executableTarget(
            name: "FuzzDNSMessage",
            dependencies: ["FuzzDriver", .product(name: "MulticastDNS", package: "document-interchange")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
