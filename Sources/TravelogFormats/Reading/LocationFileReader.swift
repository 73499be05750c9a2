/// A streaming reader of one location-history format: it pulls bytes from a `ByteSource` as it
/// needs them and hands out records in file order, so memory stays flat whatever the file size.
public protocol LocationFileReader {
    /// The next record, or `nil` at the end of a well-formed input.
    /// - Throws: `FormatError` when the file itself is broken (truncated, not well-formed); a
    ///   single wrong record is not an error but a `.rejected` record.
    mutating func next() throws(FormatError) -> FormatRecord?

    /// Bytes of the input consumed so far (for a progress bar).
    var bytesConsumed: Int { get }

    /// Records passed over because they are not locations (an OwnTracks card, a GeoJSON polygon),
    /// counted by what they were, for the import summary.
    var skippedRecords: [String: Int] { get }
}

extension LocationFileReader {
    /// Formats whose every record is a location, a visit or a rejection skip nothing.
    public var skippedRecords: [String: Int] { [:] }
}
