/// Reads the Timeline that iPhones export on the device (`location-history.json`: a top-level array
/// of segments with `"geo:lat,lon"` coordinates, numbers written as strings, and path points timed
/// by `durationMinutesOffsetFromStartTime` after the segment's `startTime`) as a stream, one segment
/// at a time. Segments become visits and tracks as `GoogleTimelineSegments` describes; a
/// `timelineMemory` (a trip summary without coordinates) yields nothing. A wrong record is
/// `.rejected` at its position; a broken file throws `FormatError`.
public final class GoogleTimelineIOSReader: LocationFileReader {
    private var parser: JSONParser
    private var walk = JSONArrayWalk(.rootArray)
    private var failure: FormatError?
    private var segments = GoogleTimelineSegments()
    private var pending: [FormatRecord] = []
    private var pendingIndex = 0


    /// Reads from `source`, a block of `options.blockSizeBytes` at a time.
    public init(source: some ByteSource, options: JSONParser.Options = JSONParser.Options()) {
        parser = JSONParser(source: source, options: options)
    }

    /// Reads a file. - Throws: `FormatError.cannotRead` when it cannot be opened.
    public convenience init(contentsOfFile path: String) throws(FormatError) {
        self.init(source: try FileByteSource(path: path))
    }

    public var bytesConsumed: Int { parser.bytesConsumed }

    /// The next visit, point or rejection, nil at the end of the file.
    /// - Throws: `FormatError` when the file is broken; every later call throws it again.
    public func next() throws(FormatError) -> FormatRecord? {
        if let failure { throw failure }
        do {
            return try advance()
        } catch {
            let mapped = FormatError(json: error)
            failure = mapped
            throw mapped
        }
    }

    private func advance() throws -> FormatRecord? {
        while true {
            if pendingIndex < pending.count {
                defer { pendingIndex += 1 }
                return pending[pendingIndex]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard let (_, event) = try walk.nextElement(from: &parser) else { return nil }
            try segments.readSegment(startingWith: event, from: &parser, into: &pending)
        }
    }
}
