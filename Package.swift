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
        .executable(name: "travelog", targets: ["travelog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "TravelogCore",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "travelog",
            dependencies: [
                "TravelogCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "TravelogBenchmarks",
            dependencies: ["TravelogCore"],
            path: "Benchmarks/TravelogBenchmarks",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogCoreTests",
            dependencies: ["TravelogCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
