extension TraveledDistance {
    /// The tunable thresholds of the jitter-robust distance. The defaults were chosen on simulated
    /// walks, drives and stationary hours (see `TraveledDistanceTests`).
    public struct Configuration: Sendable, Equatable {
        /// Horizontal accuracy assumed for a fix that reports none (negative accuracy), metres.
        /// GPX files and many imports carry no accuracy. 20 m is a typical phone fix in a town,
        /// between a clear-sky GNSS fix (≈ 5 m) and a Wi-Fi or cell fix (30 m and more), and errs
        /// on the safe side: 20 m of jitter without accuracy still adds up to nothing, while a
        /// walk recorded with 5 m fixes but no accuracy comes out about 10 % short (its corners
        /// are smoothed as if the fixes were 20 m ones). Assuming 10 m would turn an hour of
        /// 20 m jitter into kilometres.
        public let assumedAccuracyMeters: Double
        /// Reported accuracies below this are raised to it, metres (a 0 m accuracy is a lie).
        public let minimumAccuracyMeters: Double
        /// A fix belongs to a stationary place when it lies within this many times the combined
        /// accuracy, √(place accuracy² + fix accuracy²), of the place's centre.
        public let stationaryRadiusFactor: Double
        /// How many consecutive fixes must lie outside the place, with their mean outside too,
        /// before the device counts as having left it. One or two stray fixes do not move it.
        public let departureFixCount: Int
        /// A stop is recognised once the fixes have stayed within the stationary radius of their
        /// centre for this long, seconds; the jitter recorded during the stop is then withdrawn.
        public let stopDurationSeconds: Double
        /// …and over at least this many fixes.
        public let stopFixCount: Int
        /// A trip whose average speed, from leaving one place to reaching the next, is below this
        /// counts as drift and contributes neither distance nor moving time, metres per second.
        /// 0.2 m/s is a fifth of the slowest stroll.
        public let minimumTripSpeedMetersPerSecond: Double

        /// Creates a configuration; every value must be positive and finite.
        public init(
            assumedAccuracyMeters: Double = 20,
            minimumAccuracyMeters: Double = 1,
            stationaryRadiusFactor: Double = 1.5,
            departureFixCount: Int = 3,
            stopDurationSeconds: Double = 90,
            stopFixCount: Int = 4,
            minimumTripSpeedMetersPerSecond: Double = 0.2
        ) {
            precondition(assumedAccuracyMeters.isFinite && assumedAccuracyMeters > 0, "assumedAccuracyMeters must be positive")
            precondition(minimumAccuracyMeters.isFinite && minimumAccuracyMeters > 0, "minimumAccuracyMeters must be positive")
            precondition(stationaryRadiusFactor.isFinite && stationaryRadiusFactor > 0, "stationaryRadiusFactor must be positive")
            precondition(departureFixCount >= 1, "departureFixCount must be at least 1")
            precondition(stopDurationSeconds.isFinite && stopDurationSeconds >= 0, "stopDurationSeconds must not be negative")
            precondition(stopFixCount >= 2, "stopFixCount must be at least 2")
            precondition(minimumTripSpeedMetersPerSecond.isFinite && minimumTripSpeedMetersPerSecond >= 0,
                         "minimumTripSpeedMetersPerSecond must not be negative")
            self.assumedAccuracyMeters = assumedAccuracyMeters
            self.minimumAccuracyMeters = minimumAccuracyMeters
            self.stationaryRadiusFactor = stationaryRadiusFactor
            self.departureFixCount = departureFixCount
            self.stopDurationSeconds = stopDurationSeconds
            self.stopFixCount = stopFixCount
            self.minimumTripSpeedMetersPerSecond = minimumTripSpeedMetersPerSecond
        }

        /// The stationary radius around a place for a fix, metres.
        func stationaryRadiusMeters(placeAccuracyMeters: Double, fixAccuracyMeters: Double) -> Double {
            stationaryRadiusFactor * (placeAccuracyMeters * placeAccuracyMeters + fixAccuracyMeters * fixAccuracyMeters).squareRoot()
        }
    }
}

/// Fixed constants of the moving phase, chosen with the simulations in `TraveledDistanceTests`.
enum TripTuning {
    /// A single fix farther than this many stationary radii from the place leaves it at once
    /// (about 200 m for fixes without accuracy): no jitter reaches that far, and sparse histories
    /// may not have three fixes per trip.
    static let clearDepartureFactor = 5.0
    /// Two fixes at the same place at least this far apart in time are a stop, however few fixes
    /// lie between (the visit literature's 5 minutes).
    static let sparseStopSeconds = 300.0
    /// Fixes are averaged in groups; a group closes when a fix lies farther than this many times
    /// the combined accuracy (fix, group mean) from the group's mean.
    static let groupSpanFactor = 2.0
    /// …or when the group has lasted this long, seconds.
    static let groupMaximumSeconds = 60.0
    /// A group mean is dropped from the path when it lies within this many times its own
    /// per-axis standard error (accuracy / √(2 n)) of the simplified line.
    static let simplificationToleranceFactor = 4.0
    /// Speeds are sampled along the simplified path over at least this long, seconds.
    static let speedBaselineSeconds = 10.0
    /// At most this many group means wait for the simplification to decide (bounds the work per fix).
    static let windowCapacity = 64
    /// A fix is a spike when it lies more than this many combined accuracies from both neighbours…
    static let spikeAccuracyFactor = 3.0
    /// …while the neighbours are closer to each other than this fraction of those distances.
    static let spikeReturnFraction = 0.5
}
