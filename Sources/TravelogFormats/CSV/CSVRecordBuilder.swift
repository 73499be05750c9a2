import Foundation
import TravelogCore

/// Turns one CSV row into a point, a visit, or the row's first fault (see `CSVReader`).
struct CSVRecordBuilder {
    let fields: CSVRowView
    let columns: CSVColumnMap
    /// Whether numbers may use a decimal comma (the file is not comma-separated).
    let decimalComma: Bool

    func record() throws(RejectedRecord) -> FormatRecord {
        let expected = columns.names.count
        guard fields.count == expected else {
            // Too many: at the first extra field; too few: where the next field should have begun.
            let position = fields.count > expected ? fields.position(ofField: expected) : fields.endPosition
            throw RejectedRecord(position, .wrongFieldCount(expected: expected, found: fields.count))
        }
        let (coordinate, wktAltitude) = try coordinate()
        let time = try time()
        let accuracy = try number(columns.horizontalAccuracy)

        if let type = columns.type, Self.isVisit(fields[type]) {
            guard let time else { throw RejectedRecord(fields.position(ofField: 0), .missingField("a start time")) }
            var departure: Date?
            if let endColumn = columns.endTime, !fields.isBlank(endColumn) {
                let end = try timestamp(endColumn, dateColumn: nil)
                guard end.date >= time.date else { throw invalid(endColumn) }
                departure = end.date
            }
            return .visit(FormatVisit(arrival: time.date, departure: departure, coordinate: coordinate,
                                      radiusMeters: accuracy.flatMap { $0 >= 0 ? $0 : nil },
                                      name: text(columns.name), address: text(columns.address),
                                      placeIdentifier: text(columns.placeIdentifier)))
        }

        let altitude = try scaled(columns.altitude) ?? wktAltitude
        // Google Timeline activities put the activity type where a name would be.
        let name = columns.type == nil ? text(columns.name) : nil
        guard let time else {
            return .point(FormatPoint(kind: .track(track: 0, segment: 0),
                                      position: .untimed(coordinate, altitudeMeters: altitude), name: name))
        }
        var course = try number(columns.course)
        if let degrees = course, let column = columns.course {
            guard degrees <= 360 else { throw invalid(column) }
            if degrees == 360 { course = 0 }
        }
        let location = Location(
            coordinate: coordinate,
            altitudeMeters: altitude,
            horizontalAccuracyMeters: accuracy ?? -1,
            verticalAccuracyMeters: try number(columns.verticalAccuracy) ?? -1,
            speedMetersPerSecond: try scaled(columns.speed) ?? -1,
            courseDegrees: course ?? -1,
            timestamp: time.date,
            utcOffsetSeconds: time.utcOffsetSeconds)
        return .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(location), name: name))
    }

    /// `Visit` in any case, with spaces around it or not.
    static func isVisit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = bytes.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        return trimmed.count == 5 && zip(trimmed, "visit".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The row's coordinate (and the altitude of a `POINT Z`).
    func coordinate() throws(RejectedRecord) -> (Coordinate, Double?) {
        var latitude: Double, longitude: Double, altitude: Double?
        let position: SourcePosition
        if let latitudeColumn = columns.latitude, let longitudeColumn = columns.longitude {
            guard let lat = try scaled(latitudeColumn) else { throw missing(latitudeColumn.index) }
            guard let lon = try scaled(longitudeColumn) else { throw missing(longitudeColumn.index) }
            (latitude, longitude) = (lat, lon)
            position = fields.position(ofField: latitudeColumn.index)
        } else if let geometry = columns.geometry {
            guard !fields.isBlank(geometry) else { throw missing(geometry) }
            guard let point = WKTPoint(utf8: Array(fields[geometry])[...]) else { throw invalid(geometry) }
            (latitude, longitude, altitude) = (point.latitude, point.longitude, point.altitudeMeters)
            position = fields.position(ofField: geometry)
        } else {
            throw RejectedRecord(fields.position(ofField: 0), .missingField("coordinates"))
        }
        do throws(CoordinateError) {
            return (try Coordinate(latitude: latitude, longitude: longitude), altitude)
        } catch {
            let column: Int? = switch error {
            case .latitudeOutOfRange: columns.latitude?.index
            case .longitudeNotFinite: columns.longitude?.index
            }
            throw RejectedRecord(column.map { fields.position(ofField: $0) } ?? position, .invalidCoordinate(error))
        }
    }

    /// The row's time, `nil` when the header has no time column.
    func time() throws(RejectedRecord) -> ParsedTimestamp? {
        guard let firstColumn = columns.times.first else { return nil }
        guard let column = columns.times.first(where: { !fields.isBlank($0) }) else { throw missing(firstColumn) }
        return try timestamp(column, dateColumn: columns.date)
    }

    /// Field `column` as a timestamp; a time of day alone is joined with the date column's field.
    func timestamp(_ column: Int, dateColumn: Int?) throws(RejectedRecord) -> ParsedTimestamp {
        let time = fields[column]
        let result: Result<ParsedTimestamp, TimestampError>
        if let dateColumn, dateColumn != column, Self.isTimeOfDay(time) {
            let date = fields[dateColumn]
            result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: date.count + 1 + time.count) { joined in
                _ = joined.initialize(fromContentsOf: date)
                joined[date.count] = 0x20
                _ = UnsafeMutableBufferPointer(rebasing: joined[(date.count + 1)...]).initialize(fromContentsOf: time)
                defer { joined.deinitialize() }
                return Self.parse(UnsafeBufferPointer(joined))
            }
            if case .failure = result {
                throw RejectedRecord(fields.position(ofField: column),
                                     .invalidTime(fields.string(dateColumn, maximumBytes: 40) + " " + fields.string(column, maximumBytes: 40)))
            }
        } else {
            result = Self.parse(time)
        }
        switch result {
        case .success(let timestamp): return timestamp
        case .failure: throw RejectedRecord(fields.position(ofField: column), .invalidTime(fields.string(column, maximumBytes: 80)))
        }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ParsedTimestamp, TimestampError> {
        do throws(TimestampError) { return .success(try TimestampParser.parse(utf8: bytes)) } catch { return .failure(error) }
    }

    /// `H:mm…` or `HH:mm…`: a time without its date.
    static func isTimeOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = bytes.drop { $0 == 0x20 }
        let colon = UInt8(ascii: ":")
        return trimmed.dropFirst().first == colon || trimmed.dropFirst(2).first == colon
    }

    /// Field `column` as a number; `nil` when there is no such column or the field is blank.
    /// - Throws: when it is not a number.
    func number(_ column: Int?) throws(RejectedRecord) -> Double? {
        guard let column, !fields.isBlank(column) else { return nil }
        guard let value = DecimalNumber.parse(fields[column], decimalComma: decimalComma) else { throw invalid(column) }
        return value
    }

    /// A number converted into Travelog's unit; `nil` when there is no such column or it is blank.
    func scaled(_ column: CSVColumnMap.ScaledColumn?) throws(RejectedRecord) -> Double? {
        guard let column, let value = try number(column.index) else { return nil }
        return column.unit.converted(value)
    }

    func missing(_ column: Int) -> RejectedRecord {
        RejectedRecord(fields.position(ofField: column), .missingField(columns.names[column]))
    }

    /// The rejection of a field that holds something it should not (shown up to 80 bytes).
    func invalid(_ column: Int) -> RejectedRecord {
        RejectedRecord(fields.position(ofField: column),
                       .invalidValue(field: columns.names[column], value: fields.string(column, maximumBytes: 80)))
    }

    /// A field's text without surrounding blanks, `nil` when there is no such column or it is blank.
    func text(_ column: Int?) -> String? {
        guard let column, !fields.isBlank(column) else { return nil }
        return CSVReader.trimmed(fields.string(column))
    }
}
