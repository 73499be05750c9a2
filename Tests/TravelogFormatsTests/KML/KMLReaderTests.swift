import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("KMLReader: tracks, lines and points")
struct KMLReaderTests {
    @Test("a gx:Track with every when before every gx:coord pairs them in order; LookAt's time is no point's")
    func groupedTrack() throws {
        let outcome = ReaderOutcome.read(.kml, KMLSamples.groupedTrack)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        #expect(outcome.kinds == Array(repeating: .track(track: 0, segment: 0), count: 3))
        let locations = outcome.locations
        try #require(locations.count == 3)
        #expect(locations.map(\.coordinate) == [
            try Coordinate(latitude: 37.4220, longitude: -122.0841), try Coordinate(latitude: 37.4230, longitude: -122.0851),
            try Coordinate(latitude: 37.4240, longitude: -122.0861),
        ])
        #expect(locations.map(\.altitudeMeters) == [10, 12.5, nil])
        #expect(locations.map(\.timestamp) == [
            try instant("2024-01-20T08:00:00Z"), try instant("2024-01-20T08:01:00Z"), try instant("2024-01-20T08:02:00.5Z"),
        ])
        #expect(locations.map(\.utcOffsetSeconds) == [nil, 3600, nil])
    }

    @Test("an empty <when/> makes an untimed point; an empty gx:coord is dropped with its when")
    func emptyEntries() throws {
        let outcome = ReaderOutcome.read(.kml, KMLSamples.emptyEntries)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        let positions = outcome.points.map(\.position)
        try #require(positions.count == 3)
        #expect(positions[0].location?.timestamp == (try instant("2007-07-27T05:24:05Z")))
        #expect(positions[0].coordinate == Coordinate(validLatitude: 35.836146, longitude: -86.844140))
        #expect(positions[1] == .untimed(try Coordinate(latitude: 35.834859, longitude: -86.843587), altitudeMeters: nil))
        #expect(positions[2] == .untimed(try Coordinate(latitude: 35.835508, longitude: -86.843869), altitudeMeters: nil))
    }

    @Test("a gx:MultiTrack is one track with a segment per non-empty gx:Track; each Placemark is a track")
    func multiTrack() {
        let outcome = ReaderOutcome.read(.kml, KMLSamples.multiTrack)
        #expect(outcome.error == nil)
        #expect(outcome.kinds == [.track(track: 0, segment: 0), .track(track: 0, segment: 0), .track(track: 0, segment: 1),
                                  .track(track: 1, segment: 0)])
        #expect(outcome.locations.map(\.coordinate.latitude) == [2, 2.5, 5, 8])
        #expect(outcome.locations.map(\.altitudeMeters) == [3, nil, 6, nil])
    }

    @Test("LineString tuples are untimed track points whatever the white space; Polygons are not tracks")
    func lineStrings() throws {
        let outcome = ReaderOutcome.read(.kml, KMLSamples.lineStrings)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        #expect(outcome.locations.isEmpty, "a Placemark's TimeStamp is not the time of each point of its line")
        #expect(outcome.kinds == Array(repeating: .track(track: 0, segment: 0), count: 5)
                + [.track(track: 1, segment: 0), .track(track: 1, segment: 0), .track(track: 1, segment: 1)])
        let positions = outcome.points.map(\.position)
        #expect(positions.map(\.coordinate.longitude) == [-122.0841, -122.0851, -122.0861, -122.0871, -122.0881, 1, 2, 3])
        #expect(positions.map(\.coordinate.latitude) == [37.4220, 37.4230, 37.4240, 37.4250, 37.4260, 1, 2, 3])
        #expect(positions.map(\.altitudeMeters) == [10, nil, 14, 16, nil, nil, nil, nil])
    }

    @Test("Point Placemarks are waypoints named after them, timed by their TimeStamp before or after the geometry")
    func points() throws {
        let outcome = ReaderOutcome.read(.kml, KMLSamples.points)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        let points = outcome.points
        try #require(points.count == 8)
        #expect(points.map(\.kind) == [.waypoint, .waypoint, .waypoint, .waypoint, .waypoint,
                                       .track(track: 0, segment: 0), .track(track: 0, segment: 0), .waypoint])
        #expect(points.map(\.name) == ["Location 1", "After", "A day", nil, "Mixed", nil, nil, "Mixed"])
        let first = try #require(points[0].position.location)
        #expect(first.coordinate == Coordinate(validLatitude: 37.4220, longitude: -122.0841))
        #expect(first.altitudeMeters == 10)
        #expect(first.timestamp == (try instant("2024-01-15T12:00:00Z")))
        let after = try #require(points[1].position.location)
        #expect(after.timestamp == (try instant("2024-01-15T21:00:00Z")))
        #expect(after.utcOffsetSeconds == -8 * 3600)
        #expect(points[2].position == .untimed(try Coordinate(latitude: 2, longitude: 1), altitudeMeters: nil), "a date is no time of day")
        #expect(points[3].position == .untimed(try Coordinate(latitude: 4, longitude: 3), altitudeMeters: 5))
        #expect(points[4].position.location?.timestamp == (try instant("2024-01-18T15:00:00Z")))
        #expect(points[5].position.location == nil)
        #expect(points[7].position.location?.coordinate == Coordinate(validLatitude: 12, longitude: 11))
    }

    @Test("what the KML writer writes (interleaved when and gx:coord) reads back: tracks, segments, positions, times")
    func roundTrip() throws {
        let locations = ExportSamples.generated(count: 400, seed: 0x6B6D_6C00)
        let text = try ExportSamples.export(.kml, [(name: "a", segments: [Array(locations[..<150]), Array(locations[150..<300])]),
                                                   (name: "b", segments: [Array(locations[300...])])])
        let outcome = ReaderOutcome.read(.kml, text)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        #expect(outcome.kinds == Array(repeating: .track(track: 0, segment: 0), count: 150)
                + Array(repeating: .track(track: 0, segment: 1), count: 150) + Array(repeating: .track(track: 1, segment: 0), count: 100))
        let read = outcome.locations
        try #require(read.count == locations.count)
        for (written, back) in zip(locations, read) {
            // The writer keeps 7 decimals of degrees, 3 of metres, and milliseconds.
            #expect(abs(written.coordinate.latitude - back.coordinate.latitude) <= 5e-8)
            #expect(abs(Coordinate.normalizedLongitude(written.coordinate.longitude - back.coordinate.longitude)) <= 5e-8)
            #expect((written.altitudeMeters == nil) == (back.altitudeMeters == nil))
            #expect(abs((written.altitudeMeters ?? 0) - (back.altitudeMeters ?? 0)) <= 5e-4)
            #expect(ExportSamples.milliseconds(written.timestamp) == ExportSamples.milliseconds(back.timestamp))
        }
    }

    @Test("the format's reader is a KMLReader")
    func madeByFormat() throws {
        var reader = try FileFormat.kml.makeReader(source: MemoryByteSource(Array(KMLSamples.multiTrack.utf8)))
        #expect(reader is KMLReader)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 4)
        #expect(reader.bytesConsumed == KMLSamples.multiTrack.utf8.count)
    }
}
