/// The members of a feature's `properties` that say when and how well its positions were
/// recorded, as GPS apps and Overland write them; every other member is skipped unread.
///
/// A wrong value (`"speed": "fast"`, a time that is no time) is noted, not thrown: it rejects the
/// fix that would use it, and only that.
struct GeoJSONProperties {
    enum Key: String, CaseIterable {
        // Times, best first: the first of these that a feature has is its time.
        case timestamp, time, datetime, date
        case recordedAt = "recorded_at"
        case timeLong = "time_long"
        case altitude, elevation, ele
        case horizontalAccuracy = "horizontal_accuracy"
        case accuracy
        case verticalAccuracy = "vertical_accuracy"
        case speed
        case speedAccuracy = "speed_accuracy"
        case course, bearing, heading
        case courseAccuracy = "course_accuracy"
        // One time per position: togeojson's `coordTimes`, `times`, `coordinateProperties.times`.
        case coordTimes, times, coordinateProperties
        // Overland.
        case action, type
        case arrivalDate = "arrival_date"
        case departureDate = "departure_date"
        case name
        // Overland's (and its followers') battery: `battery_level` 0–1, `battery_state`
        // (unknown, unplugged, charging, full). The device's status, never a reason to reject a fix.
        case batteryLevel = "battery_level"
        case batteryState = "battery_state"

        static let table = JSONKeyTable(Key.self)

        /// For the time keys, their rank (0 is best); nil for the others.
        var timeRank: Int? {
            switch self {
            case .timestamp: 0
            case .time: 1
            case .datetime: 2
            case .date: 3
            case .recordedAt: 4
            case .timeLong: 5
            default: nil
            }
        }
    }

    var time: ParsedTimestamp?
    /// The rank of the key `time` (or `timeProblem`) came from.
    private var timeRank = Int.max
    var altitudeMeters: Double?
    var horizontalAccuracyMeters: Double?
    var verticalAccuracyMeters: Double?
    var speedMetersPerSecond: Double?
    var speedAccuracyMetersPerSecond: Double?
    var courseDegrees: Double?
    var courseAccuracyDegrees: Double?
    /// Times per position, flattened in file order (`nil` for `null`); `nil` when the feature has none.
    var positionTimes: [ParsedTimestamp?]?
    /// Why a time of `positionTimes` is wrong, by its index; few, so kept apart.
    var positionTimeProblems: [Int: RecordRejection] = [:]
    var name: String?
    /// Overland: an app event such as `visit` or `will_terminate`.
    var action: String?
    /// Overland: `properties.type == "trip"`.
    var isTrip = false
    var arrival: ParsedTimestamp?
    var departure: ParsedTimestamp?
    /// The battery, percent 0–100, and whether it was charging or full, when given and valid.
    var batteryPercent: Double?
    var isCharging: Bool?

    /// The first wrong value among the time, altitude, accuracy, speed and course.
    var fixProblem: RecordRejection?
    private var timeProblem: RecordRejection?
    /// The first wrong value among a visit's arrival and departure.
    var visitProblem: RecordRejection?

    /// The wrong value that rejects a fix made from these properties, if any.
    var problemForFix: RecordRejection? { timeProblem ?? fixProblem }

    /// Reads the members of a `properties` object, after its `{`, up to and including its `}`.
    mutating func read(from parser: inout JSONParser) throws {
        let table = Key.table
        while try parser.nextKey() {
            guard let key = parser.key(in: table) else {
                try parser.skipValue()
                continue
            }
            if let rank = key.timeRank {
                try readTime(from: &parser, rank: rank)
                continue
            }
            switch key {
            case .altitude, .elevation, .ele, .horizontalAccuracy, .accuracy, .verticalAccuracy, .speed, .speedAccuracy,
                 .course, .bearing, .heading, .courseAccuracy:
                let value = try number(from: &parser, key)
                if !file(value, under: key), let value {
                    noteFix(RecordRejection(position: parser.tokenPosition, reason: .invalidValue(field: key.rawValue, value: "\(value)")))
                }
            case .coordTimes, .times:
                try readPositionTimes(from: &parser)
            case .coordinateProperties:
                try readCoordinateProperties(from: &parser)
            case .action:
                action = try string(from: &parser)
            case .type:
                isTrip = try string(from: &parser) == "trip"
            case .name:
                name = try string(from: &parser)
            case .arrivalDate:
                arrival = try visitTime(from: &parser, key)
            case .departureDate:
                departure = try visitTime(from: &parser, key)
            case .batteryLevel:
                keepBatteryLevel((try? parser.readLenientDouble()) ?? nil)
            case .batteryState:
                keepBatteryState(try string(from: &parser))
            case .timestamp, .time, .datetime, .date, .recordedAt, .timeLong:
                try parser.skipValue()  // handled above
            }
        }
    }

