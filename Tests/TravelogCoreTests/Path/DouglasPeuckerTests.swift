import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Douglas–Peucker simplification")
struct DouglasPeuckerTests {
    /// What the planar frame may add to the tolerance: the curvature bound and Bowring-level
    /// approximations stay well under a centimetre on these tracks (measured against the geodesic
    /// cross-track distance of `GeodesicCrossTrack`).
    static let projectionAllowanceMeters = 0.01

    static func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(validLatitude: latitude, longitude: longitude)!
    }

    /// Points every `spacing` metres along the geodesic from `start` on `azimuth`.
    static func geodesicLine(from start: Coordinate, azimuthDegrees: Double, lengthMeters: Double, count: Int) -> [Coordinate] {
        (0..<count).map { start.destination(bearingDegrees: azimuthDegrees, distanceMeters: lengthMeters * Double($0) / Double(count - 1)) }
    }

    /// A noisy walk starting at `start` (1.4 m/s, 1 s fixes, 3 m noise), as coordinates.
    static func noisyWalk(from start: Coordinate, headingDegrees: Double = 0, count: Int, seed: UInt64) -> [Coordinate] {
        var generator = SplitMix64(seed: seed)
        var heading = headingDegrees, here = start
        var path: [Coordinate] = []
        for _ in 0..<count {
            heading += generator.gaussian() * 8
            here = here.destination(bearingDegrees: heading, distanceMeters: 1.4)
            let noise = 3 * generator.gaussian()
            path.append(here.destination(bearingDegrees: Double.random(in: 0..<360, using: &generator), distanceMeters: noise))
        }
        return path
    }

    @Test("paths of 0, 1 and 2 points come back whole")
    func shortPaths() throws {
        let a = Self.point(47, 8), b = Self.point(47.001, 8.001)
        #expect(try DouglasPeucker.keptIndices(of: [Coordinate](), toleranceMeters: 5) == [])
        #expect(try DouglasPeucker.keptIndices(of: [a], toleranceMeters: 5) == [0])
        #expect(try DouglasPeucker.keptIndices(of: [a, b], toleranceMeters: 5) == [0, 1])
        #expect(try DouglasPeucker.keptIndices(of: [a, a], toleranceMeters: 5) == [0, 1])
    }

    @Test("repeated points collapse to the endpoints")
    func repeatedPoints() throws {
        let a = Self.point(47, 8), b = Self.point(47.001, 8.001)
        #expect(try DouglasPeucker.keptIndices(of: Array(repeating: a, count: 7), toleranceMeters: 1) == [0, 6])
        #expect(try DouglasPeucker.keptIndices(of: [a, a, a, b, b], toleranceMeters: 1) == [0, 4])
        #expect(try DouglasPeucker.keptIndices(of: Array(repeating: a, count: 7), toleranceMeters: 0) == [0, 6])
    }

    @Test("a tolerance that is negative or not finite is refused", arguments: [-1, Double.nan, Double.infinity])
    func invalidTolerance(tolerance: Double) {
        let path = [Self.point(47, 8), Self.point(47.001, 8), Self.point(47.002, 8)]
        #expect(throws: SimplificationError.self) { try DouglasPeucker.keptIndices(of: path, toleranceMeters: tolerance) }
    }

    @Test("points along a geodesic collapse to the two endpoints", arguments: [
        (1_000.0, 1.0, 47.3769, 8.5417), (3_000, 10, 47.3769, 8.5417), (1_000, 1, -33.86, 151.21), (5_000, 5, 0.5, 30),
    ])
    func straightLine(lengthMeters: Double, toleranceMeters: Double, latitude: Double, longitude: Double) throws {
        let line = Self.geodesicLine(from: Self.point(latitude, longitude), azimuthDegrees: 60, lengthMeters: lengthMeters, count: 101)
        #expect(try DouglasPeucker.keptIndices(of: line, toleranceMeters: toleranceMeters) == [0, 100])
    }

    @Test("the endpoints are always kept, and a tolerance wider than the track keeps nothing else",
          arguments: [0.0, 0.5, 3, 30, 1_000])
    func endpoints(toleranceMeters: Double) throws {
        for seed in UInt64(20)...24 {
            let path = Self.noisyWalk(from: Self.point(47.3769, 8.5417), count: 300, seed: seed)
            let kept = try DouglasPeucker.keptIndices(of: path, toleranceMeters: toleranceMeters)
            #expect(kept.first == 0 && kept.last == path.count - 1)
            if toleranceMeters >= 1_000 { #expect(kept == [0, path.count - 1]) }
            if toleranceMeters == 0 { #expect(kept == Array(0..<path.count)) }
        }
    }

    @Test("a zig-zag whose teeth exceed the tolerance keeps every point")
    func zigZag() throws {
        let start = Self.point(47.3769, 8.5417)
        let path = (0..<60).map { index in
            start.destination(bearingDegrees: 90, distanceMeters: 20 * Double(index))
                .destination(bearingDegrees: 0, distanceMeters: index.isMultiple(of: 2) ? 6 : -6)
        }
        #expect(try DouglasPeucker.keptIndices(of: path, toleranceMeters: 5) == Array(0..<60))
        // Every point is within 12 m of the line between the ends.
        #expect(try DouglasPeucker.keptIndices(of: path, toleranceMeters: 14) == [0, 59])
    }

    @Test("no dropped point lies farther than the tolerance from the simplified path, measured geodesically",
          arguments: [1.0, 5, 20])
    func droppedPointsWithinTolerance(toleranceMeters: Double) throws {
        let path = Self.noisyWalk(from: Self.point(47.3769, 8.5417), count: 600, seed: 11)
        let kept = try DouglasPeucker.keptIndices(of: path, toleranceMeters: toleranceMeters)
        #expect(kept.first == 0 && kept.last == path.count - 1)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        #expect(kept.count < path.count)
        #expect(GeodesicCrossTrack.worstDroppedDistanceMeters(path, kept: kept) <= toleranceMeters + Self.projectionAllowanceMeters)
    }

    @Test("a track across the antimeridian is simplified as one continuous track")
    func antimeridian() throws {
        let line = Self.geodesicLine(from: Self.point(-16.5, 179.995), azimuthDegrees: 80, lengthMeters: 2_000, count: 81)
        #expect(line.contains { $0.longitude < 0 } && line.contains { $0.longitude > 0 })
        #expect(try DouglasPeucker.keptIndices(of: line, toleranceMeters: 2) == [0, 80])

        let walk = Self.noisyWalk(from: Self.point(-16.5, 179.998), headingDegrees: 90, count: 400, seed: 5)
        #expect(walk.contains { $0.longitude < 0 } && walk.contains { $0.longitude > 0 })
        let kept = try DouglasPeucker.keptIndices(of: walk, toleranceMeters: 5)
        #expect(kept.count < walk.count / 2)
        #expect(GeodesicCrossTrack.worstDroppedDistanceMeters(walk, kept: kept) <= 5 + Self.projectionAllowanceMeters)
    }

    @Test("near a pole, dropped points stay within the tolerance (the frame keeps more points there)")
    func nearPole() throws {
        // A noisy circle 2 km around the north pole: its longitudes sweep through 360°.
        var generator = SplitMix64(seed: 3)
        let circle = (0..<400).map { index in
            let radius = Self.point(90, 0).destination(bearingDegrees: 180, distanceMeters: 2_000 + 2 * generator.gaussian())
            return Self.point(radius.latitude, Double(index) * 0.9 - 180)
        }
        let kept = try DouglasPeucker.keptIndices(of: circle, toleranceMeters: 20)
        #expect(kept.count > 2 && kept.count < circle.count)
        #expect(GeodesicCrossTrack.worstDroppedDistanceMeters(circle, kept: kept) <= 20 + Self.projectionAllowanceMeters)

        // Straight over the pole: the longitude jumps by 180° between two neighbours.
        let over = Self.geodesicLine(from: Self.point(89.99, 20), azimuthDegrees: 0, lengthMeters: 2_200, count: 111)
        #expect(over.contains { $0.longitude < -100 })
        let keptOver = try DouglasPeucker.keptIndices(of: over, toleranceMeters: 5)
        #expect(keptOver.first == 0 && keptOver.last == 110)
        #expect(GeodesicCrossTrack.worstDroppedDistanceMeters(over, kept: keptOver) <= 5 + Self.projectionAllowanceMeters)
    }

    @Test("simplifying locations keeps whole locations at the kept indices")
    func locations() throws {
        let path = Self.noisyWalk(from: Self.point(47.3769, 8.5417), count: 200, seed: 2)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let locations = path.enumerated().map { index, coordinate in
            Location(coordinate: coordinate, altitudeMeters: Double(index), horizontalAccuracyMeters: 4,
                     timestamp: start.addingTimeInterval(Double(index)))
        }
        let kept = try DouglasPeucker.keptIndices(of: locations, toleranceMeters: 5)
        #expect(kept == (try DouglasPeucker.keptIndices(of: path, toleranceMeters: 5)))
        #expect(try DouglasPeucker.simplified(locations, toleranceMeters: 5) == kept.map { locations[$0] })
        #expect(try DouglasPeucker.simplified(path, toleranceMeters: 5) == kept.map { path[$0] })
    }
}
