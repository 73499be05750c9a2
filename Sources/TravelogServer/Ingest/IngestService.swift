import Foundation
import TravelogCore
import TravelogStore

/// The one way locations from the network enter the store: one atomic, durable insert per request
/// (duplicates of stored fixes are recognised by their key and not stored again, so a retried batch
/// changes nothing), then the live subscribers and the counters hear of it. A request is answered
/// only after this returns.
public final class IngestService: Sendable {
    let store: any LocationStore
    let hub: LiveHub
    let metrics: ServerMetrics
    let journal: JournalService

    public init(store: any LocationStore, hub: LiveHub, metrics: ServerMetrics, journal: JournalService) {
        self.store = store
        self.hub = hub
        self.metrics = metrics
        self.journal = journal
    }

    /// Stores a batch for a device. - Returns: how many were new and how many were known.
    @discardableResult
    func store(_ locations: [Location], device: Device, source: LocationSource) async throws(APIError) -> InsertSummary {
        guard !locations.isEmpty else { return InsertSummary() }
        let batch = locations.map { StoredLocation(deviceID: device.id, location: $0, source: source) }
        let summary: InsertSummary
        do {
            summary = try await store.insert(batch)
        } catch {
            throw .storeFailed(error)
        }
        metrics.recordIngest(source: source, summary)
        if summary.inserted > 0 {
            hub.publish(userID: device.userID,
                        LiveUpdate(deviceName: device.name, source: source, locations: batch.map(\.location)))
            journal.enqueue(device: device, locations: locations)
        }
        return summary
    }

    /// The device a request writes to: the one whose token it presented, or, for a user who logged
    /// in with a password or the page's session, the named device (created on first use).
    func device(for identity: Identity, named name: String?, app: DeviceApp?) async throws(APIError) -> Device {
        if let device = identity.device { return device }
        let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? app?.rawValue ?? "api"
        do throws(StoreError) {
            if let existing = try await store.device(named: name, userID: identity.user.id) { return existing }
            do throws(StoreError) {
                let device = try await store.addDevice(named: name, userID: identity.user.id)
                if let app { try await store.setApp(app, deviceID: device.id) }
                return try await store.device(id: device.id) ?? device
            } catch .deviceExists {
                // Created by a concurrent request in the meantime.
                if let existing = try await store.device(named: name, userID: identity.user.id) { return existing }
                throw .deviceExists(name: name)
            }
        } catch {
            throw .storeFailed(error)
        }
    }
}
