/// Reads location history from GeoJSON (RFC 7946) and from Overland batches, as a stream: the
/// document is pulled through a `JSONParser`, and only one feature is held in memory at a time.
///
/// Documents: a FeatureCollection (its `features` in file order, wherever its `type` is), a single
/// Feature, a bare geometry, a top-level array of Features, or an Overland batch
/// (`{"locations": [Feature…], "current": Feature, "trip": {…}}`).
///
/// Features:
/// - **Point**: a fix when the properties give a time (`timestamp`, `time`, `datetime`, `date`,
///   `recorded_at`, `time_long`, the first of these present; ISO 8601 with its offset kept in
///   `Location.utcOffsetSeconds`, or epoch seconds or milliseconds, as a number or a string), with
///   the altitude from the third coordinate or `altitude`/`elevation`/`ele`, the accuracy from
///   `horizontal_accuracy`/`accuracy`, and `vertical_accuracy`, `speed` (m/s), `speed_accuracy`,
///   `course`/`bearing`/`heading`, `course_accuracy` (negative means unknown, as Overland's -1).
///   Consecutive timed Point features form one track (track n, segment 0). Without a time a Point
///   is a waypoint, as GPSBabel reads it.
/// - **LineString**: a track; **MultiLineString**: a track with one segment per line. Each
///   position is timed from the feature's per-position times (`coordTimes`, `times` or
///   `coordinateProperties.times`, nested or flat), and `.untimed` without them.
/// - **MultiPoint**: a track when it has per-position times, waypoints otherwise.
/// - **GeometryCollection**: its members, in order.
/// - **Polygon**, **MultiPolygon**, features without geometry, Overland app events
///   (`properties.action`) and trips (`properties.type: "trip"`, the batch's `trip`) and the
///   batch's `current` location (the app sends it again in a later batch) are not location
///   history: skipped and counted in `skipped`.
/// - An Overland `visit` action (`arrival_date`, `departure_date` null while it lasts,
///   `horizontal_accuracy` as the radius) is a `.visit` when it has a Point and an arrival;
///   otherwise it is skipped and counted.
///
/// Coordinates written as strings (`["0.1", "0.1"]`, Dawarich's export) are read as numbers.
/// A wrong record (a latitude of 200, a time that is no time, a position with one number, a
/// LineString whose positions are nested like a Polygon's) is a `.rejected` record at its
/// position: one per position for a bad position of a line, one for the feature otherwise. A
/// document that is not well-formed JSON, or whose `features` is not an array, throws.
///
/// Differences from GPSBabel (`-i geojson`): GPSBabel makes a LineString a route and each line of
/// a MultiLineString a track of its own, and reads Polygons as routes; Travelog reads lines as the
/// recorded tracks they are in location-history files, and skips areas.
///
/// - Complexity: O(n) in the input; memory O(parser window + the largest feature).
public final class GeoJSONReader: LocationFileReader {
    /// Why something in the file was skipped rather than read or rejected.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// A Polygon or MultiPolygon (its type): an area, not where someone was.
        case area(String)
        /// A feature whose geometry is `null`, absent or empty.
        case noGeometry
        /// An Overland app event (`properties.action`, such as `will_terminate`).
        case overlandAction(String)
        /// An Overland visit without a Point or without an arrival time.
        case incompleteVisit
        /// An Overland trip summary.
        case overlandTrip
        /// The `current` location of an Overland batch, which the app also queues for a later batch.
        case overlandCurrent

