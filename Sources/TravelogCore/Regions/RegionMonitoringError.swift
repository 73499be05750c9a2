/// Why a region could not be monitored (Core Location reports these through
/// `monitoringDidFailFor:withError:`).
public enum RegionMonitoringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A region needs a non-empty identifier.
    case emptyIdentifier
    /// The region is smaller or larger than the monitor can watch. For a polygon the radius is
    /// that of the circle of the same area.
    case radiusOutOfRange(identifier: String, radiusMeters: Double, allowedMeters: ClosedRange<Double>)
    /// The monitor already watches as many regions as it may (Core Location allows 20 per app).
    /// Replacing a region with the same identifier is always possible.
    case regionLimitReached(identifier: String, limit: Int)

    public var description: String {
        switch self {
        case .emptyIdentifier:
            "a region needs a non-empty identifier"
        case let .radiusOutOfRange(identifier, radius, allowed):
            "region \"\(identifier)\": radius \(radius) m is outside \(allowed.lowerBound)...\(allowed.upperBound) m"
        case let .regionLimitReached(identifier, limit):
            "region \"\(identifier)\": already monitoring \(limit) regions, the limit; remove one first"
        }
    }
}
