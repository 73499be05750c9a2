import Foundation
import Synchronization
import TravelogCore

/// A named administrative boundary of the extracts added (``OSMPlace/Kind/boundary``): a city, a
/// district, a region, with its outline and area.
public struct OSMBoundary: Sendable {
    public let name: String
    /// OSM's `admin_level`: 8 is mostly a city or municipality, 9–11 its districts, 4 a state.
    public let adminLevel: Int
    /// The outer rings (an outline's holes are not kept: enclaves count as part of it).
    public let outline: MultiPolygon
    public let centroid: Coordinate
    /// The outline's area on the WGS84 ellipsoid, edges taken as geodesics, km².
    public let areaSquareKilometers: Double
    /// The outline's bounding box, degrees.
    public let south: Double, west: Double, north: Double, east: Double

    /// Whether the point lies inside the outline.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north, longitude >= west, longitude <= east,
              let point = Coordinate(validLatitude: latitude, longitude: longitude) else { return false }
        return outline.contains(point)
    }
}

extension OSMReverseGeocoder {
    /// The administrative boundaries of the extracts, as `travelog osm add` kept them (whole ones only).
    /// - Complexity: O(their points) the first time, then O(1).
    public func boundaries() -> [OSMBoundary] {
        measuredBoundaries.withLock { measured in
            if let measured { return measured }
            let all = measureBoundaries()
            measured = all
            return all
        }
    }

    private func measureBoundaries() -> [OSMBoundary] {
        places.compactMap { place in
            guard place.kind.contains(.boundary), let name = place.name,
                  let level = place[tag: "admin_level"].flatMap({ Int($0) }) else { return nil }
            let rings = place.geometry.filter { $0.count >= 4 }
            let polygons = rings.compactMap { try? Polygon(exteriorRing: $0) }
            guard !polygons.isEmpty else { return nil }
            let area = rings.reduce(0.0) { total, ring in total + abs(GeodesicPolygon(ring.dropLast()).measure().areaSquareMeters) }
            let points = rings.joined()
            return OSMBoundary(name: name, adminLevel: level, outline: MultiPolygon(polygons: polygons), centroid: place.coordinate,
                               areaSquareKilometers: area / 1_000_000,
                               south: points.map(\.latitude).min()!, west: points.map(\.longitude).min()!,
                               north: points.map(\.latitude).max()!, east: points.map(\.longitude).max()!)
        }
    }
}
