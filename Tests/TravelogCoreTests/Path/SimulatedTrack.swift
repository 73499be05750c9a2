import Foundation
import TravelogCore
import TravelogTestSupport


/// Synthetic tracks: a true path in metres east/north of an origin, sampled at a fixed interval,
/// and fixes around it with Gaussian noise whose root-mean-square radial error equals the reported
/// accuracy (each axis has σ = accuracy / √2), as Core Location's accuracy suggests.
struct SimulatedTrack {
    /// Zürich, where a metre east and a metre north are both well away from any singularity.
    static let origin = Coordinate(validLatitude: 47.3769, longitude: 8.5417)!

    /// The true positions, metres east and north of `origin`, one per fix.
    var truth: [(east: Double, north: Double)] = []
    var intervalSeconds: Double
    var start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// A walk of `lengthMeters` at `speed` m/s whose heading wanders by `turnDegrees` (σ) per fix
    /// and turns by a right angle every `cornerEveryMeters` (none when `nil`).
    static func walk(lengthMeters: Double, speedMetersPerSecond speed: Double, intervalSeconds: Double,
                     turnDegrees: Double = 3, cornerEveryMeters: Double? = 250,
                     using generator: inout SplitMix64) -> SimulatedTrack {
        var track = SimulatedTrack(intervalSeconds: intervalSeconds)
        track.continueWalk(lengthMeters: lengthMeters, speedMetersPerSecond: speed, turnDegrees: turnDegrees,
                           cornerEveryMeters: cornerEveryMeters, using: &generator)
        return track
    }

    mutating func continueWalk(lengthMeters: Double, speedMetersPerSecond speed: Double, turnDegrees: Double = 3,
                               cornerEveryMeters: Double? = 250, using generator: inout SplitMix64) {
        var (east, north) = truth.last ?? (0, 0)
        if truth.isEmpty { truth.append((east, north)) }
        var heading = Double.random(in: 0..<(2 * .pi), using: &generator)
        var walked = 0.0
        var nextCorner = cornerEveryMeters ?? .infinity
        let step = speed * intervalSeconds
        while walked + step <= lengthMeters + 1e-9 {
            heading += generator.gaussian() * turnDegrees * .pi / 180
            if walked + step >= nextCorner {
                heading += Bool.random(using: &generator) ? .pi / 2 : -.pi / 2
                nextCorner += cornerEveryMeters ?? .infinity
            }
            east += step * sin(heading)
            north += step * cos(heading)
            walked += step
            truth.append((east, north))
        }
    }

    /// Stays where the track is for a while.
    mutating func stay(seconds: Double) {
        let here = truth.last ?? (0, 0)
        if truth.isEmpty { truth.append(here) }
        for _ in 0..<Int(seconds / intervalSeconds) { truth.append(here) }
    }

    /// The coordinate of a point metres east and north of the origin (local tangent plane with the
    /// WGS84 radii of curvature; exact enough for tracks a few kilometres wide).
    static func coordinate(east: Double, north: Double) -> Coordinate {
        let φ = origin.latitude * .pi / 180
        let w = (1 - WGS84.eccentricitySquared * sin(φ) * sin(φ)).squareRoot()
        let meridional = WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared) / (w * w * w)
        let primeVertical = WGS84.semiMajorAxisMeters / w
        return Coordinate(validLatitude: origin.latitude + north / meridional * 180 / .pi,
                          longitude: origin.longitude + east / (primeVertical * cos(φ)) * 180 / .pi)!
    }

    /// The true path's length: the sum of the geodesics between consecutive true positions, metres.
    var trueLengthMeters: Double {
        let points = truth.map { SimulatedTrack.coordinate(east: $0.east, north: $0.north) }
        return zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distanceMeters(to: $1.1) }
    }

    /// Noisy fixes of the true path.
    /// - Parameters:
    ///   - accuracyMeters: RMS radial error of the noise, metres.
    ///   - reportedAccuracyMeters: what the fixes report (`nil`: the same; negative: unknown).
    func fixes(accuracyMeters: Double, reportedAccuracyMeters: Double? = nil, using generator: inout SplitMix64) -> [Location] {
        let σ = accuracyMeters / 2.0.squareRoot()
        return truth.enumerated().map { index, point in
            let coordinate = SimulatedTrack.coordinate(east: point.east + σ * generator.gaussian(),
                                                       north: point.north + σ * generator.gaussian())
            return Location(coordinate: coordinate, horizontalAccuracyMeters: reportedAccuracyMeters ?? accuracyMeters,
                            timestamp: start.addingTimeInterval(Double(index) * intervalSeconds))
        }
    }
}
