import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GoogleSemanticReader: Semantic Location History")
struct GoogleSemanticReaderTests {
    /// A visit with a raw path, an activity with start, waypoints, end and raw path, an activity whose
    /// locations are empty, and an object the reader does not know.
    static let sample = """
    {"timelineObjects": [
      {"placeVisit": {
        "location": {"latitudeE7": 374850711, "longitudeE7": -1221474242, "placeId": "ChIJGcSN3pa8j4ARpeP0i0Oel2Q",
                     "address": "1 Hacker Way, Menlo Park", "name": "Facebook", "locationConfidence": 92.2},
        "duration": {"startTimestamp": "2013-05-09T01:24:28.883Z", "endTimestamp": "2013-05-09T16:55:16.119Z"},
        "centerLatE7": 374340997, "centerLngE7": -1221390791,
        "otherCandidateLocations": [{"latitudeE7": 374858048, "longitudeE7": -1221480233}],
        "simplifiedRawPath": {"points": [
          {"latE7": 374335782, "lngE7": -1221388493, "accuracyMeters": 33, "timestamp": "2013-05-09T02:22:15.145Z"},
          {"latE7": 374335790, "lngE7": -1221388500, "accuracyMeters": 20, "timestampMs": "1368066255178"}
        ]}
      }},
      {"activitySegment": {
        "startLocation": {"latitudeE7": 374859695, "longitudeE7": -1221462936},
        "endLocation": {"latitudeE7": 374847488, "longitudeE7": -1221476287, "name": "Gate"},
        "duration": {"startTimestampMs": "1368153336464", "endTimestampMs": "1368153712925"},
        "distance": 512, "activityType": "WALKING",
        "waypointPath": {"waypoints": [{"latE7": 374859313, "lngE7": -1221480331}, {"latE7": 374859619, "lngE7": -1221504516}]},
        "simplifiedRawPath": {"points": [{"latE7": 374859000, "lngE7": -1221470000, "timestamp": "2013-05-10T02:40:00Z"}]}
      }},
      {"activitySegment": {
        "startLocation": {}, "endLocation": {},
        "duration": {"startTimestamp": "2013-12-01T07:05:14.222Z", "endTimestamp": "2013-12-01T07:11:13.214Z"},
        "waypointPath": {"waypoints": [{"latE7": 533407440, "lngE7": 837026901}], "travelMode": "WALK"}
      }},
      {"timelineMemory": {"note": "not a location"}}
    ]}
    """

    @Test("a placeVisit is a visit at its place, named, from start to end, then its raw path is a track")
    func placeVisit() throws {
        let records = try GoogleReading.records(Self.sample, as: .googleSemantic)
        let visit = try #require(records.first?.visit)
        #expect(visit.coordinate == Coordinate(validLatitude: 37.4850711, longitude: -122.1474242))
        #expect(visit.name == "Facebook")
        #expect(visit.address == "1 Hacker Way, Menlo Park")
        #expect(visit.placeIdentifier == "ChIJGcSN3pa8j4ARpeP0i0Oel2Q")
        #expect(visit.arrival == GoogleReading.date("2013-05-09T01:24:28.883Z"))
        #expect(visit.departure == GoogleReading.date("2013-05-09T16:55:16.119Z"))
        #expect(visit.radiusMeters == nil)
        let raw = records[1...2].compactMap(\.point)
        #expect(raw.map(\.kind) == [.track(track: 0, segment: 0), .track(track: 0, segment: 0)])
        #expect(raw[0].position.location?.horizontalAccuracyMeters == 33)
        #expect(raw[1].position.location?.timestamp == Date(timeIntervalSince1970: 1_368_066_255.178))
    }

    @Test("an activitySegment is start, waypoints (untimed), end in segment 0, its raw path in segment 1")
    func activitySegment() throws {
        let records = try GoogleReading.records(Self.sample, as: .googleSemantic)
        let points = records[3...].compactMap(\.point)
        #expect(points.count == 6)
        #expect(points[0...3].allSatisfy { $0.kind == .track(track: 1, segment: 0) })
        #expect(points[4].kind == .track(track: 1, segment: 1))
        #expect(points[0].position.location?.timestamp == Date(timeIntervalSince1970: 1_368_153_336.464))
        #expect(points[0].position.coordinate == Coordinate(validLatitude: 37.4859695, longitude: -122.1462936))
        #expect(points[1].position == .untimed(Coordinate(validLatitude: 37.4859313, longitude: -122.1480331)!, altitudeMeters: nil))
        #expect(points[2].position.location == nil)
        #expect(points[3].position.location?.timestamp == Date(timeIntervalSince1970: 1_368_153_712.925))
        #expect(points[4].position.location?.timestamp == GoogleReading.date("2013-05-10T02:40:00Z"))
        // Empty start and end locations are left out; the waypoint is the whole of track 2.
        #expect(points[5].kind == .track(track: 2, segment: 0))
        #expect(points[5].position.location == nil)
        #expect(records.count == 9)
        #expect(records.allSatisfy { $0.rejection == nil })
    }

