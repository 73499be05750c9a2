/// Reads the Timeline that Android phones export on the device (`Timeline.json`: `semanticSegments`,
/// `rawSignals`, `userLocationProfile`) as a stream, one segment or raw signal at a time.
///
/// Semantic segments become visits and tracks as `GoogleTimelineSegments` describes. Each raw
/// `position` (`LatLng` `"lat°, lon°"`, `accuracyMeters`, `altitudeMeters`, `speedMetersPerSecond`,
/// `timestamp`) is a point of one more track, segment 0, holding every raw position in file order;
/// Wi-Fi scans, activity records and the location profile are skipped. A wrong record is `.rejected`
/// at its position; a broken file throws `FormatError`.
public final class GoogleTimelineReader: LocationFileReader {
    private var parser: JSONParser
    private var walk = JSONArrayWalk(.members(["semanticSegments", "rawSignals"]))
    private var failure: FormatError?
    private var segments = GoogleTimelineSegments()
    private var pending: [FormatRecord] = []
    private var pendingIndex = 0
    /// The track of the raw positions, claimed at the first one.
    private var rawTrack: Int?


    private enum PositionKey: String, CaseIterable {
        case LatLng, latLng, accuracyMeters, altitudeMeters, speedMetersPerSecond, timestamp
    }

    private static let positionKeys = JSONKeyTable(PositionKey.self)

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
            guard let (array, event) = try walk.nextElement(from: &parser) else { return nil }
            if array == 0 {
                try segments.readSegment(startingWith: event, from: &parser, into: &pending)
                continue
            }
            guard let point = try Self.readRawSignal(startingWith: event, from: &parser) else { continue }
            let track = rawTrack ?? segments.claimTrack()
            rawTrack = track
            return point.record(kind: .track(track: track, segment: 0), requiresTime: true, fields: .latLng)
        }
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
