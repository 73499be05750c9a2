import Foundation

/// The state of a tracker's queue, as `travelog track status` shows it.
public struct TrackerStatus: Hashable, Sendable, Codable {
    public var queuedCount: Int
    public var capacity: Int
    public var oldestQueuedFixTime: Date?
    /// Fixes dropped over the queue's life because it was full.
    public var droppedCount: Int
    /// The last kept fix, as its Overland feature.
    public var lastFixFeature: String?
    public var lastFixReceivedAt: Date?
    public var lastUploadAt: Date?
    public var lastUploadCount: Int?
    public var lastUploadError: String?
    public var lastUploadErrorAt: Date?
    /// What the source was last doing ("connected to gpsd at …", "reconnecting in 8 s …").
    public var sourceState: String?
    /// The last heading reported ("true 274.1°, magnetic 272.3°").
    public var lastHeading: String?
}
