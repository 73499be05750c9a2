import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogJournal
import TravelogStore
import TravelogTestSupport

/// The time-zone boundaries and the gazetteer that `make` builds, loaded once for these tests.
private enum Built {
    static let timeZones = Result { () throws(TimeZoneBoundariesError) in
        try TimeZoneBoundaries(contentsOfFile: BuildData.path(TimeZoneBoundaries.defaultFileName))
    }
    static let timeZonesAbsent = BuildData.absentReason(TimeZoneBoundaries.defaultFileName, goal: "timezones",
                                                        checks: "local days against the real time-zone boundaries")
}

@Suite("Local days from the time-zone boundaries", .enabled(if: BuildData.exists(TimeZoneBoundaries.defaultFileName), Built.timeZonesAbsent))
struct PlaceTimeZonesTests {
    /// 300 m west and east of the Portuguese–Spanish border between Elvas and Badajoz.
    static let portugal = try! Coordinate(latitude: 38.88, longitude: -7.03724)
    static let spain = try! Coordinate(latitude: 38.88, longitude: -7.03031)

    /// Per-day labels and location counts of fixes fed to the statistics with these zones.
    func days(_ fixes: [(Coordinate, String)], zones: PlaceTimeZones) throws -> [String: Int] {
        var statistics = TravelStatistics(period: .day) { zones.offsetSeconds(for: $0) ?? 0 }
        for (device, (coordinate, time)) in fixes.enumerated() {
            let timestamp = try #require(ISO8601DateFormatter().date(from: time))
            statistics.ingest(Location(coordinate: coordinate, timestamp: timestamp), device: Int64(device))
        }
        return Dictionary(uniqueKeysWithValues: statistics.periods.map { ($0.label, $0.locationCount) })
    }

    @Test("at the same UTC instant, a fix 300 m inside Portugal is on the 15th and one 300 m inside Spain on the 16th")
    func sameInstantTwoDays() throws {
        let zones = PlaceTimeZones(describer: BerlinDescriber(), boundaries: try Built.timeZones.get())
        #expect(zones.timeZone(at: Self.portugal)?.identifier == "Europe/Lisbon")
        #expect(zones.timeZone(at: Self.spain)?.identifier == "Europe/Madrid")
        let fixes = [(Self.portugal, "2026-01-15T23:30:00Z"), (Self.spain, "2026-01-15T23:30:00Z")]
        #expect(try days(fixes, zones: zones) == ["2026-01-15": 1, "2026-01-16": 1])
    }

    @Test("without the boundaries, the describer's zone decides (here Berlin for both: one day)")
    func gazetteerFallback() throws {
        let zones = PlaceTimeZones(describer: BerlinDescriber())
        let fixes = [(Self.portugal, "2026-01-15T23:30:00Z"), (Self.spain, "2026-01-15T23:30:00Z")]
        #expect(try days(fixes, zones: zones) == ["2026-01-16": 2])
    }

    @Test("at sea, a fix counts on the day of its nautical zone (Etc/GMT+3 at 40° W)")
    func openSea() throws {
        let zones = PlaceTimeZones(describer: BerlinDescriber(), boundaries: try Built.timeZones.get())
        let atlantic = try Coordinate(latitude: 30, longitude: -40)
        #expect(try days([(atlantic, "2026-01-16T02:00:00Z")], zones: zones) == ["2026-01-15": 1])
    }

    @Test("a visit's place takes its zone from the boundaries when the describer has them",
          .enabled(if: BuildData.exists(Gazetteer.defaultFileName), "the gazetteer (`make gazetteer`) is absent"))
    func describedZone() throws {
        let gazetteer = try Gazetteer(contentsOfFile: BuildData.path(Gazetteer.defaultFileName))
        let describer = GazetteerDescriber(gazetteer: gazetteer, timeZones: try Built.timeZones.get())
        #expect(describer.placemark(for: Self.portugal)?.timeZone == "Europe/Lisbon")
        #expect(describer.placemark(for: Self.spain)?.timeZone == "Europe/Madrid")
    }
}
