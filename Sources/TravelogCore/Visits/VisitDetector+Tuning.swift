extension VisitDetector {
    /// The thresholds of visit detection. The defaults follow the staypoint literature (a place
    /// about 100 m across, a stay of at least 5 minutes: Hariharan & Toyama 2004, Li et al. 2008,
    /// and Core Location's visits, which report stays of several minutes).
    public struct Tuning: Sendable, Hashable {
        /// A fix belongs to the place when it lies within this distance of the place's center, metres.
        public let radiusMeters: Double
        /// A stay becomes a visit once its fixes span at least this long, seconds.
        public let minimumDurationSeconds: Double
        /// Fixes are samples: each end of a stay is taken to reach halfway to the neighbouring fix
        /// outside it, by at most this much, when the stay's length is compared with
        /// `minimumDurationSeconds`, seconds. A stay seen from 05:44:39 to 05:49:18 with a fix
        /// every 31 s lasted about 5 min 10 s. The reported arrival and departure stay the times
        /// of the first and last fix at the place.
        public let boundaryAllowanceSeconds: Double
        /// The device has left a place once this many consecutive usable fixes lie outside it. With
        /// 2, a single outlier that the next fix contradicts (it is back at the place) is dropped.
        public let departureFixCount: Int
        /// Fixes that report a worse horizontal accuracy are ignored (cell-tower fixes, hundreds of
        /// metres to kilometres, can neither make nor end a stay), metres.
        public let maximumAccuracyMeters: Double
        /// The accuracy that weighs a fix reporting none (negative), metres. Only the relative
        /// weights of the fixes in the mean depend on it.
        public let assumedAccuracyMeters: Double
        /// Reported accuracies below this are raised to it for weighting, metres (0 m is a lie).
        public let minimumAccuracyMeters: Double
        /// A silence between usable fixes longer than this is a gap in the history: it ends the
        /// visit at its last fix, seconds (see `HistoryGap`).
        public let maximumSilenceSeconds: Double

        /// Creates a tuning; distances and durations must be finite and positive (the duration may
        /// be 0), and `departureFixCount` at least 1.
        public init(
            radiusMeters: Double = 100,
            minimumDurationSeconds: Double = 300,
            boundaryAllowanceSeconds: Double = 60,
            departureFixCount: Int = 2,
            maximumAccuracyMeters: Double = 200,
            assumedAccuracyMeters: Double = 20,
            minimumAccuracyMeters: Double = 1,
            maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds
        ) {
            precondition(radiusMeters.isFinite && radiusMeters > 0, "radiusMeters must be positive")
            precondition(minimumDurationSeconds.isFinite && minimumDurationSeconds >= 0, "minimumDurationSeconds must not be negative")
            precondition(boundaryAllowanceSeconds.isFinite && boundaryAllowanceSeconds >= 0, "boundaryAllowanceSeconds must not be negative")
            precondition(departureFixCount >= 1, "departureFixCount must be at least 1")
            precondition(maximumAccuracyMeters > 0, "maximumAccuracyMeters must be positive")
            precondition(assumedAccuracyMeters.isFinite && assumedAccuracyMeters > 0, "assumedAccuracyMeters must be positive")
            precondition(minimumAccuracyMeters.isFinite && minimumAccuracyMeters > 0, "minimumAccuracyMeters must be positive")
            precondition(maximumSilenceSeconds > 0, "maximumSilenceSeconds must be positive")
            self.radiusMeters = radiusMeters
            self.minimumDurationSeconds = minimumDurationSeconds
            self.boundaryAllowanceSeconds = boundaryAllowanceSeconds
            self.departureFixCount = departureFixCount
            self.maximumAccuracyMeters = maximumAccuracyMeters
            self.assumedAccuracyMeters = assumedAccuracyMeters
            self.minimumAccuracyMeters = minimumAccuracyMeters
            self.maximumSilenceSeconds = maximumSilenceSeconds
        }
    }
}
