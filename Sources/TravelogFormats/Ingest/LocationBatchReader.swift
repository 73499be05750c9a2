import Foundation
import TravelogCore

/// Reads the generic API's own batch (`POST /api/v1/locations`): a JSON array of objects, an object
/// with a `locations` array of them, or one object, each
///
///     {"latitude": 52.52, "longitude": 13.405, "timestamp": "2024-03-01T09:00:00Z",
///      "altitude": 34, "horizontalAccuracy": 5, "verticalAccuracy": 3, "speed": 1.4, "course": 90}
///
/// `lat`/`lon`/`lng`, `time`/`tst`, `alt`, `accuracy`/`acc`, `vertical_accuracy`/`vac`,
/// `bearing`/`heading` are accepted too (`accuracy` and `vertical_accuracy` are the names Travelog
/// writes, `LocationFeatureWriter`); numbers may be JSON numbers (0 and 1 included) or decimal strings; `null` means
/// not given; `timestamp` is ISO 8601 or epoch seconds (milliseconds from 2^31−1 up). A missing
/// timestamp means `receivedAt`. A wrong item is a `.rejected` record naming its field.
///
/// - Complexity: O(n) in the input; memory O(parser window + one item).
public final class LocationBatchReader: LocationFileReader {
    enum Field: CaseIterable {
        case latitude, longitude, timestamp, altitude, horizontalAccuracy, verticalAccuracy, speed, course
    }

    static let keys = JSONKeyTable<Field>([
        ("latitude", .latitude), ("lat", .latitude),
        ("longitude", .longitude), ("lon", .longitude), ("lng", .longitude),
        ("timestamp", .timestamp), ("time", .timestamp), ("tst", .timestamp),
        ("altitude", .altitude), ("alt", .altitude),
        ("horizontalAccuracy", .horizontalAccuracy), ("accuracy", .horizontalAccuracy), ("acc", .horizontalAccuracy),
        ("verticalAccuracy", .verticalAccuracy), ("vertical_accuracy", .verticalAccuracy), ("vac", .verticalAccuracy),
        ("speed", .speed),
        ("course", .course), ("bearing", .course), ("heading", .course),
    ])

    private enum Stage { case start, items, single, done }

    private var parser: JSONParser
    private var stage = Stage.start
    private let receivedAt: Date
    private var index = 0

    public init(source: any ByteSource, receivedAt: Date) {
        parser = JSONParser(source: source)
        self.receivedAt = receivedAt
    }

    public var bytesConsumed: Int { parser.bytesConsumed }

    public func next() throws(FormatError) -> FormatRecord? {
        do {
            return try nextRecord()
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError(json: error)
        }
    }

    private func nextRecord() throws -> FormatRecord? {
        switch stage {
        case .done:
            return nil
        case .start:
            let event = try parser.next()
            switch event {
            case .arrayStart?:
                stage = .items
                return try nextRecord()
            case .objectStart?:
                // `{"locations": [...]}`, or one item.
                let start = parser.tokenPosition
                guard try parser.nextKey() else {
                    stage = .done
                    return .rejected(RecordRejection(position: start, reason: .missingField("latitude")))
                }
                if parser.stringEquals("locations") {
                    try parser.expect(.arrayStart)
                    stage = .items
                    return try nextRecord()
                }
                stage = .single
                return try item(start: start, firstKeyRead: true)
            default:
                throw FormatError.unexpected(parser.tokenPosition, expected: "a JSON array of locations, or an object with a 'locations' array",
                                             found: FormatError.describe(event))
            }
        case .items:
            guard let event = try parser.nextElement() else {
                stage = .done
                return nil
            }
            let start = parser.tokenPosition
            guard event == .objectStart else {
                let error = try parser.valueError(for: event)
                defer { index += 1 }
                return .rejected(RecordRejection(position: error.position,
                                                 reason: .invalidValue(field: "item \(index)", value: error.found)))
            }
            return try item(start: start, firstKeyRead: false)
        case .single:
            stage = .done
            _ = try parser.next()
            return nil
        }
    }

    /// Reads one item's members (the object's `{` has been read; maybe its first key too).
    private func item(start: SourcePosition, firstKeyRead: Bool) throws -> FormatRecord {
        defer { index += 1 }
        var numbers: [Field: Double] = [:]
        var time: ParsedTimestamp?
        var problem: RecordRejection?
        var hasKey = firstKeyRead
        if !hasKey { hasKey = try parser.nextKey() }
        while hasKey {
            let field = parser.key(in: Self.keys)
            let key = parser.stringValue
            do {
                switch field {
                case .timestamp?: time = try parser.readLenientTime()
                case let field?: numbers[field] = try parser.readLenientDouble()
                case nil: try parser.skipValue()
                }
            } catch let error as JSONFieldValueError {
                if problem == nil {
                    problem = RecordRejection(position: error.position,
                                              reason: .invalidValue(field: key, value: error.found))
                }
            }
            hasKey = try parser.nextKey()
        }
        if let problem { return .rejected(problem) }
        guard let latitude = numbers[.latitude] else { return .rejected(RecordRejection(position: start, reason: .missingField("latitude"))) }
        guard let longitude = numbers[.longitude] else { return .rejected(RecordRejection(position: start, reason: .missingField("longitude"))) }
        // The batch is described exactly by its document: a longitude outside -180…180 is refused,
        // not wrapped as a file's is.
        guard !(longitude.isFinite && abs(longitude) > 180) else {
            return .rejected(RecordRejection(position: start, reason: .implausible("longitude \(longitude) is outside [-180, 180]")))
        }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            return .rejected(RecordRejection(position: start, reason: .invalidCoordinate(error)))
        }
        let location = Location(coordinate: coordinate, altitudeMeters: numbers[.altitude],
                                horizontalAccuracyMeters: numbers[.horizontalAccuracy] ?? -1,
                                verticalAccuracyMeters: numbers[.verticalAccuracy] ?? -1,
                                speedMetersPerSecond: numbers[.speed] ?? -1,
                                courseDegrees: numbers[.course] ?? -1,
                                timestamp: time?.date ?? receivedAt, utcOffsetSeconds: time?.utcOffsetSeconds)
        return .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(location)))
    }
}
