import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GPXReader: points, structure and values")
struct GPXReaderTests {
    @Test("a GPX 1.1 track gives its points in order with ele, time, name and Garmin v2 speed and course")
    func gpx11() throws {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.gpx11)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        #expect(outcome.kinds == [.track(track: 0, segment: 0), .track(track: 0, segment: 0), .track(track: 0, segment: 1)])
        let locations = outcome.locations
        try #require(locations.count == 3)
        #expect(locations[0].coordinate == Coordinate(validLatitude: 47.3769, longitude: 8.5417))
        #expect(locations[0].altitudeMeters == 408.5)
        #expect(locations[0].timestamp == (try instant("2024-06-01T08:00:00Z")))
        #expect(locations[0].utcOffsetSeconds == nil)
        #expect(locations[0].speedIfKnown == nil && locations[0].courseIfKnown == nil)
        #expect(outcome.points.map(\.name) == ["Start", nil, nil], "the track's name is not a point's")
        #expect(locations[1].timestamp == (try instant("2024-06-01T08:00:05.25Z")))
        #expect(locations[1].speedMetersPerSecond == 1.4)
        #expect(locations[1].courseDegrees == 45.5)
        #expect(locations[2].coordinate == Coordinate(validLatitude: -33.8688, longitude: 151.2093))
        #expect(locations[2].altitudeMeters == nil)
        #expect(locations.allSatisfy { $0.horizontalAccuracyIfValid == nil }, "GPX gives no accuracy in metres")
    }

    @Test("GPX 1.0 without a namespace: speed and course elements, a course of 360° is 0°, the document's time is no point")
    func gpx10WithoutNamespace() throws {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.gpx10WithoutNamespace)
        #expect(outcome.error == nil)
        let locations = outcome.locations
        try #require(locations.count == 2)
        #expect(locations.map(\.speedMetersPerSecond) == [1.2, 2.2])
        #expect(locations.map(\.courseDegrees) == [0, 359.9])
        #expect(locations[0].altitudeMeters == 48.962041)
        #expect(locations[0].timestamp == (try instant("2009-03-02T14:05:52Z")))
    }

    @Test("elements are matched by local name: a prefixed document reads like the default namespace")
    func prefixed() {
        let prefixed = ReaderOutcome.read(.gpx, GPXSamples.prefixed)
        let plain = ReaderOutcome.read(.gpx, GPXSamples.gpx11)
        #expect(prefixed.error == nil)
        #expect(prefixed.points.count == 1)
        #expect(prefixed.points.first == plain.points.first)
    }

    @Test("times keep their written offset; no zone is UTC; 7 and 9 fraction digits are kept; an empty time is none")
    func times() throws {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.times)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        let points = outcome.points
        try #require(points.count == 8)
        let locations = points.prefix(6).compactMap(\.position.location)
        try #require(locations.count == 6)
        #expect(locations[0].timestamp == (try instant("2024-06-01T10:00:00Z")))
        #expect(locations[0].utcOffsetSeconds == 7200)
        #expect(locations[1].timestamp == (try instant("2024-06-01T11:00:00Z")))
        #expect(locations[1].utcOffsetSeconds == -19800)
        #expect(locations[2].utcOffsetSeconds == nil)
        #expect(locations[3].timestamp == locations[2].timestamp)
        #expect(locations[3].utcOffsetSeconds == nil)
        // 1901-12-13T20:45:52Z is -2^31 s.
        let mojstrovka = ParsedTimestamp(secondsSince1970: -2_147_483_648, nanoseconds: 207_343_700).date
        #expect(locations[4].timestamp == mojstrovka, "1901-12-13T20:45:52.2073437Z")
        #expect(locations[4].timestamp != ParsedTimestamp(secondsSince1970: -2_147_483_648, nanoseconds: 207_000_000).date)
        #expect(locations[5].timestamp == ParsedTimestamp(secondsSince1970: 1_717_243_200, nanoseconds: 123_456_789).date)
        #expect(points[6].position == .untimed(try Coordinate(latitude: 1, longitude: 2), altitudeMeters: nil))
        #expect(points[7].position == .untimed(try Coordinate(latitude: 1, longitude: 2), altitudeMeters: nil))
    }

    @Test("empty segments and tracks take no number; a trkpt outside trkseg makes a segment of its own")
    func emptySegments() {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.emptySegments)
        #expect(outcome.error == nil)
        #expect(outcome.kinds == [
            .track(track: 0, segment: 0), .track(track: 0, segment: 0), .track(track: 0, segment: 1),
            .track(track: 1, segment: 0), .track(track: 1, segment: 1),
        ])
        #expect(outcome.points.map(\.position.coordinate.longitude) == [1, 2, 3, 1, 2])
    }

    @Test("waypoints and routes come in file order; routes are numbered like tracks")
    func routesAndWaypoints() throws {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.routesAndWaypoints)
        #expect(outcome.error == nil)
        #expect(outcome.kinds == [.waypoint, .waypoint, .route(route: 0), .route(route: 0), .route(route: 1),
                                  .track(track: 0, segment: 0), .waypoint])
        #expect(outcome.points.map(\.name) == ["Hut", "Peak & <summit>", nil, "Col", nil, nil, nil])
        let hut = try #require(outcome.points.first?.position.location)
        #expect(hut.altitudeMeters == 1200)
        #expect(hut.timestamp == (try instant("2024-06-01T07:00:00Z")))
        #expect(outcome.points[1].position.location == nil)
    }

    @Test("GPSLogger and OsmAnd extras: hdop, sat, src and geoidheight are read past; extension speeds count; GPX 1.0 speed wins")
    func extras() throws {
        let outcome = ReaderOutcome.read(.gpx, GPXSamples.extras)
        #expect(outcome.error == nil)
        let locations = outcome.locations
        try #require(locations.count == 4)
        #expect(locations[0].altitudeMeters == 54.5, "ele is the altitude; geoidheight is not applied")
        #expect(locations[0].horizontalAccuracyIfValid == nil, "an HDOP is not metres")
        #expect(locations[0].speedIfKnown == nil)
        #expect(locations[1].coordinate == Coordinate(validLatitude: 10.758321212464024, longitude: 106.64234449272531))
        #expect(locations[1].speedMetersPerSecond == 2.8)
        #expect(locations[1].timestamp == (try instant("2024-11-03T09:30:11.331Z")), "dawarich: ts 1730626211")
        #expect(locations[1].utcOffsetSeconds == 25_200)
        #expect(locations[2].altitudeMeters == 1066.4, "a comment inside an element does not split its text")
        #expect(locations[2].speedMetersPerSecond == 2.9)
        #expect(locations[3].speedMetersPerSecond == 3)
        #expect(locations[3].courseDegrees == 90)
    }

    @Test("a byte-order mark and UTF-16 (both byte orders) read like UTF-8", arguments: [GPXSamples.gpx11, GPXSamples.extras])
    func encodings(document: String) {
        let plain = ReaderOutcome.read(.gpx, document)
        // The XML declaration must not contradict UTF-16.
        let undeclared = document.replacingOccurrences(of: #"encoding="UTF-8""#, with: "")
        let utf8BOM = [0xEF, 0xBB, 0xBF] + Array(document.utf8)
        let units = Array(undeclared.utf16)
        let littleEndian: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [utf8BOM, littleEndian, bigEndian] {
            let outcome = ReaderOutcome.read(.gpx, bytes)
            #expect(outcome.error == nil)
            #expect(outcome.points == plain.points)
        }
    }

    @Test("white space before the XML declaration is read past (dawarich's multiple-track file)")
    func whitespaceBeforeDeclaration() {
        let outcome = ReaderOutcome.read(.gpx, "\n" + GPXSamples.gpx11)
        #expect(outcome.error == nil)
        #expect(outcome.points == ReaderOutcome.read(.gpx, GPXSamples.gpx11).points)
    }

    @Test("an empty GPX has no records; bytesConsumed reaches the end")
    func empty() throws {
        let document = Array(#"<?xml version="1.0"?><gpx version="1.1" creator="x"><metadata/></gpx>"#.utf8)
        var reader = try GPXReader(source: MemoryByteSource(document))
        #expect(try reader.next() == nil)
        #expect(reader.bytesConsumed == document.count)
    }

    @Test("the format's reader is a GPXReader")
    func madeByFormat() throws {
        var reader = try FileFormat.gpx.makeReader(source: MemoryByteSource(Array(GPXSamples.prefixed.utf8)))
        #expect(reader is GPXReader)
        guard case .point(let point) = try reader.next() else {
            Issue.record("expected a point")
            return
        }
        #expect(point.name == "Start")
    }
}
