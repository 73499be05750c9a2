/// The road network of one extract as plain arrays: what ``RoadGraphBuilder`` produces and the graph
/// file holds. Every node of a routable way is a graph node; every pair of consecutive nodes of a
/// way is a segment, travelled forward (along the way's node order) or backward. A directed
/// segment is a *state* of the turn-aware (edge-based) graph: state `2 × segment + direction`.
struct RoadGraphData: Sendable {
    /// Node coordinates in units of 1e-7 degree.
    var nodeLatitudeE7: [Int32] = []
    var nodeLongitudeE7: [Int32] = []
    /// Per node, a bit per mode (1 << mode.index) whose passage a barrier there blocks.
    var nodeBarrier: [UInt8] = []
    var segmentFrom: [Int32] = []
    var segmentTo: [Int32] = []
    var segmentLengthCentimeters: [UInt32] = []
    var segmentWay: [Int32] = []
    /// Per segment: bit `2 × mode + 0` forward allowed, `2 × mode + 1` backward allowed; ``roundaboutBit``, ``ferryBit``.
    var segmentFlags: [UInt8] = []
    /// Per segment, a bit per mode (1 << mode.index): the segment has a direction in the mode's
    /// largest strongly connected component (``TurnGraph/largestComponent()``); ends snap only onto these.
    var segmentConnected: [UInt8] = []
    /// Per segment and mode (`3 × segment + mode.index`), km/h.
    var segmentSpeed: [UInt8] = []
    var wayID: [Int64] = []
    /// Per way, the index of its name in `names`, or -1.
    var wayName: [Int32] = []
    var names: [String] = []
    var restrictions: [TurnRestriction] = []
    /// The extract's bounding box (its header's, else its nodes'): minLat, minLon, maxLat, maxLon in degrees.
    var boundingBox: [Double] = [0, 0, 0, 0]

    static let roundaboutBit: UInt8 = 1 << 6
    static let ferryBit: UInt8 = 1 << 7

    var segmentCount: Int { segmentFrom.count }
    var nodeCount: Int { nodeLatitudeE7.count }
}

/// A turn restriction through a node (`type=restriction`): from a way, via a node, to a way.
struct TurnRestriction: Equatable, Sendable {
    var fromWay: Int32
    var viaNode: Int32
    var toWay: Int32
    /// `only_*` (every other turn is forbidden) rather than `no_*` (this turn is).
    var only: Bool
    /// A bit per mode (1 << mode.index) it applies to.
    var modes: UInt8
}
