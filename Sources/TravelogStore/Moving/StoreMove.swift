/// Copies a whole database from one store to another, table by table in `StoreTable.all`'s order,
/// keeping every id, then verifies that the destination holds what the source holds (row count and
/// `StoreTableChecksum` per table).
///
/// Resumable: the destination stores the rows of each table (each device, for locations) in key
/// order, batch by batch, so after an interruption it holds a prefix of each; running the move again
/// reads the source from the start (for its checksum) and stores only the rows after the
/// destination's last key. The source must not change during a move (stop the server first).
public struct StoreMove: Sendable {
    /// Rows done of all the source's rows.
    public typealias Progress = @Sendable (_ rowsDone: Int, _ rowsTotal: Int) -> Void

    let source: any StoreTableAccess
    let destination: any StoreTableAccess
    let batchRowCount: Int

    public init(from source: any StoreTableAccess, to destination: any StoreTableAccess, batchRowCount: Int = 10_000) {
        self.source = source
        self.destination = destination
        self.batchRowCount = max(1, batchRowCount)
    }

    /// Copies what the destination lacks, then verifies every table.
    /// - Returns: one report per table; the move succeeded when all of them `match`.
    /// - Throws: the first `StoreError` of either store.
    public func run(progress: Progress = { _, _ in }) async throws(StoreError) -> [StoreMoveReport] {
        var rowsTotal = 0
        for table in StoreTable.all { rowsTotal += try await source.rowCount(of: table) }
        try await destination.prepareMove()
        var rowsDone = 0
        var reports: [StoreMoveReport] = []
        for table in StoreTable.all {
            let copied = try await copy(table) { rows in
                rowsDone += rows
                progress(rowsDone, max(rowsTotal, rowsDone))
            }
            reports.append(StoreMoveReport(table: table.name, source: copied.checksum, copiedRowCount: copied.stored,
                                           destination: StoreTableChecksum()))
        }
        try await destination.finishMove()
        for (index, table) in StoreTable.all.enumerated() {
            reports[index].destination = try await Self.checksum(of: table, in: destination, batchRowCount: batchRowCount)
        }
        return reports
    }

    /// The checksum of all the rows of `table` in `store`.
    public static func checksum(of table: StoreTable, in store: any StoreTableAccess,
                                batchRowCount: Int = 10_000) async throws(StoreError) -> StoreTableChecksum {
        var checksum = StoreTableChecksum()
        for device in try await groups(of: table, in: store, batchRowCount: batchRowCount) {
            var rows = try await store.rows(of: table, device: device, after: nil, limit: batchRowCount)
            // The next page is read while this one is summed.
            while rows.count == batchRowCount, let last = rows.last {
                async let reading = store.rows(of: table, device: device, after: table.key(of: last), limit: batchRowCount)
                for row in rows { checksum.add(row) }
                do {
                    rows = try await reading
                } catch {
                    throw error as? StoreError ?? .database(operation: "reading \(table.name)", message: "\(error)")
                }
            }
            for row in rows { checksum.add(row) }
        }
        return checksum
    }

    /// Copies one table's rows after the destination's last key, reading the next batch while the
    /// last one is stored. - Returns: the source's checksum and the rows stored.
    private func copy(_ table: StoreTable, advanced: (Int) -> Void) async throws(StoreError)
        -> (checksum: StoreTableChecksum, stored: Int) {
        var checksum = StoreTableChecksum()
        var stored = 0
        for device in try await Self.groups(of: table, in: source, batchRowCount: batchRowCount) {
            let copiedThrough = try await destination.lastKey(of: table, device: device)
            var rows = try await source.rows(of: table, device: device, after: nil, limit: batchRowCount)
            while !rows.isEmpty {
                for row in rows { checksum.add(row) }
                let fresh = copiedThrough.map { last in rows.filter { table.key(of: $0).follows(last) } } ?? rows
                let next: [StoreRow]
                if rows.count == batchRowCount, let last = rows.last {
                    async let reading = source.rows(of: table, device: device, after: table.key(of: last), limit: batchRowCount)
                    do {
                        if !fresh.isEmpty { try await destination.append(fresh, to: table) }
                        next = try await reading
                    } catch {
                        throw error as? StoreError ?? .database(operation: "moving \(table.name)", message: "\(error)")
                    }
                } else {
                    if !fresh.isEmpty { try await destination.append(fresh, to: table) }
                    next = []
                }
                stored += fresh.count
                advanced(rows.count)
                rows = next
            }
        }
        return (checksum, stored)
    }

    /// The devices of a `perDevice` table (from `devices`, in id order), or one group of all rows.
    private static func groups(of table: StoreTable, in store: any StoreTableAccess,
                               batchRowCount: Int) async throws(StoreError) -> [StoreTableDevice?] {
        guard table.perDevice else { return [nil] }
        var devices: [StoreTableDevice?] = []
        var after: StoreRow?
        while true {
            let rows = try await store.rows(of: StoreTable.devices, device: nil, after: after, limit: batchRowCount)
            for row in rows {
                guard case .integer(let userID) = row[0], case .integer(let deviceID) = row[1] else {
                    throw .database(operation: "listing devices", message: "a device without user or id")
                }
                devices.append(StoreTableDevice(userID: userID, deviceID: deviceID))
            }
            guard rows.count == batchRowCount, let last = rows.last else { return devices }
            after = StoreTable.devices.key(of: last)
        }
    }
}

/// What a move found for one table.
public struct StoreMoveReport: Sendable, Equatable {
    public let table: String
    /// The source's rows (its `rowCount`) and their checksum.
    public let source: StoreTableChecksum
    /// The rows this run stored (fewer than the source's when it resumed an interrupted move).
    public let copiedRowCount: Int
    /// The destination's rows and their checksum after the move.
    public internal(set) var destination: StoreTableChecksum

    /// Whether the destination holds exactly the source's rows.
    public var matches: Bool { source == destination }
}
