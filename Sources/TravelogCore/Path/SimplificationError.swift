/// Why a path could not be simplified.
public enum SimplificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The tolerance (metres) is negative, NaN or infinite.
    case invalidTolerance(Double)

    public var description: String {
        switch self {
        case .invalidTolerance(let value): "simplification tolerance \(value) m is not a finite, non-negative distance"
        }
    }
}
