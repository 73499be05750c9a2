import Foundation
import TravelogCore
import TravelogJournal
import TravelogStore

/// The command line keeps the journal current right away: the stretch a write changed is
/// re-processed before the command goes on.
extension JournalProcessor: JournalScheduler {
    public func historyChanged(device: Device, from first: Date, to last: Date, stored: [Location]?) async {
        _ = try? await process(device: device, from: first, to: last)
    }

    public func describedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws {
        _ = try await storeDescribedVisits(visits, device: device, source: source)
    }
}
