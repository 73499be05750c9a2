import Foundation
import Logging
import ServiceLifecycle
import TravelogCore
import TravelogStore

/// The live stream across server processes on one database: tells the others what this process
/// stored, and hands what they stored to this process's live subscribers (read back from the
/// store, since a notice names only the device and the stretch of time).
final class LiveFeedRelay: Service, Sendable {
    /// This process, as notices name it.
    let origin = UUID()
    let feed: any StoredLocationFeed
    let store: any TravelogStore
    let hub: LiveHub
    /// This process's history tile indices: another process's fixes join them too, so the map's
    /// tiles and a share link's show them.
    let tiles: HistoryTiles?
    let logger: Logger

    init(feed: any StoredLocationFeed, store: any TravelogStore, hub: LiveHub, tiles: HistoryTiles? = nil, logger: Logger) {
        self.feed = feed
        self.store = store
        self.hub = hub
        self.tiles = tiles
        self.logger = logger
    }

    /// Tells the other processes that `locations` of `device` were stored.
    func announce(_ locations: [Location], device: Device, source: LocationSource) async {
        guard let first = locations.map(\.timestamp).min(), let last = locations.map(\.timestamp).max() else { return }
        await feed.announce(StoredBatchNotice(origin: origin, userID: device.userID, deviceID: device.id, source: source,
                                              first: first, last: last))
    }

    /// Relays the other processes' notices until the server shuts down.
    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await self.feed.followNotices { notice in await self.relay(notice) }
        }
    }

    private func relay(_ notice: StoredBatchNotice) async {
        guard notice.origin != origin else { return }
        let userID = UserID(rawValue: notice.userID), deviceID = DeviceID(rawValue: notice.deviceID)
        // Read only when someone here watches, or this process holds the user's tile index (one not
        // built yet will read these fixes from the store when it is).
        let live = hub.subscriberCount > 0, indexed = tiles?.knows(userID: userID) ?? false
        guard live || indexed else { return }
        do {
            guard let device = try await store.device(id: deviceID), device.userID == userID else { return }
            let query = LocationQuery(userID: userID, deviceIDs: [deviceID],
                                      from: StoragePrecision.date(milliseconds: notice.firstMilliseconds),
                                      to: StoragePrecision.date(milliseconds: notice.lastMilliseconds + 1))
            let locations = try await store.locations(query).map(\.location)
            guard !locations.isEmpty else { return }
            if indexed { tiles?.landedElsewhere(locations, device: device) }
            guard live else { return }
            hub.publish(userID: userID, LiveUpdate(deviceName: device.name, source: LocationSource(rawValue: notice.source) ?? .api,
                                                   locations: locations))
        } catch {
            logger.warning("could not read locations another process stored: \(error)")
        }
    }
}
