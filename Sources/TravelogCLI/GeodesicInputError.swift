/// Why a line of `travelog geodesic` input was rejected. The description says what was expected.
public enum GeodesicInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line does not have exactly the expected fields.
    case wrongFieldCount(expected: [String], found: Int)
    /// A field is not a decimal number.
    case notANumber(field: String, text: String)
    /// A field is a number too large for a double.
    case notFinite(field: String, text: String)
    /// A latitude (degrees) outside [-90, 90].
    case latitudeOutOfRange(field: String, degrees: Double)

    public var description: String {
        switch self {
        case .wrongFieldCount(let expected, let found):
            "expected \(expected.count) numbers `\(expected.joined(separator: " "))`, found \(found) field\(found == 1 ? "" : "s")"
        case .notANumber(let field, let text):
            "expected a decimal number for \(field), found \"\(text)\""
        case .notFinite(let field, let text):
            "expected a finite number for \(field), found \"\(text)\""
        case .latitudeOutOfRange(let field, let degrees):
            "expected \(field) in [-90, 90] degrees, found \(degrees)"
        }
    }
}
