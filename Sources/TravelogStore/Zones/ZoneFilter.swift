import Foundation
import TravelogCore

/// A user's privacy zones prepared for testing many fixes: what anyone but the owner may see
/// (`hiding`: hide and drop zones both, as a fix stored before a drop zone was made is still
/// inside it) and what is not stored (`dropping`). Share links read through it, and friends will.
/// Built from the zones as read for one request: nothing of it outlives a change of the zones.
public struct ZoneFilter: Sendable {
    private struct Area: Sendable {
        let shape: MonitoredRegion.Shape
        /// The shape's map rect (grown by a map point) cut at the 180th meridian.
        let parts: [MapRect]

        init(_ shape: MonitoredRegion.Shape) {
            self.shape = shape
            let rect = switch shape {
            case .circle(let circle): circle.boundingMapRect
            case .polygon(let polygon): polygon.boundingMapRect
            }
            parts = rect.insetBy(dx: -1, dy: -1).worldParts
        }

        func contains(_ coordinate: Coordinate, at point: MapPoint) -> Bool {
            let west = MapPoint(x: point.x - WebMercator.worldSizeMapPoints, y: point.y)
            let east = MapPoint(x: point.x + WebMercator.worldSizeMapPoints, y: point.y)
            guard parts.contains(where: { $0.contains(point) || $0.contains(west) || $0.contains(east) }) else { return false }
            switch shape {
            case .circle(let circle): return circle.contains(coordinate)
            case .polygon(let polygon): return polygon.contains(coordinate)
            }
        }
    }

    private let areas: [Area]

    /// A filter over the zones whose rule is among `rules`.
    public init(_ zones: [StoredZone], rules: Set<ZoneRule>) {
        areas = zones.filter { rules.contains($0.definition.rule) }.map { Area($0.definition.shape) }
    }

    /// Every zone counts when the fixes are shown to someone else.
    public static func hiding(_ zones: [StoredZone]) -> ZoneFilter { ZoneFilter(zones, rules: [.hide, .drop]) }
    /// Only drop zones count when fixes are stored.
    public static func dropping(_ zones: [StoredZone]) -> ZoneFilter { ZoneFilter(zones, rules: [.drop]) }

    /// Whether no zone applies (every fix passes).
    public var isEmpty: Bool { areas.isEmpty }

    /// Whether a coordinate lies inside one of the zones (its boundary included).
    /// - Complexity: O(z) rect tests for z zones, and the shape's own test (a geodesic for a
    ///   circle, O(n) for a polygon of n positions) only for a zone whose rect holds the point.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard !areas.isEmpty else { return false }
        let point = MapPoint(coordinate)
        return areas.contains { $0.contains(coordinate, at: point) }
    }

    /// Whether a map point (of the world, x in 0 ..< its width) lies inside one of the zones: the
    /// rect test first, the point turned into a coordinate only for a zone whose rect holds it.
    public func contains(_ point: MapPoint) -> Bool {
        guard areas.contains(where: { area in area.parts.contains { $0.contains(point) } }) else { return false }
        let coordinate = point.coordinate
        return areas.contains { $0.contains(coordinate, at: point) }
    }

    /// Whether a map rect (of the world) meets one of the zones' rects: when not, nothing in it is hidden.
    public func intersects(_ rect: MapRect) -> Bool {
        areas.contains { area in area.parts.contains { $0.intersects(rect) } }
    }
}
