import TravelogCore

/// How Google's exports write coordinates: E7 integers (`latitudeE7`, `latE7`: degrees × 10⁷) and
/// text (`"geo:27.720022,-97.347951"` on iOS, `"-27.4127738°, 163.5638958°"` on Android).
enum GoogleCoordinates {
    /// E7 units per degree.
    static let e7PerDegree = 1e7

    /// 2³²: what a signed 32-bit E7 value gains when it is written as unsigned.
    static let e7Wrap = 4_294_967_296.0

    /// Some Records.json files write negative E7 values as if they were unsigned 32-bit integers
    /// (`latitudeE7: 4233738877` for 6.1228° S), a long-standing bug of Google's export. No valid
    /// latitude exceeds 900 000 000 nor longitude 1 800 000 000, so a larger value has 2³² taken off,
    /// as the Takeout community documents it and importers such as Dawarich do. The result is
    /// checked like any other: it may still be out of range.
    @inline(__always)
    static func latitudeDegrees(e7 value: Double) -> Double {
        (value > 900_000_000 ? value - e7Wrap : value) / e7PerDegree
    }

    /// The longitude in degrees of an E7 value; see `latitudeDegrees(e7:)` for the overflow.
    @inline(__always)
    static func longitudeDegrees(e7 value: Double) -> Double {
        (value > 1_800_000_000 ? value - e7Wrap : value) / e7PerDegree
    }

    /// A coordinate when both components are present and in range. Longitudes are not wrapped: a
    /// longitude of 200° in Google's data is an error, not 160° W.
    /// - Parameters:
    ///   - latitude: degrees; nil when absent, NaN when present but not a number.
    ///   - longitude: degrees; nil when absent, NaN when present but not a number.
    ///   - latitudeField, longitudeField: the names used in a rejection.
    static func coordinate(
        latitude: Double?, longitude: Double?, latitudeField: String, longitudeField: String
    ) -> Checked {
        guard let latitude else { return .rejected(.missingField(latitudeField)) }
        guard let longitude else { return .rejected(.missingField(longitudeField)) }
        guard latitude.isNaN == false else { return .rejected(.invalidValue(field: latitudeField, value: "not a number")) }
        guard longitude.isNaN == false else { return .rejected(.invalidValue(field: longitudeField, value: "not a number")) }
        guard (-180...180).contains(longitude) else {
            return .rejected(.invalidValue(field: longitudeField, value: "\(longitude)° is outside [-180, 180]"))
        }
        do {
            return .valid(try Coordinate(latitude: latitude, longitude: longitude))
        } catch {
            return .rejected(.invalidCoordinate(error))
        }
    }

    /// A coordinate, or why there is none.
    enum Checked {
        case valid(Coordinate)
        case rejected(RecordRejection.Reason)
    }

    /// Reads `"geo:lat,lon"`, `"lat°, lon°"` or `"lat, lon"` (degrees, decimal); nil when the text is
    /// none of these. Range is not checked here.
    static func parse(text: UnsafeBufferPointer<UInt8>) -> (latitude: Double, longitude: Double)? {
        var index = 0
        let prefix: StaticString = "geo:"
        if text.count >= prefix.utf8CodeUnitCount,
           (0..<prefix.utf8CodeUnitCount).allSatisfy({ text[$0] == prefix.utf8Start[$0] }) {
            index = prefix.utf8CodeUnitCount
        }
        guard let latitude = number(in: text, at: &index) else { return nil }
        skipDegreeSignAndSpaces(in: text, at: &index)
        guard index < text.count, text[index] == UInt8(ascii: ",") else { return nil }
        index += 1
        skipDegreeSignAndSpaces(in: text, at: &index)
        guard let longitude = number(in: text, at: &index) else { return nil }
        skipDegreeSignAndSpaces(in: text, at: &index)
        guard index == text.count else { return nil }
        return (latitude, longitude)
    }

    /// A decimal number (JSON's grammar, a leading `+` allowed) at `index`, which moves past it.
    private static func number(in text: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Double? {
        if index < text.count, text[index] == UInt8(ascii: "+") { index += 1 }
        guard index < text.count, let base = text.baseAddress else { return nil }
        let rest = UnsafeBufferPointer(start: base + index, count: text.count - index)
        guard let scanned = try? JSONNumberScanner.scan(rest, converting: true) else { return nil }
        index += scanned.length
        return scanned.double
    }

    /// Skips spaces and the degree sign (U+00B0, UTF-8 `C2 B0`).
    private static func skipDegreeSignAndSpaces(in text: UnsafeBufferPointer<UInt8>, at index: inout Int) {
        while index < text.count {
            if text[index] == UInt8(ascii: " ") {
                index += 1
            } else if text[index] == 0xC2, index + 1 < text.count, text[index + 1] == 0xB0 {
                index += 2
            } else {
                return
            }
        }
    }
}
