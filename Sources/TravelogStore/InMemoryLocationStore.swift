import Foundation
import Synchronization
import TravelogCore

/// A store that keeps everything in memory: for tests and for trying things out.
/// - Complexity: inserts O(1) per location (hash of the key); queries scan the user's locations.
public final class InMemoryLocationStore: TravelogStore {
    struct State {
        var users: [UserID: User] = [:]
        var devices: [DeviceID: Device] = [:]
        var locations: [DeviceID: [StoredLocation]] = [:]
        var keys: Set<LocationKey> = []
        var imports: [ImportID: ImportRecord] = [:]
        var runningImports: [ImportID: ImportRecord] = [:]
        var rejectedItems: [RejectedItemID: RejectedItem] = [:]
        var rejectedFingerprints: Set<String> = []
        var rejectedFingerprintsByID: [RejectedItemID: String] = [:]
        var passwordHashes: [UserID: String] = [:]
        /// OwnTracks' encryption secrets (`InMemoryLocationStore+OwnTracksSecrets.swift`).
        var ownTracksSecrets: [DeviceID: String] = [:]
        var ownTracksCards: [DeviceID: OwnTracksCard] = [:]
        /// `LabelStore`'s rows, by fix and kind.
        var labels: [LabelKey: String] = [:]
        var tokenDigests: [SecretDigest: DeviceID] = [:]
        var sessions: [SecretDigest: SessionRecord] = [:]
        var visits: [VisitID: StoredVisit] = [:]
        var places: [PlaceID: StoredPlace] = [:]
        var channels: [ChannelID: NotificationChannel] = [:]
        var deliveries: [DeliveryID: Delivery] = [:]
        /// Regions, transitions and monitor checkpoints (`InMemoryLocationStore+Regions.swift`).
        var regionTables = RegionTables()
        /// Retirement, status and silence per device (`InMemoryLocationStore+Devices.swift`).
        var deviceStates: [DeviceID: DeviceState] = [:]
        /// Photos (`InMemoryLocationStore+Photos.swift`).
        var photos: [PhotoID: StoredPhoto] = [:]
        var shares: [ShareID: StoredShare] = [:]
        var shareDigests: [SecretDigest: ShareID] = [:]
        /// Privacy zones and the counts of fixes they dropped (`InMemoryLocationStore+Zones.swift`).
        var zones: [ZoneID: StoredZone] = [:]
        var zoneDrops: [UserID: [String: Int]] = [:]
        /// Friendships and invitations (`InMemoryLocationStore+Friends.swift`), oldest first.
        var friendships: [Friendship] = []
        /// Two-factor login (`InMemoryLocationStore+TwoFactor.swift`).
        var twoFactor: [UserID: (record: TwoFactorRecord, recoveryCodes: Set<SecretDigest>)] = [:]
        /// Retention settings and runs (`InMemoryLocationStore+Retention.swift`).
        var retention: [UserID: RetentionState] = [:]
        /// Deletions of fixes per user (`InMemoryLocationStore+HistoryRemovals.swift`).
        var historyRemovals: [UserID: Int64] = [:]
        /// The journal trips' road matches, by key (`InMemoryLocationStore+TripMatches.swift`).
        var tripMatches: [String: TripMatchRecord] = [:]
        /// Figures kept between reads, by user, kind and slot (`InMemoryLocationStore+FigureCache.swift`).
        var figureCache: [UserID: [String: [Int: CachedFigures]]] = [:]
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
            let user = User(id: UserID(rawValue: state.makeID()), name: name, createdAt: Date(), isAdministrator: state.users.isEmpty)
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

    public func beginImport(deviceID: DeviceID, provenance: ImportProvenance) async throws(StoreError) -> ImportID {
        try state.withLock { (state) throws(StoreError) -> ImportID in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            let id = ImportID(rawValue: state.makeID())
            state.runningImports[id] = ImportRecord(id: id, deviceID: deviceID, provenance: provenance, importedAt: Date(),
                                                    inserted: 0, duplicates: 0, rejected: 0)
            return id
        }
    }

    public func finishImport(_ id: ImportID, summary: InsertSummary, tally: ImportTally) async throws(StoreError) -> ImportRecord {
        try state.withLock { (state) throws(StoreError) -> ImportRecord in
            guard var record = state.runningImports.removeValue(forKey: id) else {
                throw .database(operation: "finishing an import", message: "import \(id) is not running")
            }
            record.inserted = summary.inserted
            record.duplicates = summary.duplicates
            record.rejected = tally.rejected
            record.provenance.contentSHA256 = tally.contentSHA256 ?? record.provenance.contentSHA256
            state.imports[id] = record
            return record
        }
    }

    public func discardImport(_ id: ImportID) async throws(StoreError) {
        state.withLock { state in
            guard let record = state.runningImports.removeValue(forKey: id) else { return }
            if Self.removeLocations(of: record, in: &state) != nil { state.countRemoval(deviceID: record.deviceID) }
        }
    }

    public func deleteImport(_ id: ImportID, userID: UserID) async throws(StoreError) -> DeletedImport? {
        state.withLock { state in
            guard let record = state.imports[id], state.devices[record.deviceID]?.userID == userID else { return nil }
            state.imports[id] = nil
            let span = Self.removeLocations(of: record, in: &state)
            if span != nil { state.countRemoval(deviceID: record.deviceID) }
            return DeletedImport(record: record, span: span)
        }
    }

    /// Removes the locations an import stored and what region monitoring concluded from them.
    /// - Returns: the span of the locations removed.
    private static func removeLocations(of record: ImportRecord, in state: inout State) -> ClosedRange<Date>? {
        let times = (state.locations[record.deviceID] ?? []).filter { $0.importID == record.id }.map(\.location.timestamp)
        guard let first = times.min(), let last = times.max() else { return nil }
        state.regionTables.forgetEvaluation(deviceID: record.deviceID, of: first...last)
        var kept: [StoredLocation] = []
        for stored in state.locations[record.deviceID] ?? [] {
            if stored.importID == record.id { state.keys.remove(stored.key) } else { kept.append(stored) }
        }
        state.locations[record.deviceID] = kept
        return first...last
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

