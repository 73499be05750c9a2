/// Reads the Timeline that Android phones export on the device (`Timeline.json`: `semanticSegments`,
/// `rawSignals`, `userLocationProfile`) as a stream, one segment or raw signal at a time.
///
/// Semantic segments become visits and tracks as `GoogleTimelineSegments` describes. Each raw
/// `position` (`LatLng` `"lat°, lon°"`, `accuracyMeters`, `altitudeMeters`, `speedMetersPerSecond`,
/// `timestamp`) is a point of one more track, segment 0, holding every raw position in file order;
/// Wi-Fi scans, activity records and the location profile are skipped. A wrong record is `.rejected`
/// at its position; a broken file throws `FormatError`.
public final class GoogleTimelineReader: JSONDocumentReader {
    private var segments = GoogleTimelineSegments()
    /// The track of the raw positions, claimed at the first one.
    private var rawTrack: Int?

    private enum PositionKey: String, CaseIterable {
        case LatLng, latLng, accuracyMeters, altitudeMeters, speedMetersPerSecond, timestamp
    }

    private static let positionKeys = JSONKeyTable(PositionKey.self)

    /// Reads from `source`, a block of `options.blockSizeBytes` at a time.
    public init(source: some ByteSource, options: JSONParser.Options = JSONParser.Options()) {
        super.init(source: source, options: options, layout: .members(["semanticSegments", "rawSignals"]))
    }

    /// Reads a file. - Throws: `FormatError.cannotRead` when it cannot be opened.
    public convenience init(contentsOfFile path: String) throws(FormatError) {
        self.init(source: try FileByteSource(path: path))
    }

    override func readElement(array: Int, startingWith event: JSONEvent, into records: inout [FormatRecord]) throws -> FormatRecord? {
        if array == 0 {
            try segments.readSegment(startingWith: event, from: &parser, into: &records)
            return nil
        }
        guard let point = try Self.readRawSignal(startingWith: event, from: &parser) else { return nil }
        let track = rawTrack ?? segments.claimTrack()
        rawTrack = track
        return point.record(kind: .track(track: track, segment: 0), requiresTime: true, fields: .latLng)
    }
    /// Reads one element of `rawSignals`: the fields of a `position`, nil for anything else.
    private static func readRawSignal(startingWith event: JSONEvent, from parser: inout JSONParser) throws -> GooglePointFields? {
        guard event == .objectStart else {
            try parser.skipRest(after: event)
            return nil
        }
        var position: GooglePointFields?
        while try parser.nextKey() {
            guard parser.stringEquals("position") else {
                try parser.skipValue()
                continue
            }
            guard try parser.enterObject() else { continue }
            var point = GooglePointFields(position: parser.tokenPosition)
            while try parser.nextKey() {
                switch parser.key(in: Self.positionKeys) {
                case .LatLng?, .latLng?: try parser.readCoordinateText(into: &point)
                case .accuracyMeters?: point.horizontalAccuracyMeters = try parser.readGoogleDouble()
                case .altitudeMeters?: point.altitudeMeters = try parser.readGoogleDouble()
                case .speedMetersPerSecond?: point.speedMetersPerSecond = try parser.readGoogleDouble()
                case .timestamp?: point.time = try parser.readGoogleTime(unit: .automatic)
                case nil: try parser.skipValue()
                }
            }
            position = point
        }
        return position
    }
}
