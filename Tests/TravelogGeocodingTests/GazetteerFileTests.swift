import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogTestSupport

@Suite("the gazetteer file: written, read back, and every corruption reported with its offset")
struct GazetteerFileTests {
    @Test("places written and read back are the same places, strings stored once")
    func roundTrip() throws {
        let gazetteer = try GazetteerFixture.load()
        #expect(gazetteer.count == GazetteerFixture.places.count)
        for (index, place) in GazetteerFixture.places.enumerated() {
            #expect(gazetteer.place(at: index) == place)
        }
        // "Springfield", "Paris", "United States" and the US time zones are each stored once.
        let bytes = try GazetteerFixture.bytes()
        let springfields = bytes.indices.filter { bytes[$0...].starts(with: Array("Springfield".utf8)) }
        #expect(springfields.count == 1)
    }

    @Test("a placemark carries the place's fields, with nil for what is unknown")
    func placemark() throws {
        let gazetteer = try GazetteerFixture.load()
        let cupertino = try #require(GazetteerFixture.index("Cupertino", "California"))
        let placemark = gazetteer.placemark(at: cupertino, distanceMeters: 12.5)
        #expect(placemark.name == "Cupertino")
        #expect(placemark.locality == "Cupertino")
        #expect(placemark.subAdministrativeArea == "Santa Clara County")
        #expect(placemark.administrativeArea == "California")
        #expect(placemark.country == "United States")
        #expect(placemark.isoCountryCode == "US")
        #expect(placemark.timeZoneIdentifier == "America/Los_Angeles")
        #expect(placemark.timeZone?.identifier == "America/Los_Angeles")
        #expect(placemark.population == 58302)
        #expect(placemark.distanceMeters == 12.5)
        let mcMurdo = try #require(GazetteerFixture.index("McMurdo Station", ""))
        let station = gazetteer.placemark(at: mcMurdo)
        #expect(station.administrativeArea == nil && station.subAdministrativeArea == nil)
        #expect(station.timeZoneIdentifier == nil && station.population == nil && station.distanceMeters == nil)
    }

    @Test("an empty list of places is a valid, empty gazetteer")
    func empty() throws {
        let gazetteer = try Gazetteer(bytes: Gazetteer.encode([]), path: "empty")
        #expect(gazetteer.count == 0)
        #expect(try ReverseGeocoder(gazetteer: gazetteer).placemark(for: Coordinate(latitude: 0, longitude: 0)) == nil)
        #expect(ForwardGeocoder(gazetteer: gazetteer).matches(for: "Paris").isEmpty)
    }

    @Test("a missing file is reported with its path")
    func missing() {
        let path = TestDirectory.makeFolder("gazetteer").appendingPathComponent("absent.tlgaz").path
        #expect(throws: GazetteerError.fileNotFound(path: path)) { try Gazetteer(contentsOfFile: path) }
    }

    @Test("a file of another kind, or of a later version, is rejected at its header")
    func header() throws {
        var bytes = try GazetteerFixture.bytes()
        bytes[0] = UInt8(ascii: "X")
        #expect(throws: GazetteerError.corrupt(path: "f", offset: 0, reason: .notAGazetteer)) { try Gazetteer(bytes: bytes, path: "f") }
        bytes = try GazetteerFixture.bytes()
        bytes[8] = 2
        #expect(throws: GazetteerError.corrupt(path: "f", offset: 8, reason: .unsupportedVersion(2))) { try Gazetteer(bytes: bytes, path: "f") }
        #expect(throws: GazetteerError.corrupt(path: "f", offset: 0, reason: .truncated(section: "header", expectedBytes: 32, fileBytes: 7))) {
            try Gazetteer(bytes: Array(bytes[0..<7]), path: "f")
        }
    }

    @Test("a file cut anywhere after its header is reported as truncated, never read past its end")
    func truncated() throws {
        let bytes = try GazetteerFixture.bytes()
        for length in stride(from: 32, to: bytes.count, by: 7) {
            #expect(throws: GazetteerError.self) { try Gazetteer(bytes: Array(bytes[0..<length]), path: "f") }
            do {
                _ = try Gazetteer(bytes: Array(bytes[0..<length]), path: "f")
            } catch .corrupt(_, let offset, .truncated(_, let expected, let fileBytes)) {
                #expect(fileBytes == length && expected > length && offset < expected)
            } catch {
                Issue.record("cut at \(length): \(error)")
            }
        }
    }

    @Test("bytes after the last section are reported where they start")
    func trailing() throws {
        let bytes = try GazetteerFixture.bytes()
        #expect(throws: GazetteerError.corrupt(path: "f", offset: bytes.count, reason: .trailingBytes(count: 3))) {
            try Gazetteer(bytes: bytes + [1, 2, 3], path: "f")
        }
    }

    @Test("a country reference past the country table is reported at its byte")
    func badCountryReference() throws {
        var bytes = try GazetteerFixture.bytes()
        let placeCount = GazetteerFixture.places.count
        // The country column is the second-to-last: 2 bytes a place, before 4-byte populations.
        let countryColumn = bytes.count - 4 * placeCount - 2 * placeCount
        bytes[countryColumn + 2 * 3] = 0xFF
        do {
            _ = try Gazetteer(bytes: bytes, path: "f")
            Issue.record("accepted a bad country reference")
        } catch {
            guard case .corrupt("f", countryColumn + 6, .referenceOutOfRange("country", 3, _, _)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test("a latitude beyond 90 degrees is reported at its byte")
    func badLatitude() throws {
        var bytes = try GazetteerFixture.bytes()
        let placeCount = GazetteerFixture.places.count
        let latitudes = bytes.count - 34 * placeCount  // 34 bytes of columns a place (see Gazetteer)
        withUnsafeBytes(of: Int32(9_000_001).littleEndian) { bytes.replaceSubrange(latitudes..<(latitudes + 4), with: $0) }
        #expect(throws: GazetteerError.corrupt(path: "f", offset: latitudes, reason: .coordinateOutOfRange(column: "latitude", row: 0, value: 9_000_001))) {
            try Gazetteer(bytes: bytes, path: "f")
        }
    }

    @Test("a string that is not UTF-8 is reported at its first byte")
    func invalidUTF8() throws {
        var bytes = try GazetteerFixture.bytes()
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("Cupertino".utf8)) })
        bytes[start + 1] = 0xC3  // a lead byte followed by "p": an invalid sequence
        do {
            _ = try Gazetteer(bytes: bytes, path: "f")
            Issue.record("accepted invalid UTF-8")
        } catch {
            guard case .corrupt("f", start, .invalidUTF8) = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test("string offsets out of order are reported at the offset")
    func badStringOffset() throws {
        var bytes = try GazetteerFixture.bytes()
        let countryCount = 10
        let offsets = 32 + 10 * countryCount
        bytes[offsets + 4 * 2 + 3] = 0x7F  // the third offset becomes huge
        do {
            _ = try Gazetteer(bytes: bytes, path: "f")
            Issue.record("accepted a bad string offset")
        } catch {
            guard case .corrupt("f", offsets + 8, .badStringOffset(2, _)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test("errors say what and where in words")
    func messages() {
        let error = GazetteerError.corrupt(path: "/data/g.tlgaz", offset: 1234, reason: .invalidUTF8(stringIndex: 7))
        #expect(error.description == "the gazetteer /data/g.tlgaz is corrupt at byte 1234: string 7 is not valid UTF-8")
        #expect(GazetteerError.fileNotFound(path: "/x").description.contains("make gazetteer"))
    }
}
