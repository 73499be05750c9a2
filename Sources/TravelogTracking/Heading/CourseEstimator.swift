import Foundation
import TravelogCore

/// Course from the fixes themselves, for receivers that report none: the WGS84 geodesic azimuth
/// from the previous fix, once the device has moved farther than the two fixes' combined
/// accuracy (a standing receiver's jitter has no direction). Its accuracy is the angle the
/// combined accuracy subtends at that distance.
/// - Complexity: O(1) per fix (one geodesic inverse).
public struct CourseEstimator: Sendable {
    /// The smallest displacement that has a direction when accuracies are unknown, in metres.
    public static let minimumDisplacementMeters: Double = 5
    private var previous: Location?

    public init() {}

    /// The fix, with a course when it had none and one can be known.
    public mutating func ingest(_ location: Location) -> Location {
        defer { previous = location }
        guard location.courseIfKnown == nil, let from = previous else { return location }
        let inverse = Geodesic.wgs84.inverse(from: from.coordinate, to: location.coordinate)
        let combined = (from.horizontalAccuracyIfValid ?? 0) + (location.horizontalAccuracyIfValid ?? 0)
        let needed = max(Self.minimumDisplacementMeters, combined)
        guard inverse.distanceMeters > needed else { return location }
        var result = location
        result.courseDegrees = Heading.normalizedDegrees(inverse.finalAzimuthDegrees)
        result.courseAccuracyDegrees = atan2(max(combined, Self.minimumDisplacementMeters), inverse.distanceMeters) * 180 / .pi
        return result
    }
}