    @Test("a visit's coordinate falls back to the center, then to the first candidate", arguments: [
        (#""location": {"placeId": "p"}, "centerLatE7": 100000000, "centerLngE7": 200000000, "otherCandidateLocations": [{"latitudeE7": 300000000, "longitudeE7": 400000000}]"#, 10.0, 20.0),
        (#""otherCandidateLocations": [{"latitudeE7": 123533333, "longitudeE7": 123533333, "name": "Candidate"}, {"latitudeE7": 1, "longitudeE7": 1}]"#, 12.3533333, 12.3533333),
    ])
    func fallbacks(members: String, latitude: Double, longitude: Double) throws {
        let text = #"{"timelineObjects": [{"placeVisit": {"duration": {"startTimestamp": "1742844232"}, "# + members + "}}]}"
        let records = try GoogleReading.records(text, as: .googleSemantic)
        let visit = try #require(records.first?.visit)
        #expect(records.count == 1)
        #expect(visit.coordinate == Coordinate(validLatitude: latitude, longitude: longitude))
        #expect(visit.arrival == Date(timeIntervalSince1970: 1_742_844_232))
        #expect(visit.departure == nil)
    }

    @Test("wrong visits and points are rejected at their object, and the reading goes on")
    func rejections() throws {
        let text = """
        {"timelineObjects": [
          {"placeVisit": {"location": {"latitudeE7": 123}, "duration": {"startTimestamp": "2013-05-09T01:24:28.883Z"}}},
          {"placeVisit": {"location": {"latitudeE7": 1, "longitudeE7": 2}}},
          {"placeVisit": {"location": {"latitudeE7": 1, "longitudeE7": 2}, "duration": {"startTimestamp": "2013-05-32T00:00:00Z"}}},
          {"placeVisit": {"location": {"latitudeE7": 1, "longitudeE7": 2},
                          "duration": {"startTimestamp": "2013-05-09T02:00:00Z", "endTimestamp": "2013-05-09T01:00:00Z"}}},
          {"placeVisit": {"duration": {"startTimestamp": "2013-05-09T02:00:00Z"}}},
          {"activitySegment": {"waypointPath": {"waypoints": [{"latE7": 950000000, "lngE7": 0}, 7]}}},
          "nonsense"
        ]}
        """
        let records = try GoogleReading.records(text, as: .googleSemantic)
        let reasons = records.map { $0.rejection?.reason }
        #expect(reasons == [
            .missingField("location.longitudeE7"),
            .missingField("duration.startTimestamp"),
            .invalidTime("2013-05-32T00:00:00Z"),
            .invalidValue(field: "duration", value: "ends before it starts"),
            .missingField("location.latitudeE7"),
            .invalidCoordinate(.latitudeOutOfRange(-334.4967296)),
            .invalidValue(field: "latE7", value: "not a number"),
            .invalidValue(field: "timelineObjects[]", value: "a string"),
        ])
        #expect(records[0].rejection?.position.line == 2)
        #expect(records[5].rejection?.position == SourcePosition(byteOffset: 0, line: 8, column: 55).with(offsetIn: text))
    }

    @Test("a UTF-8 byte order mark is skipped")
    func byteOrderMark() throws {
        let text = #"{"timelineObjects": [{"activitySegment": {"startLocation": {"latitudeE7": 604518000, "longitudeE7": 222666000}, "duration": {"startTimestamp": "2024-01-01T10:00:00Z"}}}]}"#
        let records = try GoogleReading.records([0xEF, 0xBB, 0xBF] + Array(text.utf8), as: .googleSemantic)
        #expect(records.compactMap(\.location).map(\.coordinate) == [Coordinate(validLatitude: 60.4518, longitude: 22.2666)])
    }

    @Test("a truncated file throws at its end, after the objects read so far")
    func truncated() {
        let cut = Self.sample.range(of: "\"distance\": 5")?.upperBound ?? Self.sample.endIndex
        let text = String(Self.sample[..<cut])
        let (records, error) = GoogleReading.recordsUntilFailure(text, as: .googleSemantic)
        #expect(records.count == 3)  // the visit and its raw path; the activity is not complete
        guard case .truncated(let position, _)? = error else {
            Issue.record("expected .truncated, got \(String(describing: error))")
            return
        }
        #expect(position.byteOffset == text.utf8.count)
    }

    @Test("reading in chunks of any size gives the same records", arguments: [1, 3, 16, 100])
    func chunked(size: Int) throws {
        let whole = try GoogleReading.records(Self.sample, as: .googleSemantic)
        #expect(try GoogleReading.records(Self.sample, as: .googleSemantic, chunkBytes: size) == whole)
    }
}

extension SourcePosition {
    /// This line and column with the byte offset computed from `text` (for expectations).
    func with(offsetIn text: String) -> SourcePosition {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let before = lines.prefix(line - 1).reduce(0) { $0 + $1.utf8.count + 1 }
        return SourcePosition(byteOffset: before + column - 1, line: line, column: column)
    }
}
