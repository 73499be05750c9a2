import TravelogCore

/// Reads KML 2.2 location history as a stream: `gx:Track`s, `LineString`s and `Point`s in file
/// order, whatever `Document`/`Folder` nesting holds them.
///
/// Elements are matched by local name (`gx:Track`, or `Track` in OGC KML 2.3, read alike). Each
/// `Placemark` whose geometry holds lines is one track; each line in it is a segment:
/// - `gx:Track`: the i-th `when` pairs with the i-th `gx:coord` (`lon lat [alt]`, degrees and
///   metres), all `when`s first (Google Earth, GPSBabel) or interleaved (Google's location
///   history, `travelog export --format kml`); a pair is a `.fix`, or
///   `.untimed` when its `when` is empty (`<when/>`, as GPSBabel writes). An empty `gx:coord` is
///   dropped with its `when`. A `gx:MultiTrack` is one track whose `gx:Track`s are its segments.
/// - `LineString`: its `coordinates` (`lon,lat[,alt]` tuples separated by white space) are
///   `.untimed` track points: a Placemark's `TimeStamp` is not the time of each of its points. The
///   text is read as it streams, however long, holding one tuple at a time.
/// - `Point`: a `.waypoint` named after its Placemark, timed by the Placemark's `TimeStamp/when`
///   when it has one (a date without a time of day leaves it untimed). A `MultiGeometry` mixes
///   all of these. Placemarks without geometry, `Polygon`s, `Model`s, `LookAt`s and styles are
///   read past.
/// Track and segment numbers count from 0 in file order and only count what yields a point, as
/// in `GPXReader`. Altitudes are kept as written whatever the `altitudeMode`, as GPSBabel does.
///
/// A wrong value is a `.rejected` record and reading goes on: a `when` that does not parse (at
/// `<when>`, its `gx:coord` dropped with it), a coordinate that is not numbers or is out of range
/// (at `<gx:coord>`, or at the tuple inside `coordinates`), a `when` or `gx:coord` without a
/// partner (at `</gx:Track>`, one per element). A file that is not well-formed or is cut short
/// throws `FormatError.xml`; a document whose root is not `kml` throws `.unexpected`.
///
/// Sources: OGC KML 2.2 (OGC 07-147r2) §9.11 Placemark, §10 geometries, §16.9.1 coordinates;
/// Google's KML extension reference for `gx:Track` and `gx:MultiTrack`.
/// - Complexity: O(n) in the input. Memory holds the XML parser's buffer, the records of one
///   block of coordinate text, the Points of one Placemark until its end, and for a `gx:Track`
///   written with all its `when`s first, 16 bytes per `when` until its `gx:coord`s come.
public struct KMLReader: LocationFileReader {
    /// What a Placemark's `TimeStamp` said.
    enum PlacemarkTime {
        case none
        case time(ParsedTimestamp)
        case rejected(RecordRejection)
    }

    /// Whose `coordinates` are being read.
    enum CoordinatesOwner {
        case point, lineString
    }

    /// A `Point` waiting for the end of its Placemark, whose `TimeStamp` may come after it.
    struct WaitingPoint {
        var coordinate: Coordinate
        var altitudeMeters: Double?
    }

    let parser: XMLPullParser
    var sawRoot = false
    /// Records found and not handed out yet, from `readyHead` on.
    var ready: [FormatRecord] = []
    var readyHead = 0
    /// Tuples of the coordinate text just read.
    var tuples: [KMLCoordinate] = []

    var placemarkDepth = 0
    var placemarkName: String?
    var placemarkTime = PlacemarkTime.none
    var timeStampDepth = 0
    var waitingPoints: [WaitingPoint] = []

    var pointDepth = 0
    var lineStringDepth = 0
    var trackDepth = 0
    var coordinatesOwner: CoordinatesOwner?
    var coordinateText = KMLCoordinateText()
    var pairing = KMLTrackPairing()
    /// Where the start tag of the `when` or `gx:coord` being read is (for a rejection).
    var fieldPosition = SourcePosition(byteOffset: 0, line: 1, column: 1)

