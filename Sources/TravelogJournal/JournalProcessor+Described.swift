import Foundation
import TravelogCore
import TravelogStore

extension JournalProcessor {
    /// Leaves out the detected visits that a visit the data described itself (Google's, Overland's)
    /// already accounts for: same device, overlapping in time, centers within both radii plus the
    /// store's matching slack. The described visit is the better account of that stay (it carries
    /// the source's name for it), and one the person deleted still accounts for it, so the stay
    /// does not come back as a detected entry.
    /// - Complexity: O(n·m) for n detected and m described visits in the stretch (a few a day).
    func withoutDescribed(_ detected: [JournalVisit], device: Device, from: Date?, to: Date?) async throws -> [JournalVisit] {
        let described = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: from, to: to,
                                               includeHidden: true)
            .map(\.visit).filter { $0.source != .detected }
        guard !described.isEmpty else { return detected }
        return detected.filter { visit in
            !described.contains { stay in
                visit.overlaps(arrival: stay.arrival, departure: stay.departure)
                    && visit.center.distanceMeters(to: stay.center)
                        <= visit.radiusMeters + stay.radiusMeters + VisitReplacementPlan.matchingSlackMeters
            }
        }
    }
}
