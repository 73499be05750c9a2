/// A streaming reader of one location-history format: it pulls bytes from a `ByteSource` as it
/// needs them and hands out records in file order, so memory stays flat whatever the file size.
public protocol LocationFileReader {
    /// The next record, or `nil` at the end of a well-formed input.
    /// - Throws: `FormatError` when the file itself is broken (truncated, not well-formed); a
    ///   single wrong record is not an error but a `.rejected` record.
    mutating func next() throws(FormatError) -> FormatRecord?

    /// Bytes of the input consumed so far (for a progress bar).
    var bytesConsumed: Int { get }
}
