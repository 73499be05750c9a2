import Foundation
import Synchronization
import TravelogCore
import TravelogStore

/// Why a privacy zone could not be added or removed.
public enum ZoneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The user has a zone of this name already.
    case nameTaken(String)
    /// The user has as many zones as one may have.
    case tooMany(maximum: Int)
    /// The user has no zone of this name or id.
    case unknownZone(String)
    case store(StoreError)

    public var description: String {
        switch self {
        case .nameTaken(let name): "a zone named '\(name)' exists already"
        case .tooMany(let maximum): "a user may have at most \(maximum) zones: remove one first"
        case .unknownZone(let zone): "no zone '\(zone)'"
        case .store(let error): error.description
        }
    }
}

/// A user's privacy zones: adding (a name used once), listing, removing, how many stored fixes lie
/// inside a zone, and what others may see (`visibility`). The command line and the API both go
/// through it.
public struct PrivacyZones: Sendable {
    public let store: any TravelogStore

    public init(store: any TravelogStore) {
        self.store = store
    }

    public func add(_ definition: ZoneDefinition, userID: UserID, now: Date = Date()) async throws(ZoneError) -> StoredZone {
        let existing = try await list(userID: userID)
        guard !existing.contains(where: { $0.definition.name == definition.name }) else { throw .nameTaken(definition.name) }
        guard existing.count < StoredZone.maximumPerUser else { throw .tooMany(maximum: StoredZone.maximumPerUser) }
        do { return try await store.addZone(definition, userID: userID, at: now) } catch { throw .store(error) }
    }

    public func list(userID: UserID) async throws(ZoneError) -> [StoredZone] {
        do { return try await store.zones(userID: userID) } catch { throw .store(error) }
    }

    /// Removes the user's zone with this name (or, failing that, this id). - Returns: the zone removed.
    @discardableResult
    public func remove(_ nameOrID: String, userID: UserID) async throws(ZoneError) -> StoredZone {
        let zones = try await list(userID: userID)
        guard let zone = zones.first(where: { $0.definition.name == nameOrID }) ?? zones.first(where: { $0.id.description == nameOrID })
        else { throw .unknownZone(nameOrID) }
        try await remove(id: zone.id, userID: userID)
        return zone
    }

    public func remove(id: ZoneID, userID: UserID) async throws(ZoneError) {
        let removed: Bool
        do { removed = try await store.removeZone(id: id, userID: userID) } catch { throw .store(error) }
        guard removed else { throw .unknownZone(id.description) }
    }

    /// The fixes a zone's deletion took, and the stretch of each device they lay in (for the
    /// journal and the map to read anew).
    public struct DeletedFixes: Sendable, Equatable {
        public var count = 0
        public var spans: [DeviceID: ClosedRange<Date>] = [:]
    }

    /// How many of the user's stored fixes lie inside an area (what a new drop zone would delete).
    /// - Complexity: reads the fixes in the zone's latitude/longitude box (every fix for a zone
    ///   across the 180th meridian) and tests each.
    public func storedFixesInside(_ definition: ZoneDefinition, userID: UserID) async throws(ZoneError) -> Int {
        try await fixesInside(definition, userID: userID).count
    }

    /// Deletes the user's stored fixes inside an area.
    public func deleteStoredFixes(inside definition: ZoneDefinition, userID: UserID) async throws(ZoneError) -> DeletedFixes {
        let inside = try await fixesInside(definition, userID: userID)
        var deleted = DeletedFixes()
        do { deleted.count = try await store.deleteLocations(inside.map(\.key), userID: userID) } catch { throw .store(error) }
        for stored in inside {
            let time = stored.location.timestamp
            let span = deleted.spans[stored.deviceID]
            deleted.spans[stored.deviceID] = min(span?.lowerBound ?? time, time)...max(span?.upperBound ?? time, time)
        }
        return deleted
    }

    private func fixesInside(_ definition: ZoneDefinition, userID: UserID) async throws(ZoneError) -> [StoredLocation] {
        let filter = ZoneFilter([StoredZone(id: ZoneID(rawValue: 0), userID: userID, definition: definition, createdAt: Date())],
                                rules: [definition.rule])
        let found = Mutex<[StoredLocation]>([])
        do {
            try await store.forEachBatch(LocationQuery(userID: userID, area: definition.coordinateBox), batchSize: 20_000) { batch in
                let inside = batch.filter { filter.contains($0.location.coordinate) }
                found.withLock { $0.append(contentsOf: inside) }
            }
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(operation: "reading fixes inside a zone", message: String(describing: error)))
        }
        return found.withLock { $0 }
    }

    /// What anyone but the owner may see of the owner's history, as the zones are now: read for
    /// each request, so a zone added or removed applies to the next one, in every server process.
    /// Share links read through it (friends will).
    public func visibility(userID: UserID) async throws(StoreError) -> ZoneFilter {
        ZoneFilter.hiding(try await store.zones(userID: userID))
    }
}
