import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    public func renameDevice(id: DeviceID, to name: String) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        let renamed: [PostgresRow]
        do {
            renamed = try await withLease { connection in
                try await connection.run("""
                    UPDATE devices SET name = \(name) WHERE id = \(id.rawValue) RETURNING \(unescaped: Self.deviceColumns)
                    """, logger: logger).collect()
            }
        } catch {
            if Self.isUniqueViolation(error) { throw .deviceExists(name: name) }
            throw Self.storeError(error, "renaming a device")
        }
        guard let row = renamed.first else { throw .unknownDevice(id) }
        return try Self.device(row)
    }

    public func retireDevice(id: DeviceID, at date: Date) async throws(StoreError) {
        let retired = try await transaction("retiring a device") { connection in
            let owner = try await connection.run("UPDATE devices SET token_sha256 = NULL WHERE id = \(id.rawValue) RETURNING user_id",
                                                 logger: logger).collect().first
            guard let owner else { return false }
            try await connection.run("""
                INSERT INTO device_states (user_id, device_id, retired_at_ms)
                VALUES (\(try owner.decode(Int64.self)), \(id.rawValue), \(StoragePrecision.milliseconds(date)))
                ON CONFLICT (user_id, device_id) DO UPDATE
                SET retired_at_ms = coalesce(device_states.retired_at_ms, excluded.retired_at_ms),
                    silent_after_s = NULL, silence_notified = false
                """, logger: logger)
            return true
        }
        guard retired else { throw .unknownDevice(id) }
    }

    public func deleteDevice(id: DeviceID) async throws(StoreError) {
        let deleted = try await transaction("deleting a device") { connection in
            let owner = try await connection.run("SELECT user_id FROM devices WHERE id = \(id.rawValue) FOR UPDATE", logger: logger)
                .collect().first
            guard let owner else { return false }
            let userID = try owner.decode(Int64.self)
            // Locations and journal runners have no foreign key to the device (partitioned and
            // bulk-written tables), and rejected items outlive a device otherwise (SET NULL); the
            // rest goes with the device by ON DELETE CASCADE.
            for table in ["locations", "journal_runners", "rejected_items"] {
                try await connection.run(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE user_id = $1 AND device_id = $2",
                                                       binds: Self.binds(userID, id.rawValue)), logger: logger)
            }
            try await Self.countRemoval(userID: userID, on: connection, logger: logger)
            try await connection.run("DELETE FROM devices WHERE user_id = \(userID) AND id = \(id.rawValue)", logger: logger)
            return true
        }
        guard deleted else { throw .unknownDevice(id) }
    }

    public func recordReport(_ report: DeviceReport, deviceID: DeviceID) async throws(StoreError) {
        let report = report.storable
        let recorded = try await transaction("recording a device's report") { connection in
            let owner = try await connection.run("SELECT user_id FROM devices WHERE id = \(deviceID.rawValue)", logger: logger).collect().first
            guard let owner else { return false }
            let userID = try owner.decode(Int64.self)
            let previous = try await connection.run("""
                SELECT \(unescaped: Self.reportColumns) FROM device_states
                WHERE user_id = \(userID) AND device_id = \(deviceID.rawValue) FOR UPDATE
                """, logger: logger).collect().first.flatMap { try Self.report($0.makeRandomAccess(), from: 0) }
            let merged = DeviceState.merged(report, into: previous)
            let fix = merged.latestFix
            try await connection.run("""
                INSERT INTO device_states (user_id, device_id, reported_at_ms, fix_ms, latitude_e7, longitude_e7,
                    horizontal_accuracy_m, battery_percent, charging, user_agent, phone_status)
                VALUES (\(userID), \(deviceID.rawValue), \(StoragePrecision.milliseconds(merged.receivedAt)),
                    \(fix.map { StoragePrecision.milliseconds($0.timestamp) }), \(fix.map { StoragePrecision.e7($0.coordinate.latitude) }),
                    \(fix.map { StoragePrecision.e7($0.coordinate.longitude) }), \(fix.flatMap(\.horizontalAccuracyIfValid)),
                    \(merged.batteryPercent), \(merged.isCharging), \(merged.userAgent), \(merged.phoneStatus?.storedJSON))
                ON CONFLICT (user_id, device_id) DO UPDATE SET reported_at_ms = excluded.reported_at_ms, fix_ms = excluded.fix_ms,
                    latitude_e7 = excluded.latitude_e7, longitude_e7 = excluded.longitude_e7,
                    horizontal_accuracy_m = excluded.horizontal_accuracy_m, battery_percent = excluded.battery_percent,
                    charging = excluded.charging, user_agent = excluded.user_agent, phone_status = excluded.phone_status
                """, logger: logger)
            return true
        }
        guard recorded else { throw .unknownDevice(deviceID) }
    }

    public func deviceStates(userID: UserID) async throws(StoreError) -> [DeviceID: DeviceState] {
        var states: [DeviceID: DeviceState] = [:]
        for row in try await rows("reading devices' states", """
            SELECT s.device_id, \(unescaped: Self.stateColumns) FROM device_states s WHERE s.user_id = \(userID.rawValue)
            """) {
            let columns = row.makeRandomAccess()
            do {
                states[DeviceID(rawValue: try columns[0].decode(Int64.self))] = try Self.state(columns, from: 1)
            } catch {
                throw .database(operation: "reading devices' states", message: Self.message(error))
            }
        }
        return states
    }

    public func setSilentAfter(seconds: Int?, deviceID: DeviceID) async throws(StoreError) {
        try await upsertState("setting a device's silence", deviceID: deviceID,
                              "silent_after_s = \(seconds.map(Int32.init(clamping:))), silence_notified = false")
    }

    public func setSilenceNotified(_ notified: Bool, deviceID: DeviceID) async throws(StoreError) {
        try await upsertState("recording a silence notification", deviceID: deviceID, "silence_notified = \(notified)")
    }

    public func watchedDevices() async throws(StoreError) -> [(device: Device, state: DeviceState)] {
        var watched: [(device: Device, state: DeviceState)] = []
        for row in try await rows("reading watched devices", """
            SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope, \(unescaped: Self.stateColumns)
            FROM device_states s JOIN devices d ON d.user_id = s.user_id AND d.id = s.device_id
            WHERE s.silent_after_s IS NOT NULL AND s.retired_at_ms IS NULL ORDER BY d.id
            """) {
            do {
                watched.append((try Self.device(row), try Self.state(row.makeRandomAccess(), from: 6)))
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "reading watched devices", message: Self.message(error))
            }
        }
        return watched
    }

    /// Sets columns of a device's state row, making the row when there is none.
    private func upsertState(_ operation: String, deviceID: DeviceID, _ assignment: PostgresQuery) async throws(StoreError) {
        let changed = try await transaction(operation) { connection in
            let inserted = try await connection.run("""
                INSERT INTO device_states (user_id, device_id) SELECT user_id, id FROM devices WHERE id = \(deviceID.rawValue)
                ON CONFLICT (user_id, device_id) DO NOTHING
                """, logger: logger).collect()
            _ = inserted
            var bindings = assignment.binds
            bindings.append(deviceID.rawValue)
            let query = PostgresQuery(unsafeSQL: "UPDATE device_states SET \(assignment.sql) WHERE device_id = $\(bindings.count) RETURNING 1",
                                      binds: bindings)
            return try await connection.run(query, logger: logger).collect().count
        }
        guard changed == 1 else { throw .unknownDevice(deviceID) }
    }

    static let reportColumns = "reported_at_ms, fix_ms, latitude_e7, longitude_e7, horizontal_accuracy_m, battery_percent, charging, user_agent, "
        + "phone_status"
    static let stateColumns = "s.retired_at_ms, s.silent_after_s, s.silence_notified, "
        + reportColumns.split(separator: ", ").map { "s.\($0)" }.joined(separator: ", ")

    static func binds(_ values: Int64...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }

    static func report(_ row: PostgresRandomAccessRow, from start: Int) throws -> DeviceReport? {
        guard let reportedAt = try row[start].decode(Int64?.self) else { return nil }
        var fix: Location?
        if let milliseconds = try row[start + 1].decode(Int64?.self), let latitude = try row[start + 2].decode(Int64?.self),
           let longitude = try row[start + 3].decode(Int64?.self),
           let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: longitude)) {
            fix = Location(coordinate: coordinate, horizontalAccuracyMeters: try row[start + 4].decode(Double?.self) ?? -1,
                           timestamp: StoragePrecision.date(milliseconds: milliseconds))
        }
        return DeviceReport(receivedAt: StoragePrecision.date(milliseconds: reportedAt), latestFix: fix,
                            batteryPercent: try row[start + 5].decode(Double?.self), isCharging: try row[start + 6].decode(Bool?.self),
                            userAgent: try row[start + 7].decode(String?.self),
                            phoneStatus: PhoneStatus(storedJSON: try row[start + 8].decode(String?.self)))
    }

    static func state(_ row: PostgresRandomAccessRow, from start: Int) throws -> DeviceState {
        DeviceState(retiredAt: try row[start].decode(Int64?.self).map { StoragePrecision.date(milliseconds: $0) },
                    lastReport: try report(row, from: start + 3),
                    silentAfterSeconds: try row[start + 1].decode(Int32?.self).map(Int.init),
                    silenceNotified: try row[start + 2].decode(Bool.self))
    }
}
