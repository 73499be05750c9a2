/// An OpenStreetMap node: a point with an id and tags (most nodes of an extract only shape ways
/// and have none). Metadata (version, timestamp, user) is not read.
public struct OSMNode: Equatable, Sendable {
    public let id: Int64
    /// WGS 84 degrees, within ±90 (the reader checks it).
    public let latitude: Double
    /// WGS 84 degrees, within ±180 (the reader checks it).
    public let longitude: Double
    public let tags: [OSMTag]

    public init(id: Int64, latitude: Double, longitude: Double, tags: [OSMTag] = []) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.tags = tags
    }
}
