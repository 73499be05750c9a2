/// Why the World Magnetic Model could not be loaded or evaluated.
public enum WorldMagneticModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The coefficient file could not be read.
    case unreadable(path: String)
    /// A line of the coefficient file is not `n m g h ġ ḣ` (line numbers from 1).
    case malformedCoefficients(line: Int)
    /// The date is outside the model's five years of validity.
    case dateOutsideModel(decimalYear: Double, valid: Range<Double>)
    /// The height is outside what the model is defined for (-1 km to 850 km), in metres.
    case heightOutsideModel(meters: Double)

    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read the World Magnetic Model coefficients at \(path) (build them with `make wmm`)"
        case .malformedCoefficients(let line):
            "line \(line) of the World Magnetic Model coefficients is not `n m g h g-dot h-dot`"
        case .dateOutsideModel(let year, let valid):
            "the date \(year) is outside the model's validity (\(valid.lowerBound) to \(valid.upperBound))"
        case .heightOutsideModel(let meters):
            "the height \(meters) m is outside the model's range (-1 km to 850 km)"
        }
    }
}
