import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    public func renameDevice(id: DeviceID, to name: String) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        return try await write("renaming a device") { db throws(StoreError) in
            do {
                try db.execute(sql: "UPDATE devices SET name = ? WHERE id = ?", arguments: [name, id.rawValue])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw .deviceExists(name: name)
            } catch {
                throw .database(operation: "renaming a device", message: String(describing: error))
            }
            guard db.changesCount == 1,
                  let row = try? Row.fetchOne(db, sql: "SELECT id, user_id, name, created_at_ms, app, token_scope FROM devices WHERE id = ?",
                                              arguments: [id.rawValue])
            else { throw .unknownDevice(id) }
            return Self.device(row)
        }
    }

    public func retireDevice(id: DeviceID, at date: Date) async throws(StoreError) {
        try await write("retiring a device") { db throws(StoreError) in
            try Self.execute(db, "retiring a device", "UPDATE devices SET token_sha256 = NULL WHERE id = ?", [id.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(id) }
            try Self.execute(db, "retiring a device", """
                INSERT INTO device_states (device_id, retired_at_ms) VALUES (?, ?)
                ON CONFLICT (device_id) DO UPDATE SET retired_at_ms = coalesce(retired_at_ms, excluded.retired_at_ms),
                    silent_after_s = NULL, silence_notified = 0
                """, [id.rawValue, StoragePrecision.milliseconds(date)])
        }
    }

    public func deleteDevice(id: DeviceID) async throws(StoreError) {
        try await write("deleting a device") { db throws(StoreError) in
            // The map-area boxes' R*Tree rows have no foreign key: they go first, by the boxes'
            // ids. Everything else of the device goes by its foreign keys (ON DELETE CASCADE), but
            // rejected items, which outlive a device otherwise (SET NULL), go by hand.
            try Self.execute(db, "deleting a device", """
                DELETE FROM location_days_rtree WHERE id IN (SELECT id FROM location_days WHERE device_id = ?)
                """, [id.rawValue])
            try Self.execute(db, "deleting a device", "DELETE FROM rejected_items WHERE device_id = ?", [id.rawValue])
            do { try Self.countRemoval(deviceID: id.rawValue, in: db) } catch {
                throw .database(operation: "deleting a device", message: String(describing: error))
            }
            try Self.execute(db, "deleting a device", "DELETE FROM devices WHERE id = ?", [id.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(id) }
        }
    }

    public func recordReport(_ report: DeviceReport, deviceID: DeviceID) async throws(StoreError) {
        let report = report.storable
        // Every phone batch records one: committed beside the batch's insert and other reports.
        try await insertQueue.write("recording a device's report", in: pool) { db throws(StoreError) in
            let previous: DeviceReport?
            do {
                previous = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.reportColumns) FROM device_states WHERE device_id = ?"),
                                            arguments: [deviceID.rawValue]).flatMap { Self.report($0, from: 0) }
            } catch {
                throw .database(operation: "recording a device's report", message: String(describing: error))
            }
            let merged = DeviceState.merged(report, into: previous)
            let fix = merged.latestFix
            do {
                try db.cachedStatement(sql: """
                    INSERT INTO device_states (device_id, reported_at_ms, fix_ms, latitude_e7, longitude_e7,
                        horizontal_accuracy_m, battery_percent, charging, user_agent, phone_status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device_id) DO UPDATE SET reported_at_ms = excluded.reported_at_ms, fix_ms = excluded.fix_ms,
                        latitude_e7 = excluded.latitude_e7, longitude_e7 = excluded.longitude_e7,
                        horizontal_accuracy_m = excluded.horizontal_accuracy_m, battery_percent = excluded.battery_percent,
                        charging = excluded.charging, user_agent = excluded.user_agent, phone_status = excluded.phone_status
                    """).execute(arguments: [
                        deviceID.rawValue, StoragePrecision.milliseconds(merged.receivedAt),
                        fix.map { StoragePrecision.milliseconds($0.timestamp) },
                        fix.map { StoragePrecision.e7($0.coordinate.latitude) }, fix.map { StoragePrecision.e7($0.coordinate.longitude) },
                        fix.flatMap(\.horizontalAccuracyIfValid), merged.batteryPercent, merged.isCharging, merged.userAgent,
                        merged.phoneStatus?.storedJSON,
                    ])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw .unknownDevice(deviceID)
            } catch {
                throw .database(operation: "recording a device's report", message: String(describing: error))
            }
        }
    }

    public func deviceStates(userID: UserID) async throws(StoreError) -> [DeviceID: DeviceState] {
        try await read("reading devices' states") { db in
            var states: [DeviceID: DeviceState] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT s.device_id, \(Self.stateColumns) FROM device_states s JOIN devices d ON d.id = s.device_id WHERE d.user_id = ?
                """, arguments: [userID.rawValue]) {
                states[DeviceID(rawValue: row[0])] = Self.state(row, from: 1)
            }
            return states
        }
    }

    public func setSilentAfter(seconds: Int?, deviceID: DeviceID) async throws(StoreError) {
        try await upsertState("setting a device's silence", deviceID: deviceID, column: "silent_after_s", value: seconds,
                              also: ", silence_notified = 0")
    }

    public func setSilenceNotified(_ notified: Bool, deviceID: DeviceID) async throws(StoreError) {
        try await upsertState("recording a silence notification", deviceID: deviceID, column: "silence_notified", value: notified ? 1 : 0)
    }

    public func watchedDevices() async throws(StoreError) -> [(device: Device, state: DeviceState)] {
        try await read("reading watched devices") { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope, \(Self.stateColumns)
                FROM device_states s JOIN devices d ON d.id = s.device_id
                WHERE s.silent_after_s IS NOT NULL AND s.retired_at_ms IS NULL ORDER BY d.id
                """).map { (Self.device($0), Self.state($0, from: 6)) }
        }
    }

    private func upsertState(_ operation: String, deviceID: DeviceID, column: String, value: Int?, also: String = "") async throws(StoreError) {
        try await write(operation) { db throws(StoreError) in
            do {
                try db.execute(sql: """
                    INSERT INTO device_states (device_id, \(column)) VALUES (?, ?)
                    ON CONFLICT (device_id) DO UPDATE SET \(column) = excluded.\(column)\(also)
                    """, arguments: [deviceID.rawValue, value])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw .unknownDevice(deviceID)
            } catch {
                throw .database(operation: operation, message: String(describing: error))
            }
        }
    }

    static let reportColumns = "reported_at_ms, fix_ms, latitude_e7, longitude_e7, horizontal_accuracy_m, battery_percent, charging, user_agent, "
        + "phone_status"
    static let stateColumns = "s.retired_at_ms, s.silent_after_s, s.silence_notified, " + reportColumns.split(separator: ", ").map { "s.\($0)" }.joined(separator: ", ")

    static func report(_ row: Row, from start: Int) -> DeviceReport? {
        guard let reportedAt: Int64 = row[start] else { return nil }
        var fix: Location?
        if let fixMilliseconds: Int64 = row[start + 1], let latitude: Int64 = row[start + 2], let longitude: Int64 = row[start + 3],
           let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: longitude)) {
            fix = Location(coordinate: coordinate, horizontalAccuracyMeters: row[start + 4] ?? -1,
                           timestamp: StoragePrecision.date(milliseconds: fixMilliseconds))
        }
        return DeviceReport(receivedAt: StoragePrecision.date(milliseconds: reportedAt), latestFix: fix,
                            batteryPercent: row[start + 5], isCharging: row[start + 6], userAgent: row[start + 7],
                            phoneStatus: PhoneStatus(storedJSON: row[start + 8]))
    }

    static func state(_ row: Row, from start: Int) -> DeviceState {
        DeviceState(retiredAt: (row[start] as Int64?).map { StoragePrecision.date(milliseconds: $0) },
                    lastReport: report(row, from: start + 3), silentAfterSeconds: row[start + 1],
                    silenceNotified: row[start + 2] ?? false)
    }
}
