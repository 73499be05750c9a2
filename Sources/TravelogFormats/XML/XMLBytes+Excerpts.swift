extension XMLBytes {
    /// The bytes in `range` (within `0..<count`), a view into the same memory.
    func slice(_ range: Range<Int>) -> XMLBytes {
        guard let base, !range.isEmpty else { return .empty }
        return XMLBytes(base: base + range.lowerBound, count: range.count)
    }

    /// The text for a message about a wrong value: at most its first 80 bytes.
    var excerpt: String {
        count <= 80 ? string : String(decoding: prefix(80), as: UTF8.self) + "…"
    }
}
