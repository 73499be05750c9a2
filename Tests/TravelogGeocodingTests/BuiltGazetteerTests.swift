import Testing
import TravelogCore
import TravelogGeocoding

@Suite("the full GeoNames gazetteer", .enabled(if: BuiltGazetteer.available, BuiltGazetteer.absentReason))
struct BuiltGazetteerTests {
    static let gazetteer = try? BuiltGazetteer.loaded.get()
    static let reverse = gazetteer.map(ReverseGeocoder.init(gazetteer:))
    static let forward = gazetteer.map(ForwardGeocoder.init(gazetteer:))

    @Test("the file loads with all its places")
    func loads() throws {
        let gazetteer = try BuiltGazetteer.loaded.get()
        #expect(gazetteer.count > 140_000)
        #expect(gazetteer.countries.count > 240)
    }

    /// (latitude, longitude, name, admin1, country code, time zone)
    /// Reverse geocoding names the nearest town centre: points are chosen near the centres (Notre-Dame,
    /// not the Eiffel Tower, which is nearer to the centre of Neuilly-sur-Seine).
    @Test("known coordinates give their town, division, country and time zone", arguments: [
        (37.33182, -122.03118, "Cupertino", "California", "US", "America/Los_Angeles"),
        (48.853, 2.3499, "Paris", "Ile-de-France", "FR", "Europe/Paris"),
        (35.6895, 139.69171, "Tokyo", "Tokyo", "JP", "Asia/Tokyo"),
        (39.80172, -89.64371, "Springfield", "Illinois", "US", "America/Chicago"),
        (-33.8675, 151.2070, "Sydney", "New South Wales", "AU", "Australia/Sydney"),
    ])
    func reverse(latitude: Double, longitude: Double, name: String, admin1: String, country: String, timeZone: String) throws {
        let geocoder = try #require(Self.reverse)
        let placemark = try #require(geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude)))
        #expect(placemark.name == name)
        #expect(placemark.administrativeArea == admin1)
        #expect(placemark.isoCountryCode == country)
        #expect(placemark.timeZoneIdentifier == timeZone)
        #expect(try #require(placemark.distanceMeters) < 10_000)
    }

    @Test("a point in the middle of the Pacific gives the nearest island town, hundreds of kilometres away")
    func ocean() throws {
        let geocoder = try #require(Self.reverse)
        let gazetteer = try #require(Self.gazetteer)
        let point = try Coordinate(latitude: -30, longitude: -140)
        let nearest = try #require(geocoder.nearest(to: point))
        #expect(nearest.distanceMeters > 300_000)
        // Brute force over all places agrees.
        var minimum = Double.infinity
        for index in 0..<gazetteer.count { minimum = min(minimum, point.distanceMeters(to: gazetteer.coordinate(at: index))) }
        #expect(nearest.distanceMeters == minimum)
    }

    /// (text, name, admin1, country code, time zone)
    @Test("free text finds the place people mean", arguments: [
        ("Cupertino", "Cupertino", "California", "US", "America/Los_Angeles"),
        ("1 Infinite Loop, Cupertino, CA USA", "Cupertino", "California", "US", "America/Los_Angeles"),
        ("Paris, France", "Paris", "Ile-de-France", "FR", "Europe/Paris"),
        ("Paris", "Paris", "Ile-de-France", "FR", "Europe/Paris"),
        ("Springfield, IL", "Springfield", "Illinois", "US", "America/Chicago"),
        ("Springfield, MO", "Springfield", "Missouri", "US", "America/Chicago"),
        ("Tokyo", "Tokyo", "Tokyo", "JP", "Asia/Tokyo"),
        ("zurich", "Zürich", "Zurich", "CH", "Europe/Zurich"),
        ("New York", "New York City", "New York", "US", "America/New_York"),
    ])
    func forward(text: String, name: String, admin1: String, country: String, timeZone: String) throws {
        let geocoder = try #require(Self.forward)
        let first = try #require(geocoder.placemarks(for: text).first)
        #expect(first.name == name)
        #expect(first.administrativeArea == admin1)
        #expect(first.isoCountryCode == country)
        #expect(first.timeZoneIdentifier == timeZone)
    }
}
