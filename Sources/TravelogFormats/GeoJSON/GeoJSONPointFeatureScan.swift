import TravelogCore

/// The fast path for the most common feature: a `Feature` with a Point and a time in its
/// properties, such as every item of an Overland batch. It reads the feature straight from the
/// parser's window (`JSONParser.scanArrayElement`), about three times as fast as event by event,
/// and gives the fix `GeoJSONFeatureRecords.pointFeatureRecord` would give.
///
/// It gives up, leaving the feature to the event-by-event reading, on anything it does not handle
/// exactly as that reading does: a key or value it does not expect (an Overland action, per-position
/// times, a name, a property that is not a number where a number is read), a key given twice, a
/// value that makes the fix wrong (the event-by-event reading rejects it with its position), a
/// feature without a time (a waypoint), escapes and text that is not ASCII.
enum GeoJSONPointFeatureScan {
    /// Reads one feature, its `{` next: the fix it gives, or nil to give up.
    static func scan(_ scanner: inout JSONElementScanner) -> (fix: Location, batteryPercent: Double?, isCharging: Bool?)? {
        guard scanner.skip(JSONElementScanner.objectStart) else { return nil }
        var isFeature = false, sawProperties = false
        var point: (Coordinate, GeoJSONGeometry.Position)?
        var properties = GeoJSONProperties()
        while true {
            guard let key = scanner.key() else { return nil }
            if JSONElementScanner.equals(key, "type") {
                guard !isFeature, let type = scanner.plainString(), JSONElementScanner.equals(type, "Feature") else { return nil }
                isFeature = true
            } else if JSONElementScanner.equals(key, "geometry") {
                guard point == nil, let read = scanPoint(&scanner) else { return nil }
                point = read
            } else if JSONElementScanner.equals(key, "properties") {
                guard !sawProperties, scanProperties(&scanner, into: &properties) else { return nil }
                sawProperties = true
            } else if JSONElementScanner.equals(key, "coordinates") || JSONElementScanner.equals(key, "geometries") {
                return nil  // a geometry's members on a feature: for the event-by-event reading to sort out
            } else {
                guard scanner.skipValue(depth: 1) else { return nil }
            }
            guard let another = scanner.anotherMember() else { return nil }
            if !another { break }
        }
        guard isFeature, let (coordinate, position) = point, let time = properties.time else { return nil }
        return (GeoJSONFeatureRecords.fix(coordinate, position, time, properties), properties.batteryPercent, properties.isCharging)
    }

    /// A Point geometry of two or three numbers, within -180…180 of longitude.
    private static func scanPoint(_ scanner: inout JSONElementScanner) -> (Coordinate, GeoJSONGeometry.Position)? {
        guard scanner.skip(JSONElementScanner.objectStart) else { return nil }
        var isPoint = false
        var read: (longitude: Double, latitude: Double, altitude: Double?)?
        while true {
            guard let key = scanner.key() else { return nil }
            if JSONElementScanner.equals(key, "type") {
                guard !isPoint, let type = scanner.plainString(), JSONElementScanner.equals(type, "Point") else { return nil }
                isPoint = true
            } else if JSONElementScanner.equals(key, "coordinates") {
                guard read == nil, scanner.skip(JSONElementScanner.arrayStart),
                      let longitude = scanner.number(), scanner.skip(JSONElementScanner.comma),
                      let latitude = scanner.number()
                else { return nil }
                var altitude: Double?
                if scanner.skip(JSONElementScanner.comma) {
                    guard let value = scanner.number() else { return nil }
                    altitude = value.double
                }
                guard scanner.skip(JSONElementScanner.arrayEnd) else { return nil }
                read = (longitude.double, latitude.double, altitude)
            } else {
                return nil
            }
            guard let another = scanner.anotherMember() else { return nil }
            if !another { break }
        }
        guard isPoint, let read, abs(read.longitude) <= 180,
              let coordinate = try? Coordinate(latitude: read.latitude, longitude: read.longitude)
        else { return nil }
        return (coordinate, GeoJSONGeometry.Position(coordinate: coordinate, altitudeMeters: read.altitude))
    }

    private static let numberedKeys = JSONKeyTable(GeoJSONProperties.Key.allCases.enumerated().map { index, key in
        (key.rawValue, (key, UInt64(1) << index))
    })

    /// The properties, read as `GeoJSONProperties.read` reads them when every value is plain.
    private static func scanProperties(_ scanner: inout JSONElementScanner, into properties: inout GeoJSONProperties) -> Bool {
        guard scanner.skip(JSONElementScanner.objectStart) else { return false }
        if scanner.skip(JSONElementScanner.objectEnd) { return true }
        var seen: UInt64 = 0  // a bit per key, by its place in `allCases`
        while true {
            guard let text = scanner.key() else { return false }
            if let (key, bit) = numberedKeys.match(text) {
                guard seen & bit == 0, scanProperty(key, &scanner, into: &properties) else { return false }
                seen |= bit
            } else {
                guard scanner.skipValue(depth: 2) else { return false }
            }
            guard let another = scanner.anotherMember() else { return false }
            if !another { break }
        }
        return true
    }

    /// The value of one property the event-by-event reading would read, filed by the same rules;
    /// false to give up.
    private static func scanProperty(_ key: GeoJSONProperties.Key, _ scanner: inout JSONElementScanner,
                                     into properties: inout GeoJSONProperties) -> Bool {
        switch key {
        case .timestamp, .time, .datetime, .date, .recordedAt, .timeLong:
            let rank = key.timeRank ?? .max
            guard properties.takesTime(rank: rank) else { return scanner.skipValue(depth: 2) }
            if scanner.null() { return true }  // as no time at all, leaving the rank to a later key
            let time: ParsedTimestamp?
            if let string = scanner.plainString() {
                time = try? TimestampParser.parse(utf8: string, accepting: .all)
            } else if let number = scanner.number() {
                time = try? TimestampParser.parse(epochNumber: number.double, exactInteger: number.isInt64 ? number.integer : nil)
            } else {
                time = nil
            }
            guard let time else { return false }  // rejected, with its position, by the event-by-event reading
            properties.keep(time, rank: rank)
            return true
        case .altitude, .elevation, .ele, .horizontalAccuracy, .accuracy, .verticalAccuracy, .speed, .speedAccuracy,
             .course, .bearing, .heading, .courseAccuracy:
            // A number, or null for none; anything else is for the event-by-event reading, as is a
            // value that makes the fix wrong (rejected there with its position).
            var value: Double?
            if !scanner.null() {
                guard let number = scanner.number() else { return false }
                value = number.double
            }
            return properties.file(value, under: key)
        case .batteryLevel:
            if scanner.null() { return true }
            guard let number = scanner.number() else { return false }
            properties.keepBatteryLevel(number.double)
            return true
        case .batteryState:
            if scanner.null() { return true }
            guard let text = scanner.plainString() else { return false }
            properties.keepBatteryState(String(decoding: text, as: UTF8.self))
            return true
        case .coordTimes, .times, .coordinateProperties, .action, .type, .arrivalDate, .departureDate, .name:
            return false
        }
    }
}
