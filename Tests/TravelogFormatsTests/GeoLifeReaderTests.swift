import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GeoLifeReader")
struct GeoLifeReaderTests {
    static let header = "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"

    static func records(_ text: String, chunk: Int = .max) throws(FormatError) -> [FormatRecord] {
        var reader = GeoLifeReader(source: MemoryByteSource(Array(text.utf8), maximumChunkBytes: chunk), blockSizeBytes: 16)
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(reader.bytesConsumed == text.utf8.count)
        return records
    }

    static func fix(_ latitude: Double, _ longitude: Double, altitudeMeters: Double?, _ secondsSince1970: Double) throws -> FormatRecord {
        .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(Location(
            coordinate: try Coordinate(latitude: latitude, longitude: longitude), altitudeMeters: altitudeMeters,
            timestamp: Date(timeIntervalSince1970: secondsSince1970)))))
    }

    @Test("fixes after the six header lines, altitude from feet, -777 unknown, times in GMT", arguments: [1, 2, 7, 1000])
    func fixes(chunk: Int) throws {
        let text = Self.header + """
            39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04
            39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\r
            40.009328,116.320887,0,83.5,39744.4661111111,2008-10-23,11:11:12
            """
        #expect(try Self.records(text, chunk: chunk) == [
            try Self.fix(39.984702, 116.318417, altitudeMeters: Units.meters(feet: 492), 1_224_730_384),
            try Self.fix(39.984683, 116.31845, altitudeMeters: nil, 1_224_730_390),
            try Self.fix(40.009328, 116.320887, altitudeMeters: Units.meters(feet: 83.5), 1_224_760_272),
        ])
    }

    // The header is 90 bytes, so the first fix line starts at byte 90 on line 7.
    @Test("a wrong line is rejected at its line and column, and reading goes on", arguments: [
        ("200,116.3,0,492,39744.12,2008-10-23,02:53:04", SourcePosition(byteOffset: 90, line: 7, column: 1),
         RecordRejection.Reason.invalidCoordinate(.latitudeOutOfRange(200))),
        ("39.9,116.3,0,492,39744.12,2008-02-30,02:53:04", SourcePosition(byteOffset: 116, line: 7, column: 27),
         .invalidTime("2008-02-30 02:53:04")),
        ("39.9,116.3,0,492,39744.12,2008-10-23,25:53:04", SourcePosition(byteOffset: 116, line: 7, column: 27),
         .invalidTime("2008-10-23 25:53:04")),
        ("39.9,116.3,0,high,39744.12,2008-10-23,02:53:04", SourcePosition(byteOffset: 103, line: 7, column: 14),
         .invalidValue(field: "altitude", value: "high")),
        ("39.9,,0,492,39744.12,2008-10-23,02:53:04", SourcePosition(byteOffset: 95, line: 7, column: 6),
         .missingField("longitude")),
        ("39.9,116.3,0,492,39744.12,2008-10-23", SourcePosition(byteOffset: 126, line: 7, column: 37),
         .wrongFieldCount(expected: 7, found: 6)),
        ("39.9,116.3,0,492,39744.12,2008-10-23,02:53:04,x", SourcePosition(byteOffset: 136, line: 7, column: 47),
         .wrongFieldCount(expected: 7, found: 8)),
    ])
    func rejected(line: String, position: SourcePosition, reason: RecordRejection.Reason) throws {
        let text = Self.header + line + "\n\n39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\n"
        for chunk in [1, 5, 1000] {
            let records = try Self.records(text, chunk: chunk)
            #expect(records == [.rejected(RecordRejection(position: position, reason: reason)),
                                try Self.fix(39.984702, 116.318417, altitudeMeters: Units.meters(feet: 492), 1_224_730_384)])
        }
    }

    @Test("a header alone is a trajectory without fixes")
    func headerOnly() throws {
        #expect(try Self.records(Self.header).isEmpty)
    }

    @Test("a file that ends inside the header is truncated at the missing line")
    func truncatedHeader() {
        #expect(throws: FormatError.truncated(SourcePosition(byteOffset: 26, line: 3, column: 1),
                                              expected: "the 6 header lines of a GeoLife trajectory")) {
            try Self.records("Geolife trajectory\nWGS 84\n")
        }
    }

    @Test("a file that does not start with the GeoLife line is not one")
    func notGeoLife() {
        #expect(throws: FormatError.unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1),
                                               expected: "'Geolife trajectory' on the first line",
                                               found: "'time,lat,lon'")) {
            try Self.records("time,lat,lon\n1,2,3\n")
        }
    }
}
