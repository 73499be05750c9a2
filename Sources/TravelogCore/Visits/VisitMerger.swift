import Foundation

/// Joins visits to the same place that a short absence split in two (a walk round the block, a
/// minute at the letterbox, a stretch of bad fixes).
///
/// Two consecutive visits merge when the second arrives at most `maximumGapSeconds` after the
/// first departed and their centers lie at most `maximumCenterDistanceMeters` apart. The merged
/// visit runs from the first arrival to the last departure (`nil` if the last is still going on);
/// its center is the location-count-weighted mean of the centers, and its radius the root of the
/// weighted mean of (radius² + squared distance of each center from the merged one).
///
/// - Complexity: O(n) for n visits in time order.
/// - Note: Reitti merges stays at the same place separated by up to 300 s; trackintel's
///   `generate_locations` clusters staypoints by place. This pass is the time-local part of both.
public struct VisitMerger: Sendable, Hashable {
    /// The longest absence that is merged, seconds (departure of one visit to arrival of the next).
    public let maximumGapSeconds: Double
    /// The largest distance between the centers of visits that are merged, metres.
    public let maximumCenterDistanceMeters: Double

    /// Creates a merger; both thresholds must be finite and non-negative. The defaults: 10
    /// minutes, and the detector's default radius.
    public init(maximumGapSeconds: Double = 600, maximumCenterDistanceMeters: Double = 100) {
        precondition(maximumGapSeconds.isFinite && maximumGapSeconds >= 0, "maximumGapSeconds must not be negative")
        precondition(maximumCenterDistanceMeters.isFinite && maximumCenterDistanceMeters >= 0,
                     "maximumCenterDistanceMeters must not be negative")
        self.maximumGapSeconds = maximumGapSeconds
        self.maximumCenterDistanceMeters = maximumCenterDistanceMeters
    }

    /// The visits with every short absence at the same place merged away.
    /// - Parameter visits: visits in time order; only the last may be ongoing (`departure` nil).
    ///   An ongoing visit before another is treated as ending at its arrival.
    public func merged(_ visits: [Visit]) -> [Visit] {
        var result: [Visit] = []
        var group: [Visit] = []
        for visit in visits {
            if let last = group.last, joins(last, visit) {
                group.append(visit)
            } else {
                if !group.isEmpty { result.append(Self.combined(group)) }
                group = [visit]
            }
        }
        if !group.isEmpty { result.append(Self.combined(group)) }
        return result
    }

    /// The visits of the last group `merged` makes: the ones a visit that comes later may still
    /// join. Everything before them is final.
    /// - Parameter visits: visits in time order, as for `merged`.
    public func openTail(_ visits: [Visit]) -> ArraySlice<Visit> {
        var start = visits.endIndex
        while start > visits.startIndex {
            start -= 1
            guard start > visits.startIndex, joins(visits[start - 1], visits[start]) else { break }
        }
        return visits[start...]
    }

    private func joins(_ earlier: Visit, _ later: Visit) -> Bool {
        let departure = earlier.departure ?? earlier.arrival
        return later.arrival.timeIntervalSince(departure) <= maximumGapSeconds
            && SurfacePoint(earlier.center).chordMeters(to: SurfacePoint(later.center)) <= maximumCenterDistanceMeters
    }

    /// One visit from a group of visits to the same place.
    static func combined(_ group: [Visit]) -> Visit {
        guard let first = group.first, let last = group.last else { preconditionFailure("a group holds a visit") }
        guard group.count > 1 else { return first }
        let origin = SurfacePoint(first.center)
        var sumX = 0.0, sumY = 0.0, sumZ = 0.0, total = 0.0
        for visit in group {
            let point = SurfacePoint(visit.center), weight = Double(visit.locationCount)
            sumX += weight * (point.x - origin.x)
            sumY += weight * (point.y - origin.y)
            sumZ += weight * (point.z - origin.z)
            total += weight
        }
        let mean = SurfacePoint(x: origin.x + sumX / total, y: origin.y + sumY / total, z: origin.z + sumZ / total)
        var sumSquares = 0.0
        for visit in group {
            let offset = SurfacePoint(visit.center).chordMeters(to: mean)
            sumSquares += Double(visit.locationCount) * (visit.radiusMeters * visit.radiusMeters + offset * offset)
        }
        let (latitude, longitude) = mean.latitudeLongitude
        return Visit(unchecked: first.arrival, departure: last.departure,
                     center: Coordinate(validLatitude: latitude, longitude: longitude) ?? first.center,
                     radiusMeters: (sumSquares / total).squareRoot(), locationCount: Int(total))
    }
}
