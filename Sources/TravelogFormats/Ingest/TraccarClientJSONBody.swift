/// Reads the JSON body that Traccar Client (version 9 and later, built on Transistor Software's
/// background-geolocation plugin) posts with `Content-Type: application/json`, into `IngestFields`.
///
/// ```json
/// {"device_id": "48241179",
///  "location": {"timestamp": "2025-06-15T13:45:12.862Z",
///               "coords": {"latitude": 37.42, "longitude": -122.08, "accuracy": 5, "speed": 0,
///                          "heading": -1, "altitude": 5},
///               "is_moving": false, "odometer": 0, "event": "motionchange",
///               "battery": {"level": 1, "is_charging": false}, "activity": {"type": "still"},
///               "extras": {}}}
/// ```
///
/// `device_id` (a string, or an integer) and `location.coords.latitude`/`longitude` are required.
/// `coords`: `accuracy`, `altitude_accuracy`, `speed` (m/s), `speed_accuracy`, `heading`,
/// `heading_accuracy` (degrees), `altitude` (m); a negative value means unknown, as does `null`.
/// `battery.level` is a fraction 0–1 (negative: unknown). `is_moving`, `odometer` (m), `event`,
/// `activity.type` and the scalar members of `extras` become attributes; every other member
/// (the plugin's `uuid`, `age`, `mock`, the `_` echo of the query…) is skipped. `location` must be
/// one object: Traccar Client sends one fix per request and Traccar reads no array.
struct TraccarClientJSONBody {
    private enum RootKey: String, CaseIterable { case deviceIdentifier = "device_id", location }
    private enum LocationKey: String, CaseIterable {
        case timestamp, coords, isMoving = "is_moving", odometer, event, battery, activity, extras
    }
    private enum CoordsKey: String, CaseIterable {
        case latitude, longitude, accuracy, speed, heading, altitude
        case altitudeAccuracy = "altitude_accuracy", speedAccuracy = "speed_accuracy"
        case headingAccuracy = "heading_accuracy"
    }
    private static let rootKeys = JSONKeyTable(RootKey.self)
    private static let locationKeys = JSONKeyTable(LocationKey.self)
    private static let coordsKeys = JSONKeyTable(CoordsKey.self)

    /// Reads a whole body.
    /// - Throws: `IngestError.invalidJSON` for malformed JSON (trailing content included),
    ///   `.unexpectedJSONValue` for a member of the wrong kind, `.outOfRange`,
    ///   `.invalidTimestamp`.
    static func read(_ body: [UInt8]) throws(IngestError) -> IngestFields {
        var parser = JSONParser(bytes: body)
        var fields = IngestFields()
        do {
            try expectObject(&parser, field: "(body)")
            while try parser.nextKey() {
                switch parser.key(in: rootKeys) {
                case .deviceIdentifier?:
                    fields.deviceIdentifier = try identifier(&parser, field: "device_id")
                case .location?:
                    try expectObject(&parser, field: "location")
                    try readLocation(&parser, into: &fields)
                case nil:
                    try parser.skipValue()
                }
            }
            _ = try parser.next()  // nil, or a syntax error for anything after the object
        } catch let error as IngestError {
            throw error
        } catch let error as JSONSyntaxError {
            throw .invalidJSON(error)
        } catch let error as JSONTypeMismatchError {
            throw .unexpectedJSONValue(field: "(body)", expected: error.expected.description,
                                       found: FormatError.describe(error.found), offset: error.position.byteOffset)
        } catch {
            // The parser reads from memory and throws only the errors above.
            throw .unexpectedJSONValue(field: "(body)", expected: "JSON", found: String(describing: error), offset: 0)
        }
        return fields
    }

    private static func readLocation(_ parser: inout JSONParser, into fields: inout IngestFields) throws {
        while try parser.nextKey() {
            switch parser.key(in: locationKeys) {
            case .timestamp?:
                fields.time = try timestamp(&parser, field: "location.timestamp")
            case .coords?:
                try expectObject(&parser, field: "location.coords")
                try readCoords(&parser, into: &fields)
            case .isMoving?:
                if let moving = try boolean(&parser, field: "location.is_moving") { fields.attributes["is_moving"] = "\(moving)" }
            case .odometer?:
                if let text = try scalarText(&parser, field: "location.odometer") { fields.attributes["odometer"] = text }
            case .event?:
                if let text = try scalarText(&parser, field: "location.event") { fields.attributes["event"] = text }
            case .battery?:
                try expectObject(&parser, field: "location.battery")
                while try parser.nextKey() {
                    if parser.stringEquals("level") {
                        if let level = try number(&parser, field: "location.battery.level"), level >= 0 {
                            guard level <= 1 else { throw IngestError.outOfRange(field: "location.battery.level", value: level) }
                            fields.batteryPercent = level * 100
                        }
                    } else if parser.stringEquals("is_charging") {
                        fields.isCharging = try boolean(&parser, field: "location.battery.is_charging")
                    } else {
                        try parser.skipValue()
                    }
                }
            case .activity?:
                try expectObject(&parser, field: "location.activity")
                while try parser.nextKey() {
                    if parser.stringEquals("type"), let type = try scalarText(&parser, field: "location.activity.type") {
                        fields.attributes["activity"] = type
                    } else {
                        try parser.skipValue()
                    }
                }
            case .extras?:
                try expectObject(&parser, field: "location.extras")
                while try parser.nextKey() {
                    let name = parser.stringValue
                    let event = try parser.next()
                    if let text = text(of: event, parser) {
                        fields.attributes[name] = text
                    } else if event == .objectStart || event == .arrayStart {
                        try parser.skipToContainerEnd()
                    }
                }
            case nil:
                try parser.skipValue()
            }
        }
    }

