import TravelogCore

/// Reads GPX 1.0 and 1.1 as a stream: track points, route points and waypoints in file order.
///
/// Elements are matched by local name, so files with the GPX namespace, another prefix or no
/// namespace at all read alike; a byte-order mark, UTF-16 and Latin-1 are handled by the XML
/// parser. Each point element becomes one record:
/// - `trk/trkseg/trkpt` → `.track(track:segment:)`; `rte/rtept` → `.route(route:)`; `wpt` →
///   `.waypoint`. Track, segment and route numbers count from 0 in file order and only count what
///   yields a point, so an empty `trkseg` (or `trk`, or `rte`) takes no number and the numbers have
///   no gaps; `segment` counts within its track. A `trkpt` outside any `trkseg` belongs to a
///   segment of its own.
/// - `lat`, `lon` (attributes, degrees) are required; `ele` is the altitude (metres, as written:
///   `geoidheight`, the geoid's height above the ellipsoid, is informational and not applied);
///   `time` (RFC 3339 via `TimestampParser`: fractions to 9 digits, a numeric offset kept as
///   `Location.utcOffsetSeconds`, no zone read as UTC); `name`; GPX 1.0 `speed` (m/s) and `course`
///   (degrees), or else `speed` and `course` anywhere inside the point's `extensions` (Garmin
///   TrackPointExtension v2, OsmAnd's `osmand:speed`, both m/s and degrees). A course of 360° is 0°.
/// - A point with a time is a `.fix`; without one (or with an empty `time`) it is `.untimed`.
/// - Everything else is read past: metadata, links, `hdop`/`vdop`/`pdop`/`sat` (dilution is not
///   an accuracy in metres, so `horizontalAccuracyMeters` stays unknown), Garmin `hr`, `cad`,
///   `atemp`, other extensions.
///
/// A point that is wrong is a `.rejected` record at the position of what is wrong, and reading
/// goes on: `lat`/`lon` missing, not a number or out of range (at the point's start tag), a
/// `time` that does not parse or cannot be (at `<time>`), an `ele`, `speed` or `course` that is
/// not a number, a course above 360° (at that element). A file that is not well-formed or is cut
/// short throws `FormatError.xml` with the position, after the records before it; a document
/// whose root is not `gpx` throws `.unexpected`.
///
/// Sources: GPX 1.1 schema (topografix.com/GPX/1/1/gpx.xsd), GPX 1.0 schema
/// (topografix.com/GPX/1/0/gpx.xsd), Garmin TrackPointExtensionv2.xsd.
/// - Complexity: O(n) in the input; memory holds the XML parser's buffer and one point.
public struct GPXReader: LocationFileReader {
    let parser: XMLPullParser
    var sawRoot = false
    /// The depth of the point element being read, 0 between points.
    var pointDepth = 0
    var pointElement = GPXPoint.Element.trackPoint
    var point = GPXPoint(position: SourcePosition(byteOffset: 0, line: 1, column: 1))
    var pointName: String?
    /// Why the current point is rejected, when `point.isRejected`.
    var pointFault = RecordRejection(position: SourcePosition(byteOffset: 0, line: 1, column: 1), reason: .missingField("lat"))
    /// The depth of the current point's `extensions`, 0 outside it.
    var extensionsDepth = 0
    /// Where the start tag of the point's field being read is (for a rejection).
    var fieldPosition = SourcePosition(byteOffset: 0, line: 1, column: 1)

    /// Numbers given to tracks, segments and routes (see the type's documentation).
    var tracks = TrackNumbering()
    var routesNumbered = 0
    var currentRoute: Int?

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - bufferCapacityBytes: the XML parser's read buffer (it grows only for a longer tag).
    /// - Throws: the source's errors, or `FormatError.xml` for an encoding that cannot be read.
    public init(source: any ByteSource, bufferCapacityBytes: Int = 128 * 1024) throws(FormatError) {
        parser = try XMLPullParser.reading(source, options: XMLParserOptions(
            skipsWhitespaceText: true, bufferCapacityBytes: bufferCapacityBytes))
    }

    public var bytesConsumed: Int { parser.consumedByteCount }

    /// The next point or rejection, or `nil` at the end of a complete document.
    /// - Throws: `FormatError.xml` for a document that is not well-formed or is cut short;
    ///   `.unexpected` when the root element is not `gpx`; the source's errors.
    public mutating func next() throws(FormatError) -> FormatRecord? {
        while let event = try parser.nextEvent() {
            switch event {
            case .startElement:
                if pointDepth > 0 {
                    startFieldElement()
                } else {
                    try startStructureElement()
                }
            case .endElement:
                if pointDepth > 0 {
                    if let record = endFieldElement() { return record }
                } else {
                    endStructureElement()
                }
            case .text:
                break
            }
        }
        return nil
    }

    /// A start tag outside any point: a point, or the track, segment or route around points.
    private mutating func startStructureElement() throws(FormatError) {
        let name = parser.localName
        if !sawRoot {
            guard name == "gpx" else { throw parser.unexpectedRoot(expected: "gpx") }
            sawRoot = true
            return
        }
        if name == "trkpt" {
            startPoint(.trackPoint)
        } else if name == "trkseg" {
            tracks.startSegment()
        } else if name == "rtept" {
            startPoint(.routePoint)
        } else if name == "wpt" {
            startPoint(.waypoint)
        } else if name == "trk" {
            tracks.startTrack()
        } else if name == "rte" {
            currentRoute = nil
        }
    }

    /// An end tag outside any point: a segment, track or route is over.
    private mutating func endStructureElement() {
        let name = parser.localName
        if name == "trkseg" {
            tracks.startSegment()
        } else if name == "trk" {
            tracks.startTrack()
        } else if name == "rte" {
            currentRoute = nil
        }
    }

    /// The kind of the point just ended, numbering its track and segment (or route) if it is
    /// their first point.
    mutating func kindOfFinishedPoint() -> FormatPoint.Kind {
        switch pointElement {
        case .trackPoint:
            return tracks.nextTrackPoint()
        case .routePoint:
            if let currentRoute { return .route(route: currentRoute) }
            let route = routesNumbered
            routesNumbered += 1
            currentRoute = route
            return .route(route: route)
        case .waypoint:
            return .waypoint
        }
    }
}