        public var description: String {
            switch self {
            case .area(let type): "\(type) (an area)"
            case .noGeometry: "feature without geometry"
            case .overlandAction(let action): "Overland event '\(action)'"
            case .incompleteVisit: "Overland visit without a position or an arrival"
            case .overlandTrip: "Overland trip summary"
            case .overlandCurrent: "Overland current location (sent again in a later batch)"
            }
        }
    }

    private enum Stage {
        case start
        /// Inside the top-level object, between members.
        case topObject
        /// Inside an array of features: `features`, `locations`, or the document itself.
        case features(topLevel: Bool)
        /// After the top-level value: only white space may follow.
        case ending
        case finished
    }

    private var parser: JSONParser
    private var stage = Stage.start
    /// The top-level object's own members (a Feature's or a geometry's), read as they come.
    private var top = GeoJSONObject(start: SourcePosition(byteOffset: 0, line: 1, column: 1))
    /// Whether the document had an array of features (then it needs no other GeoJSON member).
    private var sawFeatureArray = false
    private var current: GeoJSONFeatureRecords?
    private var numbering = GeoJSONTrackNumbering()
    /// How often the fast path for plain Point features (`GeoJSONPointFeatureScan`) read a feature,
    /// and how often it gave up; it is no longer tried once it gives up far more than it reads.
    private var fastHits = 0, fastMisses = 0
    private let readsFast: Bool
    /// Whether every feature must be a Point feature (see `init`).
    private let pointFeaturesOnly: Bool

    /// How many things of each kind were skipped so far.
    public private(set) var skipped: [SkipReason: Int] = [:]

    public var skippedRecords: [String: Int] {
        Dictionary(skipped.map { ($0.key.description, $0.value) }, uniquingKeysWith: +)
    }

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - options: the parser's limits and block size.
    ///   - pointFeaturesOnly: read the script API's batch, which its OpenAPI document describes
    ///     exactly: a feature of `features` that is not a `Feature` with a Point of two or three
    ///     numbers (or without geometry, skipped) is a `.rejected` record, not read or skipped; an
    ///     object holding `features` (or `locations`) must be of type `FeatureCollection`.
    ///   - readsPlainPointsFast: read plain timed Point features (an Overland batch's) on the fast
    ///     path, `GeoJSONPointFeatureScan`. The records are the same without it; false is the
    ///     reference the tests hold the fast path to.
    public init(source: any ByteSource, options: JSONParser.Options = JSONParser.Options(), pointFeaturesOnly: Bool = false,
                readsPlainPointsFast: Bool = true) {
        parser = JSONParser(source: source, options: options)
        self.pointFeaturesOnly = pointFeaturesOnly
        readsFast = readsPlainPointsFast
    }

    public var bytesConsumed: Int { parser.bytesConsumed }

    /// How many features the fast path read (see `readsPlainPointsFast`).
    public var plainPointsReadFast: Int { fastHits }

    /// The next record, or `nil` at the end of the document.
    /// - Throws: `FormatError.truncated` when the document ends early, `.unexpected` or
    ///   `.invalidEncoding` where it is not well-formed JSON, `.unexpected` where it is not GeoJSON
    ///   (a top-level string, `features` that is not an array, an object of no GeoJSON type).
    public func next() throws(FormatError) -> FormatRecord? {
        do {
            return try advance()
        } catch {
            throw FormatError(json: error)
        }
    }

    private func advance() throws -> FormatRecord? {
        while true {
            if current != nil {
                // Stepped in place: the feature's state is large, and copying it per record cost more
                // than reading the record.
                guard let step = current!.next(numbering: &numbering) else {
                    current = nil
                    continue
                }
                switch step {
                case .record(let record): return record
                case .skip(let reason): skipped[reason, default: 0] += 1
                }
                continue
            }
            switch stage {
            case .start:
                let event = try parser.next()
                if event == .objectStart {
                    top = GeoJSONObject(start: parser.tokenPosition)
                    stage = .topObject
                } else if event == .arrayStart {
                    sawFeatureArray = true
                    stage = .features(topLevel: true)
                } else {
                    throw FormatError.unexpected(parser.tokenPosition, expected: "a GeoJSON object or an array of features",
                                                 found: FormatError.describe(event))
                }
            case .topObject:
                guard try parser.nextKey() else {
                    try finishTopObject()
                    continue
                }
                try readTopMember()
            case .features(let topLevel):
                if readsFast, fastMisses <= fastHits + 16,
                   let scanned = try parser.scanArrayElement(lookahead: 16 << 10, GeoJSONPointFeatureScan.scan) {
                    fastHits += 1
                    return GeoJSONFeatureRecords.trackPoint(scanned.fix, name: nil, batteryPercent: scanned.batteryPercent,
                                                            isCharging: scanned.isCharging, numbering: &numbering)
                }
                fastMisses += 1
                guard let event = try parser.nextElement() else {
                    stage = topLevel ? .ending : .topObject
                    continue
                }
                let start = parser.tokenPosition
                guard event == .objectStart else {
                    let error = try parser.valueError(for: event)
                    return .rejected(RecordRejection(position: error.position,
                                                     reason: .invalidValue(field: "features", value: error.found)))
                }
                let object = try GeoJSONObject.read(from: &parser, start: start)
                if pointFeaturesOnly, let problem = object.pointFeatureProblem { return .rejected(problem) }
                if let record = GeoJSONFeatureRecords.pointFeatureRecord(object, numbering: &numbering) { return record }
                current = GeoJSONFeatureRecords(object)
            case .ending:
                _ = try parser.next()  // nil at the end; throws for anything after the document
                stage = .finished
            case .finished:
                return nil
            }
        }
    }

    /// Reads one member of the top-level object after its key.
    private func readTopMember() throws {
        if parser.stringEquals("features") || parser.stringEquals("locations") {
            let event = try parser.next()
            if event == .arrayStart {
                sawFeatureArray = true
                stage = .features(topLevel: false)
            } else if event != .null {
                throw FormatError.unexpected(parser.tokenPosition, expected: "an array of features",
                                             found: FormatError.describe(event))
            }
        } else if parser.stringEquals("current") {
            try parser.skipValue()
            skipped[.overlandCurrent, default: 0] += 1
        } else if parser.stringEquals("trip") {
            try parser.skipValue()
            skipped[.overlandTrip, default: 0] += 1
        } else if try !top.readMember(from: &parser) {
            try parser.skipValue()
        }
    }

    /// At the end of the top-level object: a Feature or a geometry gives its records now.
    private func finishTopObject() throws {
        stage = .ending
        let typeName = top.own.typeName
        // The script API's batch is the FeatureCollection its document describes: features under an
        // object of another type, or of none, are refused whole rather than read as if it were one.
        if pointFeaturesOnly, sawFeatureArray, typeName != "FeatureCollection" {
            throw FormatError.unexpected(top.start, expected: "an object of type 'FeatureCollection' around the features",
                                         found: typeName.map { "an object of type '\($0)'" } ?? "an object without a type")
        }
        if top.isFeature || top.own.hasContent || typeName.flatMap(GeoJSONGeometry.Kind.init(rawValue:)) != nil {
            current = GeoJSONFeatureRecords(top)
        } else if !sawFeatureArray, typeName != "FeatureCollection" {
            throw FormatError.unexpected(top.start, expected: "a GeoJSON FeatureCollection, Feature or geometry, or an Overland batch",
                                         found: typeName.map { "an object of type '\($0)'" } ?? "an object without a GeoJSON type")
        }
    }
}
