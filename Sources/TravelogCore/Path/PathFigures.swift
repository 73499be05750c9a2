import Foundation

/// The figures of a path, accumulated one location at a time (in time order): length, duration,
/// moving time, average and maximum speed, elevation gain and loss.
///
/// - **Length** is the plain sum of the WGS84 geodesic distances between consecutive locations,
///   noise included; **traveled distance** is the jitter-robust `TraveledDistance`, which is what
///   a person moved.
/// - **Moving time** is the time `TraveledDistance` spends moving: from the last fix at a place to
///   the first fix at the next one, for every trip that got clearly away at an average speed of
///   at least `minimumTripSpeedMetersPerSecond` (0.2 m/s by default). Stops shorter than
///   `stopDurationSeconds` (90 s) are part of the trip. Jitter cannot create moving time, which a
///   per-step speed threshold would (20 m of jitter between fixes 5 s apart "moves" at 4 m/s).
/// - **Average speed** is the traveled distance over the moving time.
/// - **Maximum speed** is robust to a single bad value: the maximum, over three consecutive
///   values, of their median. When at least half of the locations report a speed (Doppler speeds
///   from GNSS, far less noisy than speeds from positions), those values are used; otherwise
///   speeds sampled along the jitter-robust path over spans of at least 10 s.
/// - **Elevation gain and loss** use `ElevationChange` (hysteresis of `elevationThresholdMeters`)
///   over the locations that have an altitude.
///
/// Locations older than the previous one are ignored and counted in `outOfOrderCount`.
///
/// - Complexity: O(1) amortised time and memory per location: one geodesic inverse, plus the
///   work of `TraveledDistance`.
public struct PathFigures: Sendable {
    /// Number of locations taken in.
    public private(set) var locationCount = 0
    /// Sum of the geodesic distances between consecutive locations, metres.
    public private(set) var lengthMeters = 0.0
    /// Timestamp of the first and the last location, `nil` while empty.
    public private(set) var startDate: Date?
    public private(set) var endDate: Date?
    /// Locations ignored because they were older than the previous one.
    public private(set) var outOfOrderCount = 0

    private var traveled: TraveledDistance
    private var elevation: ElevationChange
    private var reportedSpeeds = MedianOfThreeMaximum()
    private var previous: Location?

    /// Creates an empty accumulator.
    /// - Parameters:
    ///   - elevationThresholdMeters: dead band of the elevation gain and loss, metres (5 m).
    ///   - distanceConfiguration: thresholds of the jitter-robust distance.
    public init(elevationThresholdMeters: Double = 5, distanceConfiguration: TraveledDistance.Configuration = .init()) {
        traveled = TraveledDistance(configuration: distanceConfiguration)
        elevation = ElevationChange(thresholdMeters: elevationThresholdMeters)
    }

    /// The figures of a whole time-ordered sequence of locations.
    public init<S: Sequence>(
        _ locations: S, elevationThresholdMeters: Double = 5, distanceConfiguration: TraveledDistance.Configuration = .init()
    ) where S.Element == Location {
        self.init(elevationThresholdMeters: elevationThresholdMeters, distanceConfiguration: distanceConfiguration)
        for location in locations { ingest(location) }
    }

    /// Takes in the next location.
    public mutating func ingest(_ location: Location) {
        if let previous {
            guard location.timestamp >= previous.timestamp else {
                outOfOrderCount += 1
                return
            }
            lengthMeters += location.distanceMeters(from: previous)
        } else {
            startDate = location.timestamp
        }
        previous = location
        endDate = location.timestamp
        locationCount += 1
        traveled.ingest(location)
        if let altitude = location.altitudeMeters { elevation.ingest(altitudeMeters: altitude) }
        if let speed = location.speedIfKnown { reportedSpeeds.add(speed) }
    }

    /// Time from the first to the last location, seconds (0 while fewer than two).
    public var durationSeconds: Double {
        guard let startDate, let endDate else { return 0 }
        return endDate.timeIntervalSince(startDate)
    }

    /// Jitter-robust distance traveled, metres (see `TraveledDistance`).
    public var traveledDistanceMeters: Double { traveled.distanceMeters }

    /// Time spent moving, seconds (see the type's description).
    public var movingDurationSeconds: Double { traveled.movingDurationSeconds }

    /// Traveled distance over moving time, metres per second; `nil` without moving time.
    public var averageSpeedMetersPerSecond: Double? {
        let moving = movingDurationSeconds
        return moving > 0 ? traveledDistanceMeters / moving : nil
    }

    /// The robust maximum speed, metres per second (see the type's description); `nil` when the
    /// path has neither reported speeds nor a moving stretch.
    public var maximumSpeedMetersPerSecond: Double? {
        if reportedSpeeds.count > 0 && 2 * reportedSpeeds.count >= locationCount { return reportedSpeeds.value }
        return traveled.maximumSpeedMetersPerSecond
    }

    /// Elevation gained, metres, counting climbs larger than the threshold.
    public var elevationGainMeters: Double { elevation.gainMeters }
    /// Elevation lost, metres (positive), counting descents larger than the threshold.
    public var elevationLossMeters: Double { elevation.lossMeters }
}
