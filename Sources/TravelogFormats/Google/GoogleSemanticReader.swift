import Foundation

/// Reads Google Takeout's Semantic Location History (`2013/2013_MAY.json`: `{"timelineObjects": [ … ]}`)
/// as a stream, one timeline object at a time.
///
/// - `placeVisit` → `.visit`: the place's `location` (E7; else `centerLatE7`/`centerLngE7`; else the
///   first of `otherCandidateLocations`, as Dawarich falls back), its `name`, `address` and
///   `placeId`, from `duration.startTimestamp` to `endTimestamp` (ISO 8601, `…TimestampMs`, or epoch
///   digits); then the points of its `simplifiedRawPath` as a track of their own.
/// - `activitySegment` → a track: segment 0 is what GPSBabel makes of it — `startLocation` at the
///   start time, every `waypointPath` waypoint (untimed: Google gives them no time), `endLocation` at
///   the end time; a location without coordinates (`{}`) is left out. Segment 1 (0 when the first
///   is empty) holds the timed points of `simplifiedRawPath`.
///
/// Tracks are numbered from 0 in file order, counting only objects that yield points. Nested
/// `childVisits`, `transitPath` stops and `parkingEvent`s are skipped. A visit or point that is wrong
/// (no coordinate, latitude 200, an impossible time, a visit that ends before it starts) is a
/// `.rejected` record at the position of its object; a broken file throws `FormatError`.
///
/// Memory: one timeline object's records at a time (objects are small), whatever the file size.
public final class GoogleSemanticReader: LocationFileReader {
    private var parser: JSONParser
    private var walk = JSONArrayWalk(.members(["timelineObjects"]))
    private var failure: FormatError?
    private var objects = GoogleSemanticObjects()
    /// The records of the timeline object being handed out, and the next to hand out.
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
            try objects.readTimelineObject(startingWith: event, from: &parser, into: &pending)
        }
    }
}
