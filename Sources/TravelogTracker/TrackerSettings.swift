import Foundation
import TravelogTracking

/// Everything `travelog track` runs with.
public struct TrackerSettings: Sendable {
    public var source: GPSSource
    public var manager = LocationManagerConfiguration()
    /// Use the significant-change service instead of the standard one.
    public var significantChangesOnly = false
    /// Deliver in deferred batches of this distance (metres) or time (seconds); `nil` for none.
    public var deferMeters: Double?
    public var deferSeconds: Double?
    public var server: URL?
    public var token: String?
    public var queuePath: String
    public var queueCapacity = TrackerQueue.defaultCapacity
    public var outputPath: String?
    /// Fixes per upload (Overland's default batch is 200).
    public var batchSize = 200
    /// How often queued fixes are sent, in seconds.
    public var uploadIntervalSeconds: Double = 10
    public var magneticModel: WorldMagneticModel?

    public init(source: GPSSource, queuePath: String) {
        self.source = source
        self.queuePath = queuePath
    }
}
