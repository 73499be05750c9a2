// `make bench`: every benchmark prints its figures (never asserts on time). Build in release mode.
// Usage: TravelogBenchmarks --work-dir DIR --travelog PATH [--db postgres://…] [NAME…]
// A package of its own (Benchmarks/Package.swift): `swift build --package-path Benchmarks -c release`.
import Foundation

/// What every benchmark gets: a folder for generated inputs and the path of the release `travelog`.
struct BenchmarkContext {
    var workDirectory: URL
    var travelogExecutable: URL
    /// A PostgreSQL server (`--db postgres://…`) for the server benchmarks and `migrate`; each run
    /// gets a schema of its own. SQLite files in the work folder when `nil`.
    var postgresServer: String?
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String, default value: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    let found = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return found
}
let context = BenchmarkContext(
    workDirectory: URL(fileURLWithPath: option("--work-dir", default: ".bench")),
    travelogExecutable: URL(fileURLWithPath: option("--travelog", default: ".build/release/travelog")),
    postgresServer: Optional(option("--db", default: "")).flatMap { $0.isEmpty ? nil : $0 }
)
try FileManager.default.createDirectory(at: context.workDirectory, withIntermediateDirectories: true)

/// Every benchmark, by name; `make bench` runs them all, `TravelogBenchmarks … NAME` runs one.
let benchmarks: [(name: String, run: (BenchmarkContext) async throws -> Void)] = [
    ("store", StoreBenchmark.run),
    ("import", ImportBenchmark.run),
    ("import-records", { try ImportBenchmark.records($0) }),
    ("import-takeout-1gb", TakeoutArchiveBenchmark.run),
    ("breadcrumb-path", MapGeometryBenchmarks.breadcrumbPath),
    ("json", JSONBenchmark.run),
    ("timestamp-parse", TextFormatBenchmarks.timestamps),
    ("csv-read", TextFormatBenchmarks.csv),
    ("geolife-read", TextFormatBenchmarks.geolife),
    ("export", ExportBenchmark.run),
    ("geodesic", GeodesicBenchmark.run),
    ("xml", XMLBenchmark.run),
    ("nmea", NMEABenchmark.run),
    ("simplification", SimplificationBenchmark.run),
    ("google-records", GoogleRecordsBenchmark.run),
    ("geojson-read", LocationJSONBenchmarks.geojson),
    ("owntracks-read", LocationJSONBenchmarks.owntracks),
    ("gpx-read", GPXReadBenchmark.run),
    ("server-overland", ServerIngestBenchmarks.overland),
    ("migrate", MigrateBenchmark.run),
    ("photos-add", PhotosAddBenchmark.run),
    ("server-large-body", LargeBodyBenchmark.run),
    ("server-owntracks", ServerIngestBenchmarks.owntracks),
    ("mqtt-throughput", MQTTThroughputBenchmark.run),
    ("retention", RetentionBenchmark.run),
    ("server-slow-connections", HardeningBenchmarks.slowConnections),
    ("server-login-flood", HardeningBenchmarks.loginFlood),
    ("hostile", HostileBenchmark.run),
    ("server-path", ServerPathBenchmark.run),
    ("server-journal-5m", JournalLoadBenchmark.run),
    ("geocoding", GeocodingBenchmark.run),
    ("time-zones", TimeZoneBenchmark.run),
    ("osm-read", OSMBenchmarks.read),
    ("osm-add", OSMBenchmarks.add),
    ("routing", RoutingBenchmark.run),
    ("map-matching", MapMatchingBenchmark.run),
    ("directions-valhalla", ValhallaComparisonBenchmark.run),
    ("directions-scale", DirectionsScaleBenchmark.run),
    ("search", SearchBenchmark.run),
    ("geocoding-osm", OSMGeocodingBenchmark.run),
    ("visits", VisitBenchmark.run),
    ("tracker-walk", TrackerBenchmarks.walk),
    ("declination", TrackerBenchmarks.declination),
    ("tracker-10hz", TrackerBenchmarks.tenHertz),
    ("regions", RegionBenchmarks.throughput),
    ("region-edge", RegionBenchmarks.boundaryTrack),
    ("render-tiles-z14", RenderBenchmarks.pathTilesAgainstMapnik),
    ("render-tile-latency", RenderBenchmarks.tileLatencies),
    ("render-snapshot", RenderBenchmarks.snapshot),
    ("review", ReviewBenchmark.run),
    ("explore", ExploreBenchmark.run),
]

let selected = arguments.isEmpty ? benchmarks : benchmarks.filter { arguments.contains($0.name) }
for benchmark in selected {
    print("== \(benchmark.name)")
    try await benchmark.run(context)
    print()
}
