import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

extension HistoryWriter {
    /// Takes out the fixes (and the stays a file describes) inside the user's drop zones, before
    /// anything is stored, and counts them per UTC day. The zones are read for every write, so a
    /// zone added applies to the next batch, whichever process added it.
    /// - Returns: how many fixes were dropped.
    /// - Throws: `StoreError` when the zones cannot be read or the count kept (nothing is stored then).
    func dropInsideZones(_ locations: inout [Location], visits: inout [FormatVisit], userID: UserID) async throws(StoreError) -> Int {
        guard !locations.isEmpty || !visits.isEmpty, let zoneStore = store as? any ZoneStore else { return 0 }
        let filter = ZoneFilter.dropping(try await zoneStore.zones(userID: userID))
        guard !filter.isEmpty else { return 0 }
        var countsByDay: [String: Int] = [:]
        locations.removeAll { location in
            guard filter.contains(location.coordinate) else { return false }
            countsByDay[ZoneDropCount.day(of: location.timestamp), default: 0] += 1
            return true
        }
        visits.removeAll { filter.contains($0.coordinate) }
        try await zoneStore.recordZoneDrops(userID: userID, countsByDay: countsByDay)
        return countsByDay.values.reduce(0, +)
    }
}
