import Foundation
import TravelogCore
import TravelogStore

/// A person's history in the store, as `travelog photos geotag|add` and the server's uploads read
/// it: their fixes (of some devices, or all), the journal's visits, and the zone of where they were
/// (`zoneAt`: time-zone boundaries or the gazetteer, else the offset the fix's source wrote).
public struct PhotoStoreHistory: PhotoHistory {
    let store: any LocationStore & JournalStore
    let userID: UserID
    /// `nil`: all of the user's devices.
    let deviceIDs: Set<DeviceID>?
    let zoneAt: (@Sendable (Coordinate) -> TimeZone?)?

    public init(store: any LocationStore & JournalStore, userID: UserID, deviceIDs: Set<DeviceID>?,
                zoneAt: (@Sendable (Coordinate) -> TimeZone?)?) {
        self.store = store
        self.userID = userID
        self.deviceIDs = deviceIDs
        self.zoneAt = zoneAt
    }

    public func fixes(around instant: Date) async throws -> (before: Location?, after: Location?) {
        // `to` is exclusive: a fix at the photo's very millisecond counts as before.
        let before = try await store.locations(LocationQuery(userID: userID, deviceIDs: deviceIDs, to: instant.addingTimeInterval(0.001),
                                                             limit: 1, newestFirst: true)).first
        let after = try await store.locations(LocationQuery(userID: userID, deviceIDs: deviceIDs, from: instant, limit: 1)).first
        return (before?.location, after?.location)
    }

    public func visits(holding instant: Date) async throws -> [PhotoPlacer.Visit] {
        try await store.visits(userID: userID, deviceIDs: deviceIDs, from: instant, to: instant.addingTimeInterval(0.001), includeHidden: false)
            .map { PhotoPlacer.Visit(arrival: $0.visit.arrival, departure: $0.shownDeparture, center: $0.visit.center,
                                     radiusMeters: $0.visit.radiusMeters) }
            .filter { $0.contains(instant) }
    }

    public func timeZone(near instant: Date) async throws -> TimeZone? {
        let day: TimeInterval = 86_400
        let (before, after) = (
            try await store.locations(LocationQuery(userID: userID, deviceIDs: deviceIDs, from: instant.addingTimeInterval(-day),
                                                    to: instant.addingTimeInterval(0.001), limit: 1, newestFirst: true)).first,
            try await store.locations(LocationQuery(userID: userID, deviceIDs: deviceIDs, from: instant,
                                                    to: instant.addingTimeInterval(day), limit: 1)).first)
        let nearest = [before, after].compactMap { $0?.location }
            .min { abs($0.timestamp.timeIntervalSince(instant)) < abs($1.timestamp.timeIntervalSince(instant)) }
        guard let nearest else { return nil }
        if let zone = zoneAt?(nearest.coordinate) { return zone }
        return nearest.utcOffsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) }
    }
}
