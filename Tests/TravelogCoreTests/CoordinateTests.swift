import Testing
@testable import TravelogCore

@Suite("Coordinate")
struct CoordinateTests {
    @Test("a latitude outside [-90, 90] cannot exist", arguments: [90.000001, -91, .nan, .infinity])
    func latitudeOutOfRange(latitude: Double) {
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: latitude, longitude: 0) }
    }

    @Test("longitudes are wrapped into [-180, 180]", arguments: [
        (180.0, 180.0), (-180.0, -180.0), (190.0, -170.0), (-190.0, 170.0), (540.0, -180.0), (725.0, 5.0),
    ])
    func longitudeNormalised(input: Double, expected: Double) throws {
        #expect(try Coordinate(latitude: 0, longitude: input).longitude == expected)
    }

    @Test("a NaN longitude is rejected")
    func nanLongitude() {
        #expect(throws: CoordinateError.longitudeNotFinite(.infinity)) {
            try Coordinate(latitude: 0, longitude: .infinity)
        }
    }
}
