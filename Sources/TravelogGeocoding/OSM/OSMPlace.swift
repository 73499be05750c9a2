import TravelogCore

/// A place kept from an OpenStreetMap extract (© OpenStreetMap contributors, ODbL): an address, a
/// named point of interest, a named street, or several at once (a café node with its address).
public struct OSMPlace: Equatable, Sendable {
    /// What the place is good for; a place may be several.
    public struct Kind: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// It has `addr:housenumber` (or `addr:housename`).
        public static let address = Kind(rawValue: 1)
        /// It is named and has a category (``category``).
        public static let pointOfInterest = Kind(rawValue: 2)
        /// A named `highway=*` way (its line in ``geometry``).
        public static let street = Kind(rawValue: 4)
        /// An area (a closed way or a multipolygon): ``coordinate`` is its centroid, ``geometry`` its outer rings.
        public static let area = Kind(rawValue: 8)
        /// A named administrative boundary (a `boundary=administrative` relation with an `admin_level`,
        /// kept in ``tags``), every outer way and node of it in the extract: ``geometry`` is its outer
        /// rings, ``coordinate`` their centroid. Not an area of interest: the reverse geocoder and the
        /// search leave it alone; the explore figures measure a city's share of its area with it.
        public static let boundary = Kind(rawValue: 16)
    }

    /// The OSM element it comes from.
    public enum ElementType: UInt8, Sendable, Comparable {
        case node = 0
        case way = 1
        case relation = 2

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let elementType: ElementType
    public let id: Int64
    public let kind: Kind
    /// The node's position, an area's centroid, or a street's middle node.
    public let coordinate: Coordinate
    /// `key=value` of the tag that makes it a point of interest (`amenity=cafe`), `nil` for others.
    public let category: String?
    /// The tags kept: `name`, `name:*` and other names, `addr:*`, opening hours, website, phone,
    /// and the category's tag; in the extract's order.
    public let tags: [(key: String, value: String)]
    /// Outer rings of an area, the line of a street; empty for a node.
    public let geometry: [[Coordinate]]

    public init(elementType: ElementType, id: Int64, kind: Kind, coordinate: Coordinate, category: String?,
                tags: [(key: String, value: String)], geometry: [[Coordinate]] = []) {
        self.elementType = elementType
        self.id = id
        self.kind = kind
        self.coordinate = coordinate
        self.category = category
        self.tags = tags
        self.geometry = geometry
    }

    /// The value of a kept tag.
    public subscript(tag key: String) -> String? { tags.first(where: { $0.key == key })?.value }

    /// Its name (`name`), if any.
    public var name: String? { self[tag: "name"] }

    public static func == (lhs: OSMPlace, rhs: OSMPlace) -> Bool {
        lhs.elementType == rhs.elementType && lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.coordinate == rhs.coordinate
            && lhs.category == rhs.category && lhs.geometry == rhs.geometry
            && lhs.tags.map(\.key) == rhs.tags.map(\.key) && lhs.tags.map(\.value) == rhs.tags.map(\.value)
    }
}
