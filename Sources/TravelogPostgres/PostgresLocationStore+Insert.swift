import Foundation
import Logging
import PostgresNIO
import Synchronization
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    /// Stores a batch in one statement (`PostgresLocationRows.insertSQL`: binary arrays unnested
    /// and merged with ON CONFLICT DO NOTHING), so a batch costs one round trip; an import's
    /// batch also renews the import's heartbeat, in a transaction with it.
    public func insert(_ batch: [StoredLocation]) async throws(StoreError) -> InsertSummary {
        guard !batch.isEmpty else { return InsertSummary() }
        await createPartitionsIfDue()
        let owners = try await owners(of: Set(batch.map(\.deviceID)))
        let importIDs = Set(batch.compactMap(\.importID?.rawValue)).sorted()
        let query = PostgresQuery(unsafeSQL: PostgresLocationRows.insertSQL,
                                  binds: PostgresLocationRows.insertArrays(batch, owners: owners))
        let inserted: Int64
        if importIDs.isEmpty {
            inserted = try Self.decode(try await rows("storing locations", query).first, as: Int64.self, "storing locations")
        } else {
            // Each import belongs to the batch's users: the heartbeat tells it is still running.
            let users = Set(owners.values.map(\.rawValue)).sorted()
            let now = StoragePrecision.milliseconds(Date())
            inserted = try await transaction("storing locations") { connection in
                try await connection.run("""
                    UPDATE imports SET heartbeat_ms = \(now) WHERE user_id = ANY(\(users)) AND id = ANY(\(importIDs))
                    """, logger: logger)
                return try await connection.run(query, logger: logger).collect().first?.decode(Int64.self) ?? 0
            }
        }
        return InsertSummary(inserted: Int(inserted), duplicates: batch.count - Int(inserted))
    }

    /// The user of each device, from the store's memory of devices already seen (a device never
    /// changes hands and is never deleted), asking the database only for new ones.
    /// - Throws: `StoreError.unknownDevice` for a device the database does not have.
    func owners(of devices: Set<DeviceID>) async throws(StoreError) -> [DeviceID: UserID] {
        var owners: [DeviceID: UserID] = [:]
        deviceOwners.withLock { known in
            for device in devices { owners[device] = known[device] }
        }
        let missing = devices.subtracting(owners.keys)
        guard !missing.isEmpty else { return owners }
        for row in try await rows("reading device owners", """
            SELECT id, user_id FROM devices WHERE id = ANY(\(missing.map(\.rawValue).sorted()))
            """) {
            let (device, user) = try Self.decode(row, as: (Int64, Int64).self, "reading device owners")
            owners[DeviceID(rawValue: device)] = UserID(rawValue: user)
        }
        if let unknown = missing.sorted(by: { $0.rawValue < $1.rawValue }).first(where: { owners[$0] == nil }) {
            throw StoreError.unknownDevice(unknown)
        }
        deviceOwners.withLock { known in
            for device in missing { known[device] = owners[device] }
        }
        return owners
    }
}
