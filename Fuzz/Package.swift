// swift-tools-version: 6.0
import PackageDescription

// Travelog's libFuzzer targets, kept out of the main package: they only build with
// `-sanitize=fuzzer,address`. `scripts/fuzz.sh` builds and runs them. The parsers' sources are the
// main package's own (Sources/ holds symbolic links to them), so this package needs nothing from the
// network and compiles only TravelogCore, TravelogFormats, TravelogOSM and the libzip and zlib modules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TravelogFuzz",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "TravelogCore", swiftSettings: swiftSettings),
        .systemLibrary(name: "CLibzip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .target(name: "TravelogFormats", dependencies: ["TravelogCore", "CLibzip"], swiftSettings: swiftSettings),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "TravelogOSM", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        // One fuzzer for every parser; `TRAVELOG_FUZZ_TARGET` names the parser (see `FuzzTarget`).
        .executableTarget(
            name: "TravelogFuzz",
            dependencies: ["TravelogCore", "TravelogFormats", "TravelogOSM"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
