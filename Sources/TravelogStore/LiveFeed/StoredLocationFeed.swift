import Foundation

/// That a process stored locations of a device, for the other processes sharing the database (so
/// a page connected to one server process sees what another stored). It names the stretch of time,
/// not the locations: a receiver reads them from the store.
public struct StoredBatchNotice: Codable, Hashable, Sendable {
    /// The process that stored them (a receiver skips its own).
    public let origin: UUID
    public let userID: Int64
    public let deviceID: Int64
    public let source: String
    /// The first and last stored time, milliseconds since 1970.
    public let firstMilliseconds: Int64
    public let lastMilliseconds: Int64

    public init(origin: UUID, userID: UserID, deviceID: DeviceID, source: LocationSource, first: Date, last: Date) {
        self.origin = origin
        self.userID = userID.rawValue
        self.deviceID = deviceID.rawValue
        self.source = source.rawValue
        firstMilliseconds = StoragePrecision.milliseconds(first)
        lastMilliseconds = StoragePrecision.milliseconds(last)
    }
}

/// A store that several processes share, and that carries notices between them (PostgreSQL's
/// LISTEN/NOTIFY). A store of one process (SQLite, in memory) does not conform: its one process
/// hears its own writes.
public protocol StoredLocationFeed: Sendable {
    /// Tells the other processes; a failure is not the writer's (the locations are stored), so it
    /// is only logged.
    func announce(_ notice: StoredBatchNotice) async

    /// Calls `handle` with every notice of any process (its own too), reconnecting after a failure,
    /// until the calling task is cancelled.
    func followNotices(_ handle: @escaping @Sendable (StoredBatchNotice) async -> Void) async
}
