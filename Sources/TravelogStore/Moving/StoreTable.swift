/// A table as a move between stores copies it: its columns in PostgreSQL's layout (where every table
/// but `users` carries `user_id`), and what the SQLite store, which keeps `user_id` only where it
/// was needed, joins to find it. Derived tables (SQLite's day boxes) are not copied: a destination
/// rebuilds them (`StoreTableAccess.finishMove()`).
public struct StoreTable: Sendable {
    /// How a column's values are stored.
    public enum Kind: Sendable {
        case integer, real, text
        /// `boolean` in PostgreSQL, 0 or 1 in SQLite; `StoreValue.integer` in a row.
        case boolean
    }

    /// One column: its name (the same in both schemas) and kind.
    public struct Column: Sendable {
        public let name: String
        public let kind: Kind
    }

    /// Where the SQLite store finds a row's `user_id`.
    public enum UserLink: Sendable {
        /// The table is `users`: it has no `user_id`.
        case none
        /// A column of its own.
        case stored
        /// The user of the row's `device_id`.
        case device
        /// The user of the row's `channel_id`.
        case channel
    }

    public let name: String
    public let columns: [Column]
    public let userLink: UserLink
    /// The columns that order the rows and identify each one (within a device when `perDevice`).
    public let key: [String]
    /// Whether the rows are read device by device (locations: the indexes lead with the device).
    public let perDevice: Bool

    /// The positions of the key's columns in a row.
    public var keyIndexes: [Int] { key.map { name in columns.firstIndex { $0.name == name }! } }

    /// The key of one row.
    public func key(of row: StoreRow) -> StoreRow { keyIndexes.map { row[$0] } }

    init(_ name: String, _ userLink: UserLink, key: [String] = ["id"], perDevice: Bool = false,
         _ columns: [(String, Kind)]) {
        self.name = name
        self.userLink = userLink
        self.key = key
        self.perDevice = perDevice
        self.columns = (userLink == .none ? [] : [Column(name: "user_id", kind: .integer)])
            + columns.map { Column(name: $0.0, kind: $0.1) }
    }
}
