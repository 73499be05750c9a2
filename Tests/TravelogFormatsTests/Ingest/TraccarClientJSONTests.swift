import Foundation
import Testing
import TravelogCore
import TravelogFormats

/// Hand-written bodies in the shape Traccar Client 9+ posts.
@Suite("OsmAndRequestDecoder: Traccar Client's JSON body")
struct TraccarClientJSONTests {
    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func decode(_ body: String) throws(IngestError) -> IngestedLocation {
        try OsmAndRequestDecoder.traccarClient.decode(jsonBody: Array(body.utf8), receivedAt: receivedAt)
    }

    static let walking = #"""
        {"location": {"uuid": "3f0c", "timestamp": "2024-09-01T07:15:30.125Z",
          "coords": {"latitude": 59.3293, "longitude": 18.0686, "accuracy": 4.5, "speed": 1.4, "heading": 182.5,
                     "altitude": 28, "altitude_accuracy": 3, "speed_accuracy": -1, "heading_accuracy": 12},
          "is_moving": true, "odometer": 1523.5, "event": "motionchange",
          "battery": {"level": 0.42, "is_charging": true}, "activity": {"type": "walking", "confidence": 80},
          "extras": {"trip": "commute", "count": 12, "ratio": 0.25, "flag": false, "nested": {"a": [1]}, "none": null},
          "_": "&id=walker&lat=59.3293&"},
         "device_id": "walker"}
        """#

    @Test("a full body: coords in m/s (whatever the decoder's speed unit), battery fraction, attributes")
    func fullBody() throws {
        let ingested = try Self.decode(Self.walking)
        #expect(ingested == IngestedLocation(
            deviceIdentifier: "walker",
            location: Location(coordinate: try Coordinate(latitude: 59.3293, longitude: 18.0686), altitudeMeters: 28,
                               horizontalAccuracyMeters: 4.5, verticalAccuracyMeters: 3, speedMetersPerSecond: 1.4,
                               courseDegrees: 182.5, courseAccuracyDegrees: 12,
                               timestamp: Date(timeIntervalSince1970: 1_725_174_930.125)),
            batteryPercent: 42, isCharging: true,
            attributes: ["is_moving": "true", "odometer": "1523.5", "event": "motionchange", "activity": "walking",
                         "trip": "commute", "count": "12", "ratio": "0.25", "flag": "false"]))
    }

    @Test("heading, speed, accuracy and battery level -1 mean unknown; a missing timestamp is the time received")
    func unknowns() throws {
        let ingested = try Self.decode(#"""
            {"device_id": "d", "location": {"coords": {"latitude": 1, "longitude": 2, "accuracy": -1, "speed": -1,
             "heading": -1, "altitude": null}, "battery": {"level": -1, "is_charging": null}}}
            """#)
        #expect(ingested.location.timestamp == Self.receivedAt)
        #expect(ingested.location.horizontalAccuracyIfValid == nil)
        #expect(ingested.location.speedIfKnown == nil)
        #expect(ingested.location.courseIfKnown == nil)
        #expect(ingested.location.altitudeMeters == nil)
        #expect(ingested.batteryPercent == nil)
        #expect(ingested.isCharging == nil)
    }

    @Test("an integer device_id and an epoch timestamp are read")
    func lenientScalars() throws {
        let ingested = try Self.decode(#"{"device_id": 48241179, "location": {"timestamp": 1725174930125, "coords": {"latitude": 1, "longitude": 2}}}"#)
        #expect(ingested.deviceIdentifier == "48241179")
        #expect(ingested.location.timestamp == Date(timeIntervalSince1970: 1_725_174_930.125))
    }

    @Test("rejections name the member, what was expected and the byte offset", arguments: [
        (#"{"location": {"coords": {"latitude": 1, "longitude": 2}}}"#, IngestError.missingField("device_id")),
        (#"{"device_id": "", "location": {"coords": {"latitude": 1, "longitude": 2}}}"#, .missingField("device_id")),
        (#"{"device_id": "d"}"#, .missingField("location.coords.latitude")),
        (#"{"device_id": "d", "location": {"coords": {"latitude": 1}}}"#, .missingField("location.coords.longitude")),
        (#"{"device_id": "d", "location": {"coords": {"latitude": 91, "longitude": 2}}}"#,
         .outOfRange(field: "location.coords.latitude", value: 91)),
        (#"{"device_id": "d", "location": {"coords": {"latitude": 1, "longitude": 2, "heading": 400}}}"#,
         .outOfRange(field: "location.coords.heading", value: 400)),
        (#"{"device_id": "d", "location": {"coords": {"latitude": 1, "longitude": 2}, "battery": {"level": 1.5}}}"#,
         .outOfRange(field: "location.battery.level", value: 1.5)),
        (#"{"device_id": "d", "location": [{"coords": {}}]}"#,
         .unexpectedJSONValue(field: "location", expected: "an object", found: "an array", offset: 31)),
        (#"{"device_id": "d", "location": {"coords": {"latitude": "1"}}}"#,
         .unexpectedJSONValue(field: "location.coords.latitude", expected: "a number", found: "a string", offset: 55)),
        (#"{"device_id": true}"#, .unexpectedJSONValue(field: "device_id", expected: "a string", found: "true", offset: 14)),
        (#"[]"#, .unexpectedJSONValue(field: "(body)", expected: "an object", found: "an array", offset: 0)),
        (#"{"device_id": "d", "location": {"timestamp": "soon"}}"#,
         .invalidTimestamp(field: "location.timestamp", value: "soon", reason: .unexpected(atByte: 0, expected: "a four-digit year"))),
    ])
    func rejections(body: String, error: IngestError) {
        #expect(throws: error) { try Self.decode(body) }
    }

    @Test("malformed JSON is an error at the offending byte", arguments: [
        (#"{"device_id": "d",}"#, 18), (#"{"device_id": "d"} x"#, 19), (#"{"device_id": "d""#, 17), ("", 0),
    ])
    func malformed(body: String, offset: Int) throws {
        let error = try #require(throws: IngestError.self) { try Self.decode(body) }
        guard case .invalidJSON(let syntax) = error else {
            Issue.record("expected invalid JSON, got \(error)")
            return
        }
        #expect(syntax.position.byteOffset == offset)
        #expect(error.description.hasSuffix("at byte \(offset)"))
    }
}
