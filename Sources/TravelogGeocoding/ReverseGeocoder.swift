import TravelogCore

/// Finds the gazetteer place nearest to a coordinate, by WGS84 geodesic distance.
///
/// Places are points of a k-d tree in Earth-centred, Earth-fixed coordinates on the WGS84
/// ellipsoid (metres). The straight chord between two points of the surface is never longer
/// than the geodesic between them, so after the nearest place by chord (geodesic distance `s`),
/// only places whose chord is shorter than `s` can be nearer along the surface: those few are
/// compared by geodesic distance (Karney's algorithm), which makes the answer exact and not a
/// spherical approximation.
public struct ReverseGeocoder: Sendable {
    /// The places searched.
    public let gazetteer: Gazetteer
    private let tree: PointKDTree
    /// Street-level answers from the OSM extracts added (`travelog osm add`), where they cover
    /// the coordinate; `nil`: the gazetteer alone.
    public var streetLevel: OSMReverseGeocoder?

    /// The place found for a coordinate.
    public struct Nearest: Hashable, Sendable {
        /// The place's index in the gazetteer.
        public let placeIndex: Int
        /// WGS84 geodesic distance from the searched coordinate to the place, in metres.
        public let distanceMeters: Double
    }

    /// Indexes the gazetteer's places.
    /// - Complexity: O(n log n) for n places (about 50 ms for 145 000 in a release build).
    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        self.tree = PointKDTree(points: (0..<gazetteer.count).map { Self.earthCenteredPoint(gazetteer.coordinate(at: $0)) })
    }

    /// The place nearest to `coordinate` and its geodesic distance, `nil` for an empty gazetteer.
    /// Of places at exactly the same distance, the one with the lowest index is chosen.
    /// - Complexity: O(log n) expected, plus one geodesic per place that is within the chord bound.
    public func nearest(to coordinate: Coordinate) -> Nearest? {
        let query = Self.earthCenteredPoint(coordinate)
        guard let first = tree.nearest(to: query) else { return nil }
        var best = Nearest(placeIndex: first.index,
                           distanceMeters: coordinate.distanceMeters(to: gazetteer.coordinate(at: first.index)))
        let bound = best.distanceMeters * best.distanceMeters
        // Usually no point but the first one is within the bound (and the first one is then skipped).
        guard bound > first.squaredDistance else { return best }
        tree.forEach(within: bound, of: query) { index, _ in
            guard index != first.index else { return }
            let distance = coordinate.distanceMeters(to: gazetteer.coordinate(at: index))
            if distance < best.distanceMeters || (distance == best.distanceMeters && index < best.placeIndex) {
                best = Nearest(placeIndex: index, distanceMeters: distance)
            }
        }
        return best
    }

    /// The placemark of the place nearest to `coordinate`, with its distance, and the street
    /// address where ``streetLevel`` covers the coordinate; `nil` for an empty gazetteer.
    /// - Complexity: as `nearest(to:)`, plus decoding the place's strings.
    public func placemark(for coordinate: Coordinate) -> Placemark? {
        guard let placemark = nearest(to: coordinate).map({ gazetteer.placemark(at: $0.placeIndex, distanceMeters: $0.distanceMeters) }) else {
            return nil
        }
        guard let address = streetLevel?.address(for: coordinate) else { return placemark }
        return placemark.adding(address)
    }

    /// The place's point for the tree: Earth-centred, Earth-fixed metres (`SurfacePoint`).
    static func earthCenteredPoint(_ coordinate: Coordinate) -> SIMD3<Double> {
        let point = SurfacePoint(coordinate)
        return SIMD3(point.x, point.y, point.z)
    }
}
