/// An OpenStreetMap relation: members (nodes, ways, relations) with roles, and tags.
public struct OSMRelation: Equatable, Sendable {
    /// What a member is.
    public enum MemberType: UInt8, Sendable {
        case node = 0
        case way = 1
        case relation = 2
    }

    /// One member: its type, its id and its role (`outer`, `inner`, `street`, … or empty).
    public struct Member: Equatable, Sendable {
        public let type: MemberType
        public let id: Int64
        public let role: String

        public init(type: MemberType, id: Int64, role: String) {
            self.type = type
            self.id = id
            self.role = role
        }
    }

    public let id: Int64
    public let members: [Member]
    public let tags: [OSMTag]

    public init(id: Int64, members: [Member], tags: [OSMTag] = []) {
        self.id = id
        self.members = members
        self.tags = tags
    }
}
