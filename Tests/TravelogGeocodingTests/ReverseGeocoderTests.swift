import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogTestSupport

@Suite("reverse geocoding: the nearest place by WGS84 geodesic distance")
struct ReverseGeocoderTests {
    static let geocoder: ReverseGeocoder? = try? ReverseGeocoder(gazetteer: GazetteerFixture.load())

    @Test("a place's own coordinate gives that place at 0 m")
    func ownCoordinate() throws {
        let geocoder = try #require(Self.geocoder)
        for (index, place) in GazetteerFixture.places.enumerated() {
            let nearest = try #require(geocoder.nearest(to: place.coordinate))
            #expect(nearest.placeIndex == index)
            #expect(nearest.distanceMeters == 0)
        }
    }

    @Test("a point near Cupertino gives Cupertino with its geodesic distance and time zone")
    func cupertino() throws {
        let geocoder = try #require(Self.geocoder)
        let infiniteLoop = try Coordinate(latitude: 37.33182, longitude: -122.03118)
        let placemark = try #require(geocoder.placemark(for: infiniteLoop))
        #expect(placemark.name == "Cupertino")
        #expect(placemark.administrativeArea == "California")
        #expect(placemark.isoCountryCode == "US")
        #expect(placemark.timeZoneIdentifier == "America/Los_Angeles")
        let cupertino = try Coordinate(latitude: 37.323, longitude: -122.03218)
        #expect(placemark.distanceMeters == infiniteLoop.distanceMeters(to: cupertino))
    }

    @Test("across the antimeridian the nearest place is on the other side", arguments: [
        (-16.0, 179.999, "Suva"), (-16.0, -179.999, "Suva"), (-13.9, -172.5, "Apia"), (-14.0, -173.0, "Apia"), (-14.0, 180.0, "Suva"),
    ])
    func antimeridian(latitude: Double, longitude: Double, expected: String) throws {
        let geocoder = try #require(Self.geocoder)
        let placemark = try #require(geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude)))
        #expect(placemark.name == expected)
    }

    @Test("the poles find the polar places", arguments: [(90.0, "Longyearbyen"), (-90.0, "McMurdo Station")])
    func poles(latitude: Double, expected: String) throws {
        let geocoder = try #require(Self.geocoder)
        #expect(try geocoder.placemark(for: Coordinate(latitude: latitude, longitude: 0))?.name == expected)
    }

    @Test("on random coordinates the answer is the brute-force geodesic minimum")
    func bruteForce() throws {
        let geocoder = try #require(Self.geocoder)
        var rng = SplitMix64(seed: 0x6E0C0DE)
        for _ in 0..<2000 {
            let coordinate = try Coordinate(latitude: asin(rng.nextUnit() * 2 - 1) * 180 / .pi, longitude: rng.nextUnit() * 360 - 180)
            let nearest = try #require(geocoder.nearest(to: coordinate))
            let distances = GazetteerFixture.places.map { coordinate.distanceMeters(to: $0.coordinate) }
            let minimum = try #require(distances.min())
            #expect(nearest.distanceMeters == minimum)
            #expect(distances[nearest.placeIndex] == minimum)
        }
    }
}
