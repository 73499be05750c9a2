import Foundation
import Testing
@testable import TravelogCore

@Suite("Breadcrumb path shared between threads")
struct BreadcrumbPathTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` fixes 20 m apart along a wandering line, all fresh at `now`.
    private static func walk(count: Int) -> [Location] {
        var position = Coordinate(validLatitude: 51.5074, longitude: -0.1278)!  // a valid literal
        return (0..<count).map { step in
            position = position.destination(bearingDegrees: Double(step * 7 % 180), distanceMeters: 20)
            return Location(coordinate: position, timestamp: now)
        }
    }

    @Test("the class applies the same rules as the state machine")
    func sameRules() {
        let path = BreadcrumbPath()
        var state = BreadcrumbPathState()
        let locations = Self.walk(count: 30)
        let stale = Location(coordinate: locations[0].coordinate, timestamp: Self.now.addingTimeInterval(-120))
        for location in locations + [stale, locations[29]] {
            #expect(path.add(location, source: .live(now: Self.now)) == state.add(location, source: .live(now: Self.now)))
        }
        #expect(path.snapshot == state)
        #expect(path.count == 30)
        #expect(path.lastLocation == locations[29])
        #expect(path.boundingMapRect == state.boundingMapRect)
    }

    @Test("adding a batch returns the union of the changed rects")
    func batch() {
        let path = BreadcrumbPath()
        let locations = Self.walk(count: 25)
        let changed = path.add(contentsOf: locations, source: .imported)
        #expect(changed == path.boundingMapRect)
        #expect(path.add(contentsOf: [locations[24]], source: .imported).isNull)
    }

    @Test("the path is an overlay that meets the tiles its segments cross")
    func overlay() throws {
        let path = BreadcrumbPath()
        let locations = Self.walk(count: 50)
        _ = path.add(contentsOf: locations, source: .live(now: Self.now))
        let overlay: any Overlay = path
        #expect(overlay.intersects(Tile(containing: locations[20].coordinate, zoom: 17).mapRect))
        let elsewhere = try Coordinate(latitude: -33.86, longitude: 151.2)
        #expect(!overlay.intersects(Tile(containing: elsewhere, zoom: 17).mapRect))
    }

    @Test("readers on many threads always see a consistent path while a writer adds to it")
    func concurrentReaders() async {
        let path = BreadcrumbPath()
        let locations = Self.walk(count: 2_000)
        let readerCount = 4
        let failures = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for location in locations {
                    _ = path.add(location, source: .live(now: Self.now))
                }
                return 0
            }
            for _ in 0..<readerCount {
                group.addTask {
                    var failures = 0
                    var lastCount = 0
                    var lastBounds = MapRect.null
                    while lastCount < locations.count {
                        let snapshot = path.snapshot
                        let count = snapshot.locations.count
                        // Counts never go back, points and locations always match, and the
                        // bounding rect holds the newest point and every earlier bounding rect.
                        if count < lastCount { failures += 1 }
                        if snapshot.points.count != count { failures += 1 }
                        if let last = snapshot.points.last, !snapshot.boundingMapRect.contains(last) { failures += 1 }
                        if !lastBounds.isNull, !snapshot.boundingMapRect.contains(lastBounds) { failures += 1 }
                        if path.boundingMapRect.isNull && count > 0 { failures += 1 }
                        lastCount = count
                        lastBounds = snapshot.boundingMapRect
                        await Task.yield()
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(path.count == locations.count)
        #expect(MapRect(bounding: path.snapshot.points) == path.boundingMapRect)
    }
}
