import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogTestSupport

/// A small gazetteer of real places, typed in by hand from GeoNames' public records (coordinates
/// to 1e-5 degree, populations as GeoNames gives them), written in Travelog's format by the
/// tests themselves so that the suite needs no built file.
enum GazetteerFixture {
    static func country(_ code: String, _ alpha3: String, _ name: String) -> GazetteerCountry {
        // The codes below are valid literals: a failure here is a typo in this file.
        guard let country = try? GazetteerCountry(code: code, alpha3Code: alpha3, name: name) else {
            fatalError("bad fixture country \(code)")
        }
        return country
    }

    static let unitedStates = country("US", "USA", "United States")
    static let france = country("FR", "FRA", "France")
    static let japan = country("JP", "JPN", "Japan")
    static let brazil = country("BR", "BRA", "Brazil")
    static let andorra = country("AD", "AND", "Andorra")
    static let fiji = country("FJ", "FJI", "Fiji")
    static let samoa = country("WS", "WSM", "Samoa")
    static let svalbard = country("SJ", "SJM", "Svalbard and Jan Mayen")
    static let antarctica = country("AQ", "ATA", "Antarctica")
    static let canada = country("CA", "CAN", "Canada")

    /// (name, ASCII name, admin1, admin2, country, time zone, population, latitude, longitude)
    static let rows: [(String, String, String, String, GazetteerCountry, String, Int, Double, Double)] = [
        ("Cupertino", "Cupertino", "California", "Santa Clara County", unitedStates, "America/Los_Angeles", 58302, 37.323, -122.03218),
        ("Paris", "Paris", "Ile-de-France", "Paris", france, "Europe/Paris", 2138551, 48.85341, 2.3488),
        ("Paris", "Paris", "Texas", "Lamar County", unitedStates, "America/Chicago", 24782, 33.66094, -95.55551),
        ("Paris", "Paris", "Ontario", "", canada, "America/Toronto", 11177, 43.2, -80.38333),
        ("Springfield", "Springfield", "Illinois", "Sangamon County", unitedStates, "America/Chicago", 116250, 39.80172, -89.64371),
        ("Springfield", "Springfield", "Missouri", "Greene County", unitedStates, "America/Chicago", 166810, 37.21533, -93.29824),
        ("Springfield", "Springfield", "Massachusetts", "Hampden County", unitedStates, "America/New_York", 153703, 42.10148, -72.58981),
        ("Tokyo", "Tokyo", "Tokyo", "", japan, "Asia/Tokyo", 8336599, 35.6895, 139.69171),
        ("São Paulo", "Sao Paulo", "Sao Paulo", "Sao Paulo", brazil, "America/Sao_Paulo", 10021295, -23.5475, -46.63611),
        ("Sant Julià de Lòria", "Sant Julia de Loria", "Sant Julia de Loria", "", andorra, "Europe/Andorra", 8022, 42.46372, 1.49129),
        ("New York City", "New York City", "New York", "", unitedStates, "America/New_York", 8175133, 40.71427, -74.00597),
        ("Suva", "Suva", "Central", "Rewa Province", fiji, "Pacific/Fiji", 77366, -18.14161, 178.44149),
        ("Apia", "Apia", "Tuamasaga", "", samoa, "Pacific/Apia", 40407, -13.83333, -171.76666),
        ("Longyearbyen", "Longyearbyen", "Svalbard", "", svalbard, "Arctic/Longyearbyen", 2060, 78.22334, 15.64689),
        ("McMurdo Station", "McMurdo Station", "", "", antarctica, "", 0, -77.846, 166.676),
    ]

    static let places: [GazetteerPlace] = rows.map { row in
        guard let coordinate = Coordinate(validLatitude: row.7, longitude: row.8) else { fatalError("bad fixture coordinate \(row.0)") }
        return GazetteerPlace(name: row.0, asciiName: row.1, administrativeArea: row.2, subAdministrativeArea: row.3,
                              country: row.4, timeZoneIdentifier: row.5, population: row.6, coordinate: coordinate)
    }

    /// The fixture's file bytes.
    static func bytes() throws -> [UInt8] { try Gazetteer.encode(places) }

    /// The fixture written to a file of the test folder and loaded back from it.
    static func load() throws -> Gazetteer {
        let url = TestDirectory.makeFolder("gazetteer").appendingPathComponent(Gazetteer.defaultFileName)
        try Data(bytes()).write(to: url)
        return try Gazetteer(contentsOfFile: url.path)
    }

    /// The index of the fixture place with this name and admin1.
    static func index(_ name: String, _ administrativeArea: String) -> Int? {
        places.firstIndex { $0.name == name && $0.administrativeArea == administrativeArea }
    }
}

/// The gazetteer that `make gazetteer` builds from GeoNames, when it has been built.
enum BuiltGazetteer {
    static let path = SharedFixtures.repositoryRoot.appendingPathComponent(".build-data/\(Gazetteer.defaultFileName)").path

    static var available: Bool { FileManager.default.fileExists(atPath: path) }

    static let absentReason: Comment =
        ".build-data/gazetteer.tlgaz is absent: these tests check the full GeoNames gazetteer; build it with `make gazetteer` (`make test` does)"

    /// Loaded once for all tests.
    static let loaded: Result<Gazetteer, GazetteerError> = Result { () throws(GazetteerError) in try Gazetteer(contentsOfFile: path) }
}