    private static func readCoords(_ parser: inout JSONParser, into fields: inout IngestFields) throws {
        while try parser.nextKey() {
            guard let key = parser.key(in: coordsKeys) else {
                try parser.skipValue()
                continue
            }
            let field = "location.coords.\(key.rawValue)"
            guard let value = try number(&parser, field: field) else { continue }
            switch key {
            case .latitude: fields.latitudeDegrees = value
            case .longitude: fields.longitudeDegrees = value
            case .altitude: fields.altitudeMeters = value
            case .accuracy: fields.horizontalAccuracyMeters = IngestFields.nonNegative(value)
            case .altitudeAccuracy: fields.verticalAccuracyMeters = IngestFields.nonNegative(value)
            case .speed: fields.speedMetersPerSecond = IngestFields.nonNegative(value)
            case .speedAccuracy: fields.speedAccuracyMetersPerSecond = IngestFields.nonNegative(value)
            case .heading: fields.courseDegrees = try IngestFields.course(value, field: field)
            case .headingAccuracy: fields.courseAccuracyDegrees = IngestFields.nonNegative(value)
            }
        }
    }

    // MARK: Values

    private static func expectObject(_ parser: inout JSONParser, field: String) throws {
        let event = try parser.next()
        guard event == .objectStart else { throw mismatch(field: field, expected: "an object", found: event, parser) }
    }

    /// A number, `nil` for `null`.
    private static func number(_ parser: inout JSONParser, field: String) throws -> Double? {
        let event = try parser.next()
        switch event {
        case .number?: return parser.doubleValue
        case .null?: return nil
        default: throw mismatch(field: field, expected: "a number", found: event, parser)
        }
    }

    /// `true` or `false`, `nil` for `null`.
    private static func boolean(_ parser: inout JSONParser, field: String) throws -> Bool? {
        let event = try parser.next()
        switch event {
        case .bool(let value)?: return value
        case .null?: return nil
        default: throw mismatch(field: field, expected: "true or false", found: event, parser)
        }
    }

    /// A string, number or boolean as text; `nil` for `null`.
    private static func scalarText(_ parser: inout JSONParser, field: String) throws -> String? {
        let event = try parser.next()
        if event == .null { return nil }
        guard let text = text(of: event, parser) else {
            throw mismatch(field: field, expected: "a string, number or boolean", found: event, parser)
        }
        return text
    }

    /// A device identifier: a non-empty string, or an integer (some forks send a number).
    private static func identifier(_ parser: inout JSONParser, field: String) throws -> String? {
        let event = try parser.next()
        switch event {
        case .string?: return parser.stringValue
        case .number? where parser.int64Value != nil: return parser.int64Value.map { String($0) }
        case .null?: return nil
        default: throw mismatch(field: field, expected: "a string", found: event, parser)
        }
    }

    /// An ISO 8601 string, or an epoch number (seconds, or milliseconds from 2^31 − 1 up).
    private static func timestamp(_ parser: inout JSONParser, field: String) throws -> ParsedTimestamp? {
        let event = try parser.next()
        switch event {
        case .string?:
            return try IngestFields.timestamp(parser.stringValue, field: field)
        case .number?:
            let text = parser.int64Value.map { String($0) } ?? String(parser.doubleValue)
            do throws(TimestampError) {
                return try TimestampParser.parse(epochNumber: parser.doubleValue, exactInteger: parser.int64Value)
            } catch {
                throw IngestError.invalidTimestamp(field: field, value: text, reason: error)
            }
        case .null?:
            return nil
        default:
            throw mismatch(field: field, expected: "an ISO 8601 time", found: event, parser)
        }
    }

    /// The text of a scalar event (integers without a fraction), `nil` for `null` and containers.
    private static func text(of event: JSONEvent?, _ parser: borrowing JSONParser) -> String? {
        switch event {
        case .string?: parser.stringValue
        case .number?: parser.int64Value.map { String($0) } ?? String(parser.doubleValue)
        case .bool(let value)?: String(value)
        default: nil
        }
    }

    private static func mismatch(field: String, expected: String, found event: JSONEvent?,
                                 _ parser: borrowing JSONParser) -> IngestError {
        .unexpectedJSONValue(field: field, expected: expected, found: FormatError.describe(event),
                             offset: parser.tokenPosition.byteOffset)
    }
}
