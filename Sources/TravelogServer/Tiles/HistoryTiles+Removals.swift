import Foundation
import Logging
import TravelogStore

/// Deletions made by other processes on the database (`travelog retention run`, `travelog zones add
/// --drop`, a second server on PostgreSQL): this process hears only of its own, so it reads the
/// store's counts of deletions per user (`HistoryRemovalStore`, one small table) once a second and
/// renews the index of a user whose count moved. A deletion elsewhere is off the map within a second.
extension HistoryTiles {
    /// Seconds between two reads of the counts.
    static let removalCheckSeconds = 1

    /// Reads the counts once a second until cancelled (part of ``run()``).
    func followRemovals() async {
        guard let counts = store as? any HistoryRemovalStore else { return }
        var seen: [UserID: Int64]?
        var failing = false
        while !Task.isCancelled {
            do {
                let now = try await counts.historyRemovals()
                if let seen {
                    removalsCounted(Set(now.compactMap { user, count in seen[user] == count ? nil : user }))
                }
                seen = now
                failing = false
            } catch {
                // Once per outage, not every second of it.
                if !failing { logger.warning("could not read the counts of deleted fixes (tried again every second): \(error)") }
                failing = true
            }
            try? await Task.sleep(for: .seconds(Self.removalCheckSeconds))
        }
    }
}
