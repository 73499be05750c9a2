import Testing
import TravelogGeocoding

@Suite("forward geocoding: free text to ranked places")
struct ForwardGeocoderTests {
    static let geocoder: ForwardGeocoder? = try? ForwardGeocoder(gazetteer: GazetteerFixture.load())

    @Test("text is split at commas into folded words", arguments: [
        ("Cupertino", [["cupertino"]]),
        ("Paris, France", [["paris"], ["france"]]),
        ("Springfield, IL", [["springfield"], ["il"]]),
        ("1 Infinite Loop, Cupertino, CA USA", [["1", "infinite", "loop"], ["cupertino"], ["ca", "usa"]]),
        ("  SÃO   PAULO ,, Brasil ", [["sao", "paulo"], ["brasil"]]),
        ("Sant Julià de Lòria", [["sant", "julia", "de", "loria"]]),
        ("Winston-Salem; N.C.", [["winston", "salem"], ["n", "c"]]),
        ("Łódź", [["lodz"]]),
        ("Straße", [["strasse"]]),
        (" , ", []),
    ])
    func parsing(text: String, expected: [[String]]) {
        #expect(ForwardGeocodingQuery(text).components == expected)
    }

    /// (text, name of the first result, its admin1)
    @Test("the best match is the place the text means", arguments: [
        ("Cupertino", "Cupertino", "California"),
        ("cupertino", "Cupertino", "California"),
        ("1 Infinite Loop, Cupertino, CA USA", "Cupertino", "California"),
        ("Paris", "Paris", "Ile-de-France"),
        ("Paris, France", "Paris", "Ile-de-France"),
        ("Paris FR", "Paris", "Ile-de-France"),
        ("paris, fra", "Paris", "Ile-de-France"),
        ("Paris, Texas", "Paris", "Texas"),
        ("Paris TX", "Paris", "Texas"),
        ("Paris, US", "Paris", "Texas"),
        ("Paris, Ontario, Canada", "Paris", "Ontario"),
        ("Paris, CA", "Paris", "Ontario"),
        ("Springfield", "Springfield", "Missouri"),
        ("Springfield, IL", "Springfield", "Illinois"),
        ("Springfield, MO", "Springfield", "Missouri"),
        ("Springfield Massachusetts", "Springfield", "Massachusetts"),
        ("Springfield, Hampden County", "Springfield", "Massachusetts"),
        ("Springfield, Sangamon", "Springfield", "Illinois"),
        ("SÃO PAULO", "São Paulo", "Sao Paulo"),
        ("Sao Paulo, Brazil", "São Paulo", "Sao Paulo"),
        ("sant julia de loria", "Sant Julià de Lòria", "Sant Julia de Loria"),
        ("Tokyo, Japan", "Tokyo", "Tokyo"),
        ("New York", "New York City", "New York"),
        ("New York City, NY", "New York City", "New York"),
    ])
    func best(text: String, name: String, administrativeArea: String) throws {
        let geocoder = try #require(Self.geocoder)
        let first = try #require(geocoder.placemarks(for: text).first)
        #expect(first.name == name)
        #expect(first.administrativeArea == administrativeArea)
    }

    @Test("every place of a shared name is returned, best first, within the limit")
    func ranking() throws {
        let geocoder = try #require(Self.geocoder)
        let matches = geocoder.matches(for: "Springfield, IL")
        #expect(matches.map(\.placemark.administrativeArea) == ["Illinois", "Missouri", "Massachusetts"])
        #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(geocoder.matches(for: "Paris", limit: 2).count == 2)
        #expect(geocoder.matches(for: "Paris", limit: 0).isEmpty)
        #expect(matches.allSatisfy { $0.placemark.distanceMeters == nil })
    }

    @Test("text that names no place finds nothing", arguments: ["", "   ", "Atlantis", "France", "CA USA"])
    func nothing(text: String) throws {
        let geocoder = try #require(Self.geocoder)
        #expect(geocoder.matches(for: text).isEmpty)
    }
}
