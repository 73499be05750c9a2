import Foundation

/// The Web Mercator projection (EPSG:3857) in MapKit's units: the world is a square of
/// 2^28 map points per side with its origin at the top left (north-west), x growing east and
/// y growing south.
///
/// A 256-pixel tile at zoom level 20 covers 256 × 256 map points, so at that zoom one map
/// point is one pixel. Latitudes are clamped at ±``maximumLatitudeDegrees``, where the square
/// ends.
///
/// Source: EPSG Guidance Note 7-2, "Popular Visualisation Pseudo Mercator" (method 1024), which
/// projects WGS84 latitudes and longitudes as if they lay on a sphere of radius `a`.
public enum WebMercator {
    /// Map points per side of the world: 2^28 = 256 pixels × 2^20.
    public static let worldSizeMapPoints: Double = 268_435_456
    /// Pixels per side of a slippy-map tile.
    public static let tileSizePixels: Double = 256
    /// The zoom level at which one map point is one pixel (zoom scale 1).
    public static let unitScaleZoomLevel: Double = 20
    /// The latitude at which the square world ends, `atan(sinh(π))` ≈ 85.0511287798°, in degrees.
    public static let maximumLatitudeDegrees: Double = atan(sinh(Double.pi)) * 180 / .pi

    /// The x of a longitude, in map points: 0 at -180°, `worldSizeMapPoints` at +180°.
    /// Longitudes outside [-180, 180] give x outside the world (a neighbouring world copy).
    public static func x(longitudeDegrees: Double) -> Double {
        (longitudeDegrees + 180) / 360 * worldSizeMapPoints
    }

    /// The y of a latitude, in map points: 0 at the northern limit, `worldSizeMapPoints` at the
    /// southern one. The latitude is clamped to ±``maximumLatitudeDegrees`` first.
    public static func y(latitudeDegrees: Double) -> Double {
        // The edges are exact: asinh(tan(atan(sinh π))) is π only up to rounding.
        if latitudeDegrees >= maximumLatitudeDegrees { return 0 }
        if latitudeDegrees <= -maximumLatitudeDegrees { return worldSizeMapPoints }
        // Isometric latitude ψ = asinh(tan φ) = ln(tan φ + sec φ), which is ±π at the limit.
        let isometric = asinh(tan(latitudeDegrees * .pi / 180))
        let y = (0.5 - isometric / (2 * .pi)) * worldSizeMapPoints
        return min(max(y, 0), worldSizeMapPoints)
    }

    /// The longitude of an x in map points, in degrees, without wrapping (x outside the world
    /// gives a longitude outside [-180, 180]).
    public static func longitudeDegrees(x: Double) -> Double {
        x / worldSizeMapPoints * 360 - 180
    }

    /// The latitude of a y in map points, in degrees; y is clamped to the world first.
    public static func latitudeDegrees(y: Double) -> Double {
        let clamped = min(max(y, 0), worldSizeMapPoints)
        let isometric = (0.5 - clamped / worldSizeMapPoints) * 2 * .pi
        return atan(sinh(isometric)) * 180 / .pi
    }

    /// Ground metres covered by one map point along the parallel at a latitude (MapKit's
    /// `MKMetersPerMapPointAtLatitude`): `2πa cos φ / 2^28`, the projection's own scale on its
    /// sphere of radius `a` = ``WGS84/semiMajorAxisMeters``. The latitude is clamped to
    /// ±``maximumLatitudeDegrees``.
    public static func metersPerMapPoint(latitudeDegrees: Double) -> Double {
        let clamped = min(max(latitudeDegrees, -maximumLatitudeDegrees), maximumLatitudeDegrees)
        return 2 * .pi * WGS84.semiMajorAxisMeters * cos(clamped * .pi / 180) / worldSizeMapPoints
    }

    /// Map points per ground metre at a latitude, the inverse of ``metersPerMapPoint(latitudeDegrees:)``
    /// (MapKit's `MKMapPointsPerMeterAtLatitude`).
    public static func mapPointsPerMeter(latitudeDegrees: Double) -> Double {
        1 / metersPerMapPoint(latitudeDegrees: latitudeDegrees)
    }

    /// Moves an x by whole world widths into [0, `worldSizeMapPoints`); `worldSizeMapPoints`
    /// itself (the 180th meridian seen from the west) is kept.
    static func wrappedX(_ x: Double) -> Double {
        if x >= 0 && x <= worldSizeMapPoints { return x }
        let wrapped = x - (x / worldSizeMapPoints).rounded(.down) * worldSizeMapPoints
        return wrapped < worldSizeMapPoints ? wrapped : 0
    }
}
