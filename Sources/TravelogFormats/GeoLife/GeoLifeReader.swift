import TravelogCore

/// Reads a GeoLife trajectory (`.plt`, Microsoft Research's GeoLife GPS Trajectories 1.3).
///
/// Six header lines (the first is `Geolife trajectory`; the others are ignored), then one fix per
/// line: `lat,lon,0,altitude_feet,days_since_1899-12-30,yyyy-MM-dd,HH:mm:ss`. Times are GMT and
/// taken from the date and time fields (the day count repeats them, less precisely); an altitude
/// of -777 means unknown, others are converted from feet. All fixes are track 0, segment 0.
/// A row that is wrong (7 fields expected, a latitude of 200, 30 February) is a `.rejected`
/// record at its line and column; blank lines are skipped.
/// Source: the data set's "User Guide-1.3.pdf" (Zheng et al., Microsoft Research, 2011).
/// - Complexity: O(n) in the input; memory holds one block and one line.
public struct GeoLifeReader: LocationFileReader {
    /// Lines before the first fix.
    public static let headerLineCount = 6
    /// The altitude GeoLife writes when it has none, in feet.
    public static let unknownAltitudeFeet: Double = -777
    /// Fields of a fix line.
    public static let fieldCount = 7

    private var lines: LineReader
    private var headerLinesRead = 0
    /// Room to join the date and time fields.
    private var scratch: [UInt8] = []

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - blockSizeBytes: how much to read from the source at a time.
    public init(source: any ByteSource, blockSizeBytes: Int = 1 << 20) {
        lines = LineReader(source: source, blockSizeBytes: blockSizeBytes)
    }

    public var bytesConsumed: Int { lines.bytesConsumed }

    /// The next fix, or `nil` at the end of the file.
    /// - Throws: `FormatError.truncated` when the file ends within the header, `.unexpected` when
    ///   the first line is not `Geolife trajectory`.
    public mutating func next() throws(FormatError) -> FormatRecord? {
        while headerLinesRead < Self.headerLineCount {
            guard let line = try lines.next() else {
                throw .truncated(SourcePosition(byteOffset: lines.bytesConsumed, line: headerLinesRead + 1, column: 1),
                                 expected: "the \(Self.headerLineCount) header lines of a GeoLife trajectory")
            }
            if headerLinesRead == 0, !line.bytes.starts(with: "Geolife trajectory".utf8) {
                throw .unexpected(line.position(), expected: "'Geolife trajectory' on the first line",
                                  found: "'\(String(decoding: line.bytes.prefix(40), as: UTF8.self))'")
            }
            headerLinesRead += 1
        }
        while let line = try lines.next() {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do throws(RejectedRecord) {
                return .point(try fix(line))
            } catch {
                return .rejected(error.rejection)
            }
        }
        return nil
    }

    private mutating func fix(_ line: LineReader.Line) throws(RejectedRecord) -> FormatPoint {
        let bytes = line.bytes
        var starts = [0]
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") { starts.append(index + 1) }
        guard starts.count == Self.fieldCount else {
            let position = starts.count > Self.fieldCount
                ? line.position(atColumnIndex: starts[Self.fieldCount]) : line.position(atColumnIndex: bytes.count)
            throw RejectedRecord(position, .wrongFieldCount(expected: Self.fieldCount, found: starts.count))
        }
        func field(_ index: Int) -> ArraySlice<UInt8> {
            bytes[starts[index]..<(index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count)]
        }
        func number(_ index: Int, _ name: String) throws(RejectedRecord) -> Double? {
            let text = field(index)
            if text.allSatisfy({ $0 == 0x20 }) { return nil }
            guard let value = DecimalNumber.parse(text) else {
                throw RejectedRecord(line.position(atColumnIndex: starts[index]),
                                 .invalidValue(field: name, value: String(decoding: text.prefix(80), as: UTF8.self)))
            }
            return value
        }
        func required(_ index: Int, _ name: String) throws(RejectedRecord) -> Double {
            guard let value = try number(index, name) else {
                throw RejectedRecord(line.position(atColumnIndex: starts[index]), .missingField(name))
            }
            return value
        }

        let latitude = try required(0, "latitude")
        let longitude = try required(1, "longitude")
        let altitudeFeet = try number(3, "altitude")
        let coordinate: Coordinate
        do throws(CoordinateError) {
            coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            let column = if case .longitudeNotFinite = error { starts[1] } else { starts[0] }
            throw RejectedRecord(line.position(atColumnIndex: column), .invalidCoordinate(error))
        }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: field(5))
        scratch.append(UInt8(ascii: "T"))
        scratch.append(contentsOf: field(6))
        let time: ParsedTimestamp
        do throws(TimestampError) {
            time = try TimestampParser.parse(utf8: scratch[...], accepting: .calendar)
        } catch {
            throw RejectedRecord(line.position(atColumnIndex: starts[5]),
                                 .invalidTime(String(decoding: field(5) + [0x20] + field(6), as: UTF8.self)))
        }
        let altitudeMeters = altitudeFeet.flatMap { $0 == Self.unknownAltitudeFeet ? nil : Units.meters(feet: $0) }
        let location = Location(coordinate: coordinate, altitudeMeters: altitudeMeters, timestamp: time.date)
        return FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(location))
    }
}
