import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogGeocoding
import TravelogTrackCLI

@Suite("travelog geocode: lines in, one line out each, and where the gazetteer is found")
struct GeocodeCommandTests {
    /// Two real places (GeoNames coordinates) in a gazetteer built in memory.
    static let geocoder: ReverseGeocoder? = {
        guard let unitedStates = try? GazetteerCountry(code: "US", alpha3Code: "USA", name: "United States"),
              let japan = try? GazetteerCountry(code: "JP", alpha3Code: "JPN", name: "Japan"),
              let cupertino = Coordinate(validLatitude: 37.323, longitude: -122.03218),
              let tokyo = Coordinate(validLatitude: 35.6895, longitude: 139.69171) else { return nil }
        let places = [
            GazetteerPlace(name: "Cupertino", asciiName: "Cupertino", administrativeArea: "California",
                           subAdministrativeArea: "Santa Clara County", country: unitedStates,
                           timeZoneIdentifier: "America/Los_Angeles", population: 58302, coordinate: cupertino),
            GazetteerPlace(name: "Tokyo", asciiName: "Tokyo", administrativeArea: "Tokyo", subAdministrativeArea: "",
                           country: japan, timeZoneIdentifier: "Asia/Tokyo", population: 8336599, coordinate: tokyo),
        ]
        return (try? Gazetteer(bytes: Gazetteer.encode(places), path: "memory")).map(ReverseGeocoder.init(gazetteer:))
    }()

    @Test("each line gives its place, and a bad line an error in its place, as travelog geodesic does")
    func lines() throws {
        var processor = try ReverseGeocodeLineProcessor(geocoder: #require(Self.geocoder), json: false)
        #expect(processor.process(line: "37.323 -122.03218") == "Cupertino, Santa Clara County, California, United States (US); America/Los_Angeles; 0 m")
        // GeodSolve -i: 35.7 139.7 35.6895 139.69171 → 1385.727 m, printed to the metre.
        #expect(processor.process(line: "35.7\t139.7\r") == "Tokyo, Japan (JP); Asia/Tokyo; 1386 m")
        #expect(processor.process(line: "91 0") == "ERROR: line 3: expected lat in [-90, 90] degrees, found 91.0")
        #expect(processor.process(line: "1 2 3") == "ERROR: line 4: expected 2 numbers `lat lon`, found 3 fields")
        #expect(processor.process(line: "north 2") == "ERROR: line 5: expected a decimal number for lat, found \"north\"")
        #expect(processor.failedLineCount == 3)
    }

    @Test("a longitude beyond ±180 is wrapped, as a Coordinate does")
    func wrappedLongitude() throws {
        var processor = try ReverseGeocodeLineProcessor(geocoder: #require(Self.geocoder), json: false)
        #expect(processor.process(line: "35.6895 -220.30829").hasPrefix("Tokyo, Japan (JP); Asia/Tokyo; "))
    }

    @Test("--json prints one object per line with the documented keys")
    func json() throws {
        var processor = try ReverseGeocodeLineProcessor(geocoder: #require(Self.geocoder), json: true)
        let line = processor.process(line: "37.323 -122.03218")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "admin1", "admin2", "country", "countryCode", "timeZone", "latitude", "longitude", "distanceMeters"])
        #expect(object["name"] as? String == "Cupertino")
        #expect(object["timeZone"] as? String == "America/Los_Angeles")
        #expect(object["latitude"] as? Double == 37.323)
        #expect(object["distanceMeters"] as? Double == 0)
        #expect(!line.contains("\n"))
        #expect(line == #"{"admin1":"California","admin2":"Santa Clara County","country":"United States","countryCode":"US","distanceMeters":0,"latitude":37.323,"longitude":-122.03218,"name":"Cupertino","timeZone":"America/Los_Angeles"}"#)
        let tokyo = processor.process(line: "35.7 139.7")
        #expect(tokyo.contains(#""distanceMeters":1385.727,"#), "GeodSolve -i: 1385.727 m")
    }

    @Test("the gazetteer is the option, else the variable, else beside the database, else installed, else .build-data")
    func gazetteerPath() throws {
        // `make install`'s share/travelog beside the executable's bin folder.
        let installed = try #require(DataFiles.installedFolder)
        #expect(installed.hasSuffix("/share/travelog"))
        #expect(GazetteerOptions.candidatePaths(option: "/g.tlgaz", environment: ["TRAVELOG_GAZETTEER": "/e.tlgaz"]) == ["/g.tlgaz"])
        #expect(GazetteerOptions.candidatePaths(option: nil, environment: ["TRAVELOG_GAZETTEER": "/e.tlgaz"]) == ["/e.tlgaz"])
        #expect(GazetteerOptions.candidatePaths(option: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
                == ["/data/travelog/gazetteer.tlgaz", installed + "/gazetteer.tlgaz", ".build-data/gazetteer.tlgaz"])
        #expect(GazetteerOptions.candidatePaths(option: nil, environment: ["TRAVELOG_DB": "/srv/t/db.sqlite"])
                == ["/srv/t/gazetteer.tlgaz", installed + "/gazetteer.tlgaz", ".build-data/gazetteer.tlgaz"])
    }

    @Test("negative degrees are coordinates, not options", arguments: [["geocode", "reverse", "-33.87", "-151.2"], ["geocode", "reverse", "--json", "37", "-122"]])
    func negativeArguments(arguments: [String]) throws {
        #expect(throws: Never.self) { try TravelogCommand.parseAsRoot(arguments) }
    }

    @Test("one coordinate, or a bad one, is refused before the gazetteer is read", arguments: [["geocode", "reverse", "37"], ["geocode", "reverse", "95", "0"], ["geocode", "reverse", "x", "0"]])
    func badArguments(arguments: [String]) {
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(arguments) }
    }

    @Test("forward needs a text and a positive limit")
    func forwardArguments() throws {
        #expect(throws: Never.self) { try TravelogCommand.parseAsRoot(["geocode", "forward", "Paris, France", "--limit", "3"]) }
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["geocode", "forward", "Paris", "--limit", "0"]) }
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["geocode", "forward"]) }
    }
}

