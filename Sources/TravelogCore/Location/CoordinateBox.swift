/// A latitude/longitude box, inclusive on every side. When `west > east` it spans the
/// 180th meridian.
public struct CoordinateBox: Hashable, Sendable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Whether the box holds a latitude/longitude pair.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north else { return false }
        return west <= east ? (longitude >= west && longitude <= east) : (longitude >= west || longitude <= east)
    }
}
