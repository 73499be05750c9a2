extension XMLBytes {
    /// The calendar timestamp the bytes spell (a GPX `time`, a KML `when`), surrounding XML
    /// whitespace ignored. Epoch numbers are not accepted: these formats write dates.
    /// - Throws: `TimestampError` (`.empty` for white space only).
    /// - Complexity: O(n) in the number of bytes, no allocation.
    func parseTimestamp() throws(TimestampError) -> ParsedTimestamp {
        let bytes = trimmed
        let result = bytes.withUnsafeBytes { raw in
            TimestampParser.parseResult(raw.assumingMemoryBound(to: UInt8.self), forms: .calendar)
        }
        return try result.get()
    }
}
