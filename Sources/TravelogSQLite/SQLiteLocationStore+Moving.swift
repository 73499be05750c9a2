import Foundation
import GRDB
import GRDBSQLite
import TravelogStore

/// The tables as `StoreMove` reads and writes them. The SQLite schema keeps `user_id` only in some
/// tables: the others read it through their device or channel, and do not store it.
extension SQLiteLocationStore: StoreTableAccess {
    public func rows(of table: StoreTable, device: StoreTableDevice?, after key: StoreRow?,
                     limit: Int) async throws(StoreError) -> [StoreRow] {
        let (filter, arguments) = Self.filter(table, device: device, after: key)
        let sql = "SELECT \(Self.selection(table, device: device)) FROM \(table.name) t \(filter) "
            + "ORDER BY \(Self.ordering(table)) LIMIT \(limit)"
        return try await read("reading \(table.name) to move") { db in
            let handle = try Self.prepared(db, sql, arguments)
            var rows: [StoreRow] = []
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                rows.append(table.columns.indices.map { Self.value(handle, Int32($0), table.columns[$0].kind) })
            }
            sqlite3_reset(handle)
            return rows
        }
    }

    public func lastKey(of table: StoreTable, device: StoreTableDevice?) async throws(StoreError) -> StoreRow? {
        let (filter, arguments) = Self.filter(table, device: device, after: nil)
        let descending = table.key.map { "t.\($0) DESC" }.joined(separator: ", ")
        let sql = "SELECT \(Self.selection(table, device: device)) FROM \(table.name) t \(filter) ORDER BY \(descending) LIMIT 1"
        return try await read("reading \(table.name) to move") { db in
            let handle = try Self.prepared(db, sql, arguments)
            guard sqlite3_step(handle) == SQLITE_ROW else {
                sqlite3_reset(handle)
                return nil
            }
            let row = table.columns.indices.map { Self.value(handle, Int32($0), table.columns[$0].kind) }
            sqlite3_reset(handle)
            return table.key(of: row)
        }
    }

    public func rowCount(of table: StoreTable) async throws(StoreError) -> Int {
        try await read("counting \(table.name)") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.name)") ?? 0 }
    }

    public func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError) {
        let columns = Self.storedColumns(table)
        let sql = "INSERT INTO \(table.name) (\(columns.map { table.columns[$0].name }.joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try await write("moving rows into \(table.name)") { db throws(StoreError) in
            do {
                let statement = try db.cachedStatement(sql: sql)
                let handle = statement.sqliteStatement
                for row in rows {
                    sqlite3_reset(handle)
                    for (position, column) in columns.enumerated() { Self.bind(row[column], handle, Int32(position + 1)) }
                    let code = sqlite3_step(handle)
                    guard code == SQLITE_DONE else {
                        let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
                        sqlite3_reset(handle)
                        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
                    }
                }
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            } catch {
                throw .database(operation: "moving rows into \(table.name)", message: String(describing: error))
            }
        }
    }

    /// Rebuilds the per-day bounding boxes (and their R*Tree) from the locations.
    public func finishMove() async throws(StoreError) {
        let day = LocationRowWriter.millisecondsPerDay
        try await write("indexing moved locations") { db throws(StoreError) in
            do {
                try db.execute(sql: "DELETE FROM location_days_rtree")
                try db.execute(sql: "DELETE FROM location_days")
                // The day rounds towards negative infinity, as LocationRowWriter's.
                try db.execute(sql: """
                    INSERT INTO location_days (device_id, day, location_count, min_latitude_e7, max_latitude_e7,
                        min_longitude_e7, max_longitude_e7)
                    SELECT device_id, d, count(*), min(latitude_e7), max(latitude_e7), min(longitude_e7), max(longitude_e7)
                    FROM (SELECT device_id, latitude_e7, longitude_e7,
                              CASE WHEN timestamp_ms >= 0 THEN timestamp_ms / \(day)
                                   ELSE -((-timestamp_ms + \(day - 1)) / \(day)) END AS d
                          FROM locations)
                    GROUP BY device_id, d
                    """)
                try db.execute(sql: """
                    INSERT INTO location_days_rtree (id, min_latitude, max_latitude, min_longitude, max_longitude)
                    SELECT id, min_latitude_e7 / 1e7, max_latitude_e7 / 1e7, min_longitude_e7 / 1e7, max_longitude_e7 / 1e7
                    FROM location_days
                    """)
            } catch {
                throw .database(operation: "indexing moved locations", message: String(describing: error))
            }
        }
    }

    /// The columns SQLite stores: all but a `user_id` it reads through a device or channel.
    static func storedColumns(_ table: StoreTable) -> [Int] {
        switch table.userLink {
        case .none, .stored: Array(table.columns.indices)
        case .device, .channel: Array(table.columns.indices.dropFirst())
        }
    }

    /// The select list: the columns, with `user_id` joined when the table does not keep it.
    static func selection(_ table: StoreTable, device: StoreTableDevice?) -> String {
        table.columns.map { column in
            guard column.name == "user_id" else { return "t.\(column.name)" }
            switch table.userLink {
            case .none, .stored: return "t.user_id"
            case .device: return device.map { "\($0.userID)" } ?? "(SELECT user_id FROM devices WHERE id = t.device_id)"
            case .channel: return "(SELECT user_id FROM notification_channels WHERE id = t.channel_id)"
            }
        }.joined(separator: ", ")
    }

    static func ordering(_ table: StoreTable) -> String { table.key.map { "t.\($0)" }.joined(separator: ", ") }

    /// The cached statement for `sql` with `arguments` bound.
    static func prepared(_ db: Database, _ sql: String, _ arguments: StoreRow) throws -> OpaquePointer {
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(handle)
        for (index, value) in arguments.enumerated() { bind(value, handle, Int32(index + 1)) }
        return handle
    }

    static func filter(_ table: StoreTable, device: StoreTableDevice?, after key: StoreRow?) -> (sql: String, arguments: StoreRow) {
        var conditions: [String] = []
        var arguments: StoreRow = []
        if let device {
            conditions.append("t.device_id = ?")
            arguments.append(.integer(device.deviceID))
        }
        if let key {
            conditions.append("(\(ordering(table))) > (\(Array(repeating: "?", count: key.count).joined(separator: ", ")))")
            arguments += key
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    static func value(_ statement: OpaquePointer, _ column: Int32, _ kind: StoreTable.Kind) -> StoreValue {
        if sqlite3_column_type(statement, column) == SQLITE_NULL { return .null }
        switch kind {
        case .integer, .boolean: return .integer(sqlite3_column_int64(statement, column))
        case .real: return .real(sqlite3_column_double(statement, column))
        case .text:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))),
                                as: UTF8.self))
        }
    }

    static func bind(_ value: StoreValue, _ statement: OpaquePointer, _ position: Int32) {
        switch value {
        case .null: sqlite3_bind_null(statement, position)
        case .integer(let integer): sqlite3_bind_int64(statement, position, integer)
        case .real(let real): sqlite3_bind_double(statement, position, real)
        case .text(let text):
            // SQLITE_TRANSIENT: SQLite copies the bytes before the buffer goes.
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            var text = text
            _ = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    guard let start = characters.baseAddress else { return sqlite3_bind_text(statement, position, "", 0, transient) }
                    return sqlite3_bind_text(statement, position, start, Int32(characters.count), transient)
                }
            }
        }
    }
}
