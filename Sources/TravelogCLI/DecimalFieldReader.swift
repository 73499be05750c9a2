import TravelogFormats
/// Reads the numbers of one input line: up to four decimal fields separated by spaces or tabs (a
/// trailing carriage return is ignored), each finite, latitudes in [-90, 90]. Shared by the line
/// filters so that every command reads and rejects numbers the same way.
struct DecimalFieldReader: Sendable {
    /// The names of the fields, in order (1 to 4), used in error messages.
    let fields: [String]
    /// For each field, whether it is a latitude.
    private let isLatitude: [Bool]

    /// - Precondition: one to four fields.
    /// - Parameter latitudePositions: the positions (from 0) of the fields that are latitudes.
    init(fields: [String], latitudePositions: Set<Int>) {
        precondition((1...4).contains(fields.count), "a line holds one to four numbers")
        self.fields = fields
        self.isLatitude = fields.indices.map(latitudePositions.contains)
    }

    /// The numbers of `line` in the first `fields.count` elements of the tuple (the others are 0).
    /// - Complexity: O(line length).
    func read(_ line: UnsafeBufferPointer<UInt8>) -> Result<(Double, Double, Double, Double), GeodesicInputError> {
        var numbers: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0, i = 0
        let n = line.count
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        while true {
            while i < n && isSpace(line[i]) { i += 1 }
            guard i < n else { break }
            let start = i
            while i < n && !isSpace(line[i]) { i += 1 }
            count += 1
            guard count <= fields.count else { continue }  // only counted, for the error
            let token = UnsafeBufferPointer(rebasing: line[start..<i])
            guard let value = DecimalNumber.parse(token) else {
                return .failure(.notANumber(field: fields[count - 1], text: String(decoding: token, as: UTF8.self)))
            }
            guard value.isFinite else {
                return .failure(.notFinite(field: fields[count - 1], text: String(decoding: token, as: UTF8.self)))
            }
            if isLatitude[count - 1] && !(-90...90).contains(value) {
                return .failure(.latitudeOutOfRange(field: fields[count - 1], degrees: value))
            }
            switch count {
            case 1: numbers.0 = value
            case 2: numbers.1 = value
            case 3: numbers.2 = value
            default: numbers.3 = value
            }
        }
        guard count == fields.count else { return .failure(.wrongFieldCount(expected: fields, found: count)) }
        return .success(numbers)
    }
}
