import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogImport
import TravelogJournal
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// Issue 10 item 7 with the real time-zone boundaries loaded, as `travelog stats` and `travelog serve`
/// load them: the CLI's figures, the API's (which the page's chart and timeline draw) and a count
/// made here from each fix's zone agree on which local day every fix belongs to.
@Suite("One truth for the CLI and the API with the time-zone boundaries",
       .enabled(if: BuildData.exists(TimeZoneBoundaries.defaultFileName),
                BuildData.absentReason(TimeZoneBoundaries.defaultFileName, goal: "timezones",
                                       checks: "that the CLI and the API count local days alike with the real boundaries")))
struct BorderDayAgreementTests {
    static let boundaries = Result { () throws(TimeZoneBoundariesError) in
        try TimeZoneBoundaries(contentsOfFile: BuildData.path(TimeZoneBoundaries.defaultFileName))
    }
    /// 300 m each side of the Portuguese–Spanish border between Elvas and Badajoz (one hour apart
    /// in winter; the test gazetteer's nearest place, Berlin, would put both in Spain's offset).
    static let portugal = (Coordinate(validLatitude: 38.88, longitude: -7.03724)!, "Europe/Lisbon")
    static let spain = (Coordinate(validLatitude: 38.88, longitude: -7.03031)!, "Europe/Madrid")

    /// Three January nights, 22:00–01:55 UTC, a fix every 5 minutes, half-hours alternating between
    /// the Portuguese and the Spanish side: the hour before midnight UTC is the next day in Spain only.
    static func fixes() -> [(Location, String)] {
        let start = Date(timeIntervalSince1970: 1_768_514_400)  // 2026-01-15T22:00:00Z
        var fixes: [(Location, String)] = []
        for night in 0..<3 {
            for step in 0..<48 {
                let time = start.addingTimeInterval(Double(night) * 86_400 + Double(step) * 300)
                let (coordinate, zone) = (step / 6) % 2 == 0 ? portugal : spain
                fixes.append((Location(coordinate: coordinate, timestamp: time), zone))
            }
        }
        return fixes
    }

    /// Locations per local day, each fix on its own zone's calendar: the truth the outputs must tell.
    static func expectedDays(allIn onlyZone: String? = nil) -> [String: Int] {
        var days: [String: Int] = [:]
        for (location, zone) in fixes() {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: onlyZone ?? zone)!
            let parts = calendar.dateComponents([.year, .month, .day], from: location.timestamp)
            days[String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!), default: 0] += 1
        }
        return days
    }

    @Test("fixes either side of the Portugal–Spain border around midnight: the CLI's days, the API's and each fix's own zone agree")
    func borderNights() async throws {
        let zones = try Self.boundaries.get()
        let fixture = try await ServerFixture.make(timeZones: zones)
        let store = fixture.app.store
        _ = try await store.insert(Self.fixes().map { StoredLocation(deviceID: fixture.adaPhone.id, location: $0.0, source: .api) })
        let expected = Self.expectedDays()
        #expect(expected.count == 4, "the three nights touch four local days: \(expected)")
        #expect(expected != Self.expectedDays(allIn: "Europe/Madrid") && expected != Self.expectedDays(allIn: "Europe/Lisbon"),
                "the border matters: one zone for every fix would count other days")

        // The CLI: `travelog stats --by day` builds its zones so (StatsCommand).
        let cliZones = PlaceTimeZones(describer: GazetteerDescriber(gazetteer: try ServerFixture.gazetteer()), boundaries: zones)
        let (cliPeriods, cliTotal) = try await HistoryStatistics.compute(
            store: store, userID: fixture.ada.id, devices: try await store.devices(userID: fixture.ada.id),
            from: nil, to: nil, period: .day, timeZone: TimeZone(identifier: "UTC")!,
            placeOffsetSeconds: { cliZones.offsetSeconds(for: $0) })
        let cli = try #require(try JSONSerialization.jsonObject(with: HistoryStatistics.json(cliPeriods, total: cliTotal, units: .metric))
                               as? [String: Any])
        let cliDays = Self.days(cli)
        #expect(cliDays == expected)
        let cliMeters = try #require((cli["total"] as? [String: Any])?["distanceMeters"] as? Double)

        try await fixture.test { client in
            // The API: what the page's chart and timeline draw, whatever zone the browser is in.
            for browserZone in ["UTC", "Europe/Lisbon", "Asia/Tokyo"] {
                let body = try await client.execute(uri: "/api/v1/stats?by=day&timezone=\(browserZone)", method: .get,
                                                    headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                    #expect(response.status == .ok)
                    return try #require(response.body.json as? [String: Any])
                }
                #expect(Self.days(body) == expected, "browser in \(browserZone)")
                #expect((body["total"] as? [String: Any])?["locations"] as? Int == Self.fixes().count)
                #expect((body["total"] as? [String: Any])?["distanceMeters"] as? Double == cliMeters)
            }
        }
    }

    /// Locations per period label of a statistics answer.
    static func days(_ body: [String: Any]) -> [String: Int] {
        let periods = body["periods"] as? [[String: Any]] ?? []
        return Dictionary(periods.compactMap { period in
            (period["period"] as? String).flatMap { label in (period["locations"] as? Int).map { (label, $0) } }
        }, uniquingKeysWith: +)
    }
}
