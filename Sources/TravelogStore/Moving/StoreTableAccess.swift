/// A device whose rows of a `perDevice` table are read together.
public struct StoreTableDevice: Hashable, Sendable {
    public let userID: Int64
    public let deviceID: Int64

    public init(userID: Int64, deviceID: Int64) {
        self.userID = userID
        self.deviceID = deviceID
    }
}

/// A store's tables read and written row by row, for moving a whole database to another store
/// (`StoreMove`). Rows are in the layout of `StoreTable.columns`; a destination gets rows in key
/// order, in batches, each batch stored whole or not at all.
public protocol StoreTableAccess: Sendable {
    /// Up to `limit` rows of `table` (of `device` only, for a `perDevice` table) whose key follows
    /// `after` (from the first when `nil`), in key order.
    func rows(of table: StoreTable, device: StoreTableDevice?, after key: StoreRow?, limit: Int) async throws(StoreError) -> [StoreRow]

    /// The key of the last row of `table` (of `device`) in key order, `nil` when it has none.
    func lastKey(of table: StoreTable, device: StoreTableDevice?) async throws(StoreError) -> StoreRow?

    /// The number of rows of `table`.
    func rowCount(of table: StoreTable) async throws(StoreError) -> Int

    /// Stores `rows` in `table` in one transaction, with their own ids.
    func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError)

    /// Readies the store for the rows of a move before the first is appended (e.g. defers
    /// index building); a move run again after an interruption calls it again.
    func prepareMove() async throws(StoreError)

    /// Makes the store whole after rows were appended: rebuilds what it derives from them and moves
    /// its id counters past the ids appended.
    func finishMove() async throws(StoreError)
}

extension StoreTableAccess {
    /// Nothing to ready.
    public func prepareMove() async throws(StoreError) {}
}
