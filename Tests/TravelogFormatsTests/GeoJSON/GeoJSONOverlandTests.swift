import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GeoJSONReader: Overland batches")
struct GeoJSONOverlandTests {
    /// A batch with every kind of feature Overland-iOS queues (GLManager.m): a location, a visit
    /// still going on, a finished visit, an app event with the last location, a visit whose arrival
    /// iOS did not know, a trip, and the batch's `current` and `trip` members.
    static let batch = """
        {"locations":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.030581,37.3318]},
         "properties":{"timestamp":"2015-10-01T08:00:00-0700","altitude":0,"speed":4,"horizontal_accuracy":30,
          "vertical_accuracy":-1,"speed_accuracy":-1,"course":-1,"course_accuracy":-1,"motion":["driving","stationary"],
          "battery_state":"charging","battery_level":0.8,"wifi":"","device_id":"phone"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},
         "properties":{"timestamp":"2015-10-01T09:00:00Z","action":"visit","arrival_date":"2015-10-01T08:30:00Z",
          "departure_date":null,"horizontal_accuracy":50}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},
         "properties":{"timestamp":"2015-10-01T10:00:00Z","action":"visit","arrival_date":"2015-10-01T08:30:00Z",
          "departure_date":"2015-10-01T09:45:00-0700","horizontal_accuracy":-1}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},
         "properties":{"timestamp":"2015-10-01T10:01:00Z","action":"paused_location_updates"}},
        {"type":"Feature","properties":{"timestamp":"2024-07-07T17:46:39Z","action":"will_terminate"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},
         "properties":{"timestamp":"2015-10-01T11:00:00Z","action":"visit","arrival_date":null,
          "departure_date":"2015-10-01T10:59:00Z"}},
        {"type":"Feature","properties":{"timestamp":"2015-10-01T11:00:00Z","action":"visit","arrival_date":"2015-10-01T10:00:00Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},
         "properties":{"timestamp":"2015-10-01T12:00:00Z","type":"trip","mode":"bicycle","start":"2015-10-01T11:00:00Z"}}
        ],
        "current":{"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},"properties":{"timestamp":"2015-10-01T12:00:00Z"}},
        "trip":{"mode":"bicycle","start":"2015-10-01T11:00:00Z","distance":1200,"start_location":null,"current_location":null}}
        """

    @Test("a location is a fix with Overland's units; -1 values stay unknown; the offset is kept", arguments: [1, 3, 64, Int.max])
    func location(chunk: Int) throws {
        let reading = try GeoJSONReading(Self.batch, chunk: chunk)
        let expected = Location(coordinate: try Coordinate(latitude: 37.3318, longitude: -122.030581), altitudeMeters: 0,
                                horizontalAccuracyMeters: 30, speedMetersPerSecond: 4,
                                timestamp: Date(timeIntervalSince1970: 1_443_711_600), utcOffsetSeconds: -25_200)
        #expect(reading.points == [FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(expected))])
        #expect(expected.verticalAccuracyMeters < 0 && expected.courseIfKnown == nil)
    }

    @Test("visits with a position and an arrival are visits; radius from horizontal_accuracy when valid")
    func visits() throws {
        let reading = try GeoJSONReading(Self.batch)
        let coordinate = try Coordinate(latitude: 37.33, longitude: -122.03)
        #expect(reading.visits == [
            FormatVisit(arrival: Date(timeIntervalSince1970: 1_443_688_200), departure: nil, coordinate: coordinate,
                        radiusMeters: 50),
            FormatVisit(arrival: Date(timeIntervalSince1970: 1_443_688_200),
                        departure: Date(timeIntervalSince1970: 1_443_717_900), coordinate: coordinate),
        ])
    }

    @Test("app events, trips, incomplete visits and the current location are skipped and counted")
    func skipped() throws {
        let reading = try GeoJSONReading(Self.batch)
        #expect(reading.records.count == 3)
        #expect(reading.rejections.isEmpty)
        #expect(reading.skipped == [
            .overlandAction("paused_location_updates"): 1, .overlandAction("will_terminate"): 1,
            .incompleteVisit: 2, .overlandTrip: 2, .overlandCurrent: 1,
        ])
    }

    @Test("a visit that departs before it arrives, or with a time that is no time, is rejected")
    func wrongVisits() throws {
        let before = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"action":"visit","arrival_date":"2015-10-01T10:00:00Z","departure_date":"2015-10-01T09:00:00Z"}}]}"#
        let rejection = try #require(try GeoJSONReading(before).rejections.first)
        #expect(rejection.position == position(of: "{\"type\":\"Feature\"", in: before))
        #expect(rejection.reason == .invalidValue(field: "departure_date",
                                                  value: "2015-10-01T09:00:00Z before the arrival 2015-10-01T10:00:00Z"))
        let noTime = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"action":"visit","arrival_date":"soon"}}]}"#
        #expect(try GeoJSONReading(noTime).rejections == [
            RecordRejection(position: position(of: "\"soon\"", in: noTime), reason: .invalidTime("soon")),
        ])
    }
}