@Suite("travelog geocode reverse over every core: the output of one processor, in order")
struct ParallelLineFilterTests {
    @Test("40,002 lines in odd blocks over 3 cores print what one processor prints, bad lines numbered where they are", arguments: [1, 3])
    func sameAsOneProcessor(cores: Int) throws {
        let geocoder = try #require(GeocodeCommandTests.geocoder)
        var lines: [String] = []
        for index in 0..<40_002 {
            switch index {
            case 20_000: lines.append("north 2")
            case 40_001: lines.append("91 0")
            default: lines.append(String(format: "%.4f %.4f", 30 + Double(index % 900) / 100, index.isMultiple(of: 2) ? -122.0 : 139.7))
            }
        }
        let input = Array((lines.joined(separator: "\n")).utf8)  // the last line without its newline
        var expected = ReverseGeocodeLineProcessor(geocoder: geocoder, json: false)
        let serial = lines.map { expected.process(line: $0) + "\n" }.joined()
        var output: [UInt8] = []
        #expect(throws: ExitCode(1)) {
            try LineFilter.runParallel(cores: cores, read: { body in
                var offset = 0
                while offset < input.count {  // blocks of 7,777 bytes: lines cut across them
                    let end = min(input.count, offset + 7_777)
                    try input[offset..<end].withUnsafeBufferPointer(body)
                    offset = end
                }
            }, write: { output += $0 }, make: { ReverseGeocodeLineProcessor(geocoder: geocoder, json: false) })
        }
        let printed = String(decoding: output, as: UTF8.self)
        #expect(printed == serial)
        #expect(printed.contains("ERROR: line 20001: expected a decimal number for lat, found \"north\"\n"))
        #expect(printed.hasSuffix("ERROR: line 40002: expected lat in [-90, 90] degrees, found 91.0\n"))
    }
}
