import Foundation

/// The fixes of one place as running sums: their accuracy-weighted mean (weights 1/accuracy²),
/// their weighted spread around it, and their first and last times.
///
/// Sums are taken relative to the first fix so that they stay small whatever the count; adding
/// the same fixes in the same order always gives the same sums.
struct VisitCluster: Sendable, Equatable {
    private let origin: SurfacePoint
    /// The first fix's coordinate, exactly as given (the center of a one-fix cluster).
    private let firstCoordinate: Coordinate
    private var sumX = 0.0, sumY = 0.0, sumZ = 0.0
    private var sumSquares = 0.0
    private var sumWeight = 0.0
    private(set) var count = 0
    /// Seconds since the reference date of the first and of the latest fix.
    let firstTime: Double
    private(set) var lastTime: Double

    init(_ fix: PathFix, coordinate: Coordinate) {
        origin = fix.point
        firstCoordinate = coordinate
        firstTime = fix.time
        lastTime = fix.time
        add(fix)
    }

    mutating func add(_ fix: PathFix) {
        let weight = 1 / (fix.accuracyMeters * fix.accuracyMeters)
        let dx = fix.point.x - origin.x, dy = fix.point.y - origin.y, dz = fix.point.z - origin.z
        sumX += weight * dx
        sumY += weight * dy
        sumZ += weight * dz
        sumSquares += weight * (dx * dx + dy * dy + dz * dz)
        sumWeight += weight
        count += 1
        lastTime = max(lastTime, fix.time)
    }

    /// The weighted mean position.
    var point: SurfacePoint {
        SurfacePoint(x: origin.x + sumX / sumWeight, y: origin.y + sumY / sumWeight, z: origin.z + sumZ / sumWeight)
    }

    /// The weighted root-mean-square distance of the fixes from the mean, metres.
    var spreadMeters: Double {
        let mx = sumX / sumWeight, my = sumY / sumWeight, mz = sumZ / sumWeight
        return max(0, sumSquares / sumWeight - (mx * mx + my * my + mz * mz)).squareRoot()
    }

    /// The uncertainty of the mean itself, metres (shrinks as 1/√count).
    var meanAccuracyMeters: Double { (1 / sumWeight).squareRoot() }

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
