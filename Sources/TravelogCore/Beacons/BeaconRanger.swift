import Foundation

/// Ranging (Core Location's `startRangingBeacons(satisfying:)`): fed every beacon sighting in
/// time order, it reports the beacons heard, nearest first, with a distance estimated from the
/// RSSI averaged over a window.
///
/// - Distance: the log-distance path-loss model, `d = 10^((P₁ − RSSI) / (10 n))` metres for the
///   measured power `P₁` at 1 m and the path-loss exponent `n` (2 in free space; T. S. Rappaport,
///   "Wireless Communications: Principles and Practice", 2nd ed., §4.9.1), applied to the mean
///   RSSI of the samples heard in the last ``Configuration/smoothingWindowSeconds`` (20 s, the
///   window the AltBeacon library uses to match iOS's ranging).
/// - Proximity: ``BeaconProximity/immediate`` below 0.5 m, ``BeaconProximity/near`` below 3 m,
///   ``BeaconProximity/far`` beyond; a beacon not heard within the last
///   ``Configuration/rangingIntervalSeconds`` is still listed as ``BeaconProximity/unknown``
///   (as Core Location lists a beacon it just lost, with `rssi` 0 and `accuracy` -1) until
///   ``Configuration/retentionSeconds`` have passed without it.
///
/// The report depends only on the sightings up to the time asked and not on how they were fed.
/// - Complexity: ``ingest(_:)`` O(1) amortised; ``rangedBeacons(at:satisfying:)`` O(b log b + s)
///   for b beacons and s samples kept.
public struct BeaconRanger: Sendable {
    /// The thresholds of ranging.
    public struct Configuration: Sendable, Hashable {
        /// The RSSI samples of a beacon averaged for its distance, seconds.
        public let smoothingWindowSeconds: Double
        /// A beacon not heard for this long has proximity unknown, seconds (Core Location ranges once a second).
        public let rangingIntervalSeconds: Double
        /// A beacon not heard for this long is no longer listed, seconds.
        public let retentionSeconds: Double
        /// The path-loss exponent `n`: 2 in free space, 2.7–3.5 in buildings, up to 4–6 through walls.
        public let pathLossExponent: Double
        /// Beacons estimated closer than this are immediate, metres.
        public let immediateBelowMeters: Double
        /// Beacons estimated closer than this (and not immediate) are near, metres.
        public let nearBelowMeters: Double

        /// Creates a configuration.
        /// - Precondition: every value finite and positive, the interval ≤ the retention, and
        ///   `immediateBelowMeters` ≤ `nearBelowMeters`.
        public init(smoothingWindowSeconds: Double = 20, rangingIntervalSeconds: Double = 1, retentionSeconds: Double = 10,
                    pathLossExponent: Double = 2, immediateBelowMeters: Double = 0.5, nearBelowMeters: Double = 3) {
            for value in [smoothingWindowSeconds, rangingIntervalSeconds, retentionSeconds, pathLossExponent, immediateBelowMeters, nearBelowMeters] {
                precondition(value.isFinite && value > 0, "ranging thresholds must be finite and positive")
            }
            precondition(rangingIntervalSeconds <= retentionSeconds, "the ranging interval must not exceed the retention")
            precondition(immediateBelowMeters <= nearBelowMeters, "immediate must be nearer than near")
            self.smoothingWindowSeconds = smoothingWindowSeconds
            self.rangingIntervalSeconds = rangingIntervalSeconds
            self.retentionSeconds = retentionSeconds
            self.pathLossExponent = pathLossExponent
            self.immediateBelowMeters = immediateBelowMeters
            self.nearBelowMeters = nearBelowMeters
        }
    }

    private struct Track: Sendable {
        var measuredPowerDBm: Int8
        /// (seconds since the reference date, dBm), oldest first; older than the window are dropped lazily.
        var samples: [(time: Double, rssi: Int)] = []
        var firstKept = 0
        var lastSeen: Double
    }

