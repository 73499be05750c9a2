/// FNV-1a, 64 bits: a digest of a figure's inputs, stable across processes and machines (Swift's
/// own `Hasher` is seeded anew in every process).
/// Source: G. Fowler, L. C. Noll, K.-P. Vo, "The FNV Non-Cryptographic Hash Algorithm",
/// IETF draft-eastlake-fnv.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Mixes in the text's UTF-8 bytes.
    public mutating func mix(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }

    /// The digest in hexadecimal.
    public var hex: String { String(value, radix: 16) }
}
