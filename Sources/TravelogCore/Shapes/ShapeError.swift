/// Why a shape could not be constructed.
public enum ShapeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A polygon ring has fewer than three distinct positions once a closing position equal to
    /// the first is dropped. `ringIndex` 0 is the exterior ring, 1 and up the holes.
    case ringTooShort(ringIndex: Int, positionCount: Int)
    /// A circle's radius in metres is negative or not finite.
    case radiusOutOfRange(meters: Double)

    public var description: String {
        switch self {
        case let .ringTooShort(ring, count):
            "ring \(ring) has \(count) positions; a ring needs at least 3 besides the closing one"
        case .radiusOutOfRange(let meters): "radius \(meters) m is negative or not finite"
        }
    }
}
