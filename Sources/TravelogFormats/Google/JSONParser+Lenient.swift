/// Reading values the way Google's exports need: a field of the wrong type is treated as absent
/// or invalid (the record is then rejected), never as a broken file, and whatever it held is skipped
/// whole so that the parser stays in step.
extension JSONParser {
    /// Reads the next value: true when it is an object (its `{` consumed: read its members with
    /// `nextKey()`), false after skipping anything else.
    mutating func enterObject() throws -> Bool {
        let event = try next()
        if event == .objectStart { return true }
        try skipRest(after: event)
        return false
    }

    /// Reads the next value: true when it is an array (its `[` consumed: read its elements with
    /// `nextElement()`), false after skipping anything else.
    mutating func enterArray() throws -> Bool {
        let event = try next()
        if event == .arrayStart { return true }
        try skipRest(after: event)
        return false
    }

    /// After the first event of a value, skips the rest of it: everything inside an object or array.
    mutating func skipRest(after event: JSONEvent?) throws {
        switch event {
        case .objectStart?, .arrayStart?: try skipToContainerEnd()
        default: break
        }
    }

    /// The next value as a number (`readLenientDouble`: a JSON number, or a string holding one, as
    /// iOS exports write them); nil for `null`; NaN for anything else, which is skipped, so that the
    /// record is rejected rather than the file.
    mutating func readGoogleDouble() throws -> Double? {
        do { return try readLenientDouble() } catch is JSONFieldValueError { return .nan }
    }

    /// The next value when it is a string; nil for anything else, which is skipped.
    mutating func readGoogleString() throws -> String? {
        do { return try readLenientString() } catch is JSONFieldValueError { return nil }
    }

    /// The next value as a time: a string (ISO 8601 or epoch digits) or a number (epoch).
    @inline(__always)
    mutating func readGoogleTime(unit: GoogleTime.EpochUnit) throws -> GoogleTime.Reading {
        let event = try next()
        switch event {
        case .string?:
            if let instant = withStringBytes({ GoogleTime.parse($0, unit: unit) }) { return .valid(instant) }
            return .invalid(stringValue)
        case .number?:
            if let instant = GoogleTime.instant(epoch: doubleValue, unit: unit) { return .valid(instant) }
            return .invalid("\(doubleValue)")
        case .null?:
            return .absent
        default:
            try skipRest(after: event)
            return .invalid(Self.describeValue(event))
        }
    }

    /// The next value as `"geo:lat,lon"` / `"lat°, lon°"` text, into `fields`; a non-string leaves the
    /// coordinate NaN (present but unreadable).
    mutating func readCoordinateText(into fields: inout GooglePointFields) throws {
        let event = try next()
        guard event == .string else {
            try skipRest(after: event)
            fields.latitude = .nan
            fields.longitude = .nan
            return
        }
        withStringBytes { fields.setCoordinate(text: $0) }
    }

    /// A value's kind in words, for a rejection that cannot quote it.
    static func describeValue(_ event: JSONEvent?) -> String {
        switch event {
        case .objectStart?: "an object"
        case .arrayStart?: "an array"
        case .bool(let value)?: "\(value)"
        case .null?: "null"
        case .string?: "a string"
        case .number?: "a number"
        case .objectEnd?, .arrayEnd?, .key?, nil: "no value"
        }
    }
}
