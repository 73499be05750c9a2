import Foundation
import TravelogCore

/// Map geometry on a long live track: growing a breadcrumb path, and asking which tiles of a
/// zoom level it crosses (what a tile renderer does before drawing).
enum MapGeometryBenchmarks {
    static func breadcrumbPath(_ context: BenchmarkContext) throws {
        let count = 200_000
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        guard var position = Coordinate(validLatitude: 47.3769, longitude: 8.5417) else { return }
        var locations: [Location] = []
        locations.reserveCapacity(count)
        for step in 0..<count {
            // 12 m steps that turn slowly: a long wandering walk.
            position = position.destination(bearingDegrees: Double(step / 50 * 17 % 360), distanceMeters: 12)
            locations.append(Location(coordinate: position, timestamp: now))
        }
        let clock = ContinuousClock()
        let path = BreadcrumbPath()
        let addTime = clock.measure {
            for location in locations { _ = path.add(location, source: .live(now: now)) }
        }
        print("add \(count) live locations: \(report(addTime, count: count)) (\(path.count) kept)")

        let snapshot = path.snapshot
        let zoom = 16
        let cover = Tile.tiles(covering: snapshot.boundingMapRect, zoom: zoom)
        var crossed = 0
        let intersectTime = clock.measure {
            let polyline = snapshot.polyline
            for tile in cover where polyline.intersects(tile.mapRect) { crossed += 1 }
        }
        print("tiles at zoom \(zoom) under the path's bounding rect: \(cover.count); crossed: \(crossed)")
        print("polyline.intersects over those tiles: \(report(intersectTime, count: cover.count))")

        var projected = 0.0
        let projectTime = clock.measure {
            for location in locations { projected += MapPoint(location.coordinate).coordinate.latitude }
        }
        print("coordinate → map point → coordinate: \(report(projectTime, count: count)) (checksum \(projected))")
    }

    private static func report(_ duration: Duration, count: Int) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return String(format: "%.3f s, %.0f ns each", seconds, seconds / Double(max(count, 1)) * 1e9)
    }
}
