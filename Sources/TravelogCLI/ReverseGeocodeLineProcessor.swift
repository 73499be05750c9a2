import TravelogCore
import TravelogFormats
import TravelogGeocoding

/// `travelog geocode reverse` as a filter: each `lat lon` line (decimal degrees) gives the line of
/// the nearest place (`PlacemarkOutput`), or `ERROR: line N: <what was expected>`.
struct ReverseGeocodeLineProcessor: NumberedLineProcessor {
    let geocoder: ReverseGeocoder
    /// Whether to print JSON objects rather than text.
    let json: Bool
    /// The number of the last line processed.
    var lineCount = 0
    private(set) var failedLineCount = 0
    private let reader = Self.reader
    /// Formats the `--json` objects (one reused buffer, no Foundation per line).
    private let jsonWriter = JSONLineWriter()
    private static let reader = DecimalFieldReader(fields: ["lat", "lon"], latitudePositions: [0])

    /// Why `line` is not a `lat lon` line, `nil` when it is one.
    static func problem(in line: String) -> GeodesicInputError? {
        var text = line
        return text.withUTF8 { bytes in
            if case .failure(let error) = reader.read(bytes) { return error }
            return nil
        }
    }

    init(geocoder: ReverseGeocoder, json: Bool) {
        self.geocoder = geocoder
        self.json = json
    }

    mutating func process(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        lineCount += 1
        switch reader.read(line) {
        case .success(let numbers):
            // The reader checked the latitude's range and that both are finite.
            if let coordinate = Coordinate(validLatitude: numbers.0, longitude: numbers.1),
               let placemark = geocoder.placemark(for: coordinate) {
                if json {
                    PlacemarkOutput.json(placemark, reverse: true, into: jsonWriter)
                    jsonWriter.take(into: &output)
                } else {
                    output.append(contentsOf: PlacemarkOutput.text(placemark).utf8)
                }
            } else {
                failedLineCount += 1
                output.append(contentsOf: "ERROR: line \(lineCount): the gazetteer has no places".utf8)
            }
        case .failure(let error):
            failedLineCount += 1
            output.append(contentsOf: "ERROR: line \(lineCount): \(error)".utf8)
        }
        output.append(UInt8(ascii: "\n"))
    }
}
