import Foundation
import Testing
@testable import TravelogCore

/// Vectors committed in the repository, solved once by GeodSolve -f -p 9 (GeographicLib 2.1.2,
/// the same algorithm in C++): edge cases (antipodal, nearly antipodal, poles, equator,
/// meridians, antimeridian, coincident, very short) and a few hundred random problems.
/// On Linux with glibc this implementation reproduces GeodSolve's printed values digit for digit;
/// the tolerances allow for GeodSolve's printing (angles to 1e-14°, distances to 1 nm, areas to
/// 0.01 m²) and for a few ulps of round-off with another maths library.
@Suite("Geodesic against GeodSolve vectors")
struct GeodesicVectorTests {
    static let inverseRows = GeodesicFixtures.committedRows("geodesic-inverse-vectors.txt")
    static let directRows = GeodesicFixtures.committedRows("geodesic-direct-vectors.txt")
    /// Distances: 1 ulp of 2e7 m is 3.7 nm.
    static let distanceToleranceMeters = 1e-8
    /// Angles: 1 ulp of 180° is 2.8e-14°.
    static let angleToleranceDegrees = 1e-12
    /// Areas: GeodSolve prints S12 to 0.01 m²; values reach 1.3e14 m² (1 ulp = 0.016 m²).
    static let areaToleranceSquareMeters = 0.1

    @Test("the committed vector files are complete")
    func filesPresent() {
        #expect(Self.inverseRows.count == 462)
        #expect(Self.directRows.count == 786)
        #expect((Self.inverseRows + Self.directRows).allSatisfy { $0.values.count == 10 })
    }

    @Test("inverse: s12, azi1, azi2, a12, m12 and S12 agree with GeodSolve", arguments: inverseRows)
    func inverse(row: GeodesicRow) throws {
        let s = Geodesic.wgs84.inverse(latitude1: row[0], longitude1: row[1], latitude2: row[2], longitude2: row[3],
                                       extras: [.reducedLength, .area])
        #expect(abs(s.distanceMeters - row[6]) <= Self.distanceToleranceMeters)
        #expect(GeodesicFixtures.angleDifference(s.initialAzimuthDegrees, row[4]) <= Self.angleToleranceDegrees)
        #expect(GeodesicFixtures.angleDifference(s.finalAzimuthDegrees, row[5]) <= Self.angleToleranceDegrees)
        #expect(abs(s.arcLengthDegrees - row[7]) <= Self.angleToleranceDegrees)
        #expect(abs(try #require(s.reducedLengthMeters) - row[8]) <= Self.distanceToleranceMeters)
        #expect(abs(try #require(s.areaSquareMeters) - row[9]) <= Self.areaToleranceSquareMeters)
        #expect(s.distanceMeters >= 0)
        #expect((-180...180).contains(s.initialAzimuthDegrees) && (-180...180).contains(s.finalAzimuthDegrees))
    }

    @Test("direct: lat2, lon2, azi2, a12, m12 and S12 agree with GeodSolve", arguments: directRows)
    func direct(row: GeodesicRow) throws {
        let d = Geodesic.wgs84.direct(latitude: row[0], longitude: row[1], azimuthDegrees: row[2], distanceMeters: row[3],
                                      extras: [.reducedLength, .area])
        #expect(abs(d.latitude - row[4]) <= Self.angleToleranceDegrees)
        #expect(GeodesicFixtures.angleDifference(d.longitude, row[5]) <= Self.angleToleranceDegrees)
        #expect(GeodesicFixtures.angleDifference(d.finalAzimuthDegrees, row[6]) <= Self.angleToleranceDegrees)
        #expect(abs(d.arcLengthDegrees - row[7]) <= Self.angleToleranceDegrees)
        #expect(abs(try #require(d.reducedLengthMeters) - row[8]) <= Self.distanceToleranceMeters)
        #expect(abs(try #require(d.areaSquareMeters) - row[9]) <= Self.areaToleranceSquareMeters)
        #expect((-180...180).contains(d.longitude))
    }

    @Test("the inverse of a direct solution returns its distance", arguments: directRows.filter { abs($0[3]) < 1.9e7 })
    func roundTrip(row: GeodesicRow) {
        // Below 19000 km no geodesic from these starts has passed a conjugate point, so the
        // direct geodesic is the shortest and the inverse must find its length again.
        let d = Geodesic.wgs84.direct(latitude: row[0], longitude: row[1], azimuthDegrees: row[2], distanceMeters: row[3])
        let back = Geodesic.wgs84.inverse(latitude1: row[0], longitude1: row[1], latitude2: d.latitude, longitude2: d.longitude)
        #expect(abs(back.distanceMeters - abs(row[3])) <= Self.distanceToleranceMeters)
    }
}
