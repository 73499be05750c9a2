import Foundation
import Testing
@testable import TravelogFormats

/// The battery the phone apps send with a fix, read for the device's status (never a reason to
/// reject the fix).
@Suite("Battery levels in OwnTracks and Overland records")
struct BatteryReadingTests {
    static func batteries(_ records: [FormatRecord]) -> [String] {
        records.map { record in
            guard case .point(let point) = record else { return "not a point" }
            return "\(point.batteryPercent.map { String(Int($0.rounded())) } ?? "-") \(point.isCharging.map(String.init) ?? "-")"
        }
    }

    @Test("Overland's battery_level (0–1) and battery_state, by the fast path and the event-by-event one", arguments: [true, false])
    func overland(fast: Bool) {
        let features = [
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-05-01T10:00:00Z","battery_level":0.54,"battery_state":"charging"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-05-01T10:00:01Z","battery_level":0.5,"battery_state":"unplugged"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-05-01T10:00:02Z","battery_level":1.7,"battery_state":"unknown"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-05-01T10:00:03Z","battery_level":"low","battery_state":"full"}}"#,
        ]
        let outcome = GeoJSONFastPathTests.read(#"{"locations":[\#(features.joined(separator: ","))]}"#, fast: fast)
        #expect(outcome.error == nil)
        #expect(Self.batteries(outcome.records) == ["54 true", "50 false", "- -", "- true"], "a wrong level is no level; the fix stays")
    }

    @Test("OwnTracks' batt and bs (1 unplugged, 2 charging, 3 full)")
    func owntracks() throws {
        let lines = [
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557600,"batt":54,"bs":2}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557601,"batt":80,"bs":1}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557602,"batt":130,"bs":0}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557603,"bs":3}"#,
        ]
        let reading = try OwnTracksReading("[" + lines.joined(separator: ",") + "]")
        #expect(Self.batteries(reading.records) == ["54 true", "80 false", "- -", "- true"])
    }
}