    /// The thresholds in use.
    public let configuration: Configuration
    private var tracks: [BeaconIdentity: Track] = [:]
    private var latestTime = -Double.infinity
    /// Sightings ignored because they were older than the latest one.
    public private(set) var outOfOrderCount = 0

    /// Creates a ranger that has heard nothing.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Records a sighting. Sightings older than the latest one are ignored and counted.
    public mutating func ingest(_ sighting: BeaconSighting) {
        let time = sighting.timestamp.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return
        }
        latestTime = time
        var track = tracks.removeValue(forKey: sighting.identity)
            ?? Track(measuredPowerDBm: sighting.advertisement.measuredPowerDBm, lastSeen: time)
        track.measuredPowerDBm = sighting.advertisement.measuredPowerDBm
        track.lastSeen = time
        track.samples.append((time, sighting.rssiDBm))
        // Forget what left the window, compacting once half the array is stale.
        let oldest = time - max(configuration.smoothingWindowSeconds, configuration.retentionSeconds)
        while track.firstKept < track.samples.count, track.samples[track.firstKept].time < oldest { track.firstKept += 1 }
        if track.firstKept > 64, track.firstKept * 2 > track.samples.count {
            track.samples.removeFirst(track.firstKept)
            track.firstKept = 0
        }
        tracks[sighting.identity] = track
    }

    /// Records sightings in order.
    public mutating func ingest<S: Sequence>(contentsOf sightings: S) where S.Element == BeaconSighting {
        for sighting in sightings { ingest(sighting) }
    }

    /// The beacons of a region heard recently, as of a time (at or after the latest sighting):
    /// nearest first, then the unknown ones by identity.
    public func rangedBeacons(at date: Date, satisfying region: BeaconRegion? = nil) -> [RangedBeacon] {
        let now = date.timeIntervalSinceReferenceDate
        var ranged: [RangedBeacon] = []
        for (identity, track) in tracks where region?.contains(identity) ?? true {
            let silence = now - track.lastSeen
            guard silence < configuration.retentionSeconds else { continue }
            let windowStart = now - configuration.smoothingWindowSeconds
            let window = track.samples[track.firstKept...].filter { $0.time > windowStart && $0.time <= now }
            let lastSeen = Date(timeIntervalSinceReferenceDate: track.lastSeen)
            guard silence < configuration.rangingIntervalSeconds, !window.isEmpty else {
                ranged.append(RangedBeacon(identity: identity, proximity: .unknown, estimatedDistanceMeters: nil,
                                           meanRSSIDBm: nil, sampleCount: 0, lastSeen: lastSeen))
                continue
            }
            let mean = Double(window.reduce(0) { $0 + $1.rssi }) / Double(window.count)
            let distance = estimatedDistanceMeters(meanRSSIDBm: mean, measuredPowerDBm: track.measuredPowerDBm)
            ranged.append(RangedBeacon(identity: identity, proximity: proximity(distanceMeters: distance),
                                       estimatedDistanceMeters: distance, meanRSSIDBm: mean,
                                       sampleCount: window.count, lastSeen: lastSeen))
        }
        return ranged.sorted { a, b in
            switch (a.estimatedDistanceMeters, b.estimatedDistanceMeters) {
            case let (x?, y?): (x, a.identity) < (y, b.identity)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.identity < b.identity
            }
        }
    }

    /// The log-distance path-loss estimate, metres.
    public func estimatedDistanceMeters(meanRSSIDBm: Double, measuredPowerDBm: Int8) -> Double {
        pow(10, (Double(measuredPowerDBm) - meanRSSIDBm) / (10 * configuration.pathLossExponent))
    }

    /// The proximity of an estimated distance.
    public func proximity(distanceMeters: Double) -> BeaconProximity {
        if distanceMeters < configuration.immediateBelowMeters { return .immediate }
        if distanceMeters < configuration.nearBelowMeters { return .near }
        return .far
    }
}
