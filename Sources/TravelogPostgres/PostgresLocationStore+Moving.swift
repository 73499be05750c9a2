import Foundation
import Logging
import PostgresNIO
import TravelogStore

/// The tables as `StoreMove` reads and writes them: every table but `users` keeps `user_id`, so a
/// device's rows are read through the key that leads with the user. Rows are written one batch
/// per statement, as binary arrays (`append`).
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

    /// Stores `rows` in one statement: each column as one binary array parameter
    /// (`PostgresArrayColumn`), unnested into rows; nothing to format here nor to parse there.
    public func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError) {
        guard !rows.isEmpty else { return }
        let operation = "moving rows into \(table.name)"
        var columns = table.columns.map { PostgresArrayColumn(Self.arrayKind($0.kind), capacity: rows.count) }
        for row in rows {
            guard row.count == columns.count else {
                throw .database(operation: operation, message: "a row of \(row.count) values for \(columns.count) columns")
            }
            for index in columns.indices {
                try Self.append(row[index], to: &columns[index], operation: operation)
            }
        }
        var bindings = PostgresBindings(capacity: columns.count)
        for column in columns { bindings.append(column) }
        let arrays = columns.enumerated().map { "$\($0.offset + 1)::\($0.element.kind.arrayTypeName)" }
        _ = try await self.rows(operation, PostgresQuery(unsafeSQL: """
            INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", ")))
            SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
            """, binds: bindings))
    }

    /// The array a column's values travel in (integers as `bigint`: PostgreSQL narrows them on insert).
    static func arrayKind(_ kind: StoreTable.Kind) -> PostgresArrayColumn.Kind {
        switch kind {
        case .integer: .int8
        case .real: .float8
        case .text: .text
        case .boolean: .bool
        }
    }

    /// Appends one value to its column's array; an integer goes into a real column as its value.
    static func append(_ value: StoreValue, to column: inout PostgresArrayColumn, operation: String) throws(StoreError) {
        switch (value, column.kind) {
        case (.null, .int8): column.append(Int64?.none)
        case (.null, .float8): column.append(Double?.none)
        case (.null, .text): column.append(String?.none)
        case (.null, .bool): column.append(Bool?.none)
        case (.integer(let integer), .int8): column.append(integer)
        case (.integer(let integer), .bool): column.append(integer != 0)
        case (.integer(let integer), .float8): column.append(Double(integer))
        case (.real(let real), .float8): column.append(real)
        case (.text(let text), .text): column.append(text)
        default: throw .database(operation: operation, message: "\(value) does not fit a \(column.kind) column")
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
        var cells = PostgresBinaryCells(row, operation: "reading \(table.name) to move")
        var values: StoreRow = []
        values.reserveCapacity(table.columns.count)
        for column in table.columns { values.append(try cells.storeValue(column.kind)) }
        return values
    }
}
