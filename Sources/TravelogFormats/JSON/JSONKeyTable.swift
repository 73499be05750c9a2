#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys a reader understands, each mapped to a case of its own enum, matched against the
/// parser's current key without allocating.
///
/// ```swift
/// enum RecordKey: String, CaseIterable { case latitudeE7, longitudeE7, timestamp }
/// static let keys = JSONKeyTable(RecordKey.self)
/// …
/// switch parser.key(in: Self.keys) {
/// case .latitudeE7?: latitudeE7 = try parser.readInt64()
/// …
/// case nil: try parser.skipValue()
/// }
/// ```
///
/// - Complexity: a lookup compares bytes only with the keys of the same length, O(keys of that
///   length) in the worst case; a key longer than every text costs one comparison.
public struct JSONKeyTable<Key>: Sendable where Key: Sendable {
    private let bytes: [UInt8]
    /// Sorted by length, texts of one length in the order given.
    private let entries: [(start: Int, count: Int, key: Key)]
    /// `entries[byLength[n]]` are the texts of `n` bytes.
    private let byLength: [Range<Int>]

    /// A table of `(text, key)` pairs; the first of two equal texts wins.
    public init(_ pairs: [(String, Key)]) {
        var bytes: [UInt8] = []
        var entries: [(start: Int, count: Int, key: Key)] = []
        for (text, key) in pairs {
            entries.append((bytes.count, text.utf8.count, key))
            bytes.append(contentsOf: text.utf8)
        }
        let ordered = entries.enumerated().sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }.map(\.element)
        var byLength: [Range<Int>] = []
        var index = 0
        for length in 0...(ordered.last?.count ?? 0) {
            let first = index
            while index < ordered.count, ordered[index].count == length { index += 1 }
            byLength.append(first..<index)
        }
        self.bytes = bytes
        self.entries = ordered
        self.byLength = byLength
    }

    /// The key whose text is `text`, if any.
    public func match(_ text: UnsafeBufferPointer<UInt8>) -> Key? {
        guard text.count < byLength.count else { return nil }
        let candidates = byLength[text.count]
        guard !candidates.isEmpty else { return nil }
        if text.count == 0 { return entries[candidates.lowerBound].key }
        return bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress, let other = text.baseAddress else { return nil }
            for index in candidates {
                let entry = entries[index]
                if base[entry.start] == other[0], memcmp(base + entry.start, other, entry.count) == 0 { return entry.key }
            }
            return nil
        }
    }
}

extension JSONKeyTable where Key: CaseIterable & RawRepresentable, Key.RawValue == String {
    /// A table of every case of `Key`, matched by its raw value.
    public init(_ type: Key.Type = Key.self) {
        self.init(Key.allCases.map { ($0.rawValue, $0) })
    }
}
