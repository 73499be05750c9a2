/// A geofence: an area with an identifier and which crossings should be reported (Core Location's
/// `CLCircularRegion`; a polygon as a GeoJSON Polygon describes one).
public struct MonitoredRegion: Sendable, Hashable {
    /// The area of a region.
    public enum Shape: Sendable, Hashable {
        /// Every place within a geodesic distance of a centre.
        case circle(Circle)
        /// An area with optional holes. Its edges are straight in longitude and latitude
        /// (RFC 7946), each taken the shorter way round in longitude, so one polygon may cross
        /// the 180th meridian; it must span less than 180° of longitude.
        case polygon(Polygon)
    }

    /// The region's name; registering another region with the same identifier replaces it.
    public let identifier: String
    /// The area.
    public let shape: Shape
    /// Whether entering the region is reported.
    public var notifyOnEntry: Bool
    /// Whether leaving the region is reported.
    public var notifyOnExit: Bool

    /// Creates a region; both crossings are reported unless turned off.
    /// - Throws: ``RegionMonitoringError/emptyIdentifier`` for an empty identifier.
    public init(identifier: String, shape: Shape, notifyOnEntry: Bool = true, notifyOnExit: Bool = true) throws(RegionMonitoringError) {
        guard !identifier.isEmpty else { throw .emptyIdentifier }
        self.identifier = identifier
        self.shape = shape
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    /// A circular region.
    /// - Throws: ``RegionMonitoringError/emptyIdentifier``; a radius the monitor cannot watch is
    ///   refused when the region is registered.
    public static func circle(_ identifier: String, center: Coordinate, radiusMeters: Double,
                              notifyOnEntry: Bool = true, notifyOnExit: Bool = true) throws -> MonitoredRegion {
        try MonitoredRegion(identifier: identifier, shape: .circle(Circle(center: center, radiusMeters: radiusMeters)),
                            notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit)
    }

    /// The radius of the region, metres: a circle's own, or for a polygon that of the circle with
    /// the same area (outer ring less holes, measured with geodesic edges by
    /// ``GeodesicPolygon``). The monitor sizes its cushion and the accuracy it accepts by it.
    /// - Complexity: O(n) geodesic problems for a polygon of n positions.
    public var equivalentRadiusMeters: Double {
        switch shape {
        case .circle(let circle):
            return circle.radiusMeters
        case .polygon(let polygon):
            let outer = abs(GeodesicPolygon(polygon.exteriorRing).measure().areaSquareMeters)
            let holes = polygon.interiorRings.reduce(0) { $0 + abs(GeodesicPolygon($1).measure().areaSquareMeters) }
            return (max(outer - holes, 0) / .pi).squareRoot()
        }
    }
}