    var tracks = TrackNumbering()

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - bufferCapacityBytes: the XML parser's read buffer (a long coordinate text is read in
    ///     pieces of this size).
    /// - Throws: the source's errors, or `FormatError.xml` for an encoding that cannot be read.
    public init(source: any ByteSource, bufferCapacityBytes: Int = 128 * 1024) throws(FormatError) {
        parser = try XMLPullParser.reading(source, options: XMLParserOptions(bufferCapacityBytes: bufferCapacityBytes))
    }

    public var bytesConsumed: Int { parser.consumedByteCount }

    /// The next point or rejection, or `nil` at the end of a complete document.
    /// - Throws: `FormatError.xml` for a document that is not well-formed or is cut short;
    ///   `.unexpected` when the root element is not `kml`; the source's errors.
    public mutating func next() throws(FormatError) -> FormatRecord? {
        while true {
            if readyHead < ready.count {
                let record = ready[readyHead]
                readyHead += 1
                if readyHead == ready.count {
                    ready.removeAll(keepingCapacity: true)
                    readyHead = 0
                }
                return record
            }
            guard let event = try parser.nextEvent() else { return nil }
            switch event {
            case .startElement: try startElement()
            case .endElement: endElement()
            case .text:
                if coordinatesOwner != nil {
                    coordinateText.scan(parser.characters, at: parser.eventPosition, into: &tuples)
                    takeTuples()
                }
            }
        }
    }

    private mutating func startElement() throws(FormatError) {
        let name = parser.localName
        let depth = parser.depth
        guard sawRoot else {
            guard name == "kml" else { throw parser.unexpectedRoot(expected: "kml") }
            sawRoot = true
            return
        }
        if trackDepth > 0 {
            if depth == trackDepth + 1, name == "when" || name == "coord" { fieldPosition = parser.eventPosition }
        } else if name == "Placemark" {
            startPlacemark(depth: depth)
        } else if name == "Track" {
            startLine()
            trackDepth = depth
            pairing.reset()
        } else if name == "LineString" {
            startLine()
            lineStringDepth = depth
        } else if name == "Point" {
            pointDepth = depth
        } else if name == "coordinates" {
            if lineStringDepth > 0, depth == lineStringDepth + 1 {
                coordinatesOwner = .lineString
            } else if pointDepth > 0, depth == pointDepth + 1 {
                coordinatesOwner = .point
            }
            if coordinatesOwner != nil { parser.collectsText = false }
        } else if placemarkDepth > 0, depth == placemarkDepth + 1, name == "TimeStamp" {
            timeStampDepth = depth
        } else if timeStampDepth > 0, depth == timeStampDepth + 1, name == "when" {
            fieldPosition = parser.eventPosition
        }
    }

    private mutating func endElement() {
        let depth = parser.depth
        if trackDepth > 0 {
            if depth == trackDepth + 1 {
                let name = parser.localName
                if name == "when" {
                    readTrackWhen()
                } else if name == "coord" {
                    readTrackCoordinate()
                }
            } else if depth == trackDepth {
                finishTrack()
            }
            return
        }
        if let owner = coordinatesOwner {
            guard depth == (owner == .point ? pointDepth : lineStringDepth) + 1 else { return }
            coordinateText.finish(into: &tuples)
            takeTuples()
            coordinatesOwner = nil
            parser.collectsText = true
        } else if depth == lineStringDepth {
            lineStringDepth = 0
        } else if depth == pointDepth {
            pointDepth = 0
        } else if depth == timeStampDepth + 1, timeStampDepth > 0, parser.localName == "when" {
            readPlacemarkTime()
        } else if depth == timeStampDepth {
            timeStampDepth = 0
        } else if depth == placemarkDepth + 1, placemarkDepth > 0, parser.localName == "name" {
            let text = parser.text.trimmed
            placemarkName = text.isEmpty ? nil : text.string
        } else if depth == placemarkDepth {
            flushWaitingPoints()
            placemarkDepth = 0
        }
    }

    /// Hands out `record` after those found before it.
    mutating func emit(_ record: FormatRecord) {
        ready.append(record)
    }
}
