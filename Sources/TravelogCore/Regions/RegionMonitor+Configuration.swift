extension RegionMonitor {
    /// What the monitor does with a fix whose horizontal accuracy is negative (invalid).
    public enum InvalidAccuracyPolicy: Sendable, Hashable {
        /// Ignore the fix, as Core Location does: a negative accuracy means the coordinate is invalid.
        case ignoreFix
        /// Treat the fix as if it reported this accuracy, metres. For history from files that
        /// record no accuracy at all (most GPX, GeoLife, KML), where every fix has -1.
        case assume(meters: Double)
    }

    /// The thresholds of region monitoring.
    ///
    /// Core Location documents the behaviour but not its numbers ("the boundary plus a
    /// system-defined cushion distance", "at least 20 seconds", a per-app limit of 20 regions);
    /// the defaults here follow those words.
    public struct Configuration: Sendable, Hashable {
        /// How far beyond the boundary a fix must lie to count on the other side, metres. A region
        /// uses at most half its radius (``MonitoredRegion/equivalentRadiusMeters``), so a small
        /// region still has an inside.
        public let cushionMeters: Double
        /// How long the fixes must stay beyond the boundary by the cushion before a crossing is
        /// reported, seconds.
        public let dwellSeconds: Double
        /// A fix whose horizontal accuracy exceeds this multiple of a region's radius cannot tell
        /// which side of that region it is on and changes nothing for it.
        public let maximumAccuracyToRadiusRatio: Double
        /// What to do with fixes without a valid accuracy.
        public let invalidAccuracyPolicy: InvalidAccuracyPolicy
        /// The radii a region may have, metres (Core Location's `maximumRegionMonitoringDistance`
        /// is the upper bound there).
        public let radiusLimitsMeters: ClosedRange<Double>
        /// How many regions one monitor (one device) may watch at once.
        public let maximumRegionCount: Int

        /// Creates a configuration.
        /// - Precondition: the cushion, dwell time and ratio are finite, the cushion and dwell
        ///   not negative, the ratio positive; an assumed accuracy is finite and not negative;
        ///   the radius limits are finite and not negative; the region count is at least 1.
        public init(
            cushionMeters: Double = 25,
            dwellSeconds: Double = 20,
            maximumAccuracyToRadiusRatio: Double = 1,
            invalidAccuracyPolicy: InvalidAccuracyPolicy = .ignoreFix,
            radiusLimitsMeters: ClosedRange<Double> = 10...400_000,
            maximumRegionCount: Int = 20
        ) {
            precondition(cushionMeters.isFinite && cushionMeters >= 0, "cushionMeters must be finite and not negative")
            precondition(dwellSeconds.isFinite && dwellSeconds >= 0, "dwellSeconds must be finite and not negative")
            precondition(maximumAccuracyToRadiusRatio.isFinite && maximumAccuracyToRadiusRatio > 0,
                         "maximumAccuracyToRadiusRatio must be positive")
            if case .assume(let meters) = invalidAccuracyPolicy {
                precondition(meters.isFinite && meters >= 0, "an assumed accuracy must be finite and not negative")
            }
            precondition(radiusLimitsMeters.lowerBound >= 0 && radiusLimitsMeters.upperBound.isFinite,
                         "radius limits must be finite and not negative")
            precondition(maximumRegionCount >= 1, "maximumRegionCount must be at least 1")
            self.cushionMeters = cushionMeters
            self.dwellSeconds = dwellSeconds
            self.maximumAccuracyToRadiusRatio = maximumAccuracyToRadiusRatio
            self.invalidAccuracyPolicy = invalidAccuracyPolicy
            self.radiusLimitsMeters = radiusLimitsMeters
            self.maximumRegionCount = maximumRegionCount
        }
    }
}
