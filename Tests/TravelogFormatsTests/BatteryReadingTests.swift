import Foundation
import Testing
import TravelogCore
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

    @Test("OwnTracks' tid, conn, SSID, BSSID, m and inregions are the phone's status; a wrong kind of value is no value, never a lost fix")
    func owntracksStatus() throws {
        let lines = [
            #"{"_type":"location","tid":"ph","lat":52.5,"lon":13.4,"tst":1714557600,"conn":"w","SSID":"home","BSSID":"aa:bb:cc:dd:ee:ff","m":1,"inregions":["home","garden"]}"#,
            #"{"_type":"location","tid":"ph","lat":52.5,"lon":13.4,"tst":1714557601,"conn":"m","m":2}"#,
            #"{"_type":"location","tid":7,"lat":52.5,"lon":13.4,"tst":1714557602,"conn":{"x":1},"SSID":null,"m":"fast","inregions":"home"}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557603,"m":9,"inregions":["a",1,{"b":2},["c"],null,"d"]}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557604,"batt":50}"#,
        ]
        let reading = try OwnTracksReading("[" + lines.joined(separator: ",") + "]")
        let statuses = reading.records.map { record -> PhoneStatus?? in
            if case .point(let point) = record { .some(point.phoneStatus) } else { nil }
        }
        #expect(reading.locations.count == 5, "every fix is kept")
        #expect(statuses[0] == PhoneStatus(trackerID: "ph", connection: .wifi, wifiName: "home", wifiAccessPoint: "aa:bb:cc:dd:ee:ff",
                                           monitoringMode: .significant, regions: ["home", "garden"]))
        #expect(statuses[0]??.summary == #"Wi-Fi "home" · significant changes · in home, garden"#)
        #expect(statuses[1] == PhoneStatus(trackerID: "ph", connection: .mobile, monitoringMode: .move), "left out: in no region")
        #expect(statuses[2] == .some(nil), "nothing of the right kind: no status")
        #expect(statuses[3] == PhoneStatus(regions: ["a", "d"]), "an unknown mode is none; the regions' strings are kept")
        #expect(statuses[4] == .some(nil))
    }

    @Test("OwnTracks' p, t, inrids, created_at and _id are kept with the status; out of range or of the wrong kind, left out, the fix kept")
    func owntracksStatusRest() throws {
        let lines = [
            #"{"_type":"location","tid":"ph","lat":52.5,"lon":13.4,"tst":1714557600,"p":101.325,"t":"u","inregions":["home"],"inrids":["5f1d8c7e"],"created_at":1714557590,"_id":"a1b2c3d4"}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557601,"p":9999,"t":"z","inrids":7,"created_at":-5,"_id":{"x":1}}"#,
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557602,"p":"99.1","t":"t","created_at":"1714557600"}"#,
        ]
        let reading = try OwnTracksReading("[" + lines.joined(separator: ",") + "]")
        let statuses = reading.records.map { record -> PhoneStatus?? in
            if case .point(let point) = record { .some(point.phoneStatus) } else { nil }
        }
        #expect(reading.locations.count == 3, "every fix is kept")
        let first = PhoneStatus(trackerID: "ph", regions: ["home"], regionIDs: ["5f1d8c7e"], pressureKilopascals: 101.325, trigger: .manual,
                                createdAt: Date(timeIntervalSince1970: 1_714_557_590), messageID: "a1b2c3d4")
        #expect(statuses[0] == first)
        #expect(statuses[0]??.summary == "in home · 1013 hPa")
        #expect(statuses[1] == .some(nil), "nothing of the right kind or in range: no status")
        #expect(statuses[2] == PhoneStatus(pressureKilopascals: 99.1, trigger: .timer, createdAt: Date(timeIntervalSince1970: 1_714_557_600)),
                "numbers written as strings are read")
        // Kept as the stores keep it, and a status stored before these were kept still reads.
        #expect(try JSONDecoder().decode(PhoneStatus.self, from: JSONEncoder().encode(first)) == first)
        #expect(try JSONDecoder().decode(PhoneStatus.self, from: Data(#"{"monitoringMode":"move","regions":["home"],"trackerID":"ph"}"#.utf8))
                == PhoneStatus(trackerID: "ph", monitoringMode: .move, regions: ["home"]))
    }
}
