import Foundation
import Testing
@testable import TravelogCore

@Suite("Breadcrumb path rules")
struct BreadcrumbPathStateTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)
    private static let start = Coordinate(validLatitude: 47.3769, longitude: 8.5417)!  // a valid literal

    /// A live fix `meters` from `origin` towards the north-east, taken `ageSeconds` before now.
    private func fix(_ meters: Double, from origin: Coordinate = start, ageSeconds: Double = 1,
                     accuracy: Double = 5) -> Location {
        Location(
            coordinate: origin.destination(bearingDegrees: 45, distanceMeters: meters),
            horizontalAccuracyMeters: accuracy,
            timestamp: Self.now.addingTimeInterval(-ageSeconds)
        )
    }

    /// A path holding its first ten crumbs, all at the start.
    private func settledPath() -> BreadcrumbPathState {
        var path = BreadcrumbPathState()
        for _ in 0..<10 { _ = path.add(fix(0), source: .live(now: Self.now)) }
        return path
    }

    @Test("the first 10 locations are kept even when they do not move")
    func firstTenKept() {
        var path = BreadcrumbPathState()
        for index in 0..<10 {
            #expect(path.add(fix(Double(index) * 0.1), source: .live(now: Self.now)).isAdded)
        }
        #expect(path.locations.count == 10)
        #expect(path.points.count == 10)
    }

    @Test("a location 5 m from the last crumb is not added once 10 are kept")
    func fiveMetersNotAdded() {
        var path = settledPath()
        let decision = path.add(fix(5), source: .live(now: Self.now))
        #expect(!decision.isAdded)
        #expect(decision.changedMapRect.isNull)
        guard case .tooClose(let distance) = decision else {
            Issue.record("expected tooClose, got \(decision)")
            return
        }
        // destination() then distance: the same geodesic both ways, to well under a millimetre.
        #expect(abs(distance - 5) < 1e-6)
        #expect(path.locations.count == 10)
    }

    @Test("a location 15 m from the last crumb is added once 10 are kept")
    func fifteenMetersAdded() {
        var path = settledPath()
        #expect(path.add(fix(15), source: .live(now: Self.now)).isAdded)
        #expect(path.locations.count == 11)
    }

    @Test("the spacing must be more than 10 m", arguments: [(9.99, false), (10.01, true)])
    func threshold(meters: Double, added: Bool) {
        var path = settledPath()
        #expect(path.add(fix(meters), source: .live(now: Self.now)).isAdded == added)
    }

    @Test("spacing is measured from the previous kept crumb, not the last location offered")
    func measuredFromKept() {
        var path = settledPath()
        #expect(!path.add(fix(6), source: .live(now: Self.now)).isAdded)
        // 12 m from the kept crumb, though only 6 m from the location just refused.
        #expect(path.add(fix(12), source: .live(now: Self.now)).isAdded)
    }

    @Test("a live location older than 60 s is dropped, even among the first 10")
    func tooOld() {
        var path = BreadcrumbPathState()
        #expect(path.add(fix(0, ageSeconds: 61), source: .live(now: Self.now)) == .tooOld(ageSeconds: 61))
        #expect(path.locations.isEmpty)
        #expect(path.boundingMapRect.isNull)
    }

    @Test("a live location exactly 60 s old, or from the future, is kept", arguments: [60.0, 0, -30])
    func notTooOld(ageSeconds: Double) {
        var path = BreadcrumbPathState()
        #expect(path.add(fix(0, ageSeconds: ageSeconds), source: .live(now: Self.now)).isAdded)
    }

    @Test("an import is not age-filtered, but spacing still applies")
    func importMode() {
        var path = BreadcrumbPathState()
        let yearOld = 365 * 86_400.0
        for index in 0..<10 {
            #expect(path.add(fix(Double(index), ageSeconds: yearOld), source: .imported).isAdded)
        }
        #expect(path.add(fix(9 + 25, ageSeconds: yearOld), source: .imported).isAdded)
        #expect(!path.add(fix(9 + 25 + 3, ageSeconds: yearOld), source: .imported).isAdded)
    }

    @Test("low or unknown accuracy alone never discards a location", arguments: [5_000.0, -1])
    func accuracyIgnored(accuracy: Double) {
        var path = settledPath()
        #expect(path.add(fix(30, accuracy: accuracy), source: .live(now: Self.now)).isAdded)
        var fresh = BreadcrumbPathState()
        #expect(fresh.add(fix(0, accuracy: accuracy), source: .live(now: Self.now)).isAdded)
    }

    @Test("the first crumb changes a zero-size rect at its point; later ones the new segment")
    func changedRects() {
        var path = BreadcrumbPathState()
        let first = path.add(fix(0), source: .live(now: Self.now))
        let firstPoint = MapPoint(fix(0).coordinate)
        #expect(first == .added(changedMapRect: MapRect(origin: firstPoint, size: .zero)))
        let second = path.add(fix(40), source: .live(now: Self.now))
        #expect(second.changedMapRect == MapRect(corner: firstPoint, corner: MapPoint(fix(40).coordinate)))
        #expect(path.boundingMapRect == second.changedMapRect)
    }

    @Test("the bounding rect only grows, and holds every crumb and every changed rect")
    func boundingRectGrows() {
        var path = BreadcrumbPathState()
        var previous = MapRect.null
        var position = Self.start
        for step in 0..<40 {
            position = position.destination(bearingDegrees: Double(step * 37 % 360), distanceMeters: 25)
            let location = Location(coordinate: position, timestamp: Self.now)
            let decision = path.add(location, source: .live(now: Self.now))
            #expect(decision.isAdded)
            #expect(path.boundingMapRect.contains(decision.changedMapRect))
            #expect(previous.isNull || path.boundingMapRect.contains(previous))
            previous = path.boundingMapRect
        }
        #expect(path.points.allSatisfy { path.boundingMapRect.contains($0) })
        #expect(MapRect(bounding: path.points) == path.boundingMapRect)
    }

    @Test("a path across the 180th meridian stays narrow instead of spanning the world")
    func acrossAntimeridian() throws {
        var path = BreadcrumbPathState()
        for index in 0..<20 {
            let longitude = 179.999 + Double(index) * 0.0002  // 22 m steps east, past 180°
            let coordinate = try Coordinate(latitude: -17, longitude: longitude)
            #expect(path.add(Location(coordinate: coordinate, timestamp: Self.now), source: .live(now: Self.now)).isAdded)
        }
        #expect(path.boundingMapRect.spansAntimeridian)
        // 19 steps of 0.0002° (rounded through the projection).
        #expect(abs(path.boundingMapRect.width - WebMercator.worldSizeMapPoints * 0.0038 / 360) < 1e-3)
        #expect(path.polyline.intersects(Tile(containing: try Coordinate(latitude: -17, longitude: -179.9975), zoom: 18).mapRect))
    }

    @Test("custom rules change the thresholds")
    func customRules() {
        var path = BreadcrumbPathState(rules: .init(maximumAgeSeconds: 5, alwaysKeptCount: 1, minimumSpacingMeters: 50))
        #expect(path.add(fix(0), source: .live(now: Self.now)).isAdded)
        #expect(!path.add(fix(30), source: .live(now: Self.now)).isAdded)
        #expect(path.add(fix(0, ageSeconds: 6), source: .live(now: Self.now)) == .tooOld(ageSeconds: 6))
        #expect(path.add(fix(60), source: .live(now: Self.now)).isAdded)
    }
}
