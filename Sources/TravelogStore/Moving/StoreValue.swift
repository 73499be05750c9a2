/// One value of a stored row, as a move between stores (`StoreMove`) carries it: what SQLite and
/// PostgreSQL both store, with booleans as the integers 0 and 1.
public enum StoreValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// Whether `self` sorts before `other` as both databases order keys: integers by value, texts
    /// byte by byte of their UTF-8 (SQLite's BINARY collation, PostgreSQL's "C").
    public func precedes(_ other: StoreValue) -> Bool {
        switch (self, other) {
        case (.integer(let left), .integer(let right)): left < right
        case (.real(let left), .real(let right)): left < right
        case (.text(let left), .text(let right)): left.utf8.lexicographicallyPrecedes(right.utf8)
        case (.null, .null): false
        case (.null, _): true
        default: false
        }
    }
}

/// One stored row: its table's `StoreTable.columns`, in order.
public typealias StoreRow = [StoreValue]

extension Array where Element == StoreValue {
    /// Whether this key sorts after `other` (the same columns), comparing column by column.
    public func follows(_ other: StoreRow) -> Bool {
        for (mine, theirs) in zip(self, other) where mine != theirs {
            return theirs.precedes(mine)
        }
        return false
    }
}