    /// Files the number read for one of the fix's numeric keys (`nil` for `null` or a wrong value):
    /// the first altitude and horizontal accuracy of their synonyms, the first course, the last of
    /// the others. The one rule for every reader of properties (`GeoJSONPointFeatureScan` too).
    /// - Returns: false when the value makes the fix wrong (a course above 360°); it is filed all the same.
    mutating func file(_ value: Double?, under key: Key) -> Bool {
        switch key {
        case .altitude, .elevation, .ele:
            if let value { altitudeMeters = altitudeMeters ?? value }
        case .horizontalAccuracy, .accuracy:
            if let value { horizontalAccuracyMeters = horizontalAccuracyMeters ?? value }
        case .verticalAccuracy:
            verticalAccuracyMeters = value
        case .speed:
            speedMetersPerSecond = value
        case .speedAccuracy:
            speedAccuracyMetersPerSecond = value
        case .course, .bearing, .heading:
            guard let value else { break }
            courseDegrees = courseDegrees ?? value
            return value <= 360
        case .courseAccuracy:
            courseAccuracyDegrees = value
        case .timestamp, .time, .datetime, .date, .recordedAt, .timeLong, .coordTimes, .times, .coordinateProperties,
             .action, .type, .arrivalDate, .departureDate, .name, .batteryLevel, .batteryState:
            preconditionFailure("'\(key.rawValue)' is not a numeric property of a fix")
        }
        return true
    }

    /// Whether a time under a key of `rank` replaces the one kept (a better key's).
    func takesTime(rank: Int) -> Bool { rank < timeRank }

    /// Keeps `time` as the feature's, found under a key of `rank`.
    mutating func keep(_ time: ParsedTimestamp, rank: Int) {
        self.time = time
        timeProblem = nil
        timeRank = rank
    }

    private mutating func noteFix(_ problem: RecordRejection) {
        if fixProblem == nil { fixProblem = problem }
    }

    /// A time member: kept when its key ranks better than the one already seen.
    private mutating func readTime(from parser: inout JSONParser, rank: Int) throws {
        guard takesTime(rank: rank) else {
            try parser.skipValue()
            return
        }
        do {
            guard let value = try parser.readLenientTime() else { return }
            keep(value, rank: rank)
        } catch let error as JSONFieldValueError {
            time = nil
            timeProblem = RecordRejection(position: error.position, reason: .invalidTime(error.found))
            timeRank = rank
        }
    }

    /// Files `battery_level` (a fraction 0–1; anything else is no level).
    mutating func keepBatteryLevel(_ level: Double?) {
        batteryPercent = level.flatMap { (0...1).contains($0) ? $0 * 100 : nil }
    }

    /// Files `battery_state`: charging or full is charging, unplugged is not, anything else unknown.
    mutating func keepBatteryState(_ state: String?) {
        isCharging = switch state {
        case "charging", "full": true
        case "unplugged": false
        default: nil
        }
    }

    private mutating func number(from parser: inout JSONParser, _ key: Key) throws -> Double? {
        do {
            return try parser.readLenientDouble()
        } catch let error as JSONFieldValueError {
            noteFix(RecordRejection(position: error.position, reason: .invalidValue(field: key.rawValue, value: error.found)))
            return nil
        }
    }

    /// A string member whose other values (a number, an object) count as absent.
    private func string(from parser: inout JSONParser) throws -> String? {
        do {
            return try parser.readLenientString()
        } catch is JSONFieldValueError {
            return nil
        }
    }

    private mutating func visitTime(from parser: inout JSONParser, _ key: Key) throws -> ParsedTimestamp? {
        do {
            return try parser.readLenientTime()
        } catch let error as JSONFieldValueError {
            if visitProblem == nil {
                visitProblem = RecordRejection(position: error.position, reason: .invalidTime(error.found))
            }
            return nil
        }
    }

    /// `coordinateProperties`: an object whose `times` member holds the times per position.
    private mutating func readCoordinateProperties(from parser: inout JSONParser) throws {
        let first = try parser.next()
        guard first == .objectStart else {
            if first == .arrayStart { try parser.skipToContainerEnd() }
            return
        }
        while try parser.nextKey() {
            if parser.stringEquals("times") { try readPositionTimes(from: &parser) } else { try parser.skipValue() }
        }
    }

    /// An array of times, one per position, possibly nested (one array per line of a
    /// MultiLineString): flattened in file order. Anything but an array is ignored.
    private mutating func readPositionTimes(from parser: inout JSONParser) throws {
        let first = try parser.next()
        guard first == .arrayStart else {
            if first == .objectStart { try parser.skipToContainerEnd() }
            return
        }
        var times: [ParsedTimestamp?] = []
        var problems: [Int: RecordRejection] = [:]
        var depth = 1
        while depth > 0 {
            let event = try parser.next()
            let position = parser.tokenPosition
            switch event {
            case .arrayStart?:
                depth += 1
            case .arrayEnd?:
                depth -= 1
            case .number?:
                do throws(TimestampError) {
                    times.append(try TimestampParser.parse(epochNumber: parser.doubleValue, exactInteger: parser.int64Value))
                } catch {
                    problems[times.count] = RecordRejection(position: position, reason: .invalidTime("\(parser.doubleValue)"))
                    times.append(nil)
                }
            case .string?:
                let parsed = parser.withStringBytes { try? TimestampParser.parse(utf8: $0) }
                if parsed == nil {
                    problems[times.count] = RecordRejection(position: position, reason: .invalidTime(parser.truncatedStringValue))
                }
                times.append(parsed)
            case .null?:
                times.append(nil)
            case .objectStart?:
                try parser.skipToContainerEnd()
                problems[times.count] = RecordRejection(position: position, reason: .invalidTime("an object"))
                times.append(nil)
            case .bool(let value)?:
                problems[times.count] = RecordRejection(position: position, reason: .invalidTime("\(value)"))
                times.append(nil)
            case .objectEnd?, .key?, nil:
                // The grammar puts none of these inside an array.
                throw JSONTypeMismatchError(expected: .value, found: event, at: position)
            }
        }
        positionTimes = times
        positionTimeProblems = problems
    }
}
