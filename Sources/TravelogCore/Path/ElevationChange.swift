/// Elevation gained and lost along a path, with hysteresis so that altitude noise is not summed.
///
/// A climb counts only once the altitude has risen `thresholdMeters` above the last low point,
/// and then it counts whole (from that low point); while climbing, every new high adds to the gain.
/// The same holds for descents. Wobbles smaller than the threshold therefore add nothing, and a
/// real climb is not shortened by the threshold (a dead band, or hysteresis, on the altitude).
///
/// - Complexity: O(1) time and memory per altitude.
public struct ElevationChange: Sendable, Equatable {
    private enum Trend: Sendable, Equatable {
        /// No change has exceeded the threshold yet: the lowest and highest altitudes so far.
        case undecided(low: Double, high: Double)
        /// Climbing since the last counted descent; the highest altitude since.
        case climbing(high: Double)
        /// Descending since the last counted climb; the lowest altitude since.
        case descending(low: Double)
    }

    /// The dead band, metres: changes smaller than this are treated as noise.
    public let thresholdMeters: Double
    /// Total of the counted climbs, metres.
    public private(set) var gainMeters = 0.0
    /// Total of the counted descents, metres (positive).
    public private(set) var lossMeters = 0.0
    /// `nil` before the first altitude.
    private var trend: Trend?

    /// Creates an empty accumulator.
    /// - Parameter thresholdMeters: the dead band, metres; finite and not negative (5 m by default,
    ///   about the noise of a GNSS altitude after smoothing).
    public init(thresholdMeters: Double = 5) {
        precondition(thresholdMeters.isFinite && thresholdMeters >= 0, "thresholdMeters must be finite and not negative")
        self.thresholdMeters = thresholdMeters
    }

    /// Feeds the next altitude, metres. Non-finite values are ignored.
    public mutating func ingest(altitudeMeters altitude: Double) {
        guard altitude.isFinite else { return }
        switch trend {
        case nil:
            trend = .undecided(low: altitude, high: altitude)
        case .undecided(let low, let high):
            if altitude > low && altitude - low >= thresholdMeters {
                gainMeters += altitude - low
                trend = .climbing(high: altitude)
            } else if altitude < high && high - altitude >= thresholdMeters {
                lossMeters += high - altitude
                trend = .descending(low: altitude)
            } else {
                trend = .undecided(low: min(low, altitude), high: max(high, altitude))
            }
        case .climbing(let high):
            if altitude > high {
                gainMeters += altitude - high
                trend = .climbing(high: altitude)
            } else if high - altitude >= thresholdMeters && altitude < high {
                lossMeters += high - altitude
                trend = .descending(low: altitude)
            }
        case .descending(let low):
            if altitude < low {
                lossMeters += low - altitude
                trend = .descending(low: altitude)
            } else if altitude - low >= thresholdMeters && altitude > low {
                gainMeters += altitude - low
                trend = .climbing(high: altitude)
            }
        }
    }
}
