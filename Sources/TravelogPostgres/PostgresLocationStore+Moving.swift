import Foundation
import Logging
import PostgresNIO
import TravelogStore

/// The tables as `StoreMove` reads and writes them: every table but `users` keeps `user_id`, so a
/// device's rows are read through the key that leads with the user. A page of rows is read as one
/// row of arrays (`rows`), a batch written with one `COPY` (`append`).
extension PostgresLocationStore: StoreTableAccess {
    /// Reads the page as one row of arrays, one per column (`array_agg` over the ordered page):
    /// decoding a few long arrays costs a fraction of decoding each row's cells one by one, which
    /// was most of a move's verification (2026-11-27, 4M locations: 17 s of the client's CPU).
    public func rows(of table: StoreTable, device: StoreTableDevice?, after key: StoreRow?,
                     limit: Int) async throws(StoreError) -> [StoreRow] {
        let operation = "reading \(table.name) to move"
        let query = Self.selection(table, device: device, after: key, descending: false, limit: limit, asArrays: true)
        guard let row = try await rows(operation, query).first else { return [] }
        var cells = PostgresBinaryCells(row, operation: operation)
        var columns: [[StoreValue]] = []
        columns.reserveCapacity(table.columns.count)
        for column in table.columns {
            columns.append(try cells.storeValues(column.kind))
            guard columns.last?.count == columns[0].count else {
                throw .database(operation: operation, message: "column \(column.name) has \(columns.last?.count ?? 0) values, not \(columns[0].count)")
            }
        }
        var rows: [StoreRow] = []
        rows.reserveCapacity(columns[0].count)
        for index in columns[0].indices {
            rows.append(columns.map { $0[index] })
        }
        // array_agg keeps the order of the page it reads (a plain aggregate over a sorted
        // subquery); should a plan ever not, the page is sorted here rather than read wrong.
        let keys = table.keyIndexes
        func precedes(_ one: StoreRow, _ other: StoreRow) -> Bool {
            for index in keys where one[index] != other[index] { return one[index].precedes(other[index]) }
            return false
        }
        if zip(rows, rows.dropFirst()).contains(where: { !precedes($0, $1) }) { rows.sort(by: precedes) }
        return rows
    }

    public func lastKey(of table: StoreTable, device: StoreTableDevice?) async throws(StoreError) -> StoreRow? {
        let query = Self.selection(table, device: device, after: nil, descending: true, limit: 1, asArrays: false)
        return try await rows("reading \(table.name) to move", query).first.map { row throws(StoreError) in
            table.key(of: try Self.storeRow(row, table))
        }
    }

    public func rowCount(of table: StoreTable) async throws(StoreError) -> Int {
        let rows = try await rows("counting \(table.name)", "SELECT count(*) FROM \(unescaped: table.name)")
        guard let row = rows.first else { return 0 }
        return Int(try Self.decode(row, column: 0, as: Int64.self, "counting \(table.name)"))
    }

