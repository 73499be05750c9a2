/// Reads the Timeline that iPhones export on the device (`location-history.json`: a top-level array
/// of segments with `"geo:lat,lon"` coordinates, numbers written as strings, and path points timed
/// by `durationMinutesOffsetFromStartTime` after the segment's `startTime`) as a stream, one segment
/// at a time. Segments become visits and tracks as `GoogleTimelineSegments` describes; a
/// `timelineMemory` (a trip summary without coordinates) yields nothing. A wrong record is
/// `.rejected` at its position; a broken file throws `FormatError`.
public final class GoogleTimelineIOSReader: JSONDocumentReader {
    private var segments = GoogleTimelineSegments()

    /// Reads from `source`, a block of `options.blockSizeBytes` at a time.
    public init(source: some ByteSource, options: JSONParser.Options = JSONParser.Options()) {
        super.init(source: source, options: options, layout: .rootArray)
    }

    /// Reads a file. - Throws: `FormatError.cannotRead` when it cannot be opened.
    public convenience init(contentsOfFile path: String) throws(FormatError) {
        self.init(source: try FileByteSource(path: path))
    }

    override func readElement(array: Int, startingWith event: JSONEvent, into records: inout [FormatRecord]) throws -> FormatRecord? {
        try segments.readSegment(startingWith: event, from: &parser, into: &records)
        return nil
    }
}
