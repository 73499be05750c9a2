import Foundation
import Synchronization
import TravelogCore

/// A store that keeps everything in memory: for tests and for trying things out.
/// - Complexity: inserts O(1) per location (hash of the key); queries scan the user's locations.
public final class InMemoryLocationStore: LocationStore {
    struct State {
        var users: [UserID: User] = [:]
        var devices: [DeviceID: Device] = [:]
        var locations: [DeviceID: [StoredLocation]] = [:]
        var keys: Set<LocationKey> = []
        var imports: [ImportID: ImportRecord] = [:]
        var passwordHashes: [UserID: String] = [:]
        var tokenDigests: [SecretDigest: DeviceID] = [:]
        var sessions: [SecretDigest: SessionRecord] = [:]
        var visits: [VisitID: StoredVisit] = [:]
        var places: [PlaceID: StoredPlace] = [:]
        var channels: [ChannelID: NotificationChannel] = [:]
        var deliveries: [DeliveryID: Delivery] = [:]
        var nextID: Int64 = 1

        mutating func makeID() -> Int64 {
            defer { nextID += 1 }
            return nextID
        }

        /// Inserts rounded copies; the caller has checked the devices exist.
        mutating func insert(_ batch: [StoredLocation]) -> InsertSummary {
            var summary = InsertSummary()
            for var stored in batch {
                stored.location = StoragePrecision.rounded(stored.location)
                if keys.insert(stored.key).inserted {
                    locations[stored.deviceID, default: []].append(stored)
                    summary.inserted += 1
                } else {
                    summary.duplicates += 1
                }
            }
            return summary
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Runs `body` with the state locked (for the extension files).
    func withState<T>(_ body: (inout State) throws(StoreError) -> T) throws(StoreError) -> T {
        try state.withLock { (state) throws(StoreError) -> T in try body(&state) }
    }

    func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }

    public func addUser(named name: String) async throws(StoreError) -> User {
        let name = try AccountName.validated(name)
        return try state.withLock { (state) throws(StoreError) -> User in
            guard !state.users.values.contains(where: { $0.name == name }) else { throw .userExists(name: name) }
            let user = User(id: UserID(rawValue: state.makeID()), name: name, createdAt: Date())
            state.users[user.id] = user
            return user
        }
    }

    public func user(named name: String) async throws(StoreError) -> User? {
        state.withLock { $0.users.values.first { $0.name == name } }
    }

    public func user(id: UserID) async throws(StoreError) -> User? {
        state.withLock { $0.users[id] }
    }

    public func users() async throws(StoreError) -> [User] {
        state.withLock { $0.users.values.sorted { $0.name < $1.name } }
    }

    public func addDevice(named name: String, userID: UserID) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        return try state.withLock { (state) throws(StoreError) -> Device in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            guard !state.devices.values.contains(where: { $0.userID == userID && $0.name == name }) else {
                throw .deviceExists(name: name)
            }
            let device = Device(id: DeviceID(rawValue: state.makeID()), userID: userID, name: name, createdAt: Date())
            state.devices[device.id] = device
            return device
        }
    }

    public func device(named name: String, userID: UserID) async throws(StoreError) -> Device? {
        state.withLock { $0.devices.values.first { $0.userID == userID && $0.name == name } }
    }

    public func device(id: DeviceID) async throws(StoreError) -> Device? {
        state.withLock { $0.devices[id] }
    }

    public func devices(userID: UserID) async throws(StoreError) -> [Device] {
        state.withLock { $0.devices.values.filter { $0.userID == userID }.sorted { $0.name < $1.name } }
    }

    public func insert(_ batch: [StoredLocation]) async throws(StoreError) -> InsertSummary {
        try state.withLock { (state) throws(StoreError) -> InsertSummary in
            for deviceID in Set(batch.map(\.deviceID)) where state.devices[deviceID] == nil {
                throw .unknownDevice(deviceID)
            }
            return state.insert(batch)
        }
    }

    public func importLocations(deviceID: DeviceID, provenance: ImportProvenance,
                                _ work: @Sendable (any ImportSink) throws -> ImportTally) async throws -> ImportRecord {
        guard try await device(id: deviceID) != nil else { throw StoreError.unknownDevice(deviceID) }
        let importID = ImportID(rawValue: state.withLock { $0.makeID() })
        // Staged outside the shared state, committed at once when the work succeeds.
        let sink = StagingSink(deviceID: deviceID, importID: importID)
        let tally = try work(sink)
        var provenance = provenance
        provenance.contentSHA256 = tally.contentSHA256 ?? provenance.contentSHA256
        return state.withLock { state in
            let summary = state.insert(sink.staged)
            let record = ImportRecord(id: importID, deviceID: deviceID, provenance: provenance, importedAt: Date(),
                                      inserted: summary.inserted, duplicates: summary.duplicates + sink.duplicatesWithinImport,
                                      rejected: tally.rejected)
            state.imports[importID] = record
            return record
        }
    }

    public func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation] {
        let matching = state.withLock { state in
            state.devices.values
                .filter { $0.userID == query.userID && (query.deviceIDs?.contains($0.id) ?? true) }
                .flatMap { state.locations[$0.id] ?? [] }
                .filter { query.matches($0) }
        }
        let sorted = matching.sorted {
            query.newestFirst ? $0.location.timestamp > $1.location.timestamp : $0.location.timestamp < $1.location.timestamp
        }
        return query.limit.map { Array(sorted.prefix($0)) } ?? sorted
    }

    public func forEachBatch(_ query: LocationQuery, batchSize: Int,
                             _ body: @Sendable ([StoredLocation]) throws -> Void) async throws {
        let all = try await locations(query)
        var start = 0
        while start < all.count {
            let end = min(start + max(1, batchSize), all.count)
            try body(Array(all[start..<end]))
            start = end
        }
    }

    public func deviceSummaries(userID: UserID) async throws(StoreError) -> [DeviceSummary] {
        state.withLock { state in
            state.devices.values.filter { $0.userID == userID }.sorted { $0.name < $1.name }.map { device in
                let fixes = state.locations[device.id] ?? []
                let times = fixes.map(\.location.timestamp)
                return DeviceSummary(device: device, locationCount: fixes.count,
                                     firstTimestamp: times.min(), lastTimestamp: times.max())
            }
        }
    }

    public func imports(userID: UserID) async throws(StoreError) -> [ImportRecord] {
        state.withLock { state in
            state.imports.values.filter { state.devices[$0.deviceID]?.userID == userID }
                .sorted { $0.id > $1.id }
        }
    }

    public func storageSizeBytes() async throws(StoreError) -> Int64? { nil }
}

/// Collects an import's fixes until the work is done; counts the repeats inside the file itself.
private final class StagingSink: ImportSink {
    let deviceID: DeviceID
    let importID: ImportID
    var staged: [StoredLocation] = []
    var seen: Set<LocationKey> = []
    var duplicatesWithinImport = 0

    init(deviceID: DeviceID, importID: ImportID) {
        self.deviceID = deviceID
        self.importID = importID
    }

    func insert(_ batch: [Location]) throws -> InsertSummary {
        var summary = InsertSummary()
        for location in batch {
            let stored = StoredLocation(deviceID: deviceID, location: StoragePrecision.rounded(location),
                                        source: .fileImport, importID: importID)
            if seen.insert(stored.key).inserted {
                staged.append(stored)
                summary.inserted += 1
            } else {
                duplicatesWithinImport += 1
                summary.duplicates += 1
            }
        }
        return summary
    }
}
