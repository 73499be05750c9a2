import TravelogCore

/// What a tile of a history shows: lines of the devices' tracks and the (weighted) fixes, in
/// map points on the world's plane (a tile at the world's east or west edge may need them
/// moved by a world width, which ``MapProjection/point(for:)-(MapPoint)`` does).
public struct HistoryTileContent: Sendable {
    /// A piece of a device's track.
    public struct Line: Sendable {
        /// The index of the device, for its colour.
        public var deviceIndex: Int
        /// The vertices in order; a single vertex is a fix with no line to either side.
        public var points: [MapPoint]
    }

    /// The pieces of track that touch the area.
    public var lines: [Line] = []
    /// The fixes inside the area, each standing for `weight` merged fixes.
    public var fixes: [WeightedMapPoint] = []
    /// The device index of each of ``fixes``.
    public var fixDevices: [Int] = []

    public init() {}

    /// Whether there is nothing to draw.
    public var isEmpty: Bool { lines.isEmpty && fixes.isEmpty }
}
