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
/// - Complexity: a lookup compares lengths first and then bytes, O(number of keys) in the worst case.
public struct JSONKeyTable<Key>: Sendable where Key: Sendable {
    private let bytes: [UInt8]
    private let entries: [(start: Int, count: Int, key: Key)]

    /// A table of `(text, key)` pairs; the first of two equal texts wins.
    public init(_ pairs: [(String, Key)]) {
        var bytes: [UInt8] = []
        var entries: [(start: Int, count: Int, key: Key)] = []
        for (text, key) in pairs {
            entries.append((bytes.count, text.utf8.count, key))
            bytes.append(contentsOf: text.utf8)
        }
        self.bytes = bytes
        self.entries = entries
    }

    /// The key whose text is `text`, if any.
    public func match(_ text: UnsafeBufferPointer<UInt8>) -> Key? {
        bytes.withUnsafeBufferPointer { all in
            for entry in entries where entry.count == text.count {
                if entry.count == 0 { return entry.key }
                guard let base = all.baseAddress, let other = text.baseAddress else { continue }
                if memcmp(base + entry.start, other, entry.count) == 0 { return entry.key }
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
