import TravelogCore

/// Typed access to the fields of a sentence, over its bytes in place (no copies, no reference
/// counting: a view that lives only inside `NMEASentence.withFields`).
///
/// Fields that place a fix (time, latitude, longitude) throw when they hold something malformed:
/// the sentence is then rejected. Fields that only describe it (HDOP, speed, satellites) read as
/// unknown (`nil`) when empty or malformed, so one bad auxiliary value does not lose a fix.
struct NMEAFields {
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    let bytes: UnsafeBufferPointer<UInt8>
    let ranges: UnsafeBufferPointer<Range<Int>>

    /// The number of data fields.
    var count: Int { ranges.count }

    /// Field `index` without surrounding spaces; empty when empty or absent.
    func field(_ index: Int) -> Bytes {
        guard index >= 0, index < ranges.count else { return bytes[0..<0] }
        var slice = bytes[ranges[index]]
        while let first = slice.first, first == NMEASentence.space { slice = slice.dropFirst() }
        while let last = slice.last, last == NMEASentence.space { slice = slice.dropLast() }
        return slice
    }

    /// Field `index` as text (for messages).
    func text(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

    /// The field as a decimal number; `nil` when empty or malformed.
    func decimal(_ index: Int) -> Double? { NMEANumber.decimal(field(index))?.value }

    /// The field as an integer (`08`, `-1`); `nil` when empty or malformed.
    func integer(_ index: Int) -> Int? { NMEANumber.integer(field(index)) }

    /// The field's single character (`A`, `V`, `N`…); `nil` when empty or longer.
    func character(_ index: Int) -> UInt8? {
        let value = field(index)
        return value.count == 1 ? value.first : nil
    }

    /// The field as a UTC time of day `hhmmss[.s…]` (fraction digits past the ninth are dropped);
    /// `nil` when empty.
    /// - Throws: `.invalidTime` when the field is not such a time (`222515.x`, `.1`, `256000`).
    func timeOfDay(_ index: Int) throws(NMEADecodingError) -> NMEATimeOfDay? {
        let value = field(index)
        if value.isEmpty { return nil }
        guard let time = Self.parseTimeOfDay(value) else {
            throw NMEADecodingError(.invalidTime(String(decoding: value, as: UTF8.self)))
        }
        return time
    }

    static func parseTimeOfDay(_ value: Bytes) -> NMEATimeOfDay? {
        guard value.count >= 6 else { return nil }
        let start = value.startIndex
        guard let hour = NMEANumber.unsignedInteger(value[start..<(start + 2)]),
              let minute = NMEANumber.unsignedInteger(value[(start + 2)..<(start + 4)]),
              let second = NMEANumber.unsignedInteger(value[(start + 4)..<(start + 6)]) else { return nil }
        var nanoseconds: Int64 = 0
        let rest = value[(start + 6)...]
        if let dot = rest.first {
            guard dot == NMEANumber.dot else { return nil }
            var scale = NMEATimeOfDay.nanosecondsPerSecond
            for byte in rest.dropFirst() {
                guard byte >= NMEANumber.zero, byte <= NMEANumber.nine else { return nil }
                scale /= 10
                nanoseconds += Int64(byte - NMEANumber.zero) * scale
            }
        }
        return NMEATimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds)
    }

    /// The field as an RMC date `ddmmyy`; two-digit years 80–99 are 1980–1999, 00–79 are
    /// 2000–2079 (gpsd reads `220899` as 1999-08-22 likewise). `nil` when empty, malformed or not a
    /// date (`2208-1`, a week-rollover artefact).
    func dateDDMMYY(_ index: Int) -> CivilDate? {
        let value = field(index)
        guard value.count == 6 else { return nil }
        let start = value.startIndex
        guard let day = NMEANumber.unsignedInteger(value[start..<(start + 2)]),
              let month = NMEANumber.unsignedInteger(value[(start + 2)..<(start + 4)]),
              let shortYear = NMEANumber.unsignedInteger(value[(start + 4)..<(start + 6)]) else { return nil }
        return CivilDate(year: shortYear >= 80 ? 1900 + shortYear : 2000 + shortYear, month: month, day: day)
    }

    /// A coordinate from four fields: `ddmm.mmmm`, `N`/`S`, `dddmm.mmmm`, `E`/`W`, starting at
    /// `index`; `nil` when latitude and longitude are both empty.
    /// - Returns: the coordinate and the fewer of the two values' decimals of minutes.
    /// - Throws: `.missingField` when only one part is there, `.invalidValue` for a malformed value
    ///   or hemisphere, minutes ≥ 60 or a longitude beyond 180°, `.invalidCoordinate` for a
    ///   latitude beyond 90°.
    func coordinate(at index: Int) throws(NMEADecodingError) -> (coordinate: Coordinate, minuteDecimals: Int)? {
        let latitudeText = field(index), longitudeText = field(index + 2)
        if latitudeText.isEmpty && longitudeText.isEmpty { return nil }
        guard !latitudeText.isEmpty else { throw NMEADecodingError(.missingField("latitude")) }
        guard !longitudeText.isEmpty else { throw NMEADecodingError(.missingField("longitude")) }
        let latitude = try degrees(latitudeText, hemisphere: index + 1, positive: "N", negative: "S", name: "latitude")
        let longitude = try degrees(longitudeText, hemisphere: index + 3, positive: "E", negative: "W", name: "longitude")
        guard abs(longitude.degrees) <= 180 else {
            throw NMEADecodingError(.invalidValue(field: "longitude", value: text(index + 2)))
        }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: latitude.degrees, longitude: longitude.degrees)
        } catch {
            throw NMEADecodingError(.invalidCoordinate(error))
        }
        return (coordinate, min(latitude.minuteDecimals, longitude.minuteDecimals))
    }

    /// `dddmm.mmmm` and its hemisphere as signed degrees: the minutes (the two digits before the
    /// point and the decimals) are parsed on their own, so no precision is lost splitting them off.
    private func degrees(_ value: Bytes, hemisphere: Int, positive: Unicode.Scalar, negative: Unicode.Scalar,
                         name: String) throws(NMEADecodingError) -> (degrees: Double, minuteDecimals: Int) {
        let invalid = NMEADecodingError(.invalidValue(field: name, value: String(decoding: value, as: UTF8.self)))
        let point = value.firstIndex(of: NMEANumber.dot) ?? value.endIndex
        let minutesStart = max(value.startIndex, point - 2)
        let wholeDegrees = minutesStart == value.startIndex ? 0 : NMEANumber.unsignedInteger(value[..<minutesStart])
        guard let wholeDegrees, let minutes = NMEANumber.decimal(value[minutesStart...]),
              minutes.value >= 0, minutes.value < 60, value[minutesStart] != NMEANumber.minus,
              value[minutesStart] != NMEANumber.plus else { throw invalid }
        let magnitude = Double(wholeDegrees) + minutes.value / 60
        switch character(hemisphere) {
        case UInt8(ascii: positive): return (magnitude, minutes.fractionDigits)
        case UInt8(ascii: negative): return (-magnitude, minutes.fractionDigits)
        case nil where field(hemisphere).isEmpty: throw NMEADecodingError(.missingField("\(name) hemisphere"))
        default: throw NMEADecodingError(.invalidValue(field: "\(name) hemisphere", value: text(hemisphere)))
        }
    }
}
