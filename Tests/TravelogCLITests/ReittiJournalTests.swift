import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogStore
import TravelogTestSupport

/// `travelog import` then `travelog visits` on Reitti's real GPSLogger day, against the visits
/// Reitti's own tests expect (../shared/fixtures/reitti/README.md).
@Suite("The journal of Reitti's real day", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct ReittiJournalTests {
    static let moltkestrasse = Coordinate(validLatitude: 53.863149, longitude: 10.700927)!
    static let stThomas = Coordinate(validLatitude: 53.86813491042206, longitude: 10.71152842314665)!

    /// Reitti's expected visits for 20250617.gpx: start, end (seconds since 1970), place.
    static let expected: [(arrival: Double, departure: Double, place: Coordinate)] = [
        (1_750_111_209.154, 1_750_138_790.330, moltkestrasse),
        (1_750_139_048.763, 1_750_139_358.965, stThomas),
        (1_750_139_890.797, 1_750_165_733.346, moltkestrasse),
        (1_750_165_953.214, 1_750_166_300.778, stThomas),
        (1_750_166_488.334, 1_750_197_584.876, moltkestrasse),
    ]

    @Test("20250617.gpx through travelog import and travelog visits: Reitti's five visits, within 5 minutes and 150 m")
    func reittiDay() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let file = SharedFixtures.url("reitti/gpx/20250617.gpx").path
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", file])
        try await ImportExportCommandTests.run(["visits", "--db", workspace.database, "--json"])
        let visits = try await JournalCommandTests.visits(workspace.database)
        try #require(visits.count == Self.expected.count, "\(visits.map(\.visit.arrival))")
        for (stored, expected) in zip(visits, Self.expected) {
            // Reitti compares its own times to the second; Travelog's detector is allowed 5 minutes.
            #expect(abs(stored.visit.arrival.timeIntervalSince1970 - expected.arrival) <= 300)
            // The recording ends during the last stay, long ago: it ends at the last fix (Reitti's
            // expected end), it is not going on.
            let departure = try #require(stored.visit.departure)
            #expect(abs(departure.timeIntervalSince1970 - expected.departure) <= 300)
            #expect(stored.visit.center.distanceMeters(to: expected.place) <= 150)
        }
        #expect(Set(visits.compactMap(\.placeID)).count == 2)
    }
}
