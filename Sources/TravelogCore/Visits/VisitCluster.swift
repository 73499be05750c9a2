import Foundation

/// The fixes of one place: their accuracy-weighted mean (weights 1/accuracy²), their weighted
/// spread around it, and their first and last times, as a `WeightedCentroid`'s running sums
/// (relative to the first fix, so adding the same fixes in the same order always gives the same
/// sums).
struct VisitCluster: Sendable, Equatable {
    /// The weighted mean, spread and times of the fixes (shared with the path figures).
    private var centroid: WeightedCentroid
    /// The first fix's coordinate, exactly as given (the center of a one-fix cluster).
    private let firstCoordinate: Coordinate

    init(_ fix: PathFix, coordinate: Coordinate) {
        centroid = WeightedCentroid(fix)
        firstCoordinate = coordinate
    }

    mutating func add(_ fix: PathFix) { centroid.add(fix) }

    var count: Int { centroid.count }
    /// Seconds since the reference date of the first and of the latest fix.
    var firstTime: Double { centroid.firstTime }
    var lastTime: Double { centroid.lastTime }

    /// The weighted mean position.
    var point: SurfacePoint { centroid.point }

    /// The weighted root-mean-square distance of the fixes from the mean, metres.
    var spreadMeters: Double { centroid.spreadMeters }

    /// The uncertainty of the mean itself, metres (shrinks as 1/√count).
    var meanAccuracyMeters: Double { centroid.meanAccuracyMeters }

    /// The mean as a coordinate (the first fix's own coordinate while it is the only one).
    var center: Coordinate {
        guard count > 1 else { return firstCoordinate }
        let (latitude, longitude) = point.latitudeLongitude
        return Coordinate(validLatitude: latitude, longitude: longitude) ?? firstCoordinate
    }

    /// The cluster as a visit, ongoing or ended at its last fix.
    func visit(departed: Bool) -> Visit {
        let radius = (spreadMeters * spreadMeters + meanAccuracyMeters * meanAccuracyMeters).squareRoot()
        return Visit(unchecked: Date(timeIntervalSinceReferenceDate: firstTime),
                     departure: departed ? Date(timeIntervalSinceReferenceDate: lastTime) : nil,
                     center: center, radiusMeters: radius, locationCount: count)
    }
}
