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
public final class GoogleSemanticReader: JSONDocumentReader {
    private var objects = GoogleSemanticObjects()

    /// Reads from `source`, a block of `options.blockSizeBytes` at a time.
    public init(source: some ByteSource, options: JSONParser.Options = JSONParser.Options()) {
        super.init(source: source, options: options, layout: .members(["timelineObjects"]))
    }

    /// Reads a file. - Throws: `FormatError.cannotRead` when it cannot be opened.
    public convenience init(contentsOfFile path: String) throws(FormatError) {
        self.init(source: try FileByteSource(path: path))
    }

    override func readElement(array: Int, startingWith event: JSONEvent, into records: inout [FormatRecord]) throws -> FormatRecord? {
        try objects.readTimelineObject(startingWith: event, from: &parser, into: &records)
        return nil
    }
}
