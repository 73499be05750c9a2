extension TransportModeClassifier {
    /// The speed bands of the modes (each from its threshold up to the next) and the vote window.
    ///
    /// Sources of the defaults:
    /// - stationary below 0.5 m/s: well under the slowest comfortable walking of adults
    ///   (≈ 1.0–1.5 m/s; Bohannon 1997, "Comfortable and maximum walking speed of adults aged
    ///   20–79 years", Age and Ageing), and above what 10 m of jitter makes of a minute (0.2 m/s);
    /// - running from 2.1 m/s: people switch from walking to running at about 2.0–2.1 m/s
    ///   (Hreljac 1993, "Preferred and energetically optimal gait transition speeds in human
    ///   locomotion", Medicine & Science in Sports & Exercise);
    /// - cycling from 4.0 m/s (14.4 km/h): faster than most recreational running (a 4:10 min/km
    ///   pace), the low end of typical urban cycling (about 15–20 km/h);
    /// - automotive from 8.5 m/s (30.6 km/h): above the pace that cyclists sustain in towns and above
    ///   the 25 km/h at which an e-bike's assistance must stop (EU Regulation 168/2013);
    /// - airborne from 70 m/s (252 km/h): above any road vehicle and conventional train; high-speed
    ///   rail (up to 300–350 km/h) reads airborne unless the phone's motion report says otherwise.
    ///
    /// Speed alone confuses slow cycling with running and a car in a jam with walking; the phone's
    /// motion reports (when given) settle those minutes.
    public struct Thresholds: Sendable, Hashable {
        public let walkingFromMetersPerSecond: Double
        public let runningFromMetersPerSecond: Double
        public let cyclingFromMetersPerSecond: Double
        public let automotiveFromMetersPerSecond: Double
        public let airborneFromMetersPerSecond: Double
        /// The length of one vote, seconds: the speed is measured over windows at least this long.
        public let windowSeconds: Double
        /// Motion reports less confident than this are ignored.
        public let minimumConfidence: MotionActivity.Confidence

        /// Creates thresholds; the speeds must increase strictly and the window be positive.
        public init(
            walkingFromMetersPerSecond: Double = 0.5,
            runningFromMetersPerSecond: Double = 2.1,
            cyclingFromMetersPerSecond: Double = 4.0,
            automotiveFromMetersPerSecond: Double = 8.5,
            airborneFromMetersPerSecond: Double = 70,
            windowSeconds: Double = 60,
            minimumConfidence: MotionActivity.Confidence = .medium
        ) {
            precondition(walkingFromMetersPerSecond > 0 && walkingFromMetersPerSecond < runningFromMetersPerSecond
                         && runningFromMetersPerSecond < cyclingFromMetersPerSecond
                         && cyclingFromMetersPerSecond < automotiveFromMetersPerSecond
                         && automotiveFromMetersPerSecond < airborneFromMetersPerSecond
                         && airborneFromMetersPerSecond.isFinite, "the speed thresholds must increase strictly")
            precondition(windowSeconds.isFinite && windowSeconds > 0, "windowSeconds must be positive")
            self.walkingFromMetersPerSecond = walkingFromMetersPerSecond
            self.runningFromMetersPerSecond = runningFromMetersPerSecond
            self.cyclingFromMetersPerSecond = cyclingFromMetersPerSecond
            self.automotiveFromMetersPerSecond = automotiveFromMetersPerSecond
            self.airborneFromMetersPerSecond = airborneFromMetersPerSecond
            self.windowSeconds = windowSeconds
            self.minimumConfidence = minimumConfidence
        }

        /// The mode whose speed band holds `speed` (m/s).
        public func mode(forSpeedMetersPerSecond speed: Double) -> TransportMode {
            if speed >= airborneFromMetersPerSecond { return .airborne }
            if speed >= automotiveFromMetersPerSecond { return .automotive }
            if speed >= cyclingFromMetersPerSecond { return .cycling }
            if speed >= runningFromMetersPerSecond { return .running }
            if speed >= walkingFromMetersPerSecond { return .walking }
            return .stationary
        }
    }
}
