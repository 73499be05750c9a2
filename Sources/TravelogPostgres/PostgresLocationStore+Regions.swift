import Foundation
import Logging
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    public func addRegion(_ definition: RegionDefinition, userID: UserID, at now: Date) async throws(StoreError) -> StoredRegion {
        let values = try PostgresRegionRows.Values(definition)
        let nowMs = StoragePrecision.milliseconds(now)
        let added: [PostgresRow]
        do {
            added = try await withLease { connection in try await connection.run("""
                INSERT INTO regions (user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json,
                    notify_on_entry, notify_on_exit, beacon_uuid, beacon_major, beacon_minor, created_at_ms, updated_at_ms)
                SELECT id, \(definition.name), \(values.shape), \(values.latitudeE7), \(values.longitudeE7), \(values.radiusMeters),
                    \(values.ringsJSON), \(definition.notifyOnEntry), \(definition.notifyOnExit), \(values.beaconUUID),
                    \(values.beaconMajor), \(values.beaconMinor), \(nowMs), \(nowMs)
                FROM users WHERE id = \(userID.rawValue)
                RETURNING \(unescaped: PostgresRegionRows.columns)
                """, logger: logger).collect() }
        } catch {
            throw Self.regionError(error, name: definition.name, operation: "adding a region")
        }
        guard let row = added.first else { throw .unknownUser(userID) }
        return try PostgresRegionRows.region(row)
    }

    public func updateRegion(id: RegionID, userID: UserID, _ definition: RegionDefinition,
                             at now: Date) async throws(StoreError) -> StoredRegion {
        let values = try PostgresRegionRows.Values(definition)
        let nowMs = StoragePrecision.milliseconds(now)
        do {
            return try await withLease { connection in try await Self.inTransaction(connection, logger: logger) { connection in
                let old = try await connection.run("""
                    SELECT \(unescaped: PostgresRegionRows.columns) FROM regions
                    WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue) FOR UPDATE
                    """, logger: logger).collect().first
                guard let old else { throw StoreError.unknownRegion(id) }
                let monitored = try PostgresRegionRows.region(old).definition
                let row = try await connection.run("""
                    UPDATE regions SET name = \(definition.name), shape = \(values.shape), center_latitude_e7 = \(values.latitudeE7),
                        center_longitude_e7 = \(values.longitudeE7), radius_m = \(values.radiusMeters), rings_json = \(values.ringsJSON),
                        notify_on_entry = \(definition.notifyOnEntry), notify_on_exit = \(definition.notifyOnExit),
                        beacon_uuid = \(values.beaconUUID), beacon_major = \(values.beaconMajor), beacon_minor = \(values.beaconMinor),
                        updated_at_ms = \(nowMs)
                    WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue)
                    RETURNING \(unescaped: PostgresRegionRows.columns)
                    """, logger: logger).collect().first
                // A changed area or flags forgets every device's state for the region; a new name does not.
                if monitored.shape != definition.shape || monitored.notifyOnEntry != definition.notifyOnEntry
                    || monitored.notifyOnExit != definition.notifyOnExit {
                    try await connection.run("""
                        DELETE FROM region_states WHERE user_id = \(userID.rawValue) AND region_id = \(id.rawValue)
                        """, logger: logger)
                }
                guard let row else { throw StoreError.unknownRegion(id) }
                return try PostgresRegionRows.region(row)
            } }
        } catch {
            throw Self.regionError(error, name: definition.name, operation: "changing a region")
        }
    }

    public func removeRegion(id: RegionID, userID: UserID) async throws(StoreError) -> Bool {
        try await rows("removing a region", """
            DELETE FROM regions WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue) RETURNING 1
            """).count == 1
    }

    public func regions(userID: UserID) async throws(StoreError) -> [StoredRegion] {
        try await rows("reading regions", """
            SELECT \(unescaped: PostgresRegionRows.columns) FROM regions WHERE user_id = \(userID.rawValue) ORDER BY id
            """).map(PostgresRegionRows.region)
    }

    public func region(id: RegionID, userID: UserID) async throws(StoreError) -> StoredRegion? {
        try await rows("reading a region", """
            SELECT \(unescaped: PostgresRegionRows.columns) FROM regions WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue)
            """).first.map(PostgresRegionRows.region)
    }

    public func recordTransitions(_ transitions: [RegionTransition], deviceID: DeviceID, replacingDetected: Range<Date>?,
                                  checkpoint: RegionCheckpoint?) async throws(StoreError) -> [StoredRegionTransition] {
        try await transaction("recording region transitions") { connection in
            let owner = try await connection.run("SELECT user_id FROM devices WHERE id = \(deviceID.rawValue)", logger: logger)
                .collect().first
            guard let owner else { throw StoreError.unknownDevice(deviceID) }
            let userID = try owner.decode(Int64.self)
            var regionIDs = Set<Int64>()
            for row in try await connection.run("SELECT id FROM regions WHERE user_id = \(userID)", logger: logger).collect() {
                regionIDs.insert(try row.decode(Int64.self))
            }
            // The stretch evaluated again: its detected transitions go, and come back as not new.
            var previous = Set<String>()
            if let range = replacingDetected {
                for row in try await connection.run("""
                    DELETE FROM region_transitions WHERE user_id = \(userID) AND device_id = \(deviceID.rawValue)
                        AND source = 'detected' AND occurred_at_ms >= \(StoragePrecision.milliseconds(range.lowerBound))
                        AND occurred_at_ms < \(StoragePrecision.milliseconds(range.upperBound))
                    RETURNING \(unescaped: PostgresRegionRows.transitionColumns)
                    """, logger: logger).collect() {
                    previous.insert(try PostgresRegionRows.transition(row).transition.key)
                }
            }
            var added: [StoredRegionTransition] = []
            for transition in transitions.sorted(by: { $0.occurredAt < $1.occurredAt })
            where transition.deviceID == deviceID && regionIDs.contains(transition.regionID.rawValue) {
                let stored = try await connection.run("""
                    INSERT INTO region_transitions (user_id, device_id, region_id, kind, occurred_at_ms, latitude_e7, longitude_e7,
                        horizontal_accuracy_m, source)
                    VALUES (\(userID), \(deviceID.rawValue), \(transition.regionID.rawValue), \(transition.kind == .entry ? "enter" : "exit"),
                        \(StoragePrecision.milliseconds(transition.occurredAt)),
                        \(transition.coordinate.map { Int32(clamping: StoragePrecision.e7($0.latitude)) }),
                        \(transition.coordinate.map { Int32(clamping: StoragePrecision.e7($0.longitude)) }),
                        \(transition.horizontalAccuracyMeters), \(transition.source.rawValue))
                    ON CONFLICT DO NOTHING RETURNING id
                    """, logger: logger).collect().first
                if let stored, !previous.contains(transition.key) {
                    added.append(StoredRegionTransition(id: RegionTransitionID(rawValue: try stored.decode(Int64.self)),
                                                        transition: transition))
                }
            }
            if let checkpoint {
                try await Self.save(checkpoint, userID: userID, regionIDs: regionIDs, on: connection, logger: logger)
            }
            return added
        }
    }

    public func transitions(userID: UserID, regionID: RegionID?, from: Date?,
                            to: Date?) async throws(StoreError) -> [StoredRegionTransition] {
        let fromMs = from.map(StoragePrecision.milliseconds), toMs = to.map(StoragePrecision.milliseconds)
        return try await rows("reading region transitions", """
            SELECT \(unescaped: PostgresRegionRows.transitionColumns) FROM region_transitions
            WHERE user_id = \(userID.rawValue) AND (\(regionID == nil) OR region_id = \(regionID?.rawValue ?? 0))
                AND (\(fromMs == nil) OR occurred_at_ms >= \(fromMs ?? 0)) AND (\(toMs == nil) OR occurred_at_ms < \(toMs ?? 0))
            ORDER BY occurred_at_ms, id
            """).map(PostgresRegionRows.transition)
    }

    public func regionCheckpoint(deviceID: DeviceID) async throws(StoreError) -> RegionCheckpoint? {
        let found = try await rows("reading a region checkpoint", """
            SELECT evaluated_through_ms FROM region_checkpoints
            WHERE device_id = \(deviceID.rawValue) AND evaluated_through_ms IS NOT NULL
            """)
        guard let row = found.first else { return nil }
        let through: Int64 = try Self.decode(row, as: Int64.self, "reading a region checkpoint")
        var entries: [RegionID: RegionCheckpoint.Entry] = [:]
        for row in try await rows("reading a region checkpoint", """
            SELECT region_id, state, pending_since_ms FROM region_states WHERE device_id = \(deviceID.rawValue)
            """) {
            let (region, state, pending) = try Self.decode(row, as: (Int64, String, Int64?).self, "reading a region checkpoint")
            entries[RegionID(rawValue: region)] = RegionCheckpoint.Entry(
                state: PostgresRegionRows.state(named: state), pendingCrossingTime: pending.map(StoragePrecision.date(milliseconds:)))
        }
        return RegionCheckpoint(deviceID: deviceID, evaluatedThrough: StoragePrecision.date(milliseconds: through), regions: entries)
    }

    public func offeredRegionsFingerprint(deviceID: DeviceID) async throws(StoreError) -> String? {
        let found = try await rows("reading the regions offered to a device",
                                   "SELECT offered_fingerprint FROM region_checkpoints WHERE device_id = \(deviceID.rawValue)")
        guard let row = found.first else { return nil }
        return try Self.decode(row, as: String?.self, "reading the regions offered to a device")
    }

    public func setOfferedRegionsFingerprint(_ fingerprint: String, deviceID: DeviceID) async throws(StoreError) {
        let stored = try await rows("recording the regions offered to a device", """
            INSERT INTO region_checkpoints (user_id, device_id, offered_fingerprint)
            SELECT user_id, id, \(fingerprint) FROM devices WHERE id = \(deviceID.rawValue)
            ON CONFLICT (user_id, device_id) DO UPDATE SET offered_fingerprint = excluded.offered_fingerprint
            RETURNING 1
            """)
        guard !stored.isEmpty else { throw .unknownDevice(deviceID) }
    }

    /// Before an import's locations are deleted: the detected transitions of the stretch its fixes
    /// span on their device, and the device's monitor checkpoint when it stands in that stretch (its
    /// state came from those fixes; the next fix starts the monitor unknown, as for a new region).
    static func forgetRegionEvaluation(ofImport id: Int64, userID: Int64, on connection: PostgresConnection,
                                       logger: Logger) async throws {
        let spans = try await connection.run("""
            SELECT device_id, min(timestamp_ms), max(timestamp_ms) FROM locations
            WHERE user_id = \(userID) AND import_id = \(id) GROUP BY device_id
            """, logger: logger).collect()
        for span in spans {
            let (device, first, last) = try span.decode((Int64, Int64, Int64).self)
            try await connection.run("""
                DELETE FROM region_transitions WHERE user_id = \(userID) AND device_id = \(device) AND source = 'detected'
                    AND occurred_at_ms BETWEEN \(first) AND \(last)
                """, logger: logger)
            let forgotten = try await connection.run("""
                UPDATE region_checkpoints SET evaluated_through_ms = NULL
                WHERE user_id = \(userID) AND device_id = \(device) AND evaluated_through_ms BETWEEN \(first) AND \(last)
                RETURNING device_id
                """, logger: logger).collect()
            guard !forgotten.isEmpty else { continue }
            try await connection.run("DELETE FROM region_states WHERE user_id = \(userID) AND device_id = \(device)", logger: logger)
        }
    }

    /// Saves where the device's monitor stands, with the states of the regions that still exist.
    private static func save(_ checkpoint: RegionCheckpoint, userID: Int64, regionIDs: Set<Int64>,
                             on connection: PostgresConnection, logger: Logger) async throws {
        let device = checkpoint.deviceID.rawValue
        try await connection.run("""
            INSERT INTO region_checkpoints (user_id, device_id, evaluated_through_ms)
            VALUES (\(userID), \(device), \(StoragePrecision.milliseconds(checkpoint.evaluatedThrough)))
            ON CONFLICT (user_id, device_id) DO UPDATE SET evaluated_through_ms = excluded.evaluated_through_ms
            """, logger: logger)
        try await connection.run("DELETE FROM region_states WHERE user_id = \(userID) AND device_id = \(device)", logger: logger)
        for (regionID, entry) in checkpoint.regions where regionIDs.contains(regionID.rawValue) {
            try await connection.run("""
                INSERT INTO region_states (user_id, device_id, region_id, state, pending_since_ms)
                VALUES (\(userID), \(device), \(regionID.rawValue), \(PostgresRegionRows.stateName(entry.state)),
                    \(entry.pendingCrossingTime.map(StoragePrecision.milliseconds)))
                """, logger: logger)
        }
    }

    private static func regionError(_ error: any Error, name: String, operation: String) -> StoreError {
        isUniqueViolation(error) ? .regionExists(name: name) : storeError(error, operation)
    }
}
