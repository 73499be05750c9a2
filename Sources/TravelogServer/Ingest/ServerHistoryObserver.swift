import Foundation
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogStore

/// What the server does once a write is durable: the live stream of the device's user hears of
/// it, the history tiles it lands in get new versions (and the user's tile index takes it in),
/// and the counters of `/metrics` count it.
struct ServerHistoryObserver: HistoryObserver {
    let hub: LiveHub
    let metrics: ServerMetrics
    let tiles: HistoryTiles
    /// The other server processes on the database, when they can be told (PostgreSQL).
    let relay: LiveFeedRelay?

    /// Imported history reaches the live stream only where it is this recent, seconds (an import
    /// of years is drawn when the page reloads its range, not streamed point by point).
    static let liveHorizonSeconds: TimeInterval = 86_400

    func didStore(_ locations: [Location], summary: InsertSummary, device: Device, source: LocationSource) async {
        metrics.recordIngest(source: source, summary)
        guard summary.inserted > 0 else { return }
        tiles.landed(locations, device: device)
        var live = locations
        if source == .fileImport {
            let horizon = Date().addingTimeInterval(-Self.liveHorizonSeconds)
            live = locations.filter { $0.timestamp >= horizon }
        }
        guard !live.isEmpty else { return }
        hub.publish(userID: device.userID, LiveUpdate(deviceName: device.name, source: source, locations: live))
        await relay?.announce(live, device: device, source: source)
    }

    func didQuarantine(count: Int, route: String) async {
        metrics.recordQuarantined(route: route, count: count)
    }
}

extension JournalService: JournalScheduler {
    public func historyChanged(device: Device, from first: Date, to last: Date, stored: [Location]?) async {
        enqueue(device: device, from: first, to: last, stored: stored)
    }


    public func describedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws {
        _ = try await processor.storeDescribedVisits(visits, device: device, source: source)
    }
}
