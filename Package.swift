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
        .library(name: "TravelogPostgres", targets: ["TravelogPostgres"]),
        .library(name: "TravelogTracking", targets: ["TravelogTracking"]),
        .library(name: "TravelogGeocoding", targets: ["TravelogGeocoding"]),
        .library(name: "TravelogRender", targets: ["TravelogRender"]),
        .library(name: "TravelogOSM", targets: ["TravelogOSM"]),
        .library(name: "TravelogRouting", targets: ["TravelogRouting"]),
        .library(name: "TravelogJournal", targets: ["TravelogJournal"]),
        .executable(name: "travelog", targets: ["travelog"]),
        .executable(name: "travelog-track", targets: ["travelog-track"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "TravelogCore",
            swiftSettings: swiftSettings
        ),
        // libzip from Debian (libzip-dev): reads Takeout .zip and .kmz archives, ZIP64 included.
        .systemLibrary(
            name: "CLibzip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"])]
        ),
        .target(
            name: "TravelogTracking",
            dependencies: ["TravelogCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogFormats",
            dependencies: ["TravelogCore", "CLibzip"],
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
        // The PostgreSQL store (issue 12), for operators who outgrow one SQLite file.
        .target(
            name: "TravelogPostgres",
            dependencies: [
                "TravelogStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // The MQTT subscriber of `travelog serve --mqtt` (Eclipse Mosquitto's client library, Debian's libmosquitto-dev).
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // OwnTracks' encrypted payloads (crypto_secretbox, Debian's libsodium-dev).
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // QR codes of the phone apps' setup links (libqrencode 4, Debian's libqrencode-dev).
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(
            name: "TravelogRender",
            dependencies: ["TravelogCore", "TravelogStore", "CCairo", "CPNG"],
            swiftSettings: swiftSettings
        ),
        // The tracker's uploads: HTTP/1.1 over a socket, with OpenSSL's libssl loaded at the first
        // https upload (dlopen), not FoundationNetworking or libcurl (which map libcurl and the TLS,
        // Kerberos, LDAP and SSH libraries behind it into the process).
        .target(
            name: "CTravelogHTTP",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "TravelogTracker",
            dependencies: [
                "CTravelogHTTP",
                "TravelogTracking",
                "TravelogFormats",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // `travelog track` as a command: linked into `travelog` and, alone, into `travelog-track`.
        .target(
            name: "TravelogTrackCLI",
            dependencies: [
                "TravelogTracker",
                "TravelogTracking",
                "TravelogFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogGeocoding",
            dependencies: ["TravelogCore", "TravelogOSM"],
            swiftSettings: swiftSettings
        ),
        // zlib from Debian (zlib1g-dev): inflates the blocks of OpenStreetMap extracts.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // OpenStreetMap extracts (issue 28): the `.osm.pbf` reader.
        .target(
            name: "TravelogOSM",
            dependencies: ["CZlib"],
            swiftSettings: swiftSettings
        ),
        // Directions (issue 29): the road graph, contraction hierarchies, routes with steps.
        .target(
            name: "TravelogRouting",
            dependencies: ["TravelogCore", "TravelogFormats", "TravelogOSM"],
            swiftSettings: swiftSettings
        ),
        // Photos' EXIF (issue 32): a C interface over Exiv2 (Debian's libexiv2-dev, C++), so no Swift
        // target needs C++ interoperability.
        .target(
            name: "CTravelogExiv2",
            linkerSettings: [.linkedLibrary("exiv2")]
        ),
        // Photos' thumbnails (issue 32): libvips (Debian's libvips-dev; HEIC through libheif), behind a
        // small C interface (its calls are variadic).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(
            name: "CTravelogVips",
            dependencies: ["CVips"]
        ),
        .target(
            name: "TravelogPhotos",
            dependencies: ["CTravelogExiv2", "CTravelogVips", "TravelogCore", "TravelogFormats", "TravelogStore",
                           .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogImport",
            dependencies: ["TravelogFormats", "TravelogStore", "TravelogJournal", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogJournal",
            dependencies: ["TravelogCore", "TravelogFormats", "TravelogStore", "TravelogGeocoding", "TravelogRouting"],
            swiftSettings: swiftSettings
        ),
        // Users, devices, passwords, tokens and sessions: shared by the server and `travelog user|device`.
        .target(
            name: "TravelogAccounts",
            dependencies: [
                "TravelogStore",
                "TravelogFormats",
                "CQREncode",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The notification outbox's sender (webhook, ntfy): shared by the server and `travelog notify`.
        .target(
            name: "TravelogNotify",
            dependencies: [
                "TravelogStore",
                "TravelogFormats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogServer",
            dependencies: [
                "TravelogCore",
                "TravelogFormats",
                "TravelogStore",
                "TravelogImport",
                "TravelogJournal",
                "TravelogGeocoding",
                "TravelogRouting",
                "TravelogRender",
                "TravelogAccounts",
                "TravelogNotify",
                "TravelogPhotos",
                "CMosquitto",
                "CSodium",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA signatures of OpenID Connect ID tokens (RS256).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Web")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TravelogCLI",
            dependencies: [
                "TravelogServer",
                "TravelogAccounts",
                "TravelogNotify",
                "TravelogJournal",
                "TravelogCore",
                "TravelogFormats",
                "TravelogStore",
                "TravelogSQLite",
                "TravelogPostgres",
                "TravelogImport",
                "TravelogGeocoding",
                "TravelogOSM",
                "TravelogRouting",
                "TravelogTracking",
                "TravelogTracker",
                "TravelogTrackCLI",
                "TravelogRender",
                "TravelogPhotos",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
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
        // The tracker alone (`travelog track` executes it when it is beside `travelog`): the Swift
        // runtime and Foundation linked statically, so only the pages it uses are resident, not
        // those every shared library dirties when loaded (RSS at 10 fixes/s: issue 14).
        .executableTarget(
            name: "travelog-track",
            dependencies: ["TravelogTrackCLI"],
            swiftSettings: swiftSettings,
            // lld (in the toolchain) does not mind the order of static archives; the archives
            // Foundation's modules do not name for a static link are listed by hand. The relative
            // relocations are packed (DT_RELR, glibc 2.36+): the executable stays position-independent
            // but its relocation table shrinks from 2.1 MB, all read at start and kept resident, to 35 kB.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]),
                .linkedLibrary("CoreFoundation"), .linkedLibrary("_FoundationICU"),
                .linkedLibrary("_FoundationCollections"), .linkedLibrary("_FoundationCShims"),
            ]
        ),
        .target(
            name: "TravelogTestSupport",
            dependencies: ["TravelogCore"],
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
            name: "TravelogTrackingTests",
            dependencies: ["TravelogTracking", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogTrackerTests",
            dependencies: ["TravelogTracker", "TravelogFormats", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogFormatsTests",
            dependencies: ["TravelogFormats", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogStoreTests",
            dependencies: [
                "TravelogStore", "TravelogSQLite", "TravelogPostgres", "TravelogTestSupport",
                // Account archives (TravelogImport) round-trip the move fixture's tables.
                "TravelogImport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogImportTests",
            dependencies: ["TravelogImport", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogJournalTests",
            dependencies: ["TravelogJournal", "TravelogGeocoding", "TravelogSQLite", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogServerTests",
            dependencies: [
                "TravelogServer",
                "TravelogRouting",
                "TravelogOSM",
                "TravelogAccounts",
                "TravelogNotify",
                "TravelogGeocoding",
                "TravelogImport",
                "TravelogJournal",
                "TravelogSQLite",
                "TravelogPostgres",
                "TravelogRender",
                "TravelogPhotos",
                "TravelogTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogRenderTests",
            dependencies: ["TravelogRender", "TravelogCore"],
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogGeocodingTests",
            dependencies: ["TravelogGeocoding", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogPhotosTests",
            dependencies: ["TravelogPhotos", "TravelogCore", "TravelogFormats", "TravelogStore", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogOSMTests",
            dependencies: ["TravelogOSM", "TravelogGeocoding", "TravelogCore", "CZlib", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogRoutingTests",
            dependencies: ["TravelogRouting", "TravelogOSM", "TravelogCore", "TravelogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TravelogCLITests",
            dependencies: [
                "TravelogCLI",
                "TravelogRender",
                "TravelogImport",
                "TravelogSQLite",
                "TravelogPostgres",
                "TravelogStore",
                "TravelogPhotos",
                "TravelogTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6],
    // Exiv2 0.27's headers use std::auto_ptr, gone from C++17.
    cxxLanguageStandard: .cxx14
)
