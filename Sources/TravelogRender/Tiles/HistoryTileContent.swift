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

    /// What to collect for a tile (``HistoryTileIndex/content(in:zoom:filter:parts:)``).
    public struct Parts: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The pieces of track (the path).
        public static let lines = Parts(rawValue: 1)
        /// The weighted fixes inside the area (the heatmap and the points).
        public static let fixes = Parts(rawValue: 2)
        public static let all: Parts = [.lines, .fixes]
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
