import Foundation
import TravelogCore

/// The geometry the extract builder needs: rings joined from ways, and an area's centroid.
enum OSMPlaceGeometry {
    /// Joins ways (node-id lists) end to end into closed rings, reversing ways as needed; pieces that
    /// close no ring are dropped (an extract cut through a multipolygon).
    /// - Complexity: O(w²) for w ways (multipolygons have a handful).
    static func rings(_ ways: [[Int64]]) -> [[Int64]] {
        var open = ways.filter { $0.count >= 2 }
        var rings: [[Int64]] = []
        while !open.isEmpty {
            var ring = open.removeLast()
            while ring.first != ring.last {
                guard let last = ring.last, let next = open.firstIndex(where: { $0.first == last || $0.last == last }) else { break }
                let piece = open.remove(at: next)
                ring += (piece.first == last ? piece : piece.reversed()).dropFirst()
            }
            if ring.count >= 4, ring.first == ring.last { rings.append(ring) }
        }
        return rings
    }

    /// The area-weighted centroid of rings (their signed areas in a local plane, x scaled by the
    /// cosine of the first vertex's latitude); the mean of the vertices when the area is nil.
    /// Rounded to 1e-7 degree. Source: the shoelace formula (Bourke, "Calculating the area and centroid of a polygon", 1988).
    static func centroid(_ rings: [[Coordinate]]) -> Coordinate? {
        guard let origin = rings.first?.first else { return nil }
        let scale = cos(origin.latitude * .pi / 180)
        var area = 0.0, sumX = 0.0, sumY = 0.0
        var meanX = 0.0, meanY = 0.0, count = 0.0
        for ring in rings {
            // Twice the signed area with its orientation made positive, so rings add up.
            var ringArea = 0.0, ringX = 0.0, ringY = 0.0
            for (a, b) in zip(ring, ring.dropFirst()) {
                let ax = (a.longitude - origin.longitude) * scale, ay = a.latitude - origin.latitude
                let bx = (b.longitude - origin.longitude) * scale, by = b.latitude - origin.latitude
                let cross = ax * by - bx * ay
                ringArea += cross
                ringX += (ax + bx) * cross
                ringY += (ay + by) * cross
                meanX += ax
                meanY += ay
                count += 1
            }
            let sign = ringArea < 0 ? -1.0 : 1.0
            area += sign * ringArea
            sumX += sign * ringX
            sumY += sign * ringY
        }
        var (x, y) = area > 1e-18 ? (sumX / (3 * area), sumY / (3 * area)) : (meanX / max(count, 1), meanY / max(count, 1))
        // A ring that crosses itself (an outline cut by the extract's edge) can put the area-weighted
        // point outside the rings; the vertices' mean is then used, which lies within their hull.
        let points = rings.joined()
        let latitudes = points.map { $0.latitude - origin.latitude }, longitudes = points.map { ($0.longitude - origin.longitude) * scale }
        if !(latitudes.min()!...latitudes.max()!).contains(y) || !(longitudes.min()!...longitudes.max()!).contains(x) {
            (x, y) = (meanX / max(count, 1), meanY / max(count, 1))
        }
        // On OSM's grid of 1e-7 degree, as the places file stores it.
        func grid(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
        return Coordinate(validLatitude: grid(origin.latitude + y), longitude: grid(origin.longitude + x / scale))
    }
}
