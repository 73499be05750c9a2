import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// OwnTracks Recorder logs and app messages from other projects (../shared/fixtures); the values
/// checked here were read off the files by hand.
@Suite("OwnTracksReader on real files", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct OwnTracksFixtureTests {
    static func read(_ relativePath: String) throws -> OwnTracksReading {
        try OwnTracksReading(bytes: Array(try Data(contentsOf: SharedFixtures.url(relativePath))))
    }

    @Test("Dawarich's 2024-03.rec: 9 locations (Dawarich expects 9); 2 transitions, a waypoint and an lwt skipped")
    func dawarichLog() throws {
        let reading = try Self.read("dawarich/owntracks/2024-03.rec")
        #expect(reading.records.count == 9)
        #expect(reading.locations.count == 9)
        #expect(reading.skipped == [.message(type: "transition"): 2, .message(type: "waypoint"): 1, .message(type: "lwt"): 1])
        #expect(reading.locations.first == Location(
            coordinate: try Coordinate(latitude: 52.225, longitude: 13.332), altitudeMeters: 36, horizontalAccuracyMeters: 10,
            verticalAccuracyMeters: 4, speedMetersPerSecond: Units.metersPerSecond(kilometersPerHour: 5),
            timestamp: Date(timeIntervalSince1970: 1_709_283_789)))
        let last = try #require(reading.locations.last)
        #expect(last.coordinate == (try Coordinate(latitude: 52.234, longitude: 13.341)))
        #expect(last.timestamp == Date(timeIntervalSince1970: 1_709_318_411))  // tst, not created_at or the first column
        #expect(last.courseDegrees == 43)
    }

    @Test("the Recorder's demo log: 23 fixes timed by tst (not the first column), vel and cog -1 unknown; 2 lwt skipped")
    func recorderDemo() throws {
        let reading = try Self.read("owntracks/recorder/demo-iphone.rec")
        #expect(reading.records.count == 23)
        #expect(reading.skipped == [.message(type: "lwt"): 2])
        #expect(reading.locations.first == Location(
            coordinate: try Coordinate(latitude: 52.37888580984668, longitude: 10.02785726730668), altitudeMeters: 51,
            horizontalAccuracyMeters: 3000, verticalAccuracyMeters: 29,
            timestamp: Date(timeIntervalSince1970: 1_440_395_361)))
        // The file has vel -1 on 15 lines and cog -1 on 16; one fix says vel 18 (km/h).
        #expect(reading.locations.filter { $0.speedIfKnown == nil }.count == 15)
        #expect(reading.locations.filter { $0.courseIfKnown == nil }.count == 16)
        #expect(reading.locations.contains { $0.speedMetersPerSecond == 5 })
        let times = reading.locations.map(\.timestamp)
        #expect(times == times.sorted())
    }

    @Test("the logs are detected as OwnTracks and read the same through FileFormat.makeReader",
          arguments: ["dawarich/owntracks/2024-03.rec", "owntracks/recorder/demo-iphone.rec"])
    func detected(path: String) throws {
        let viaDetection = try FileReading.readShared(path)
        #expect(viaDetection.format == .owntracks)
        #expect(viaDetection.records == (try Self.read(path)).records)
    }

    @Test("the Android app's message fixtures", arguments: [
        ("valid_location_message.json", 1, 0, nil as String?),
        ("location_deserialize_extended.json", 1, 0, nil),
        ("location_multiple_messages.json", 2, 0, nil),
        ("invalid_location_message_zero_timestamp.json", 0, 1, nil),
        ("location_empty.json", 0, 1, nil),
        ("transition_message.json", 0, 0, "transition"),
        ("waypoint_message.json", 0, 0, "waypoint"),
        ("card_message_with_tid.json", 0, 0, "card"),
        ("cmd_report_location.json", 0, 0, "cmd"),
        ("cmd_set_configuration.json", 0, 0, "cmd"),
        ("cmd_status.json", 0, 0, "cmd"),
        ("configuration_message.json", 0, 0, "configuration"),
        ("encrypted_message.json", 0, 0, "encrypted"),
    ])
    func androidFixtures(file: String, locations: Int, rejections: Int, skippedType: String?) throws {
        let reading = try Self.read("owntracks/android-fixtures/" + file)
        #expect(reading.locations.count == locations)
        #expect(reading.records.count == locations + rejections)
        #expect(reading.skipped == (skippedType.map { [.message(type: $0): 1] } ?? [:]))
    }

    @Test("Android fixture values: (0, 0) is a place, tst 0 is no time, a message without lat is rejected")
    func androidValues() throws {
        let valid = try Self.read("owntracks/android-fixtures/valid_location_message.json")
        #expect(valid.locations == [Location(coordinate: try Coordinate(latitude: 0, longitude: 0), altitudeMeters: 300,
                                             horizontalAccuracyMeters: 15, verticalAccuracyMeters: 0, speedMetersPerSecond: 0,
                                             courseDegrees: 0, timestamp: Date(timeIntervalSince1970: 1_778_266_175))])
        let extended = try Self.read("owntracks/android-fixtures/location_deserialize_extended.json")
        #expect(extended.locations.first?.coordinate == (try Coordinate(latitude: 52.3153748, longitude: 5.0408462)))
        #expect(extended.locations.first?.horizontalAccuracyMeters == 1600)
        #expect(extended.locations.first?.timestamp == Date(timeIntervalSince1970: 1_514_455_575))
        let zero = try Self.read("owntracks/android-fixtures/invalid_location_message_zero_timestamp.json")
        let reasons: [RecordRejection.Reason?] = zero.records.map { if case .rejected(let rejection) = $0 { rejection.reason } else { nil } }
        #expect(reasons == [.invalidTime("0")])
        let empty = try Self.read("owntracks/android-fixtures/location_empty.json")
        #expect(empty.records == [.rejected(RecordRejection(position: SourcePosition(byteOffset: 0, line: 1, column: 1),
                                                            reason: .missingField("lat")))])
    }
}
