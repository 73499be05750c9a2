/// Reads Google Takeout's `Records.json` (`{"locations": [ … ]}`, the raw location history) as a
/// stream: one location at a time, memory flat whatever the file size.
///
/// Each location becomes a point of track 0, segment 0 (the file is one chronological stream):
/// `latitudeE7`/`longitudeE7` ÷ 10⁷ (plain `latitude`/`longitude` degrees are accepted too; E7
/// values broken by Google's unsigned-32-bit export bug are repaired, see
/// `GoogleCoordinates.latitudeDegrees(e7:)`), `accuracy` and `verticalAccuracy` (m), `altitude` (m),
/// `velocity` (m/s), `heading` (degrees), and the time from `timestamp` (ISO 8601) or, in older
/// files, `timestampMs` (milliseconds, string or number). `activity`, `source`, `deviceTag` and
/// other keys are skipped without being decoded.
///
/// A location without a coordinate or time, or with one that cannot be (latitude 200, month 13),
/// is a `.rejected` record at the position of its `{`; a file that is not well-formed JSON, or
/// whose `locations` is not an array, throws `FormatError`.
///
/// - Complexity: O(n) in the file's length; memory O(the parser's block).
public final class GoogleRecordsReader: JSONDocumentReader {
    private enum Key: String, CaseIterable {
        case latitudeE7, longitudeE7, timestamp, accuracy, altitude, timestampMs, verticalAccuracy
        case velocity, heading, latitude, longitude
    }

    private static let keys = JSONKeyTable(Key.self)

    /// Reads from `source`, a block of `options.blockSizeBytes` at a time.
    public init(source: some ByteSource, options: JSONParser.Options = JSONParser.Options()) {
        super.init(source: source, options: options, layout: .members(["locations"]))
    }

    /// Reads a file. - Throws: `FormatError.cannotRead` when it cannot be opened.
    public convenience init(contentsOfFile path: String) throws(FormatError) {
        self.init(source: try FileByteSource(path: path))
    }

    override func readElement(array: Int, startingWith event: JSONEvent, into records: inout [FormatRecord]) throws -> FormatRecord? {
        try Self.readLocation(startingWith: event, from: &parser)
    }

    /// Reads one element of `locations` whose first event is `event`. (Static, with the parser
    /// `inout`: one exclusive access to the class's parser per location, not one per value.)
    @inline(__always)
    private static func readLocation(startingWith event: JSONEvent, from parser: inout JSONParser) throws -> FormatRecord {
        var fields = GooglePointFields(position: parser.tokenPosition)
        guard event == .objectStart else {
            try parser.skipRest(after: event)
            let found = JSONParser.describeValue(event)
            return .rejected(RecordRejection(position: fields.position, reason: .invalidValue(field: "locations[]", value: found)))
        }
        var timestampMs = GoogleTime.Reading.absent
        while try parser.nextKey() {
            switch parser.key(in: Self.keys) {
            case .latitudeE7?: fields.latitude = try parser.readGoogleDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            case .longitudeE7?: fields.longitude = try parser.readGoogleDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            case .latitude?: fields.latitude = try parser.readGoogleDouble()
            case .longitude?: fields.longitude = try parser.readGoogleDouble()
            case .timestamp?: fields.time = try parser.readGoogleTime(unit: .automatic)
            case .timestampMs?: timestampMs = try parser.readGoogleTime(unit: .milliseconds)
            case .accuracy?: fields.horizontalAccuracyMeters = try parser.readGoogleDouble()
            case .altitude?: fields.altitudeMeters = try parser.readGoogleDouble()
            case .verticalAccuracy?: fields.verticalAccuracyMeters = try parser.readGoogleDouble()
            case .velocity?: fields.speedMetersPerSecond = try parser.readGoogleDouble()
            case .heading?: fields.courseDegrees = try parser.readGoogleDouble()
            case nil: try parser.skipValue()
            }
        }
        if fields.time == .absent { fields.time = timestampMs }
        return fields.record(kind: .track(track: 0, segment: 0), requiresTime: true, fields: .records)
    }
}
