import Foundation
import TravelogCore

/// The journal's part of a store: visits (detected and from files), the person's decisions about
/// them, and places. Every backend passes the same conformance suite.
///
/// Re-processing a stretch of history replaces its visits but keeps what the person decided: a
/// refined visit keeps its row (identity, title, hidden flag, merge, place) when it overlaps the
/// old one in time and place; a hidden visit stays hidden, and a hidden row is kept even when
/// nothing matches it any more, so a visit that comes back later is hidden again.
public protocol JournalStore: Sendable {
    /// Replaces the visits of `source` of a device whose arrival lies in `[from, to)` (to the end of
    /// time when `to` is `nil`) with `visits`, in one transaction.
    /// - Returns: what is new and what was completed, for notifications.
    func replaceVisits(deviceID: DeviceID, source: VisitSource, from: Date, to: Date?,
                       with visits: [JournalVisit]) async throws(StoreError) -> VisitChanges

    /// A user's visits (hidden ones only when asked), oldest first, optionally limited to devices
    /// and to visits that overlap `[from, to)`.
    func visits(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                includeHidden: Bool) async throws(StoreError) -> [StoredVisit]

    func visit(id: VisitID) async throws(StoreError) -> StoredVisit?

    /// Applies a person's edit. - Throws: `StoreError.unknownVisit`.
    func editVisit(id: VisitID, _ edit: VisitEdit) async throws(StoreError) -> StoredVisit

    func places(userID: UserID) async throws(StoreError) -> [StoredPlace]
    func addPlace(userID: UserID, name: String?, center: Coordinate, radiusMeters: Double) async throws(StoreError) -> StoredPlace
    /// Renames a place (`nil` removes the name). - Throws: `StoreError.unknownPlace`.
    func renamePlace(id: PlaceID, name: String?) async throws(StoreError) -> StoredPlace

    /// Files visits under places, all in one transaction.
    /// - Throws: `StoreError.unknownVisit`, `StoreError.unknownPlace` (then nothing changes).
    func assignPlaces(_ assignments: [VisitID: PlaceID]) async throws(StoreError)
}

/// How replacing a stretch of visits maps onto the stored rows; computed the same way for every
/// backend, which then applies it in one transaction.
package struct VisitReplacementPlan {
    /// Rows that take the refined values (their decisions stay).
    package var updates: [(row: StoredVisit, visit: JournalVisit)] = []
    package var inserts: [JournalVisit] = []
    /// Rows that no refined visit matches (hidden rows are kept, see `JournalStore`).
    package var deletes: [VisitID] = []

    /// How close in metres a refined visit's center must be to the stored one's (beyond both
    /// radii) for it to keep the stored row and its decisions.
    package static let matchingSlackMeters: Double = 100

    package init(existing rows: [StoredVisit], replacements visits: [JournalVisit]) {
        var taken = Set<Int>()
        for visit in visits {
            if let index = Self.matchIndex(for: visit, in: rows, taken: taken) {
                taken.insert(index)
                // Re-processing without a gazetteer keeps the description the visit had.
                var refined = visit
                if refined.placemark == nil { refined.placemark = rows[index].visit.placemark }
                updates.append((rows[index], refined))
            } else {
                inserts.append(visit)
            }
        }
        deletes = rows.indices.filter { !taken.contains($0) && !rows[$0].hidden }.map { rows[$0].id }
    }

    /// The changes to report once applied: `inserted` are the stored forms of `inserts`.
    package func changes(inserted: [StoredVisit]) -> VisitChanges {
        var changes = VisitChanges()
        for stored in inserted where !stored.hidden {
            changes.arrived.append(stored)
            if stored.visit.departure != nil { changes.completed.append(stored) }
        }
        for (row, visit) in updates where !row.hidden && row.visit.departure == nil && visit.departure != nil {
            var updated = row
            updated.visit = visit
            changes.completed.append(updated)
        }
        return changes
    }

    /// The same arrival first, else an untaken row that overlaps in time and lies near.
    static func matchIndex(for visit: JournalVisit, in rows: [StoredVisit], taken: Set<Int>) -> Int? {
        if let exact = rows.indices.first(where: { !taken.contains($0) && rows[$0].visit.arrival == visit.arrival }) {
            return exact
        }
        return rows.indices.first { index in
            guard !taken.contains(index) else { return false }
            let row = rows[index].visit
            guard visit.overlaps(arrival: row.arrival, departure: row.departure) else { return false }
            let distance = visit.center.distanceMeters(to: row.center)
            return distance <= visit.radiusMeters + row.radiusMeters + matchingSlackMeters
        }
    }
}
