/// A checksum of a table's rows that does not depend on their order: the wrapping sum of a 64-bit
/// hash of each row (FNV-1a over the row's values, each tagged with its kind, then the SplitMix64
/// finalizer so that similar rows spread over all bits). Two stores that hold the same rows have the
/// same checksum whatever order they read them in.
///
/// Sources: Fowler, Noll and Vo, IETF draft-eastlake-fnv, "The FNV Non-Cryptographic Hash
/// Algorithm"; Steele, Lea and Flood, "Fast splittable pseudorandom number generators" (2014).
public struct StoreTableChecksum: Hashable, Sendable, CustomStringConvertible {
    /// The rows added.
    public private(set) var rowCount = 0
    /// The sum of the rows' hashes.
    public private(set) var value: UInt64 = 0

    public init() {}

    /// Adds one row.
    /// - Complexity: O(the row's bytes).
    public mutating func add(_ row: StoreRow) {
        rowCount += 1
        value &+= Self.hash(row)
    }

    /// Sixteen hexadecimal digits.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func hash(_ row: StoreRow) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        func mix(_ word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        for value in row {
            switch value {
            case .null: mix(UInt8(0))
            case .integer(let integer):
                mix(UInt8(1))
                mix(UInt64(bitPattern: integer))
            case .real(let real):
                mix(UInt8(2))
                mix(real.bitPattern)
            case .text(let text):
                mix(UInt8(3))
                mix(UInt64(text.utf8.count))
                for byte in text.utf8 { mix(byte) }
            }
        }
        // SplitMix64's finalizer.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
