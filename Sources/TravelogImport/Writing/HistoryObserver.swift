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
    /// - Parameter stored: the fixes the write added, when it added exactly these (no repeats
    ///   skipped), so that the journal can go on from them without reading them back.
    func historyChanged(device: Device, from first: Date, to last: Date, stored: [Location]?) async
    /// The data described stays of its own (Google's visits, Overland's visit actions).
    func describedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws
    /// A write for the user is under way: until `writeEnded`, the journal holds back the user's
    /// fixes the write may come before (all of them until `writeReached` says where it starts), so
    /// that uploads in flight together are taken in time order, not in the order they commit.
    func writeBegan(userID: UserID) -> JournalWriteHold
    /// The write's fixes start at `earliest` (it holds back only what is later).
    func writeReached(_ hold: JournalWriteHold, earliest: Date)
    /// The write is stored and reported (`historyChanged`), or failed.
    func writeEnded(_ hold: JournalWriteHold)
}

/// One write under way, as a journal scheduler knows it.
public struct JournalWriteHold: Sendable, Hashable {
    public var userID: UserID
    public var number: UInt64

    public init(userID: UserID, number: UInt64) {
        self.userID = userID
        self.number = number
    }
}

extension JournalScheduler {
    /// A scheduler that processes at once (the command line) holds nothing back.
    public func writeBegan(userID: UserID) -> JournalWriteHold { JournalWriteHold(userID: userID, number: 0) }
    public func writeReached(_ hold: JournalWriteHold, earliest: Date) {}
    public func writeEnded(_ hold: JournalWriteHold) {}
}

/// Hears nothing (a writer with no live stream, tests).
public struct SilentHistoryObserver: HistoryObserver {
    public init() {}
    public func didStore(_ locations: [Location], summary: InsertSummary, device: Device, source: LocationSource) async {}
    public func didQuarantine(count: Int, route: String) async {}
}
