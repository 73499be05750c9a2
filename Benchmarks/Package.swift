// swift-tools-version: 6.0
import PackageDescription

// The benchmarks are a package of their own, beside Travelog's: they see Travelog only through its
// library products, as any other user of the library would, so no module has to make a type public
// for them. `make bench` builds and runs them (release).
let package = Package(
    name: "TravelogBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Travelog", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "TravelogBenchmarks",
            dependencies: [
                .product(name: "TravelogCore", package: "Travelog"),
                .product(name: "TravelogFormats", package: "Travelog"),
                .product(name: "TravelogStore", package: "Travelog"),
                .product(name: "TravelogSQLite", package: "Travelog"),
                .product(name: "TravelogGeocoding", package: "Travelog"),
                .product(name: "TravelogTracking", package: "Travelog"),
                .product(name: "TravelogRender", package: "Travelog"),
                .product(name: "TravelogOSM", package: "Travelog"),
                .product(name: "TravelogRouting", package: "Travelog"),
                .product(name: "TravelogJournal", package: "Travelog"),
            ],
            path: "TravelogBenchmarks",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
