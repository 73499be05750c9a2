/// An OpenStreetMap way: an ordered list of node ids (closed when the first is the last) with tags.
public struct OSMWay: Equatable, Sendable {
    public let id: Int64
    /// The ids of its nodes, in order; their coordinates are in the extract's node blocks.
    public let nodeIDs: [Int64]
    public let tags: [OSMTag]

    public init(id: Int64, nodeIDs: [Int64], tags: [OSMTag] = []) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }

    /// Whether it is a ring: at least four node ids (three distinct), the last one the first.
    public var isClosed: Bool { nodeIDs.count >= 4 && nodeIDs.first == nodeIDs.last }
}
