import Foundation
import TravelogCore

extension CSVReader {
    /// Turns the current row into a point or a visit. - Throws: the row's first fault.
    mutating func record(_ columns: CSVColumnMap) throws(RejectedRecord) -> FormatRecord {
        let expected = columns.names.count
        guard row.count == expected else {
            // Too many: at the first extra field; too few: where the next field should have begun.
            let position = row.count > expected ? row.position(ofField: expected) : row.endPosition
            throw RejectedRecord(position, .wrongFieldCount(expected: expected, found: row.count))
        }
        let (coordinate, wktAltitude) = try coordinate(columns)
        let time = try time(columns)
        let accuracy = try number(columns.horizontalAccuracy)

        if let type = columns.type, Self.isVisit(row[type]) {
            guard let time else {
                throw RejectedRecord(row.position(ofField: 0), .missingField("a start time"))
            }
            var departure: Date?
            if let endColumn = columns.endTime, !row.isBlank(endColumn) {
                let end = try timestamp(endColumn, dateColumn: nil)
                guard end.date >= time.date else {
                    throw RejectedRecord(row.position(ofField: endColumn),
                                         .invalidValue(field: columns.names[endColumn], value: shown(endColumn)))
                }
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
            guard degrees <= 360 else {
                throw RejectedRecord(row.position(ofField: column), .invalidValue(field: columns.names[column], value: shown(column)))
            }
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

    static func isVisit(_ bytes: ArraySlice<UInt8>) -> Bool {
        let trimmed = bytes.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        return trimmed.count == 5 && zip(trimmed, "visit".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The row's coordinate (and the altitude of a `POINT Z`).
    func coordinate(_ columns: CSVColumnMap) throws(RejectedRecord) -> (Coordinate, Double?) {
        var latitude: Double, longitude: Double, altitude: Double?
        let position: SourcePosition
        if let latitudeColumn = columns.latitude, let longitudeColumn = columns.longitude {
            guard let lat = try scaled(latitudeColumn) else { throw missing(latitudeColumn.index, columns) }
            guard let lon = try scaled(longitudeColumn) else { throw missing(longitudeColumn.index, columns) }
            (latitude, longitude) = (lat, lon)
            position = row.position(ofField: latitudeColumn.index)
        } else if let geometry = columns.geometry {
            guard !row.isBlank(geometry) else { throw missing(geometry, columns) }
            guard let point = WKTPoint(utf8: row[geometry]) else {
                throw RejectedRecord(row.position(ofField: geometry), .invalidValue(field: columns.names[geometry], value: shown(geometry)))
            }
            (latitude, longitude, altitude) = (point.latitude, point.longitude, point.altitudeMeters)
            position = row.position(ofField: geometry)
        } else {
            throw RejectedRecord(row.position(ofField: 0), .missingField("coordinates"))
        }
        do throws(CoordinateError) {
            return (try Coordinate(latitude: latitude, longitude: longitude), altitude)
        } catch {
            let column: Int? = switch error {
            case .latitudeOutOfRange: columns.latitude?.index
            case .longitudeNotFinite: columns.longitude?.index
            }
            throw RejectedRecord(column.map { row.position(ofField: $0) } ?? position, .invalidCoordinate(error))
        }
    }

    /// The row's time, `nil` when the header has no time column.
    mutating func time(_ columns: CSVColumnMap) throws(RejectedRecord) -> ParsedTimestamp? {
        guard let firstColumn = columns.times.first else { return nil }
        guard let column = columns.times.first(where: { !row.isBlank($0) }) else { throw missing(firstColumn, columns) }
        return try timestamp(column, dateColumn: columns.date)
    }

    /// Field `column` as a timestamp; a time of day alone is joined with the date column's field.
    mutating func timestamp(_ column: Int, dateColumn: Int?) throws(RejectedRecord) -> ParsedTimestamp {
        var bytes = row[column]
        if let dateColumn, dateColumn != column, Self.isTimeOfDay(bytes) {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: row[dateColumn])
            scratch.append(0x20)
            scratch.append(contentsOf: bytes)
            bytes = scratch[...]
        }
        do throws(TimestampError) {
            return try TimestampParser.parse(utf8: bytes)
        } catch {
            throw RejectedRecord(row.position(ofField: column), .invalidTime(String(decoding: bytes.prefix(80), as: UTF8.self)))
        }
    }

    /// `H:mm…` or `HH:mm…`: a time without its date.
    static func isTimeOfDay(_ bytes: ArraySlice<UInt8>) -> Bool {
        let trimmed = bytes.drop { $0 == 0x20 }
        let colon = UInt8(ascii: ":")
        return trimmed.dropFirst().first == colon || trimmed.dropFirst(2).first == colon
    }

    /// Field `column` as a number; `nil` when there is no such column or the field is blank.
    /// - Throws: when it is not a number.
    func number(_ column: Int?) throws(RejectedRecord) -> Double? {
        guard let column, !row.isBlank(column) else { return nil }
        let bytes = row[column]
        guard let value = DecimalNumber.parse(bytes, decimalComma: rows.separator != UInt8(ascii: ",")) else {
            throw RejectedRecord(row.position(ofField: column),
                                 .invalidValue(field: columns?.names[column] ?? "column \(column + 1)", value: shown(column)))
        }
        return value
    }

    /// A number converted into Travelog's unit; `nil` when blank.
    func scaled(_ column: CSVColumnMap.ScaledColumn?) throws(RejectedRecord) -> Double? {
        guard let column, let value = try number(column.index) else { return nil }
        return column.unit.converted(value)
    }

    func missing(_ column: Int, _ columns: CSVColumnMap) -> RejectedRecord {
        RejectedRecord(row.position(ofField: column), .missingField(columns.names[column]))
    }

    /// A field's text, `nil` when there is no such column or the field is blank.
    func text(_ column: Int?) -> String? {
        guard let column, !row.isBlank(column) else { return nil }
        return Self.trimmed(row.string(column))
    }

    /// A field as a rejection shows it (at most 80 bytes).
    func shown(_ column: Int) -> String {
        String(decoding: row[column].prefix(80), as: UTF8.self)
    }
}
