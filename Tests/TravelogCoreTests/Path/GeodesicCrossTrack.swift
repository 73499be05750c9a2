import TravelogCore

/// The distance from a point to the geodesic segment between two others, measured on the WGS84
/// ellipsoid: a golden-section search along the segment for the nearest point (the distance is
/// unimodal along a segment much shorter than the Earth), each step one `Geodesic` direct and
/// one inverse problem.
enum GeodesicCrossTrack {
    static func distanceMeters(from point: Coordinate, toSegmentFrom start: Coordinate, to end: Coordinate) -> Double {
        let geodesic = Geodesic.wgs84
        let line = geodesic.inverse(from: start, to: end)
        func distance(at s: Double) -> Double {
            let along = geodesic.direct(latitude: start.latitude, longitude: start.longitude,
                                        azimuthDegrees: line.initialAzimuthDegrees, distanceMeters: s)
            return geodesic.inverse(latitude1: point.latitude, longitude1: point.longitude,
                                    latitude2: along.latitude, longitude2: along.longitude).distanceMeters
        }
        let ratio = (5.0.squareRoot() - 1) / 2
        var low = 0.0, high = line.distanceMeters
        var left = high - ratio * (high - low), right = low + ratio * (high - low)
        var leftValue = distance(at: left), rightValue = distance(at: right)
        for _ in 0..<60 where high - low > 1e-4 {
            if leftValue < rightValue {
                high = right
                right = left
                rightValue = leftValue
                left = high - ratio * (high - low)
                leftValue = distance(at: left)
            } else {
                low = left
                left = right
                leftValue = rightValue
                right = low + ratio * (high - low)
                rightValue = distance(at: right)
            }
        }
        return min(leftValue, rightValue, distance(at: 0), distance(at: line.distanceMeters))
    }

    /// The largest cross-track distance of a dropped point from the segment between the kept
    /// points around it, metres.
    static func worstDroppedDistanceMeters(_ path: [Coordinate], kept: [Int]) -> Double {
        var worst = 0.0
        for (first, last) in zip(kept, kept.dropFirst()) where last > first + 1 {
            for index in (first + 1)..<last {
                worst = max(worst, distanceMeters(from: path[index], toSegmentFrom: path[first], to: path[last]))
            }
        }
        return worst
    }
}
