import Foundation

/// A beacon as ranging reports it (Core Location's `CLBeacon`).
public struct RangedBeacon: Sendable, Hashable {
    /// Which beacon.
    public let identity: BeaconIdentity
    /// How near, in words.
    public let proximity: BeaconProximity
    /// The estimated distance, metres, or `nil` when unknown (Core Location's `accuracy` of -1).
    public let estimatedDistanceMeters: Double?
    /// The mean RSSI of the samples in the smoothing window, dBm, or `nil` when unknown (Core
    /// Location's `rssi` of 0).
    public let meanRSSIDBm: Double?
    /// How many samples the estimate averages.
    public let sampleCount: Int
    /// When the beacon was last heard.
    public let lastSeen: Date
}
