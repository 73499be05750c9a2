import Foundation
import TravelogCore
import TravelogStore

/// What hears of a write once it is durable: the server's live stream and metrics, and the journal.
public protocol HistoryObserver: Sendable {
    /// Locations were stored for a device (`summary` counts the new ones and the repeats).
    func didStore(_ locations: [Location], summary: InsertSummary, device: Device, source: LocationSource) async
    /// Items were set aside for the user (`count` new ones) on a route.
    func didQuarantine(count: Int, route: String) async
}

/// Keeps the journal current after a write: the server re-processes in the background, the command
/// line right away.
public protocol JournalScheduler: Sendable {
    /// The stretch from `first` to `last` of the device's history changed.
    func historyChanged(device: Device, from first: Date, to last: Date) async
    /// The data described stays of its own (Google's visits, Overland's visit actions).
    func describedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws
}

/// Hears nothing (a writer with no live stream, tests).
public struct SilentHistoryObserver: HistoryObserver {
    public init() {}
    public func didStore(_ locations: [Location], summary: InsertSummary, device: Device, source: LocationSource) async {}
    public func didQuarantine(count: Int, route: String) async {}
}
