import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    public func addRegion(_ definition: RegionDefinition, userID: UserID, at now: Date) async throws(StoreError) -> StoredRegion {
        let values = try RegionRow.values(definition)
        let nowMs = StoragePrecision.milliseconds(now)
        return try await write("adding a region") { db throws(StoreError) -> StoredRegion in
            do {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue]) != nil
                else { throw StoreError.unknownUser(userID) }
                try db.execute(sql: """
                    INSERT INTO regions (user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json,
                        notify_on_entry, notify_on_exit, beacon_uuid, beacon_major, beacon_minor, created_at_ms, updated_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [userID.rawValue] + values + [nowMs, nowMs])
                return try Self.storedRegion(db, id: db.lastInsertedRowID, userID: userID)
            } catch {
                throw Self.regionError(error, name: definition.name, operation: "adding a region")
            }
        }
    }

    public func updateRegion(id: RegionID, userID: UserID, _ definition: RegionDefinition,
                             at now: Date) async throws(StoreError) -> StoredRegion {
        let values = try RegionRow.values(definition)
        let nowMs = StoragePrecision.milliseconds(now)
        return try await write("changing a region") { db throws(StoreError) -> StoredRegion in
            do {
                let old = try Self.storedRegion(db, id: id.rawValue, userID: userID)
                try db.execute(sql: """
                    UPDATE regions SET name = ?, shape = ?, center_latitude_e7 = ?, center_longitude_e7 = ?, radius_m = ?,
                        rings_json = ?, notify_on_entry = ?, notify_on_exit = ?, beacon_uuid = ?, beacon_major = ?,
                        beacon_minor = ?, updated_at_ms = ?
                    WHERE id = ? AND user_id = ?
                    """, arguments: values + [nowMs, id.rawValue, userID.rawValue])
                let monitored = old.definition
                if monitored.shape != definition.shape || monitored.notifyOnEntry != definition.notifyOnEntry
                    || monitored.notifyOnExit != definition.notifyOnExit {
                    try db.execute(sql: "DELETE FROM region_states WHERE region_id = ?", arguments: [id.rawValue])
                }
                return try Self.storedRegion(db, id: id.rawValue, userID: userID)
            } catch {
                throw Self.regionError(error, name: definition.name, operation: "changing a region")
            }
        }
    }

    public func removeRegion(id: RegionID, userID: UserID) async throws(StoreError) -> Bool {
        try await write("removing a region") { db throws(StoreError) -> Bool in
            try Self.execute(db, "removing a region", "DELETE FROM regions WHERE id = ? AND user_id = ?", [id.rawValue, userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func regions(userID: UserID) async throws(StoreError) -> [StoredRegion] {
        try await read("reading regions") { db in
            // Read for every stored batch (the regions its fixes may cross): a prepared statement, kept.
            try Row.fetchAll(db.cachedStatement(sql: "SELECT \(RegionRow.columns) FROM regions WHERE user_id = ? ORDER BY id"),
                             arguments: [userID.rawValue]).map(self.decodedRegions.region)
        }
    }

    public func region(id: RegionID, userID: UserID) async throws(StoreError) -> StoredRegion? {
        try await read("reading a region") { db in
            try Row.fetchOne(db, sql: "SELECT \(RegionRow.columns) FROM regions WHERE id = ? AND user_id = ?",
                             arguments: [id.rawValue, userID.rawValue]).map(RegionRow.region)
        }
    }

    public func recordTransitions(_ transitions: [RegionTransition], deviceID: DeviceID, replacingDetected: Range<Date>?,
                                  checkpoint: RegionCheckpoint?) async throws(StoreError) -> [StoredRegionTransition] {
        try await write("recording region transitions") { db throws(StoreError) -> [StoredRegionTransition] in
            do {
                guard let userID = try Int64.fetchOne(db, sql: "SELECT user_id FROM devices WHERE id = ?", arguments: [deviceID.rawValue])
                else { throw StoreError.unknownDevice(deviceID) }
                let regionIDs = Set(try Int64.fetchAll(db, sql: "SELECT id FROM regions WHERE user_id = ?", arguments: [userID]))
                var previous = Set<String>()
                if let range = replacingDetected {
                    let sql = """
                        FROM region_transitions t WHERE t.device_id = ? AND t.source = 'detected'
                            AND t.occurred_at_ms >= ? AND t.occurred_at_ms < ?
                        """
                    let arguments: StatementArguments = [deviceID.rawValue, StoragePrecision.milliseconds(range.lowerBound),
                                                         StoragePrecision.milliseconds(range.upperBound)]
                    previous = Set(try Row.fetchAll(db, sql: "SELECT \(RegionRow.transitionColumns) " + sql, arguments: arguments)
                        .map { RegionRow.transition($0).transition.key })
                    try db.execute(sql: "DELETE FROM region_transitions WHERE id IN (SELECT t.id " + sql + ")", arguments: arguments)
                }
                var added: [StoredRegionTransition] = []
                for transition in transitions.sorted(by: { $0.occurredAt < $1.occurredAt })
                where transition.deviceID == deviceID && regionIDs.contains(transition.regionID.rawValue) {
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO region_transitions (device_id, region_id, kind, occurred_at_ms, latitude_e7,
                            longitude_e7, horizontal_accuracy_m, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: RegionRow.transitionValues(transition))
                    if db.changesCount == 1, !previous.contains(transition.key) {
                        added.append(StoredRegionTransition(id: RegionTransitionID(rawValue: db.lastInsertedRowID), transition: transition))
                    }
                }
                if let checkpoint {
                    try Self.save(checkpoint, regionIDs: regionIDs, db)
                }
                return added
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "recording region transitions", message: String(describing: error))
            }
        }
    }

    public func transitions(userID: UserID, regionID: RegionID?, from: Date?,
                            to: Date?) async throws(StoreError) -> [StoredRegionTransition] {
        try await read("reading region transitions") { db in
            var sql = """
                SELECT \(RegionRow.transitionColumns) FROM region_transitions t JOIN regions r ON r.id = t.region_id
                WHERE r.user_id = ?
                """
            var arguments: StatementArguments = [userID.rawValue]
            if let regionID {
                sql += " AND t.region_id = ?"
                arguments += [regionID.rawValue]
            }
            if let from {
                sql += " AND t.occurred_at_ms >= ?"
                arguments += [StoragePrecision.milliseconds(from)]
            }
            if let to {
                sql += " AND t.occurred_at_ms < ?"
                arguments += [StoragePrecision.milliseconds(to)]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY t.occurred_at_ms, t.id", arguments: arguments).map(RegionRow.transition)
        }
    }

    public func regionCheckpoint(deviceID: DeviceID) async throws(StoreError) -> RegionCheckpoint? {
        try await read("reading a region checkpoint") { db in
            guard let through = try Int64.fetchOne(db, sql: "SELECT evaluated_through_ms FROM region_checkpoints WHERE device_id = ?",
                                                   arguments: [deviceID.rawValue]) else { return nil }
            var entries: [RegionID: RegionCheckpoint.Entry] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT region_id, state, pending_since_ms FROM region_states WHERE device_id = ?",
                                        arguments: [deviceID.rawValue]) {
                entries[RegionID(rawValue: row[0])] = RegionCheckpoint.Entry(
                    state: RegionRow.state(named: row[1]),
                    pendingCrossingTime: (row[2] as Int64?).map(StoragePrecision.date(milliseconds:)))
            }
            return RegionCheckpoint(deviceID: deviceID, evaluatedThrough: StoragePrecision.date(milliseconds: through), regions: entries)
        }
    }

    public func offeredRegionsFingerprint(deviceID: DeviceID) async throws(StoreError) -> String? {
        try await read("reading the regions offered to a device") { db in
            try String.fetchOne(db, sql: "SELECT offered_fingerprint FROM region_checkpoints WHERE device_id = ?",
                                arguments: [deviceID.rawValue])
        }
    }

    public func setOfferedRegionsFingerprint(_ fingerprint: String, deviceID: DeviceID) async throws(StoreError) {
        try await write("recording the regions offered to a device") { db throws(StoreError) in
            do {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM devices WHERE id = ?", arguments: [deviceID.rawValue]) != nil
                else { throw StoreError.unknownDevice(deviceID) }
                try db.execute(sql: """
                    INSERT INTO region_checkpoints (device_id, offered_fingerprint) VALUES (?, ?)
                    ON CONFLICT (device_id) DO UPDATE SET offered_fingerprint = excluded.offered_fingerprint
                    """, arguments: [deviceID.rawValue, fingerprint])
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "recording the regions offered to a device", message: String(describing: error))
            }
        }
    }

    /// Before an import's locations are deleted: the detected transitions of the stretch its fixes
    /// span on their device, and the device's monitor checkpoint when it stands in that stretch (its
    /// state came from those fixes; the next fix starts the monitor unknown, as for a new region).
    static func forgetRegionEvaluation(ofImport id: Int64, in db: Database) throws {
        guard let span = try Row.fetchOne(db, sql: """
            SELECT device_id, min(timestamp_ms), max(timestamp_ms) FROM locations WHERE import_id = ? GROUP BY device_id
            """, arguments: [id]) else { return }
        let device: Int64 = span[0], first: Int64 = span[1], last: Int64 = span[2]
        try db.execute(sql: """
            DELETE FROM region_transitions WHERE device_id = ? AND source = 'detected' AND occurred_at_ms BETWEEN ? AND ?
            """, arguments: [device, first, last])
        guard try Int64.fetchOne(db, sql: "SELECT evaluated_through_ms FROM region_checkpoints WHERE device_id = ?",
                                 arguments: [device]).map({ (first...last).contains($0) }) == true else { return }
        try db.execute(sql: "UPDATE region_checkpoints SET evaluated_through_ms = NULL WHERE device_id = ?", arguments: [device])
        try db.execute(sql: "DELETE FROM region_states WHERE device_id = ?", arguments: [device])
    }

    // MARK: Plumbing

    private static func save(_ checkpoint: RegionCheckpoint, regionIDs: Set<Int64>, _ db: Database) throws {
        let device = checkpoint.deviceID.rawValue
        try db.execute(sql: """
            INSERT INTO region_checkpoints (device_id, evaluated_through_ms) VALUES (?, ?)
            ON CONFLICT (device_id) DO UPDATE SET evaluated_through_ms = excluded.evaluated_through_ms
            """, arguments: [device, StoragePrecision.milliseconds(checkpoint.evaluatedThrough)])
        // Only the states that changed are written: a fix rarely moves a device across a region's
        // edge, and rewriting all of a user's regions on every post (up to 1,000) was most of a post's work.
        var stored: [Int64: (state: String, pending: Int64?)] = [:]
        let current = try db.cachedStatement(sql: "SELECT region_id, state, pending_since_ms FROM region_states WHERE device_id = ?")
        for row in try Row.fetchAll(current, arguments: [device]) {
            stored[row[0]] = (row[1], row[2])
        }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO region_states (device_id, region_id, state, pending_since_ms) VALUES (?, ?, ?, ?)
            ON CONFLICT (device_id, region_id) DO UPDATE SET state = excluded.state, pending_since_ms = excluded.pending_since_ms
            """)
        var kept = Set<Int64>()
        for (regionID, entry) in checkpoint.regions where regionIDs.contains(regionID.rawValue) {
            let state = RegionRow.stateName(entry.state), pending = entry.pendingCrossingTime.map(StoragePrecision.milliseconds)
            kept.insert(regionID.rawValue)
            if let old = stored[regionID.rawValue], old.state == state, old.pending == pending { continue }
            try upsert.execute(arguments: [device, regionID.rawValue, state, pending])
        }
        let remove = try db.cachedStatement(sql: "DELETE FROM region_states WHERE device_id = ? AND region_id = ?")
        for regionID in stored.keys where !kept.contains(regionID) {
            try remove.execute(arguments: [device, regionID])
        }
    }

    /// The region with this id of the user. - Throws: `StoreError.unknownRegion`.
    private static func storedRegion(_ db: Database, id: Int64, userID: UserID) throws -> StoredRegion {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(RegionRow.columns) FROM regions WHERE id = ? AND user_id = ?",
                                         arguments: [id, userID.rawValue]) else { throw StoreError.unknownRegion(RegionID(rawValue: id)) }
        return try RegionRow.region(row)
    }

    private static func regionError(_ error: any Error, name: String, operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE { return .regionExists(name: name) }
        return .database(operation: operation, message: String(describing: error))
    }
}
