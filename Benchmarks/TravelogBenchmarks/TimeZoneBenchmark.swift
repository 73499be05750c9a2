import Foundation
import TravelogCore
import TravelogGeocoding

/// `time-zones`: the built time-zone boundaries (`make timezones`): file size, load time, then
/// lookups of 1M uniformly random coordinates and of 1M coordinates where people are (a random
/// gazetteer place moved up to ~30 km; fixed seeds), single-threaded; and how often the nearest
/// place's zone (the gazetteer fallback) differs from the boundaries' at the second kind.
enum TimeZoneBenchmark {
    static let lookupCount = 1_000_000
    static let comparisonCount = 100_000

    static func run(_ context: BenchmarkContext) throws {
        let path = ".build-data/\(TimeZoneBoundaries.defaultFileName)"
        guard FileManager.default.fileExists(atPath: path) else {
            print("\(path) is absent: run `make timezones` (make bench does) to measure time-zone lookups")
            return
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var loaded: TimeZoneBoundaries?
        let loadSeconds = try GeodesicBenchmark.bestTime { loaded = try TimeZoneBoundaries(contentsOfFile: path) }
        guard let zones = loaded else { return }
        print(String(format: "load %@: %.1f MB, %d zones, %d polygons, %d points, %.1f ms", path, Double(bytes) / 1e6,
                     zones.zoneIdentifiers.count, zones.polygonCount, zones.pointCount, loadSeconds * 1000))

        var rng = SplitMix64(seed: 0x7135_2025)
        let uniform: [Coordinate] = (0..<lookupCount).compactMap { _ in
            try? Coordinate(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
        }
        measure("uniform in latitude and longitude", uniform, zones)

        let gazetteerPath = ".build-data/\(Gazetteer.defaultFileName)"
        guard let gazetteer = try? Gazetteer(contentsOfFile: gazetteerPath) else {
            print("\(gazetteerPath) is absent: run `make gazetteer` to measure lookups where people are")
            return
        }
        let peopled: [Coordinate] = (0..<lookupCount).map { _ in
            let place = gazetteer.coordinate(at: Int(rng.nextUnit() * Double(gazetteer.count)))
            return place.destination(bearingDegrees: rng.nextUnit() * 360, distanceMeters: rng.nextUnit() * 30_000)
        }
        measure("a gazetteer place moved up to 30 km", peopled, zones)

        let reverse = ReverseGeocoder(gazetteer: gazetteer)
        var differing = 0, differentOffset = 0
        let instant = Date(timeIntervalSince1970: 1_768_521_600)  // 2026-01-16T00:00:00Z
        for coordinate in peopled.prefix(comparisonCount) {
            let nearest = reverse.placemark(for: coordinate)?.timeZoneIdentifier
            let bounded = zones.timeZoneIdentifier(for: coordinate)
            guard nearest != bounded else { continue }
            differing += 1
            let offsets = [nearest, bounded].map { $0.flatMap(TimeZone.init(identifier:))?.secondsFromGMT(for: instant) }
            if offsets[0] != offsets[1] { differentOffset += 1 }
        }
        print(String(format: "the nearest place's zone differs from the boundaries' at %.2f %% of %d such points (another UTC offset on 16 Jan 2026 at %.2f %%)",
                     Double(differing) * 100 / Double(comparisonCount), comparisonCount, Double(differentOffset) * 100 / Double(comparisonCount)))
    }

    static func measure(_ label: String, _ coordinates: [Coordinate], _ zones: TimeZoneBoundaries) {
        var answered = 0
        let seconds = GeodesicBenchmark.bestTimeQuietly {
            answered = 0
            for coordinate in coordinates where zones.zoneIndex(for: coordinate) != nil { answered += 1 }
        }
        print(String(format: "%@: %.0f ms for %d lookups, %.0f k lookups/s (%d answered)", label, seconds * 1000,
                     coordinates.count, Double(coordinates.count) / seconds / 1000, answered))
    }
}
