import Foundation
import Testing
import TravelogTestSupport
@testable import TravelogCore


@Suite("Geodesic properties and the Coordinate API")
struct GeodesicPropertyTests {
    static func randomPairs(_ count: Int, seed: UInt64) throws -> [(Coordinate, Coordinate)] {
        var rng = SplitMix64(seed: seed)
        return try (0..<count).map { _ in
            // Uniform on the sphere: latitude from asin of a uniform sine.
            func point() throws -> Coordinate {
                try Coordinate(latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
                               longitude: Double.random(in: -180..<180, using: &rng))
            }
            return (try point(), try point())
        }
    }

    @Test("known distances: a quarter meridian, a quarter of the equator, JFK to Changi")
    func knownDistances() throws {
        let g = Geodesic.wgs84
        // GeodSolve -i -p 9: 10001965.729312724, 10018754.171394622 (= πa/2), 15358227.818927834.
        #expect(abs(g.inverse(latitude1: 0, longitude1: 0, latitude2: 90, longitude2: 0).distanceMeters - 10_001_965.729312724) <= 1e-8)
        #expect(abs(g.inverse(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90).distanceMeters - 10_018_754.171394622) <= 1e-8)
        let jfk = try Coordinate(latitude: 40.6, longitude: -73.8), changi = try Coordinate(latitude: 1.3, longitude: 103.9)
        #expect(abs(jfk.distanceMeters(to: changi) - 15_358_227.818927834) <= 1e-8)
        #expect(abs(jfk.initialBearingDegrees(to: changi) - 3.41601042645253) <= 1e-12)
    }

    @Test("the distance is symmetric and zero only between equal points")
    func symmetry() throws {
        for (a, b) in try Self.randomPairs(500, seed: 1) {
            let ab = a.distanceMeters(to: b), ba = b.distanceMeters(to: a)
            #expect(abs(ab - ba) <= 1e-8)  // round-off only (GeographicLib's 15 nm)
            #expect(ab > 0)
            #expect(a.distanceMeters(to: a) == 0)
        }
    }

    @Test("bearings lie in [0, 360)")
    func bearingRange() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        #expect(origin.initialBearingDegrees(to: try Coordinate(latitude: 1, longitude: 0)) == 0)
        #expect(origin.initialBearingDegrees(to: try Coordinate(latitude: 0, longitude: 1)) == 90)
        #expect(origin.initialBearingDegrees(to: try Coordinate(latitude: -1, longitude: 0)) == 180)
        #expect(origin.initialBearingDegrees(to: try Coordinate(latitude: 0, longitude: -1)) == 270)
        for (a, b) in try Self.randomPairs(500, seed: 2) {
            let bearing = a.initialBearingDegrees(to: b)
            #expect(bearing >= 0 && bearing < 360)
            #expect(bearing.sign == .plus)
        }
    }

    @Test("the destination along a bearing lies at that distance and bearing")
    func destinationRoundTrip() throws {
        var rng = SplitMix64(seed: 3)
        for (start, _) in try Self.randomPairs(300, seed: 4) {
            let bearing = Double.random(in: 0..<360, using: &rng), distance = Double.random(in: 1...15_000_000, using: &rng)
            let end = start.destination(bearingDegrees: bearing, distanceMeters: distance)
            #expect(abs(start.distanceMeters(to: end) - distance) <= 1e-8)  // GeographicLib's 15 nm
            // Near a pole the bearing is ill-conditioned; elsewhere it is exact to round-off.
            if abs(start.latitude) < 89 {
                #expect(GeodesicFixtures.angleDifference(start.initialBearingDegrees(to: end), bearing) <= 1e-9)
            }
        }
    }

    @Test("a location's distance is the geodesic distance")
    func locationDistance() throws {
        let a = Location(coordinate: try Coordinate(latitude: 48.8566, longitude: 2.3522), timestamp: Date(timeIntervalSince1970: 0))
        let b = Location(coordinate: try Coordinate(latitude: 51.5074, longitude: -0.1278), timestamp: Date(timeIntervalSince1970: 60))
        // GeodSolve -i -p 9: 343923.120090989
        #expect(abs(a.distanceMeters(from: b) - 343_923.120090989) <= 1e-8)
    }

    @Test("haversine on the mean sphere is within 0.57 % of the geodesic, typically 0.2 %")
    func haversineRandom() throws {
        // The bound: the mean radius over the smallest radius of curvature, the meridian's at the
        // equator, a(1 − e²): 0.561 %. Random pairs reach 0.546 % (long north–south arcs near the
        // equator), so the often-quoted "0.5 %" is not a bound.
        let bound = WGS84.meanRadiusMeters / (WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared)) - 1
        var errors: [Double] = []
        for (a, b) in try Self.randomPairs(2000, seed: 5) {
            errors.append(abs(a.haversineDistanceMetersApproximate(to: b) / a.distanceMeters(to: b) - 1))
        }
        errors.sort()
        let worst = try #require(errors.last)
        #expect(worst <= bound)
        #expect(errors[errors.count / 2] <= 0.002)
        #expect(worst > 0.001)  // it is an approximation, not the geodesic
    }

    @Test("haversine's worst case: short north-south steps at the equator are 0.56 % long")
    func haversineWorstCase() throws {
        let a = try Coordinate(latitude: 0, longitude: 0), b = try Coordinate(latitude: 0.001, longitude: 0)
        let ratio = a.haversineDistanceMetersApproximate(to: b) / a.distanceMeters(to: b)
        // The meridian's radius of curvature at the equator is a(1 − e²) = 6335439 m; the mean
        // radius is 6371009 m.
        #expect(abs(ratio - WGS84.meanRadiusMeters / (WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared))) <= 1e-6)
        #expect(ratio > 1.005 && ratio < 1.006)
    }

    @Test("extras are computed only when asked for")
    func extras() {
        let g = Geodesic.wgs84
        let plain = g.inverse(latitude1: 10, longitude1: 20, latitude2: 30, longitude2: 40)
        #expect(plain.reducedLengthMeters == nil && plain.areaSquareMeters == nil)
        let full = g.inverse(latitude1: 10, longitude1: 20, latitude2: 30, longitude2: 40, extras: [.reducedLength, .area])
        #expect(full.reducedLengthMeters != nil && full.areaSquareMeters != nil)
        #expect(full.distanceMeters == plain.distanceMeters)
        let direct = g.direct(latitude: 10, longitude: 20, azimuthDegrees: 30, distanceMeters: 1e6, extras: .area)
        #expect(direct.reducedLengthMeters == nil && direct.areaSquareMeters != nil)
    }

    @Test("a latitude beyond a pole gives NaN rather than a wrong answer")
    func invalidLatitude() {
        #expect(Geodesic.wgs84.inverse(latitude1: 91, longitude1: 0, latitude2: 0, longitude2: 0).distanceMeters.isNaN)
        #expect(Geodesic.wgs84.direct(latitude: -90.5, longitude: 0, azimuthDegrees: 0, distanceMeters: 1).latitude.isNaN)
    }

    @Test("on a sphere the geodesic is the great circle")
    func sphere() {
        let sphere = Geodesic(semiMajorAxisMeters: WGS84.meanRadiusMeters, flattening: 0)
        let s = sphere.inverse(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90)
        #expect(abs(s.distanceMeters - WGS84.meanRadiusMeters * .pi / 2) <= 1e-8)
        let t = sphere.inverse(latitude1: 10, longitude1: 0, latitude2: -10, longitude2: 180)  // antipodal
        #expect(abs(t.distanceMeters - WGS84.meanRadiusMeters * .pi) <= 1e-8)
    }
}
