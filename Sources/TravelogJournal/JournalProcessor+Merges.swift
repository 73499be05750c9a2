import Foundation
import TravelogCore
import TravelogStore

extension JournalProcessor {
    /// Keeps a merge covering the entries it joined when re-processing makes one of them longer: a
    /// merged entry lasts until the last entry it covers ends, so a stay that goes on after the
    /// merge (new fixes at the place) neither ends the merged entry early nor shows up again on
    /// its own (issue 26, found by the property test of journal decisions).
    ///
    /// A merge stores the end of its last entry as it was then (`StoredVisit.mergedUntil`); this
    /// moves it to the latest end of the visits it covers in `[from, to)`.
    /// - Complexity: one read of the device's visits in the stretch, one write per merge extended.
    func extendMerges(device: Device, from: Date?, to: Date?) async throws {
        let visits = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: from, to: to, includeHidden: true)
        for (id, until) in StoredVisit.extendedMerges(visits) {
            do {
                _ = try await store.editVisit(id: id, VisitEdit(mergedUntil: .some(until)))
            } catch StoreError.unknownVisit {
                // Replaced meanwhile by another processing, which extends it itself.
            }
        }
    }
}

extension StoredVisit {
    /// The merged visits among `visits` (of one device, in time order) that a visit they cover
    /// outlasts, with the end they should have: the latest end of what they cover.
    /// - Complexity: O(n).
    static func extendedMerges(_ visits: [StoredVisit]) -> [(VisitID, Date)] {
        var head: (id: VisitID, until: Date, extended: Bool)?
        var result: [(VisitID, Date)] = []
        func close() {
            if let head, head.extended { result.append((head.id, head.until)) }
            head = nil
        }
        for stored in visits {
            if let current = head, stored.visit.arrival <= current.until {
                if let end = stored.shownDeparture, end > current.until { head = (current.id, end, true) }
                continue
            }
            close()
            if let until = stored.mergedUntil { head = (stored.id, until, false) }
        }
        close()
        return result
    }
}