    /// Stores `rows` with one `COPY … FROM STDIN` in text format (the only one PostgresNIO 1.33
    /// sends): PostgreSQL writes a COPY's rows in batches (fewer WAL records, no function scan to
    /// materialize), which took 40% less of the server's time than `INSERT … SELECT FROM unnest` of
    /// binary arrays for 1M locations (2026-11-27). Atomic: a COPY stores all its rows or none.
    public func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError) {
        guard !rows.isEmpty else { return }
        let operation = "moving rows into \(table.name)"
        var text = ByteBufferAllocator().buffer(capacity: rows.count * table.columns.count * 12)
        for row in rows {
            guard row.count == table.columns.count else {
                throw .database(operation: operation, message: "a row of \(row.count) values for \(table.columns.count) columns")
            }
            for (index, column) in table.columns.enumerated() {
                if index > 0 { text.writeInteger(UInt8(ascii: "\t")) }
                try Self.appendCopyText(row[index], kind: column.kind, to: &text, operation: operation)
            }
            text.writeInteger(UInt8(ascii: "\n"))
        }
        do {
            try await withLease { connection in
                try await connection.copyFrom(table: table.name, columns: table.columns.map(\.name), logger: logger) { writer in
                    // In pieces, so the server parses the first while the last are on their way.
                    while text.readableBytes > 0, let piece = text.readSlice(length: min(text.readableBytes, 1 << 18)) {
                        try await writer.write(piece)
                    }
                }
            }
        } catch {
            throw Self.storeError(error, operation)
        }
    }

    /// Appends one value in COPY's text format (PostgreSQL, "COPY", "Text Format"): `\N` for
    /// NULL, a backslash, tab, newline and carriage return in a text escaped; a real as the
    /// shortest text that reads back as the same `Double` (PostgreSQL's `float8in` reads it
    /// exactly), NaN and infinities by their names; a boolean as `t` or `f`, an integer into a
    /// real column as its value.
    static func appendCopyText(_ value: StoreValue, kind: StoreTable.Kind, to text: inout ByteBuffer,
                               operation: String) throws(StoreError) {
        switch (value, kind) {
        case (.null, _): text.writeStaticString("\\N")
        case (.integer(let integer), .integer): text.writeString(String(integer))
        case (.integer(let integer), .boolean): text.writeInteger(UInt8(ascii: integer != 0 ? "t" : "f"))
        case (.integer(let integer), .real): appendCopyText(Double(integer), to: &text)
        case (.real(let real), .real): appendCopyText(real, to: &text)
        case (.text(let string), .text): appendCopyText(string, to: &text)
        default: throw .database(operation: operation, message: "\(value) does not fit a \(kind) column")
        }
    }

    private static func appendCopyText(_ real: Double, to text: inout ByteBuffer) {
        // A whole number (a sentinel -1, whole metres) as an integer: exact below 2^53, and cheaper
        // than the shortest decimal text of a Double. -0 keeps its sign as a real.
        if real.magnitude < 0x1p53, real == real.rounded(.towardZero), !(real == 0 && real.sign == .minus) {
            text.writeString(String(Int64(real)))
        } else if real.isNaN {
            text.writeStaticString("NaN")
        } else if real.isInfinite {
            text.writeStaticString(real < 0 ? "-Infinity" : "Infinity")
        } else {
            text.writeString(real.description)
        }
    }

    private static func appendCopyText(_ string: String, to text: inout ByteBuffer) {
        var string = string
        string.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
                text.writeBytes(bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\\"): text.writeStaticString("\\\\")
                case UInt8(ascii: "\t"): text.writeStaticString("\\t")
                case UInt8(ascii: "\n"): text.writeStaticString("\\n")
                case UInt8(ascii: "\r"): text.writeStaticString("\\r")
                default: text.writeInteger(byte)
                }
            }
        }
    }

    /// Before copying into a new destination (`locations` empty): drops the B-tree and GiST
    /// indexes of `locations` other than its unique key, keeping their definitions in
    /// `move_deferred_indexes`, in one transaction; `finishMove` builds them again once over all
    /// the rows. Both are built by sorting (GiST on the `geometry` of migration 006): 4M
    /// locations, the GiST index kept up row by row during the COPY cost the server about 60 s,
    /// built afterwards 9 s; 1M, `locations_by_import` 4.5 s against 1 s (2026-11-27). The unique
    /// key stays, as the store's idempotency key; so does BRIN (cheap to keep up).
    /// An interrupted move leaves the table of definitions behind, so the move run again builds
    /// them all the same; a store opened on the half-moved database meanwhile is slower to read
    /// imports and map areas, never wrong.
    public func prepareMove() async throws(StoreError) {
        let operation = "deferring the indexes of locations"
        let empty = try await rows(operation, "SELECT NOT EXISTS (SELECT 1 FROM locations)").first
        guard try Self.decode(empty, as: Bool.self, operation) else { return }
        _ = try await transaction(operation) { connection in
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS move_deferred_indexes (name text PRIMARY KEY, definition text NOT NULL)
                """, logger: logger)
            let indexes = try await connection.query("""
                SELECT c.relname, regexp_replace(pg_get_indexdef(i.indexrelid), '^(CREATE INDEX \\S+ ON )ONLY ', '\\1')
                FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
                WHERE i.indrelid = 'locations'::regclass AND NOT i.indisunique AND a.amname IN ('btree', 'gist')
                """, logger: logger).collect()
            for index in indexes {
                let (name, definition) = try index.decode((String, String).self)
                try await connection.query("""
                    INSERT INTO move_deferred_indexes (name, definition) VALUES (\(name), \(definition)) ON CONFLICT DO NOTHING
                    """, logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "DROP INDEX \(Self.quoted(name))"), logger: logger)
            }
        }
    }

    /// An identifier as SQL names it whatever its letters.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Builds the indexes `prepareMove` deferred, moves every id counter past the largest id
    /// stored, and refreshes the planner's statistics of the moved tables.
    public func finishMove() async throws(StoreError) {
        let deferred = try await rows("building the deferred indexes", """
            SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = 'move_deferred_indexes' AND relnamespace = current_schema()::regnamespace)
            """).first
        if try Self.decode(deferred, as: Bool.self, "building the deferred indexes") {
            _ = try await transaction("building the deferred indexes") { connection in
                let definitions = try await connection.query("SELECT definition FROM move_deferred_indexes ORDER BY name",
                                                             logger: logger).collect()
                for row in definitions {
                    // As pg_get_indexdef wrote it (without its ONLY, which would build the index of
                    // the partitioned table alone, invalid, and none of its partitions'), so the
                    // same index in the same schema.
                    let definition = try row.decode(String.self)
                    try await connection.query(PostgresQuery(unsafeSQL: definition), logger: logger)
                }
                try await connection.query("DROP TABLE move_deferred_indexes", logger: logger)
            }
        }
        for table in StoreTable.all where table.columns.contains(where: { $0.name == "id" }) {
            _ = try await rows("moving the ids of \(table.name)", """
                SELECT setval(pg_get_serial_sequence('\(unescaped: table.name)', 'id'), coalesce(max(id), 0) + 1, false)
                FROM \(unescaped: table.name)
                """)
        }
        // The moved tables only: a plain ANALYZE takes every schema of the database (the
        // benchmark's database holds many: 6.7 s instead of 1-2 s for 4M locations).
        _ = try await rows("analyzing the moved tables", PostgresQuery(unsafeSQL: "ANALYZE " + StoreTable.all.map(\.name).joined(separator: ", ")))
    }

    /// The query for rows of `table` in key order (the key's texts in byte order, as SQLite's);
    /// `asArrays`: one row of arrays, one per column, each in that order.
    static func selection(_ table: StoreTable, device: StoreTableDevice?, after key: StoreRow?, descending: Bool,
                          limit: Int, asArrays: Bool) -> PostgresQuery {
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
        let names = table.columns.map(\.name)
        let page = "SELECT \(names.joined(separator: ", ")) FROM \(table.name)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " ORDER BY \(order.joined(separator: ", ")) LIMIT \(limit)"
        let sql = asArrays ? "SELECT \(names.map { "array_agg(\($0))" }.joined(separator: ", ")) FROM (\(page)) page" : page
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
