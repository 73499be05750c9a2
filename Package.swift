// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Travelog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TravelogCore", targets: ["TravelogCore"]),
        .library(name: "TravelogFormats", targets: ["TravelogFormats"]),
        .library(name: "TravelogStore", targets: ["TravelogStore"]),
        .library(name: "TravelogSQLite", targets: ["TravelogSQLite"]),
        .executable(name: "travelog", targets: ["travelog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .target(
            name: "TravelogCore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogFormats",
            dependencies: ["TravelogCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogStore",
            dependencies: ["TravelogCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogSQLite",
            dependencies: [
                "TravelogStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogGeocoding",
            dependencies: ["TravelogCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogImport",
            dependencies: ["TravelogFormats", "TravelogStore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogCLI",
            dependencies: [
                "TravelogCore",
                "TravelogFormats",
                "TravelogStore",
                "TravelogSQLite",
                "TravelogImport",
                "TravelogGeocoding",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "travelog",
            dependencies: [
                "TravelogCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "TravelogBenchmarks",
            dependencies: ["TravelogCore", "TravelogFormats", "TravelogStore", "TravelogSQLite", "TravelogGeocoding"],
            path: "Benchmarks/TravelogBenchmarks",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogTestSupport",
            path: "Tests/TravelogTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogCoreTests",
            dependencies: ["TravelogCore", "TravelogTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogFormatsTests",
            dependencies: ["TravelogFormats", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogStoreTests",
            dependencies: ["TravelogStore", "TravelogSQLite", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogImportTests",
            dependencies: ["TravelogImport", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogGeocodingTests",
            dependencies: ["TravelogGeocoding", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogCLITests",
            dependencies: [
                "TravelogCLI",
                "TravelogTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
