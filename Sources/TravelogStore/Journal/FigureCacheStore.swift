import Foundation

/// A figure computed from a user's history, kept under the digest of what it was computed from
/// (`key`): a reader recomputes it when its inputs' digest differs, so a stale figure is never read.
public struct CachedFigures: Hashable, Sendable {
    /// The digest of the figure's inputs (the fixes' counts, the visits, the code's version).
    public var key: String
    /// The figure, in the reader's own encoding.
    public var payload: Data

    public init(key: String, payload: Data) {
        self.key = key
        self.payload = payload
    }
}

/// How many fixes a device has on a UTC day (days since 1970), and a number that changes when fixes
/// of the day are deleted, so a deletion followed by as many new fixes still changes the pair.
public struct DailyFixCount: Hashable, Sendable {
    public var deviceID: DeviceID
    public var day: Int
    public var count: Int
    /// SQLite counts the day's deletions (`location_days.removals`); PostgreSQL and the memory
    /// store sum the fixes' times (milliseconds).
    public var version: Int64

    public init(deviceID: DeviceID, day: Int, count: Int, version: Int64) {
        self.deviceID = deviceID
        self.day = day
        self.count = count
        self.version = version
    }
}

/// Figures derived from a user's history and kept between reads (SQLite `figure_cache`, migration
/// 027; PostgreSQL 025): the year review's figures per local day and its trips per week, so a review
/// reads the fixes of the days that changed only, and a share link's path per zoom. They go with
/// the user; nothing else reads them.
/// Not part of `TravelogStore`: callers ask `store as? any FigureCacheStore`.
public protocol FigureCacheStore: Sendable {
    /// The fixes per device and UTC day of the user's devices on `days` (days without any, and
    /// without a deletion, left out): what a kept figure's digest is made of. Every insert and
    /// deletion changes it.
    /// - Complexity: SQLite reads its day boxes (`location_days`); PostgreSQL counts the rows.
    func dailyFixCounts(userID: UserID, days: ClosedRange<Int>) async throws(StoreError) -> [DailyFixCount]
    /// The figures of `kind` kept for the slots in `slots`, by slot.
    func cachedFigures(userID: UserID, kind: String, slots: ClosedRange<Int>) async throws(StoreError) -> [Int: CachedFigures]
    /// Keeps figures of `kind` by slot, replacing what the slots held.
    func storeCachedFigures(userID: UserID, kind: String, _ figures: [Int: CachedFigures]) async throws(StoreError)
}
