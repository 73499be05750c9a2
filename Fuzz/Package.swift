// swift-tools-version: 6.0
import PackageDescription

// Travelog's libFuzzer targets, kept out of the main package: they only build with
// `-sanitize=fuzzer,address`. `scripts/fuzz.sh` builds and runs them. The parsers' sources are the
// main package's own (Sources/ holds symbolic links to them), so this package needs nothing from the
// network and compiles only TravelogCore, TravelogFormats, TravelogOSM, TravelogPhotos and the libzip, zlib and
// Exiv2 modules.
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
        // Photos' EXIF through Exiv2 (Debian's libexiv2-dev); Sources/TravelogPhotos links to the main
        // package's files but for the digest (swift-crypto is not here).
        .target(name: "CTravelogExiv2", linkerSettings: [.linkedLibrary("exiv2")]),
        .target(name: "TravelogPhotos", dependencies: ["CTravelogExiv2", "TravelogCore", "TravelogFormats"], swiftSettings: swiftSettings),
        // One fuzzer for every parser; `TRAVELOG_FUZZ_TARGET` names the parser (see `FuzzTarget`).
        .executableTarget(
            name: "TravelogFuzz",
            dependencies: ["TravelogCore", "TravelogFormats", "TravelogOSM", "TravelogPhotos"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    // Exiv2 0.27's headers use std::auto_ptr, gone from C++17.
    cxxLanguageStandard: .cxx14
)
