import TravelogCore

/// A position read from KML coordinate text, or why it was rejected.
enum KMLCoordinate {
    case position(Coordinate, altitudeMeters: Double?)
    case rejected(RecordRejection)
}

/// Splits the text of a KML `coordinates` element into `lon,lat[,alt]` tuples as it streams past,
/// in as many pieces as the XML parser hands it, holding only the tuple being read.
///
/// Tuples are separated by white space (OGC KML 2.2 §16.9.1 `kml:coordinatesType`). Space after
/// or before a comma (`-122.08, 37.42`), which some writers produce, does not end a tuple.
/// A tuple's position is computed from the text's position and the bytes before it: exact for
/// UTF-8 text without character references or CR LF line ends, otherwise the line is right and
/// the byte offset may be a few bytes early.
struct KMLCoordinateText {
    private var tuple: [UInt8] = []
    private var tupleStart = SourcePosition(byteOffset: 0, line: 1, column: 1)
    /// White space followed the tuple: the next byte that is not a comma starts another.
    private var isAfterGap = false

    init() {
        tuple.reserveCapacity(64)
    }

    /// Reads a piece of the text that starts at `start`, appending each tuple it completes.
    mutating func scan(_ text: XMLBytes, at start: SourcePosition, into output: inout [KMLCoordinate]) {
        var line = start.line
        var column = start.column
        for index in 0..<text.count {
            let byte = text[index]
            if XMLCharacterClass.isWhitespace(byte) {
                if let last = tuple.last, last != UInt8(ascii: ",") { isAfterGap = true }
            } else {
                if isAfterGap {
                    isAfterGap = false
                    if byte != UInt8(ascii: ",") { finish(into: &output) }
                }
                if tuple.isEmpty {
                    tupleStart = SourcePosition(byteOffset: start.byteOffset + index, line: line, column: column)
                }
                tuple.append(byte)
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
    }

    /// Ends the text: the last tuple, if any.
    mutating func finish(into output: inout [KMLCoordinate]) {
        isAfterGap = false
        guard !tuple.isEmpty else { return }
        let parsed = tuple.withUnsafeBufferPointer { bytes in
            Self.parseTuple(XMLBytes(base: bytes.baseAddress, count: bytes.count), at: tupleStart)
        }
        output.append(parsed)
        tuple.removeAll(keepingCapacity: true)
    }

    /// `lon,lat` or `lon,lat,alt` (degrees, degrees, metres); a trailing empty altitude is none.
    static func parseTuple(_ bytes: XMLBytes, at position: SourcePosition) -> KMLCoordinate {
        var numbers: (Double, Double, Double?) = (0, 0, nil)
        var fieldStart = 0
        var fieldIndex = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
            let field = bytes.slice(fieldStart..<index)
            fieldStart = index + 1
            defer { fieldIndex += 1 }
            if fieldIndex == 2, field.isEmpty { continue }
            guard fieldIndex < 3, let value = field.parseDouble() else {
                return .rejected(RecordRejection(position: position, reason: .invalidValue(field: "coordinates", value: bytes.excerpt)))
            }
            switch fieldIndex {
            case 0: numbers.0 = value
            case 1: numbers.1 = value
            default: numbers.2 = value
            }
        }
        guard fieldIndex >= 2 else {
            return .rejected(RecordRejection(position: position, reason: .invalidValue(field: "coordinates", value: bytes.excerpt)))
        }
        return located(longitude: numbers.0, latitude: numbers.1, altitude: numbers.2, at: position)
    }

    /// `gx:coord` text: `lon lat` or `lon lat alt` separated by white space; `nil` when empty.
    static func parseSpaced(_ bytes: XMLBytes, at position: SourcePosition) -> KMLCoordinate? {
        var values: (Double, Double, Double) = (0, 0, 0)
        var count = 0
        var index = 0
        while index < bytes.count {
            while index < bytes.count, XMLCharacterClass.isWhitespace(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.count, !XMLCharacterClass.isWhitespace(bytes[index]) { index += 1 }
            guard index > start else { break }
            guard count < 3, let value = bytes.slice(start..<index).parseDouble() else {
                return .rejected(RecordRejection(position: position, reason: .invalidValue(field: "gx:coord", value: bytes.trimmed.excerpt)))
            }
            switch count {
            case 0: values.0 = value
            case 1: values.1 = value
            default: values.2 = value
            }
            count += 1
        }
        if count == 0 { return nil }
        guard count >= 2 else {
            return .rejected(RecordRejection(position: position, reason: .invalidValue(field: "gx:coord", value: bytes.trimmed.excerpt)))
        }
        return located(longitude: values.0, latitude: values.1, altitude: count == 3 ? values.2 : nil, at: position)
    }

    private static func located(longitude: Double, latitude: Double, altitude: Double?, at position: SourcePosition) -> KMLCoordinate {
        do throws(CoordinateError) {
            return .position(try Coordinate(latitude: latitude, longitude: longitude), altitudeMeters: altitude)
        } catch {
            return .rejected(RecordRejection(position: position, reason: .invalidCoordinate(error)))
        }
    }
}
