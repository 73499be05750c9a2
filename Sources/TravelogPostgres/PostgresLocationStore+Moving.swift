import Foundation
import Logging
import PostgresNIO
import TravelogStore

/// The tables as `StoreMove` reads and writes them: every table but `users` keeps `user_id`, so a
/// device's rows are read through the key that leads with the user. Rows are written with
/// `COPY … FROM STDIN` (`PostgresCopyText`), one transaction per batch.
extension PostgresLocationStore: StoreTableAccess {
    public func rows(of table: StoreTable, device: StoreTableDevice?, after key: StoreRow?,
                     limit: Int) async throws(StoreError) -> [StoreRow] {
        let query = Self.selection(table, device: device, after: key, descending: false, limit: limit)
        return try await rows("reading \(table.name) to move", query).map { row throws(StoreError) in
            try Self.storeRow(row, table)
        }
    }

    public func lastKey(of table: StoreTable, device: StoreTableDevice?) async throws(StoreError) -> StoreRow? {
        let query = Self.selection(table, device: device, after: nil, descending: true, limit: 1)
        return try await rows("reading \(table.name) to move", query).first.map { row throws(StoreError) in
            table.key(of: try Self.storeRow(row, table))
        }
    }

    public func rowCount(of table: StoreTable) async throws(StoreError) -> Int {
        let rows = try await rows("counting \(table.name)", "SELECT count(*) FROM \(unescaped: table.name)")
        guard let row = rows.first else { return 0 }
        return Int(try Self.decode(row, column: 0, as: Int64.self, "counting \(table.name)"))
    }

    public func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError) {
        var buffer = ByteBufferAllocator().buffer(capacity: rows.count * table.columns.count * 8)
        for row in rows { PostgresCopyText.write(row, kinds: table.columns.map(\.kind), into: &buffer) }
        let columns = table.columns.map(\.name)
        let logger = logger
        try await transaction("moving rows into \(table.name)") { [buffer] connection in
            try await connection.copyFrom(table: table.name, columns: columns, logger: logger) { writer in
                try await writer.write(buffer)
            }
        }
    }

    /// Moves every id counter past the largest id stored, and refreshes the planner's statistics.
    public func finishMove() async throws(StoreError) {
        for table in StoreTable.all where table.columns.contains(where: { $0.name == "id" }) {
            _ = try await rows("moving the ids of \(table.name)", """
                SELECT setval(pg_get_serial_sequence('\(unescaped: table.name)', 'id'), coalesce(max(id), 0) + 1, false)
                FROM \(unescaped: table.name)
                """)
        }
        _ = try await rows("analyzing the moved tables", "ANALYZE")
    }

    /// The query for rows of `table` in key order (the key's texts in byte order, as SQLite's).
    static func selection(_ table: StoreTable, device: StoreTableDevice?, after key: StoreRow?, descending: Bool,
                          limit: Int) -> PostgresQuery {
        var bindings = PostgresBindings()
        var conditions: [String] = []
        if let device {
            bindings.append(device.userID)
            bindings.append(device.deviceID)
            conditions.append("user_id = $1 AND device_id = $2")
        }
        if let key {
            var placeholders: [String] = []
            for value in key {
                switch value {
                case .null: bindings.appendNull()
                case .integer(let integer): bindings.append(integer)
                case .real(let real): bindings.append(real)
                case .text(let text): bindings.append(text)
                }
                placeholders.append("$\(bindings.count)")
            }
            conditions.append("(\(table.key.joined(separator: ", "))) > (\(placeholders.joined(separator: ", ")))")
        }
        let order = table.key.map { name in
            let collation = table.columns.first { $0.name == name }?.kind == .text ? " COLLATE \"C\"" : ""
            return name + collation + (descending ? " DESC" : "")
        }
        let sql = "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " ORDER BY \(order.joined(separator: ", ")) LIMIT \(limit)"
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// One row's values, by the kinds of the table's columns.
    static func storeRow(_ row: PostgresRow, _ table: StoreTable) throws(StoreError) -> StoreRow {
        do {
            return try zip(row, table.columns).map { cell, column in
                switch column.kind {
                case .integer: try cell.decode(Int64?.self).map(StoreValue.integer) ?? .null
                case .real: try cell.decode(Double?.self).map(StoreValue.real) ?? .null
                case .text: try cell.decode(String?.self).map(StoreValue.text) ?? .null
                case .boolean: try cell.decode(Bool?.self).map { StoreValue.integer($0 ? 1 : 0) } ?? .null
                }
            }
        } catch {
            throw .database(operation: "reading \(table.name) to move", message: message(error))
        }
    }
}
